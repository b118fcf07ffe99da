"""Signed tree heads shipped outside the database: someone with write access to the database who
edits, removes, swaps or cuts events, or rewrites the whole log with every hash and tree node
recomputed, fails against the latest shipped head, by the full scan and by ``--since-head``."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from caseflow.audit import heads, merkle, sequencer
from caseflow.audit.chain import FIELDS, GENESIS, event_hash
from caseflow.audit.models import AuditEvent, AuditTreeHead
from caseflow.audit.services import record
from tests.audit.conftest import raw_cursor


def verify(*args: str) -> str:
    out = io.StringIO()
    call_command("verify_audit", *args, stdout=out)
    return out.getvalue()


def refused(*args: str) -> str:
    with pytest.raises(CommandError) as info:
        verify(*args)
    return str(info.value)


@pytest.fixture
def shipped(chain):
    """The chain's eight events under a published head, then four more events after it."""
    head = heads.publish_head()
    assert head is not None and head.tree_size == 8
    for n in range(4):
        record("checkin.missed", detail={"n": 100 + n})
    sequencer.sequence_pending()
    return head


def test_a_published_head_is_signed_stored_and_shipped_as_a_json_line(chain, settings):
    head = heads.publish_head()
    assert head is not None
    line = settings.AUDIT_HEAD_SINK.read_text().splitlines()[-1]
    assert json.loads(line)["tree_size"] == 8
    assert heads.latest_shipped() == head
    assert head.signed_by(heads.public_key())
    stored = AuditTreeHead.objects.get()
    assert (stored.tree_size, stored.root_hash) == (8, head.root_hash)
    assert head.root == merkle.root(8, sequencer.nodes)
    # Nothing new: no second head.
    assert heads.publish_head() is None


def test_the_beat_task_publishes_and_export_prints_every_head(chain):
    from caseflow.audit.tasks import publish_head

    assert publish_head() == 8
    record("checkin.missed")
    assert publish_head() == 9
    out = io.StringIO()
    call_command("audit_tree", "export", stdout=out)
    sizes = [json.loads(line)["tree_size"] for line in out.getvalue().splitlines()]
    assert sizes == [8, 9]


def test_a_head_signed_with_another_key_is_refused(chain, settings):
    head = heads.publish_head()
    settings.AUDIT_SIGNING_KEY = settings.AUDIT_DEV_SIGNING_KEY.replace("Y", "Z", 1)
    assert not head.signed_by(heads.public_key())
    assert "signature is not valid" in refused()
    assert "signature is not valid" in refused("--since-head")


def test_an_untouched_log_verifies_against_the_shipped_head(shipped):
    assert "audit chain ok: 12 events" in verify()
    out = verify("--since-head")
    assert "4 new events" in out and "shipped head of 8 events" in out


def _edit(pos: int, action: str = "case.view") -> None:
    with raw_cursor() as cur:
        cur.execute("UPDATE audit_auditevent SET action = %s WHERE pos = %s", [action, pos])


@pytest.mark.parametrize("pos", [8, 10])
def test_an_edited_event_is_found(shipped, pos):
    _edit(pos)
    assert f"event {pos} was changed" in refused()
    assert f"event {pos} was changed" in refused("--since-head")


def test_a_deleted_event_after_the_head_is_found(shipped):
    with raw_cursor() as cur:
        cur.execute("DELETE FROM audit_auditevent WHERE pos = 10")
    assert "event 10 is missing" in refused()
    assert "missing" in refused("--since-head")


def test_swapped_events_after_the_head_are_found(shipped):
    with raw_cursor() as cur:
        cur.execute("UPDATE audit_auditevent SET pos = -1 WHERE pos = 9")
        cur.execute("UPDATE audit_auditevent SET pos = 9 WHERE pos = 11")
        cur.execute("UPDATE audit_auditevent SET pos = 11 WHERE pos = -1")
    assert "position 9" in refused()
    assert "position 9" in refused("--since-head")


def test_truncation_before_the_shipped_head_is_found_even_with_the_tree_cut_too(shipped):
    with raw_cursor() as cur:
        cur.execute("DELETE FROM audit_auditevent WHERE pos >= 6")
        cur.execute("DELETE FROM audit_audittreenode")
    sequencer.sequence_pending()  # the tree rebuilt for the five events left
    assert "before the shipped head's 8" in refused()
    assert "before the shipped head's 8" in refused("--since-head")
    # Without a head kept outside the database, the cut log looks whole.
    assert "5 events" in verify("--no-shipped-head")


def _rewrite_history(first_changed: int) -> None:
    """What someone with write access to the database (but not the signing key) can do: change
    an event, recompute every later hash, rebuild the tree, and drop the stored heads."""
    _edit(first_changed, "login")
    rows = list(AuditEvent.objects.order_by("pos").values(*FIELDS, "pos"))
    prev = GENESIS
    with raw_cursor() as cur:
        for row in rows:
            digest = event_hash(prev, row)
            cur.execute(
                "UPDATE audit_auditevent SET prev_hash = %s, hash = %s WHERE pos = %s",
                [prev, digest, row["pos"]],
            )
            prev = digest
        cur.execute("DELETE FROM audit_audittreenode")
        cur.execute("DELETE FROM audit_audittreehead")
    sequencer.sequence_pending()


def test_rewritten_history_with_every_hash_recomputed_fails_against_the_shipped_head(shipped):
    _rewrite_history(3)
    # The rewritten log is internally consistent ...
    assert "audit chain ok: 12 events" in verify("--no-shipped-head")
    # ... but not with what was shipped before the rewrite.
    assert "history was rewritten" in refused()
    assert "do not match the shipped head" in refused("--since-head")
    # Publishing a new head does not help: the old one is still the sink's, the new one is
    # signed for the rewritten log and the verifier of a witness's copy compares with the old.
    witness = heads.sink_path().with_name("witness.jsonl")
    heads.ship(shipped, witness)
    heads.publish_head(force=True)
    assert "history was rewritten" in refused("--heads-file", str(witness))


def test_a_forged_head_in_the_sink_is_refused(shipped):
    _rewrite_history(3)
    size, root = heads.current_root()
    forged = heads.SignedHead(size, root.hex(), shipped.at, shipped.key_id, shipped.signature)
    heads.ship(forged)
    assert "signature is not valid" in refused()


def test_since_head_runs_the_same_queries_however_long_the_log_before_the_head(shipped):
    """The events before the head are never read: a log 40 times longer before its head is
    checked with the same statements (the tree nodes it needs come in one)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from caseflow.audit.verify import verify_since

    def statements(head) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert verify_since(head).ok
        return len(captured.captured_queries)

    short = statements(shipped)
    for n in range(320):
        record("checkin.missed", detail={"n": n})
    later = heads.publish_head()
    for n in range(4):
        record("checkin.missed", detail={"n": n})
    sequencer.sequence_pending()
    assert later.tree_size == 332
    assert statements(later) == short


def test_verify_refuses_events_left_waiting_for_the_sequencer(chain, settings):
    waited = settings.AUDIT_SEQUENCE_SECONDS + settings.AUDIT_SEQUENCE_SLACK_SECONDS + 1
    record("checkin.missed", at=timezone.now() - dt.timedelta(seconds=waited))
    assert "waited for the sequencer" in refused()
    call_command("audit_tree", "sequence", stdout=io.StringIO())
    assert "9 events" in verify()
