import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """The agency filled in by the previous migration becomes required (a separate migration:
    PostgreSQL does not alter a table with updates pending in the same transaction)."""

    dependencies = [
        ("cases", "0007_agency_carried"),
    ]

    operations = [
        migrations.AlterField(
            model_name="breakglassgrant",
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
            model_name="caseassignment",
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
            model_name="casechange",
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
            model_name="casekey",
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
            model_name="draft",
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
            model_name="party",
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
            model_name="safecontactprofile",
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
