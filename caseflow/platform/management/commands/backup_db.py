"""Back up the database: a dump and its manifest (which keys it needs, kept elsewhere)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from caseflow.platform.backup import KEEP_APART, BackupError, backup


class Command(BaseCommand):
    help = (
        "Write a dump of the database (pg_dump custom format; SQLite: a consistent copy) and a "
        "manifest beside it naming the keys needed to read it. The keys are not written."
    )

    def add_arguments(self, parser):
        parser.add_argument("out_dir", help="folder to write the dump and its manifest to")

    def handle(self, *args, **options):
        try:
            done = backup(Path(options["out_dir"]))
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"dump: {done.dump}\nmanifest: {done.manifest}\n\n{KEEP_APART}")
