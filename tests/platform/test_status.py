"""The staff status page says what is wrong in plain words; /health/ stays one query."""

from __future__ import annotations

import datetime as dt
import socket

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from caseflow.celery import app as celery_app
from caseflow.checkins.models import SchedulerHeartbeat
from caseflow.inbox.services import notify
from caseflow.outbox.models import Intent

NOW = dt.datetime(2025, 3, 1, 12, 0, tzinfo=dt.UTC)


def _texts(response) -> dict[str, str]:
    return {check.name: check.text for check in response.context["checks"]}


def _swept(at: dt.datetime) -> None:
    SchedulerHeartbeat.objects.update_or_create(
        name="sweep", defaults={"last_completed_at": at, "last_duration_ms": 5, "last_claimed": 0}
    )


def test_all_well(cast, login):
    with time_machine.travel(NOW, tick=False):
        _swept(NOW - dt.timedelta(seconds=40))
        Intent.objects.create(task="t", kwargs={})  # just written: not late
        response = login(cast.supervisor).get(reverse("status"))
    assert response.status_code == 200
    assert response.context["all_ok"] is True
    texts = _texts(response)
    assert texts == {
        "Database": "The database is answering.",
        "Cache": "The cache is answering.",
        "Task queue": "The task queue is answering.",
        "Workers": "The scheduler last ran less than a minute ago.",
        "Background work": "Background work is up to date.",
        "Reminders": "Reminders are going out on time.",
    }
    assert b"Everything is working." in response.content


def test_delays_are_said_in_plain_words(cast, login):
    with time_machine.travel(NOW - dt.timedelta(minutes=12), tick=False):
        Intent.objects.create(task="t", kwargs={})
        notify(recipients=[cast.assigned], kind="x", case=cast.case, key="k", text="Due.")
    with time_machine.travel(NOW - dt.timedelta(minutes=3), tick=False):
        Intent.objects.create(task="t", kwargs={})
    _swept(NOW - dt.timedelta(hours=2, minutes=5))
    with time_machine.travel(NOW, tick=False):
        response = login(cast.agency_admin).get(reverse("status"))
    assert response.context["all_ok"] is False
    texts = _texts(response)
    assert texts["Background work"] == (
        "Background work is delayed: 2 waiting, the oldest is 12 minutes old."
    )
    assert texts["Reminders"] == "Reminders are delayed: the oldest is 12 minutes old."
    assert texts["Workers"].startswith("The scheduler last ran 2 hours ago: no reminders go out.")
    assert b"Reminders are delayed: the oldest is 12 minutes old." in response.content


def test_a_scheduler_that_never_ran_is_reported(cast, login):
    texts = _texts(login(cast.supervisor).get(reverse("status")))
    assert texts["Workers"].startswith("The scheduler has never run")


@pytest.fixture
def broker_down():
    saved = celery_app.conf.broker_url
    celery_app.conf.broker_url = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    try:
        yield
    finally:
        celery_app.conf.broker_url = saved


def test_an_unreachable_broker_is_reported_quickly(cast, login, broker_down, monkeypatch):
    """The page tries the broker once or twice and gives up: no retry loop keeps it waiting.
    (Counted, not timed: how long one refused connection takes depends on the machine.)"""
    attempts = []
    connect = socket.socket.connect

    def counting_connect(sock, address):
        if isinstance(address, tuple) and address[1:2] == (1,):
            attempts.append(address)
        return connect(sock, address)

    monkeypatch.setattr(socket.socket, "connect", counting_connect)
    client = login(cast.supervisor)
    response = client.get(reverse("status"))
    assert 1 <= len(attempts) <= 2, attempts
    assert _texts(response)["Task queue"].startswith("The task queue is not answering.")
    assert response.context["all_ok"] is False


def test_only_supervisors_and_agency_admins_see_it(cast, login):
    assert login(cast.assigned).get(reverse("status")).status_code == 403
    assert login(cast.auditor).get(reverse("status")).status_code == 403
    assert login(None).get(reverse("status")).status_code == 302


def test_health_stays_one_query(db, client):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("health")).json() == {"database": "ok"}
    # The request's own transaction adds savepoints in tests; the check itself is one SELECT.
    assert [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]] == ["SELECT 1"]
