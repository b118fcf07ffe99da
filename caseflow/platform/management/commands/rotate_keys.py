"""Rewrap every case's data key under the newest master key."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from caseflow.audit.services import record
from caseflow.cases.models import CaseKey
from caseflow.lib.key_rotation import KeyNotUnwrappable, NoMasterKey, rewrap_keys


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
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1")
        try:
            rotation = rewrap_keys(
                CaseKey.objects.all(),
                "wrapped",
                after=after,
                batch_size=batch_size,
                done_up_to=lambda last: self.stdout.write(f"rewrapped up to CaseKey pk {last}"),
            )
        except NoMasterKey as exc:
            raise CommandError("FIELD_ENCRYPTION_KEYS is empty") from exc
        except KeyNotUnwrappable as exc:
            raise CommandError(
                f"CaseKey {exc.pk} cannot be unwrapped with any configured key; "
                f"stopped (resume with --after {exc.resume_after})"
            ) from exc
        record(
            "security.keys_rotated",
            object_type="casekey",
            detail={
                "rewrapped": rotation.rewrapped,
                "already_current": rotation.already_current,
                "after": after,
            },
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"{rotation.rewrapped} data keys rewrapped, {rotation.already_current} already "
                "under the newest key."
            )
        )
