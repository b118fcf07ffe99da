"""Propose the purges that the agencies' retention schedules make due (also a beat task)."""

from django.core.management.base import BaseCommand

from caseflow.confidentiality.services import purge_propose_due


class Command(BaseCommand):
    help = "Propose due purges (idempotent); each still needs approval before it is carried out."

    def handle(self, *args, **options):
        created = purge_propose_due()
        self.stdout.write(f"proposed {len(created)} purge(s)")
