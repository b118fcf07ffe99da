"""The audit log at scale: ``verify_audit`` over the seeded chain against the floor of reading
every row and hashing it once, and "who accessed case X" (the audit workspace) against the stock
admin's AuditEvent changelist filtered the same way (that case's reads)."""

from __future__ import annotations

import dataclasses

from django.urls import reverse

from bench.audit_bench import floor_verify
from bench.harness import BenchContext, Peer, Row, client_for, compare, get, scale_cast
from caseflow.accounts.models import User
from caseflow.audit.models import AuditEvent
from caseflow.audit.verify import verify_chain
from caseflow.cases.models import Case, CaseStatus

#: A verify walks the whole chain (seconds at a million events): a few rounds are enough.
VERIFY_ROUNDS = 3


def verify_audit(ctx: BenchContext) -> list[Row]:
    total = AuditEvent.objects.count()
    state = {}

    def caseflow_verify():
        result = verify_chain()
        if not result.ok:
            raise AssertionError(f"the audit chain does not verify: {result.problem}")
        state["checked"] = result.checked

    def floor():
        state["floor"] = floor_verify()

    rounds = dataclasses.replace(
        ctx, iterations=min(ctx.iterations, VERIFY_ROUNDS), warmup=min(ctx.warmup, 1)
    )
    rows = compare(
        rounds,
        f"verify_audit ({total:,} events)",
        caseflow_verify,
        [Peer("floor: raw cursor + sha256 per row", floor, max_ratio=1.5)],
    )
    rows[0].notes.append(
        f"{rounds.iterations} rounds after {rounds.warmup} warm-up; both read "
        f"{state['checked']:,} and {state['floor']:,} rows; "
        f"verify_audit {state['checked'] / rows[0].caseflow_p50:,.0f} events/s, "
        f"floor {state['floor'] / rows[0].peer_p50:,.0f} events/s"
    )
    return rows


def who_accessed(ctx: BenchContext) -> list[Row]:
    cast = scale_cast()
    auditor = User.objects.get(username=f"{cast.agency.slug}-auditor")
    case = (
        Case.objects.filter(
            assignments__user=cast.typical, status=CaseStatus.ACTIVE, restricted=False
        )
        .order_by("-opened_at")
        .first()
    )
    reads = AuditEvent.objects.filter(case_id=case.pk).reads().count()
    total = AuditEvent.objects.count()
    rows = compare(
        ctx,
        f"who accessed case X ({reads} reads among {total:,} events)",
        get(client_for(auditor), reverse("audit:case_access", args=[case.public_id])),
        [
            Peer(
                "admin audit changelist, filtered",
                get(
                    client_for(cast.operator),
                    f"/bench/admin/audit/auditevent/?case_id={case.pk}&kind=reads",
                ),
                max_ratio=0.02,
            )
        ],
    )
    rows[0].notes.append(
        "the workspace page includes its own audit write; the admin lists 50 events a page and "
        "counts the filtered and the full log"
    )
    return rows


#: Events recorded after the shipped head for ``verify_since_head``.
NEW_EVENTS = 1000


def _floor_new(after: int) -> int:
    """The least a check of the new events must do: read them in order and hash each once."""
    import hashlib

    from django.db import connection

    rows, prev = 0, b"0" * 64
    with connection.cursor() as cur:
        cur.execute(
            "SELECT seq, at, actor_id, actor_role, agency_id, case_id, action, object_type,"
            " object_id, request_id, ip, detail, prev_hash, hash FROM audit_auditevent"
            " WHERE pos > %s ORDER BY pos",
            [after],
        )
        for row in cur.fetchall():
            prev = hashlib.sha256(prev + repr(row[:12]).encode()).hexdigest().encode()
            rows += 1
    return rows


def verify_since_head(ctx: BenchContext) -> list[Row]:
    """``verify_audit --since-head``: the head shipped, then NEW_EVENTS events recorded; the check
    reads those and O(log n) tree nodes, whatever the log's size before the head."""
    from caseflow.audit import heads, sequencer
    from caseflow.audit.services import record
    from caseflow.audit.verify import verify_since

    head = heads.publish_head(force=True)
    assert head is not None
    for _ in range(NEW_EVENTS):
        record("checkin.missed", detail={})
    sequencer.sequence_pending()
    state = {}

    def caseflow_since():
        result = verify_since(head)
        if not result.ok:
            raise AssertionError(f"the log does not extend the head: {result.problem}")
        state["checked"] = result.checked

    def floor():
        state["floor"] = _floor_new(head.tree_size)

    rows = compare(
        ctx,
        f"verify_audit --since-head ({NEW_EVENTS:,} new after {head.tree_size:,})",
        caseflow_since,
        # No ratio target: the target is that the time does not grow with the log before the
        # head (compare the rows of two tiers); the floor shows the new events' own cost.
        [Peer("floor: read + sha256 the new rows", floor)],
    )
    rows[0].notes.append(
        f"checked {state['checked']:,} new events and {state['floor']:,} for the floor; the "
        "events before the head are not read"
    )
    return rows


BENCHMARKS = [verify_audit, verify_since_head, who_accessed]
