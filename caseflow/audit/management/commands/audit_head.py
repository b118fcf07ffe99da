"""Print the audit chain's head, to be kept outside the database."""

from django.core.management.base import BaseCommand, CommandError

from caseflow.audit import sequencer
from caseflow.audit.verify import current_head


class Command(BaseCommand):
    help = "Print the current head of the audit chain: POS:HASH and its UTC time."

    def handle(self, *args, **options):
        sequencer.sequence_pending()
        found = current_head()
        if found is None:
            raise CommandError("the audit chain is empty")
        head, at = found
        self.stdout.write(f"{head} {at.isoformat()}")
