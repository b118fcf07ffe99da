"""Events are written without a lock and chained by the sequencer: shown at once, chained
exactly once, never chained when their request rolled back, the one allowed update."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from caseflow.audit import merkle, sequencer
from caseflow.audit.models import AuditEvent, AuditTreeNode
from caseflow.audit.services import record
from caseflow.oversight.selectors import case_reads, who_accessed


def test_an_event_is_written_without_a_place_and_chained_by_the_sequencer(db):
    event = record("checkin.missed", detail={"n": 1})
    event.refresh_from_db()
    assert event.pos is None and event.hash == "" and event.prev_hash == ""
    assert sequencer.sequence_pending() == 1
    event.refresh_from_db()
    assert event.pos == 1 and len(event.hash) == 64
    assert AuditTreeNode.objects.filter(level=0).count() == 1
    # Running again changes nothing.
    assert sequencer.sequence_pending() == 0


def test_events_are_chained_in_batches_and_the_tree_covers_them_all(db):
    for n in range(23):
        record("checkin.missed", detail={"n": n})
    assert sequencer.sequence_pending(batch=5) == 23
    positions = list(AuditEvent.objects.order_by("pos").values_list("pos", flat=True))
    assert positions == list(range(1, 24))
    assert sequencer.tree_size() == 23
    leaves = [
        merkle.leaf_hash(bytes.fromhex(h))
        for h in AuditEvent.objects.order_by("pos").values_list("hash", flat=True)
    ]
    frontier = merkle.Frontier()
    for leaf in leaves:
        frontier.push(leaf)
    assert merkle.root(23, sequencer.nodes) == frontier.root()


def test_a_rolled_back_request_leaves_no_event(db):
    with pytest.raises(RuntimeError), transaction.atomic():
        record("checkin.missed")
        raise RuntimeError("the request failed after recording")
    assert not AuditEvent.objects.exists()
    assert sequencer.sequence_pending() == 0


def test_who_accessed_a_case_shows_an_unsequenced_read_at_once(cast):
    record("case.view", actor=cast.assigned, case=cast.case)
    assert AuditEvent.objects.filter(case_id=cast.case.pk, pos__isnull=True).exists()
    people = who_accessed(case_reads(AuditEvent.objects.all(), cast.case))
    assert [(p["actor"], p["reads"]) for p in people] == [(cast.assigned, 1)]


def test_the_reads_bookkeeping_still_knows_the_request_recorded_its_read(cast):
    from caseflow.audit.services import case_read_recorded
    from caseflow.lib.request_context import serving

    with serving(request_id="r1"):
        assert not case_read_recorded(cast.case)
        record("case.view", actor=cast.assigned, case=cast.case)
        assert case_read_recorded(cast.case)
    # The next request starts with none.
    with serving(request_id="r2"):
        assert not case_read_recorded(cast.case)


def test_audit_tree_commands_print_verified_proofs(db):
    for n in range(11):
        record("checkin.missed", detail={"n": n})
    out = io.StringIO()
    call_command("audit_tree", "inclusion", "7", stdout=out)
    assert '"verified": true' in out.getvalue()
    out = io.StringIO()
    call_command("audit_tree", "consistency", "5", "11", stdout=out)
    assert '"verified": true' in out.getvalue()
    out = io.StringIO()
    call_command("audit_tree", "key", stdout=out)
    assert '"ed25519"' in out.getvalue()


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the append-only trigger is PostgreSQL's; SQLite has no equivalent to test",
)
@pytest.mark.parametrize(
    "statement",
    [
        # Placing an event and changing it at once.
        "UPDATE audit_auditevent SET pos = 1, prev_hash = repeat('0', 64),"
        " hash = repeat('a', 64), action = 'x'",
        # Placing it without its hashes.
        "UPDATE audit_auditevent SET pos = 1",
        "UPDATE audit_audittreenode SET hash = repeat('a', 64)",
        "DELETE FROM audit_audittreenode",
        "TRUNCATE audit_audittreenode",
    ],
)
def test_the_postgresql_trigger_allows_only_the_sequencers_one_update(db, statement):
    record("checkin.missed")
    record("checkin.missed")
    sequencer.sequence_pending()
    record("checkin.missed")
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cur,
    ):
        cur.execute(statement + (" WHERE pos IS NULL" if "auditevent" in statement else ""))
    assert sequencer.sequence_pending() == 1
