"""Tamper evidence of the full scan: every edit, deletion, reordering, insertion or truncation
is found (the chain fixture's events are at positions 1..8)."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction

from caseflow.audit.chain import event_hash
from caseflow.audit.models import AuditEvent
from caseflow.audit.services import record
from caseflow.audit.verify import Head, verify_chain
from tests.audit.conftest import raw_cursor


def verify(*args: str) -> str:
    out = io.StringIO()
    call_command("verify_audit", *args, stdout=out)
    return out.getvalue()


def fails_at(seq: int, *args: str) -> str:
    with pytest.raises(CommandError) as info:
        verify(*args)
    message = str(info.value)
    assert f"broken at position {seq}:" in message
    return message


def test_an_untouched_chain_verifies(chain):
    assert "audit chain ok: 8 events, head 8:" in verify()


def test_an_empty_chain_verifies(db):
    assert "empty" in verify()


def test_verification_streams_in_batches(chain):
    result = verify_chain(batch=3)
    assert result.ok and result.checked == 8


def test_changing_one_field_of_one_row_is_found(chain):
    with raw_cursor() as cur:
        cur.execute("UPDATE audit_auditevent SET action = %s WHERE pos = 5", ["case.view"])
    assert "changed" in fails_at(5)


def test_changing_the_detail_of_one_row_is_found(chain):
    with raw_cursor() as cur:
        cur.execute("UPDATE audit_auditevent SET actor_role = %s WHERE pos = 3", ["auditor"])
    fails_at(3)


def test_deleting_one_row_is_found(chain):
    with raw_cursor() as cur:
        cur.execute("DELETE FROM audit_auditevent WHERE pos = 4")
    assert "missing" in fails_at(4)


def test_deleting_the_first_row_is_found(chain):
    with raw_cursor() as cur:
        cur.execute("DELETE FROM audit_auditevent WHERE pos = 1")
    fails_at(1)


def test_swapping_two_rows_is_found(chain):
    with raw_cursor() as cur:
        cur.execute("UPDATE audit_auditevent SET pos = -1 WHERE pos = 3")
        cur.execute("UPDATE audit_auditevent SET pos = 3 WHERE pos = 6")
        cur.execute("UPDATE audit_auditevent SET pos = 6 WHERE pos = -1")
    fails_at(3)


def _make_room_at(cur, pos: int) -> None:
    # Two steps, so that the unique position never collides half-way through.
    cur.execute("UPDATE audit_auditevent SET pos = pos + 1000000 WHERE pos >= %s", [pos])
    cur.execute("UPDATE audit_auditevent SET pos = pos - 999999 WHERE pos >= 1000000")


def _insert(cur, event: AuditEvent) -> None:
    cur.execute(
        "INSERT INTO audit_auditevent (seq, pos, at, actor_id, actor_role, agency_id, case_id,"
        " action, object_type, object_id, request_id, ip, detail, prev_hash, hash)"
        " VALUES (%s, %s, %s, NULL, '', NULL, NULL, %s, '', '', '', '', %s, %s, %s)",
        [event.seq, event.pos, event.at, event.action, '{"n": 99}', event.prev_hash, event.hash],
    )


def test_inserting_a_row_is_found(chain):
    forged = AuditEvent(seq=400, pos=4, at=chain[3].at, action="test.forged")
    forged.prev_hash, forged.hash = chain[2].hash, chain[3].hash  # copied from a neighbour
    with raw_cursor() as cur:
        _make_room_at(cur, 4)
        _insert(cur, forged)
    fails_at(4)


def test_inserting_a_correctly_hashed_row_breaks_the_next_link(chain):
    """Someone who knows the algorithm can hash a forged row, but not re-link the rows after it
    without rewriting the rest of the chain (which the saved head then exposes)."""
    forged = AuditEvent(seq=400, pos=4, at=chain[3].at, action="test.forged")
    row = {
        "seq": 400,
        "at": forged.at,
        "actor_id": None,
        "actor_role": "",
        "agency_id": None,
        "case_id": None,
        "action": "test.forged",
        "object_type": "",
        "object_id": "",
        "request_id": "",
        "ip": "",
        "detail": {"n": 99},
    }
    forged.prev_hash, forged.hash = chain[2].hash, event_hash(chain[2].hash, row)
    with raw_cursor() as cur:
        _make_room_at(cur, 4)
        _insert(cur, forged)
    assert "does not link" in fails_at(5)


def test_truncation_after_a_saved_head_is_found(chain):
    out = io.StringIO()
    call_command("audit_head", stdout=out)
    saved = out.getvalue().split()[0]
    assert saved.startswith("8:")
    assert "ok" in verify("--head", saved)
    with raw_cursor() as cur:
        cur.execute("DELETE FROM audit_auditevent WHERE pos >= 7")
    # The tree still holds the removed events' leaves; with the tree's rows gone too, the saved
    # head (or the shipped head, tests/audit/test_heads.py) is what finds it.
    assert "the tree holds 8 events, the chain 6" in fails_at(7)
    result = verify_chain(Head.parse(saved), check_tree=False)
    assert not result.ok and "before the saved head 8" in result.problem


def test_a_saved_head_that_does_not_match_is_found(chain):
    with pytest.raises(CommandError, match="broken at position 8"):
        verify("--head", "8:" + "a" * 64)


def test_a_malformed_head_is_refused(chain):
    with pytest.raises(CommandError, match="POS:HASH"):
        verify("--head", "eight")


def test_audit_head_prints_sequence_hash_and_time(chain):
    out = io.StringIO()
    call_command("audit_head", stdout=out)
    head, at = out.getvalue().split()
    assert head == f"8:{chain[-1].hash}"
    assert at.startswith(str(chain[-1].at.year))


def test_later_events_still_verify_after_a_saved_head(chain):
    out = io.StringIO()
    call_command("audit_head", stdout=out)
    saved = out.getvalue().split()[0]
    record("checkin.missed", detail={"n": 100})
    assert "9 events" in verify("--head", saved)


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the append-only trigger is PostgreSQL's; SQLite has no equivalent to test",
)
@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE audit_auditevent SET action = 'x' WHERE pos = 1",
        "UPDATE audit_auditevent SET pos = 99 WHERE pos = 1",
        "UPDATE audit_auditevent SET hash = repeat('a', 64) WHERE pos = 1",
        "DELETE FROM audit_auditevent WHERE pos = 1",
        "TRUNCATE audit_auditevent",
    ],
)
def test_the_postgresql_trigger_refuses_changes(chain, statement):
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cur,
    ):
        cur.execute(statement)
    assert AuditEvent.objects.count() == 8
