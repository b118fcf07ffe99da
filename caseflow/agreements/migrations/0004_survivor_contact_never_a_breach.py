"""The survivor's own contact is never a breach: re-label the contact events from the survivor.

Each event from the survivor becomes "outside the agreed terms — from the survivor" when it was
recorded as a breach or the checker found a term not kept, and "from the survivor, within the
agreed terms" otherwise; none stays awaiting a breach review. Breach rows recorded earlier for
such contact are kept (nothing is lost) but no longer count anywhere:
``caseflow.agreements.breaches.counted_breaches`` leaves them out.
"""

from django.db import migrations, models

from caseflow.lib.encryption import unwrap_data_key

FROM_SURVIVOR = "from_survivor"


def relabel(apps, schema_editor):
    ContactEvent = apps.get_model("agreements", "ContactEvent")
    CaseKey = apps.get_model("cases", "CaseKey")
    rows = ContactEvent.objects.filter(direction=FROM_SURVIVOR).exclude(
        review__in=["survivor_within", "survivor_outside"]
    )
    keys: dict[int, object] = {}
    outside, within = [], []
    for row in rows.only("pk", "case_id", "review", "proposed"):
        if row.review == "breach":
            outside.append(row.pk)
            continue
        if row.case_id not in keys:
            wrapped = CaseKey.objects.filter(case_id=row.case_id).values_list("wrapped", flat=True)
            keys[row.case_id] = unwrap_data_key(wrapped[0]) if wrapped else None
        key = keys[row.case_id]
        if key is None:
            # A purged case: its text cannot be read; anything not clear is kept neutral.
            outside.append(row.pk)
            continue
        row.data_key = lambda key=key: key
        (outside if row.proposed else within).append(row.pk)
    ContactEvent.objects.filter(pk__in=outside).update(review="survivor_outside")
    ContactEvent.objects.filter(pk__in=within).update(review="survivor_within")


def unlabel(apps, schema_editor):
    ContactEvent = apps.get_model("agreements", "ContactEvent")
    ContactEvent.objects.filter(review__in=["survivor_within", "survivor_outside"]).update(
        review="no_breach"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("agreements", "0003_agency_required"),
        ("cases", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="contactevent",
            name="review",
            field=models.CharField(
                choices=[
                    ("pending", "Awaiting review"),
                    ("no_breach", "No breach"),
                    ("breach", "Breach recorded"),
                    ("survivor_within", "From the survivor, within the agreed terms"),
                    ("survivor_outside", "Outside the agreed terms — from the survivor"),
                ],
                default="pending",
                max_length=20,
            ),
        ),
        migrations.RunPython(relabel, unlabel),
    ]
