"""Helpers for tampering with the audit table the way someone with database access could."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.db import connection

from caseflow.audit.sequencer import sequence_pending
from caseflow.audit.services import record


@contextmanager
def raw_cursor():
    """A cursor that bypasses the append-only trigger on PostgreSQL (as the table's owner or a
    superuser could), and is restored to normal afterwards."""
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute("SET session_replication_role = replica")
        try:
            yield cur
        finally:
            if connection.vendor == "postgresql":
                cur.execute("SET session_replication_role = origin")


@pytest.fixture
def chain(db):
    """Eight events, sequenced at positions 1..8 (their numbers too: nothing was recorded
    before them in this test's database)."""
    events = [record("checkin.missed", detail={"n": n}) for n in range(8)]
    sequence_pending()
    for event in events:
        event.refresh_from_db()
    return events
