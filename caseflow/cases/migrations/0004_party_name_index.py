"""The blind index of each person's name, for finding a case by name.

Existing rows are indexed here: each name is decrypted with its case's data key (cases whose key
was destroyed by a purge stay unindexed, as they stay unreadable) and only the keyed index is
written back."""

from django.db import migrations, models


def index_names(apps, schema_editor):
    from caseflow.cases.models import name_index_for
    from caseflow.lib.encryption import unwrap_data_key

    Party = apps.get_model("cases", "Party")
    CaseKey = apps.get_model("cases", "CaseKey")
    keys = {}
    for party in Party.objects.filter(name_index="").iterator():
        sealed = party.__dict__.get("full_name")
        token = getattr(sealed, "token", None)
        if token is None:
            continue
        if party.case_id not in keys:
            wrapped = (
                CaseKey.objects.filter(case_id=party.case_id)
                .values_list("wrapped", flat=True)
                .first()
            )
            keys[party.case_id] = unwrap_data_key(wrapped) if wrapped else None
        key = keys[party.case_id]
        if key is None:
            continue
        name = key.decrypt(token.encode()).decode()
        Party.objects.filter(pk=party.pk).update(name_index=name_index_for(name))


class Migration(migrations.Migration):
    dependencies = [("cases", "0003_field_settings_from_confidentiality")]

    operations = [
        migrations.AddField(
            model_name="party",
            name="name_index",
            field=models.CharField(blank=True, db_index=True, max_length=64),
        ),
        migrations.RunPython(index_names, migrations.RunPython.noop),
    ]
