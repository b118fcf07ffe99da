"""The database connection killed in the middle of a write: the person sees the generic error
page, nothing of the write is saved, and the next request works (connection health checks are
on). PostgreSQL only: ``pg_terminate_backend`` ends the request's own server process from
another connection, as a database restart or fail-over would. CI runs it in the PostgreSQL pass.
"""

from __future__ import annotations

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases import services
from caseflow.cases.models import Party

pytestmark = pytest.mark.postgresql


@pytest.fixture
def killer(transactional_db, allow_audit_flush):
    """``killer(pid)`` ends that server process from a connection of its own."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL to a PostgreSQL URL)")
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
