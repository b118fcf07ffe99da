"""Verify the audit chain; exit non-zero naming the first bad sequence number."""

from django.core.management.base import BaseCommand, CommandError

from caseflow.audit.verify import Head, verify_chain


class Command(BaseCommand):
    help = "Check every audit event's sequence, link and hash; optionally against a saved head."

    def add_arguments(self, parser):
        parser.add_argument(
            "--head",
            metavar="SEQ:HASH",
            help="a head saved earlier with `audit_head`: detects events removed after it",
        )

    def handle(self, *args, **options):
        saved = None
        if options["head"]:
            try:
                saved = Head.parse(options["head"])
            except ValueError as exc:
                raise CommandError(str(exc)) from exc
        result = verify_chain(saved)
        if not result.ok:
            raise CommandError(
                f"audit chain broken at sequence {result.bad_seq}: {result.problem} "
                f"({result.checked} events verified before it)"
            )
        if result.head is None:
            self.stdout.write("audit chain is empty")
        else:
            self.stdout.write(f"audit chain ok: {result.checked} events, head {result.head}")
