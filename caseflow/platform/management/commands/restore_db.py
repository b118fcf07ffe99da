"""Restore a dump made by ``backup_db`` into an empty database, then verify the audit chain."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from caseflow.audit.verify import Head, verify_chain
from caseflow.platform.backup import BackupError, restore


class Command(BaseCommand):
    help = (
        "Restore a backup_db dump into the configured database, which must be empty, with the "
        "keys its manifest names in force; then verify the audit chain up to the backup's head."
    )

    def add_arguments(self, parser):
        parser.add_argument("dump", help="the dump file (its manifest must be beside it)")

    def handle(self, *args, **options):
        try:
            manifest = restore(Path(options["dump"]))
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        saved = Head.parse(manifest["audit_head"]) if manifest.get("audit_head") else None
        result = verify_chain(saved)
        if not result.ok:
            raise CommandError(
                f"restored, but the audit chain is broken at sequence {result.bad_seq}: "
                f"{result.problem}"
            )
        self.stdout.write(
            f"restored {manifest['dump']} (taken {manifest['created_at']}); "
            f"audit chain ok: {result.checked} events"
        )
