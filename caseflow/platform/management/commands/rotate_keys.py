"""Rewrap every case's data key under the newest master key."""

from __future__ import annotations

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from caseflow.audit.services import record
from caseflow.cases.models import CaseKey
from caseflow.lib.encryption import DecryptionError, rewrap_data_key


class Command(BaseCommand):
    help = (
        "Rewrap every case's data key (CaseKey) under the newest master key, the first of "
        "FIELD_ENCRYPTION_KEYS. Case content is encrypted with per-case data keys, so no value "
        "needs re-encrypting: rewrapping the keys is the whole rotation. Runs in batches, each "
        "in its own transaction, in primary-key order; it can be stopped and run again (keys "
        "already under the newest master key are skipped, --after resumes from a printed pk). "
        "Once it reports nothing left, the old master key can be removed from "
        "FIELD_ENCRYPTION_KEYS."
    )

    def add_arguments(self, parser):
        parser.add_argument("--batch-size", type=int, default=500)
        parser.add_argument(
            "--after", type=int, default=0, help="Start after this CaseKey pk (resume)."
        )

    def handle(self, *args, batch_size: int, after: int, **options):
        if len(settings.FIELD_ENCRYPTION_KEYS) < 1:
            raise CommandError("FIELD_ENCRYPTION_KEYS is empty")
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1")
        newest = Fernet(settings.FIELD_ENCRYPTION_KEYS[0].encode())
        last = after
        rewrapped = skipped = 0
        while True:
            with transaction.atomic():
                batch = list(
                    CaseKey.objects.filter(pk__gt=last)
                    .order_by("pk")
                    .select_for_update()
                    .values_list("pk", "wrapped")[:batch_size]
                )
                if not batch:
                    break
                for pk, wrapped in batch:
                    try:
                        newest.decrypt(wrapped.encode())
                    except InvalidToken:
                        pass
                    else:
                        skipped += 1
                        continue
                    try:
                        new = rewrap_data_key(wrapped)
                    except DecryptionError as exc:
                        raise CommandError(
                            f"CaseKey {pk} cannot be unwrapped with any configured key; "
                            f"stopped (resume with --after {last})"
                        ) from exc
                    # Conditional: a key changed meanwhile (e.g. shredded) is left alone.
                    rewrapped += CaseKey.objects.filter(pk=pk, wrapped=wrapped).update(wrapped=new)
                last = batch[-1][0]
            self.stdout.write(f"rewrapped up to CaseKey pk {last}")
        record(
            "security.keys_rotated",
            object_type="casekey",
            detail={"rewrapped": rewrapped, "already_current": skipped, "after": after},
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"{rewrapped} data keys rewrapped, {skipped} already under the newest key."
            )
        )
