import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """The agency filled in by the previous migration becomes required (a separate migration:
    PostgreSQL does not alter a table with updates pending in the same transaction)."""

    dependencies = [
        ("checkins", "0005_agency_carried"),
    ]

    operations = [
        migrations.AlterField(
            model_name="checkin",
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
            model_name="checkinschedule",
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
