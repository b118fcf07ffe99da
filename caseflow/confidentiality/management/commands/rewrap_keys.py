"""Rewrap every case data key under the newest master key (FIELD_ENCRYPTION_KEYS[0])."""

from django.core.management.base import BaseCommand, CommandError

from caseflow.confidentiality.services import case_keys_rewrap
from caseflow.lib.encryption import DecryptionError


class Command(BaseCommand):
    help = (
        "Rewrap every case data key under the newest master key, in batches by primary key. "
        "Resumable (--after) and idempotent. Run it after putting a new key first in "
        "FIELD_ENCRYPTION_KEYS; then the old key can be retired."
    )

    def add_arguments(self, parser):
        parser.add_argument("--batch-size", type=int, default=500)
        parser.add_argument("--after", type=int, default=0, help="resume after this CaseKey id")

    def handle(self, *args, batch_size: int, after: int, **options):
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1")
        try:
            totals = case_keys_rewrap(batch_size=batch_size, after_pk=after)
        except DecryptionError as exc:
            raise CommandError(
                "A data key cannot be unwrapped with the configured master keys: keep the old "
                "key in FIELD_ENCRYPTION_KEYS until every key is rewrapped. Keys before the "
                "failing batch were rewrapped; rerun to resume."
            ) from exc
        self.stdout.write(
            f"rewrapped {totals['rewrapped']}, already current {totals['skipped']}, "
            f"last key id {totals['last_pk']}"
        )
