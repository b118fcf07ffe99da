# The language settings move from ``cases`` to ``accounts``: the state only. The table
# (``cases_languagesetting``) and its rows stay; ``accounts.LanguageSetting`` names it.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('cases', '0012_break_glass_outcome'),
        ('accounts', '0006_languagesetting_from_cases'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='LanguageSetting')],
            database_operations=[],
        ),
    ]
