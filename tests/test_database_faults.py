"""The database connection killed in the middle of a write: the person sees the generic error
page, nothing of the write is saved, and the next request works (connection health checks are
on). PostgreSQL only: ``pg_terminate_backend`` ends the request's own server process from
another connection, as a database restart or fail-over would. CI runs it in the PostgreSQL pass.
"""

from __future__ import annotations

import select
import time

import psycopg
import pytest
from django.conf import settings
from django.db import close_old_connections, connection
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases import services
from caseflow.cases.models import Party
from caseflow.lib.postgresql.base import QUIET_SECONDS

pytestmark = pytest.mark.postgresql


@pytest.fixture
def committed(transactional_db, allow_audit_flush):
    """PostgreSQL, each request's transaction its own (not inside the test's: the connection's
    upkeep at a request's start closes a connection left in a transaction)."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL to a PostgreSQL URL)")


@pytest.fixture
def killer(committed):
    """``killer(pid)`` ends that server process from a connection of its own."""
    db = connection.settings_dict
    conn = psycopg.connect(
        dbname=db["NAME"],
        user=db["USER"],
        password=db["PASSWORD"] or None,
        host=db["HOST"] or None,
        port=db["PORT"] or None,
        autocommit=True,
    )

    def kill(pid: int) -> None:
        (ended,) = conn.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone()
        assert ended

    yield kill
    conn.close()


def test_a_connection_killed_mid_write_saves_nothing_and_the_next_request_works(
    cast, client, login, killer, monkeypatch
):
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True
    real_record = services.record
    killed = []

    def record_after_the_connection_dies(action, **kwargs):
        # The party row is written; its audit event is next. The server process goes away.
        if action == "party.create" and not killed:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                (pid,) = cursor.fetchone()
            killer(pid)
            killed.append(pid)
        return real_record(action, **kwargs)

    monkeypatch.setattr(services, "record", record_after_the_connection_dies)
    parties_before = Party.objects.filter(case=cast.case).count()
    events_before = AuditEvent.objects.count()
    advocate = login(cast.assigned)
    advocate.raise_request_exception = False
    url = reverse("cases:party_new", args=[cast.case.public_id])
    response = advocate.post(url, {"role": "child", "full_name": "Half Saved"})

    assert killed, "the write reached the point where the connection was killed"
    assert response.status_code == 500
    body = response.content.decode()
    assert "Something went wrong" in body and "Half Saved" not in body
    assert "Traceback" not in body and "OperationalError" not in body

    # The next request works, on a new connection, and nothing of the write was kept.
    page = advocate.get(reverse("cases:detail", args=[cast.case.public_id]))
    assert page.status_code == 200
    assert "Half Saved" not in page.content.decode()
    assert Party.objects.filter(case=cast.case).count() == parties_before
    assert not AuditEvent.objects.filter(action="party.create").exists()
    # The page view after it was audited as usual.
    assert AuditEvent.objects.count() > events_before


def _request(client, url):
    """One request as the WSGI handler serves it: Django's test client leaves out the
    connection's upkeep at the request's start and end (``close_old_connections``), which is
    where its health check is armed."""
    close_old_connections()
    try:
        return client.get(url)
    finally:
        close_old_connections()


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    return pid


def test_a_connection_the_server_ended_between_requests_is_replaced(cast, login, killer):
    """As when PostgreSQL restarts between two requests: the connection answered a moment ago,
    and the next request gets a new one (the ended connection's socket says so)."""
    advocate = login(cast.assigned)
    advocate.raise_request_exception = False
    url = reverse("cases:detail", args=[cast.case.public_id])
    assert _request(advocate, url).status_code == 200
    pid = _backend_pid()
    killer(pid)
    # The server's goodbye reaches the socket (waited for, not slept on).
    assert select.select([connection.connection.fileno()], [], [], 5)[0]
    assert time.monotonic() - connection.answered_at < QUIET_SECONDS
    assert _request(advocate, url).status_code == 200
    assert _backend_pid() != pid


def test_without_the_health_check_that_request_would_fail(cast, login, killer, monkeypatch):
    """The test above is not vacuous: Django's connection without the check fails it."""
    monkeypatch.setitem(connection.settings_dict, "CONN_HEALTH_CHECKS", False)
    connection.close()
    advocate = login(cast.assigned)
    advocate.raise_request_exception = False
    url = reverse("cases:detail", args=[cast.case.public_id])
    assert _request(advocate, url).status_code == 200
    killer(_backend_pid())
    assert select.select([connection.connection.fileno()], [], [], 5)[0]
    assert _request(advocate, url).status_code == 500
    assert _request(advocate, url).status_code == 200  # Django closed it after the failure


def test_a_connection_that_has_just_answered_is_not_asked_again(
    cast, login, committed, monkeypatch
):
    asked = []
    is_usable = connection.is_usable

    def counting():
        asked.append(1)
        return is_usable()

    monkeypatch.setattr(connection, "is_usable", counting)
    advocate = login(cast.assigned)
    url = reverse("cases:detail", args=[cast.case.public_id])
    assert _request(advocate, url).status_code == 200
    asked.clear()
    for _ in range(3):
        assert _request(advocate, url).status_code == 200
    assert asked == []  # one after the other: no SELECT 1
    connection.answered_at -= QUIET_SECONDS  # a second of quiet
    assert _request(advocate, url).status_code == 200
    assert asked == [1]  # asked as Django asks
