"""Verify the audit log; exit non-zero naming the first bad position."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from caseflow.audit import sequencer
from caseflow.audit.heads import latest_shipped
from caseflow.audit.verify import Head, overdue, verify_chain, verify_since


class Command(BaseCommand):
    help = (
        "Sequence waiting events, then check every event's position, link and hash and the "
        "Merkle tree, against the latest signed head shipped to AUDIT_HEAD_SINK."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--head",
            metavar="POS:HASH",
            help="a chain head saved earlier with `audit_head`: detects events removed after it",
        )
        parser.add_argument(
            "--since-head",
            action="store_true",
            help="check only that the log extends the latest shipped head: O(log n) stored "
            "tree nodes plus the events after it, instead of every event",
        )
        parser.add_argument(
            "--heads-file",
            type=Path,
            help="shipped heads to check against (JSON lines; default AUDIT_HEAD_SINK), e.g. a "
            "witness's copy",
        )
        parser.add_argument(
            "--no-shipped-head",
            action="store_true",
            help="do not compare with a shipped head (a new database, a sink not yet written)",
        )

    def handle(self, *args, **options):
        saved = None
        if options["head"]:
            try:
                saved = Head.parse(options["head"])
            except ValueError as exc:
                raise CommandError(str(exc)) from exc
        late = overdue()
        if late:
            raise CommandError(
                f"{late} audit events have waited for the sequencer longer than its interval: "
                "is beat running? (`manage.py audit_tree sequence` chains them now)"
            )
        sequencer.sequence_pending()
        shipped = None if options["no_shipped_head"] else latest_shipped(options["heads_file"])
        if options["since_head"]:
            if shipped is None:
                raise CommandError("no shipped head to check against (see AUDIT_HEAD_SINK)")
            result = verify_since(shipped)
        else:
            result = verify_chain(saved, shipped=shipped)
        if not result.ok:
            where = f" at position {result.bad_seq}" if result.bad_seq else ""
            raise CommandError(
                f"audit log broken{where}: {result.problem} "
                f"({result.checked} events verified before it)"
            )
        against = (
            f"; extends the shipped head of {shipped.tree_size} events ({shipped.at})"
            if shipped is not None
            else "; no shipped head to compare with"
        )
        if result.head is None:
            self.stdout.write("audit chain is empty" + against)
        elif options["since_head"]:
            self.stdout.write(
                f"audit log ok since the shipped head: {result.checked} new events, "
                f"head {result.head}{against}"
            )
        else:
            self.stdout.write(
                f"audit chain ok: {result.checked} events, head {result.head}{against}"
            )
