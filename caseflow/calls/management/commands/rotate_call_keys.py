"""Rewrap the data key of every call that is on no case under the newest master key."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from caseflow.audit.services import record
from caseflow.calls.models import Call
from caseflow.lib.key_rotation import KeyNotUnwrappable, NoMasterKey, rewrap_keys


class Command(BaseCommand):
    help = (
        "Rewrap the data key of every call on no case (Call.wrapped_key) under the newest master "
        "key, as rotate_keys does for the cases' keys (a call on a case uses the case's key). "
        "Run both before an old master key is removed from FIELD_ENCRYPTION_KEYS. Batches in "
        "primary-key order, each in its own transaction; it can be stopped and run again."
    )

    def add_arguments(self, parser):
        parser.add_argument("--batch-size", type=int, default=500)

    def handle(self, *args, batch_size: int, **options):
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1")
        try:
            rotation = rewrap_keys(
                Call.objects.exclude(wrapped_key=""), "wrapped_key", batch_size=batch_size
            )
        except NoMasterKey as exc:
            raise CommandError("FIELD_ENCRYPTION_KEYS is empty") from exc
        except KeyNotUnwrappable as exc:
            raise CommandError(
                f"the key of call {exc.pk} cannot be unwrapped with any configured key"
            ) from exc
        record(
            "security.keys_rotated",
            object_type="call",
            detail={"rewrapped": rotation.rewrapped, "already_current": rotation.already_current},
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"{rotation.rewrapped} call keys rewrapped, {rotation.already_current} already "
                "under the newest key."
            )
        )
