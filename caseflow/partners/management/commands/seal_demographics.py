"""Write every survivor's demographic answers again into the one token funders' reports read."""

from django.core.management.base import BaseCommand
from django.db import transaction

from caseflow.cases.models import CaseKey
from caseflow.lib.encryption import unwrap_data_key
from caseflow.partners.models import Demographics

CHUNK = 1000


class Command(BaseCommand):
    help = (
        "Write each survivor's demographic answers again into Demographics.all_answers (one "
        "token, what funders' reports read), from the answers themselves; with --missing, only "
        "the rows that have none yet. Answers whose case key was destroyed are left as they are."
    )

    def add_arguments(self, parser):
        parser.add_argument("--missing", action="store_true", help="only rows without one yet")

    def handle(self, *args, **options):
        rows = Demographics.objects.filter(case__key__isnull=False)
        if options["missing"]:
            rows = rows.filter(all_answers__isnull=True)
        pks = list(rows.order_by("pk").values_list("pk", flat=True))
        for start in range(0, len(pks), CHUNK):
            with transaction.atomic():
                chunk = list(
                    Demographics.objects.select_for_update(of=("self",))
                    .filter(pk__in=pks[start : start + CHUNK])
                    .select_related("case")
                )
                keys = dict(
                    CaseKey.objects.filter(case_id__in={r.case_id for r in chunk}).values_list(
                        "case_id", "wrapped"
                    )
                )
                unwrapped = {case_id: unwrap_data_key(w) for case_id, w in keys.items()}
                for row in chunk:
                    if row.case_id not in unwrapped:
                        continue  # its case was purged meanwhile
                    row.case.__dict__["_data_key"] = unwrapped[row.case_id]
                    row.seal_answers()
                    # Not a change of the answers: neither their version nor their time moves.
                    row.save(update_fields=["all_answers"])
        self.stdout.write(f"{len(pks)} rows sealed")
