import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """The agency filled in by the previous migration becomes required (a separate migration:
    PostgreSQL does not alter a table with updates pending in the same transaction)."""

    dependencies = [
        ("confidentiality", "0006_agency_carried"),
    ]

    operations = [
        migrations.AlterField(
            model_name="casepurge",
            name="agency",
            field=models.ForeignKey(
                db_index=False,
                editable=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="accounts.agency",
            ),
        ),
        migrations.AlterField(
            model_name="compelledorder",
            name="agency",
            field=models.ForeignKey(
                db_index=False,
                editable=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="accounts.agency",
            ),
        ),
        migrations.AlterField(
            model_name="disclosure",
            name="agency",
            field=models.ForeignKey(
                db_index=False,
                editable=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="accounts.agency",
            ),
        ),
        migrations.AlterField(
            model_name="legalhold",
            name="agency",
            field=models.ForeignKey(
                db_index=False,
                editable=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="accounts.agency",
            ),
        ),
        migrations.AlterField(
            model_name="release",
            name="agency",
            field=models.ForeignKey(
                db_index=False,
                editable=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="accounts.agency",
            ),
        ),
    ]
