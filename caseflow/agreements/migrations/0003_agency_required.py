import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """The agency filled in by the previous migration becomes required (a separate migration:
    PostgreSQL does not alter a table with updates pending in the same transaction)."""

    dependencies = [
        ("agreements", "0002_agency_carried"),
    ]

    operations = [
        migrations.AlterField(
            model_name="agreementversion",
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
            model_name="breach",
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
            model_name="contactagreement",
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
            model_name="contactevent",
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
            model_name="escalationfiring",
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
            model_name="evidence",
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
