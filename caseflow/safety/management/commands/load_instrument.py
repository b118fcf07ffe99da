"""Load a risk-assessment instrument file (YAML or JSON) into the database.

    manage.py load_instrument PATH [--agency SLUG] [--threshold high=12 ...]

Without ``--agency`` the instrument is shared by every agency of the deployment; with it, it is
that agency's own import (e.g. a licensed instrument held under the agency's licence), optionally
with its own band thresholds. Every problem in the file is reported, and then nothing is saved.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from caseflow.accounts.models import Agency
from caseflow.safety import instruments as engine
from caseflow.safety.services import instrument_import


def _threshold(text: str) -> tuple[str, float | int]:
    band, sep, value = text.partition("=")
    if not sep or not band.strip():
        raise CommandError(f'--threshold "{text}": expected BAND=NUMBER, e.g. high=12')
    try:
        number = float(value)
    except ValueError:
        raise CommandError(f'--threshold "{text}": "{value}" is not a number') from None
    return band.strip(), int(number) if number.is_integer() else number


class Command(BaseCommand):
    help = "Load a risk-assessment instrument file, shared or for one agency."

    def add_arguments(self, parser):
        parser.add_argument("path", help="the instrument file (.yaml, .yml or .json)")
        parser.add_argument("--agency", help="slug of the agency importing it under its licence")
        parser.add_argument(
            "--threshold",
            action="append",
            default=[],
            metavar="BAND=NUMBER",
            help="the agency's own minimum score for a band (repeatable), e.g. high=12",
        )

    def handle(self, *args, path: str, agency: str | None, threshold: list[str], **options):
        thresholds = dict(_threshold(t) for t in threshold)
        if thresholds and not agency:
            raise CommandError("--threshold needs --agency: thresholds are an agency's own choice")
        owner = None
        if agency:
            owner = Agency.objects.filter(slug=agency).first()
            if owner is None:
                raise CommandError(f'no agency with the slug "{agency}"')
        file = Path(path)
        if not file.is_file():
            raise CommandError(f"{path}: no such file")
        try:
            instrument = engine.load_instrument(file)
            row, created = instrument_import(
                definition=instrument.to_dict(), agency=owner, thresholds=thresholds
            )
        except engine.InstrumentError as exc:
            self.stderr.write(f"{path}: {len(exc.problems)} problem(s), nothing was saved:")
            for problem in exc.problems:
                self.stderr.write(f"  - {problem}")
            raise CommandError(f"{path} is not a valid instrument") from exc
        whose = f"agency {owner.slug}" if owner else "all agencies"
        verb = "Loaded" if created else "Replaced"
        self.stdout.write(f'{verb} "{row.name}" ({row.slug} version {row.version}) for {whose}.')
