import caseflow.lib.encryption
from django.db import migrations


class Migration(migrations.Migration):
    """The census's ethnic groups: NULL (not asked) on the rows already written, whose
    ciphertext cannot be written by a default; new rows default to "not asked"."""

    dependencies = [
        ("partners", "0002_demographics_all_answers"),
    ]

    operations = [
        migrations.AddField(
            model_name="demographics",
            name="ethnic_group",
            field=caseflow.lib.encryption.EncryptedTextField(null=True),
        ),
        migrations.AlterField(
            model_name="demographics",
            name="ethnic_group",
            field=caseflow.lib.encryption.EncryptedTextField(default="not_asked", null=True),
        ),
    ]
