"""Rewrap the data key of every call that is on no case under the newest master key."""

from __future__ import annotations

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from caseflow.audit.services import record
from caseflow.calls.models import Call
from caseflow.lib.encryption import DecryptionError, rewrap_data_key


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
        if not settings.FIELD_ENCRYPTION_KEYS:
            raise CommandError("FIELD_ENCRYPTION_KEYS is empty")
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1")
        newest = Fernet(settings.FIELD_ENCRYPTION_KEYS[0].encode())
        last = 0
        rewrapped = skipped = 0
        while True:
            with transaction.atomic():
                batch = list(
                    Call.objects.filter(pk__gt=last)
                    .exclude(wrapped_key="")
                    .order_by("pk")
                    .select_for_update()
                    .values_list("pk", "wrapped_key")[:batch_size]
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
                            f"the key of call {pk} cannot be unwrapped with any configured key"
                        ) from exc
                    # Conditional: a call taken on or shredded meanwhile is left alone.
                    rewrapped += Call.objects.filter(pk=pk, wrapped_key=wrapped).update(
                        wrapped_key=new
                    )
                last = batch[-1][0]
        record(
            "security.keys_rotated",
            object_type="call",
            detail={"rewrapped": rewrapped, "already_current": skipped},
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"{rewrapped} call keys rewrapped, {skipped} already under the newest key."
            )
        )
