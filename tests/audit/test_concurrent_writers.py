"""Concurrent writers take no lock and lose nothing; the sequencer, running at the same time,
chains every committed event exactly once; rolled-back writers leave nothing."""

from __future__ import annotations

import threading
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection, connections, transaction

from caseflow.audit import sequencer
from caseflow.audit.models import AuditEvent
from caseflow.audit.services import record

WRITERS = 4
EACH = 25


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the in-memory SQLite test database has one shared connection; on a SQLite file every "
    "transaction begins IMMEDIATE, which serialises writers in the database itself",
)
def test_racing_writers_and_a_running_sequencer_leave_one_gapless_valid_chain(allow_audit_flush):
    start = threading.Barrier(WRITERS + 1)
    writing = threading.Event()
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            start.wait()
            for i in range(EACH):
                # Each event in its own transaction, as each request's would be; every fifth
                # request of each writer fails after recording and rolls back.
                try:
                    with transaction.atomic():
                        record("checkin.missed", object_type="writer", object_id=f"{n}:{i}")
                        if i % 5 == 4:
                            raise _RolledBack
                except _RolledBack:
                    pass
        except BaseException as exc:  # noqa: BLE001 - reported to the test thread below
            errors.append(exc)
        finally:
            connections.close_all()

    def sequencing() -> None:
        try:
            start.wait()
            while writing.is_set():
                sequencer.sequence_pending(batch=7)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connections.close_all()

    writing.set()
    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    chainer = threading.Thread(target=sequencing)
    chainer.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    writing.clear()
    chainer.join(timeout=120)
    assert errors == []
    sequencer.sequence_pending()
    kept = WRITERS * EACH * 4 // 5
    written = set(AuditEvent.objects.values_list("object_id", flat=True))
    assert written == {f"{n}:{i}" for n in range(WRITERS) for i in range(EACH) if i % 5 != 4}
    positions = list(AuditEvent.objects.order_by("pos").values_list("pos", flat=True))
    assert positions == list(range(1, kept + 1))
    assert sequencer.tree_size() == kept
    out = StringIO()
    call_command("verify_audit", stdout=out)
    assert f"{kept} events" in out.getvalue()


class _RolledBack(Exception):
    pass
