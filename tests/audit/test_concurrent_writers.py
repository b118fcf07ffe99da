"""Concurrent writers keep one valid chain: appends are serialised by the chain lock."""

from __future__ import annotations

import threading
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection, connections, transaction

from caseflow.audit.models import AuditEvent
from caseflow.audit.services import record

WRITERS = 4
EACH = 25


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the in-memory SQLite test database has one shared connection; on a SQLite file every "
    "transaction begins IMMEDIATE, which serialises writers in the database itself",
)
def test_racing_writers_leave_one_gapless_valid_chain(allow_audit_flush):
    start = threading.Barrier(WRITERS)
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            start.wait()
            for i in range(EACH):
                # Each append in its own transaction, as each request's would be.
                with transaction.atomic():
                    record("checkin.missed", object_type="writer", object_id=f"{n}:{i}")
        except BaseException as exc:  # noqa: BLE001 - reported to the test thread below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    seqs = list(AuditEvent.objects.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, WRITERS * EACH + 1))
    out = StringIO()
    call_command("verify_audit", stdout=out)
    assert str(WRITERS * EACH) in out.getvalue()
