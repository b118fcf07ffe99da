"""Import a caseload file for an agency, as its admin does on the import page.

    manage.py import_caseload FILE --admin USERNAME            # the dry run: nothing written
    manage.py import_caseload FILE --admin USERNAME --commit   # then import, all-or-nothing

The file's headings are mapped as on the page (the agency's saved mapping, else the template's
names). The report names rows and columns only, never a value.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.imports import reader, services


class Command(BaseCommand):
    help = "Check (and with --commit, import) a caseload file for an agency."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")
        parser.add_argument("--admin", required=True, help="The agency admin the import is for.")
        parser.add_argument("--commit", action="store_true", help="Import, not only check.")

    def handle(self, *args, file: str, admin: str, commit: bool, **options) -> None:
        actor = User.objects.filter(username=admin, is_active=True).first()
        if actor is None or not policy.is_agency_admin(actor):
            raise CommandError("--admin must name an active agency admin.")
        path = Path(file)
        if not path.is_file():
            raise CommandError("No such file.")
        try:
            batch = services.batch_upload(actor=actor, name=path.name, data=path.read_bytes())
        except reader.FileRefused as exc:
            raise CommandError(str(exc)) from None
        checked = services.batch_check(actor=actor, batch=batch, mapping=batch.mapping)
        for problem in checked.problems:
            self.stdout.write(f"row {problem.row}, {problem.column}: {problem.message}")
        for row, kind in checked.flags:
            self.stdout.write(f"row {row}: flagged for review ({kind})")
        counts = checked.counts()
        self.stdout.write(
            "rows {rows}, ready {valid}, to correct {errors}, new {new}, updates {update}, "
            "flagged {flagged}".format(**counts)
        )
        if checked.problems:
            raise CommandError("Nothing imported: correct the rows above and run it again.")
        if not commit:
            self.stdout.write("Dry run: nothing written. Add --commit to import.")
            return
        done = services.batch_commit(actor=actor, batch_id=batch.pk)
        self.stdout.write(f"Imported: {done['created']} new, {done['updated']} updated.")
