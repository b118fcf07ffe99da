"""Faults on real services: Redis away while an advocate confirms a breach, and a worker killed
in the middle of an escalation. Nothing is lost, nothing runs twice, the advocate sees no error.

A real Celery worker on Redis runs against the test database (see ``tests/celery_harness.py``
for the harness and when these tests skip).
"""

from __future__ import annotations

import socket

import pytest
from django.urls import reverse

from caseflow.agreements.models import Breach
from caseflow.celery import app as celery_app
from caseflow.inbox.models import FollowUp, Notification
from caseflow.outbox import services as outbox
from caseflow.outbox.models import Intent
from tests.agreements.helpers import log_event, london, make_agreement, record_breach
from tests.celery_harness import PATIENCE, REDIS_URL, _reset_producer, _use_queue, wait_for

pytestmark = [pytest.mark.celery_worker, pytest.mark.xdist_group("celery_worker")]

CLOSED_PORT = "redis://127.0.0.1:1/0"  # nothing listens on port 1

#: The ``paused`` worker of ``worker_pair`` holds every outbox task's transaction open for a
#: minute (to be killed mid-task).
PAUSED_WORKER_ENV = {"CASEFLOW_TEST_TASK_PAUSE": "60"}


def _escalations(case):
    followups = FollowUp.objects.filter(case=case, kind="breach_escalation")
    notes = Notification.objects.filter(case=case, kind="breach_escalation")
    return followups.count(), sorted(notes.values_list("recipient_id", "channel"))


def _connections_tried(monkeypatch) -> list[object]:
    """The addresses this process tries to connect to from now on (the closed port's among
    them), each connection attempt once."""
    tried: list[object] = []
    connect = socket.socket.connect

    def spy(sock, address):
        tried.append(address)
        return connect(sock, address)

    monkeypatch.setattr(socket.socket, "connect", spy)
    return tried


def test_a_breach_confirmed_while_redis_is_down_is_saved_once_and_escalated_later(
    cast, login, broker_to_workers, monkeypatch
):
    agreement = make_agreement(cast.case, cast.assigned)
    event = log_event(
        agreement, cast.assigned, london(2025, 2, 25, 22, 30), channel="phone", kind="call"
    )
    url = reverse(
        "agreements:review", args=[cast.case.public_id, agreement.public_id, event.public_id]
    )
    celery_app.conf.broker_url = CLOSED_PORT
    _reset_producer()
    tries = _connections_tried(monkeypatch)
    response = login(cast.assigned).post(
        url,
        {"terms_broken": ["forbidden_channels"], "severity": "high", "description": "Called."},
    )
    assert response.status_code == 302
    assert response.url == reverse(
        "agreements:detail", args=[cast.case.public_id, agreement.public_id]
    )
    breach = Breach.objects.get()
    intent = Intent.objects.get()
    # The request tried the broker once and once again at once (no back-off), and Celery's
    # publish never retried it: no wait of seconds on the advocate's time.
    assert 1 <= tries.count(("127.0.0.1", 1)) <= 2
    assert intent.kwargs == {"breach_id": breach.pk}
    assert intent.enqueued_at is None and intent.completed_at is None
    assert (intent.attempts, intent.last_error) == (1, "OperationalError")
    assert _escalations(cast.case) == (0, [])
    # While Redis is away the relay keeps it, and says so.
    assert (outbox.relay().sent, outbox.relay().failed) == (0, 1)

    celery_app.conf.broker_url = REDIS_URL
    _reset_producer()
    assert outbox.relay().sent == 1
    wait_for(
        lambda: Intent.objects.filter(completed_at__isnull=False).exists(),
        PATIENCE,
        "the escalation",
    )
    assert Breach.objects.count() == 1
    assert _escalations(cast.case) == (1, [(cast.supervisor.pk, "in_app")])
    assert outbox.relay().sent == 0


def test_a_worker_killed_mid_escalation_escalates_once_after_the_relay(
    cast, broker_to_workers, settings
):
    main, paused = broker_to_workers.main, broker_to_workers.paused
    agreement = make_agreement(cast.case, cast.assigned)
    _use_queue(paused.queue)
    breach = record_breach(agreement, cast.assigned, london(2025, 2, 25, 22, 0), severity="high")
    intent = Intent.objects.get()
    assert intent.kwargs == {"breach_id": breach.pk} and intent.enqueued_at is not None
    wait_for(lambda: "task paused" in paused.log_text(), PATIENCE, "the escalation to start")
    paused.kill()  # SIGKILL inside the escalation's transaction, before it commits
    intent.refresh_from_db()
    assert intent.completed_at is None
    assert _escalations(cast.case) == (0, [])

    # Redis keeps the unacknowledged message for its visibility timeout (an hour); the relay
    # does not wait for it: an intent sent long enough ago and still not done is sent again.
    settings.OUTBOX_RESEND_SECONDS = 0
    _use_queue(main.queue)
    assert outbox.relay().sent == 1
    wait_for(
        lambda: Intent.objects.filter(completed_at__isnull=False).exists(), PATIENCE, "the rerun"
    )
    # Then the broker brings the lost message back as well: it changes nothing.
    celery_app.send_task(intent.task, kwargs={**intent.kwargs, "intent_id": intent.pk})
    main.drain()
    assert _escalations(cast.case) == (1, [(cast.supervisor.pk, "in_app")])
    assert outbox.relay().sent == 0  # done: never sent again
    paused.launch(CASEFLOW_TEST_TASK_PAUSE="60").ready()
