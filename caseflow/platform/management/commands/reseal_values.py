"""Seal again, in the current envelope, every value still sealed in the first."""

from __future__ import annotations

from django.apps import apps
from django.core.management.base import BaseCommand, CommandError

from caseflow.audit.services import record
from caseflow.lib.key_rotation import reseal_rows


class Command(BaseCommand):
    help = (
        "Seal again with AES-GCM, under the same data keys, every encrypted value still sealed "
        "as a Fernet token (written before the envelope changed). Reading them needs nothing: "
        "old tokens still open. What this gives is speed (a funder report opens every served "
        "person's answers) and one envelope. Values keep their meaning and their rows' times. "
        "Runs in batches, each in its own transaction with its rows locked; it can be stopped "
        "and run again (a value already resealed is skipped). Values whose case key was "
        "destroyed are left as they are. Run rotate_keys too, for the keys themselves."
    )

    def add_arguments(self, parser):
        parser.add_argument("--batch-size", type=int, default=500)

    def handle(self, *args, batch_size: int, **options):
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1")
        resealed = unreadable = 0
        for model in apps.get_models():
            done = reseal_rows(model, batch_size=batch_size)
            if done.resealed or done.unreadable:
                self.stdout.write(
                    f"{model._meta.label}: {done.resealed} resealed, {done.unreadable} left"
                )
            resealed += done.resealed
            unreadable += done.unreadable
        record(
            "security.values_resealed",
            object_type="casekey",
            detail={"resealed": resealed, "left": unreadable},
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"{resealed} values sealed again, {unreadable} left as they were "
                "(no key opens them)."
            )
        )
