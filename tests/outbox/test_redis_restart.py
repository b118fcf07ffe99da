"""Redis (cache and broker) stopped while an advocate records a serious incident on a high-risk
case, then started again: the page succeeds and saves, the escalation waits in the outbox, and
once Redis is back the relay sends it and a real worker delivers it exactly once.

The Redis here is the test's own (``redis-server`` on a free port, started and stopped by the
test), never a shared one; the worker is a real ``celery worker`` (``tests/celery_harness.py``)
against the PostgreSQL test database, so this test skips on SQLite like the other worker tests.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import uuid
from collections.abc import Iterator

import pytest
from django.db import connection, connections
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import RiskLevel
from caseflow.casework.models import CaseworkFollowUpKind, Incident
from caseflow.celery import app as celery_app
from caseflow.inbox.models import FollowUp, Notification
from caseflow.inbox.services import case_supervisors
from caseflow.lib import softcache
from caseflow.outbox import services as outbox
from caseflow.outbox.models import Intent
from tests.celery_harness import PATIENCE, Worker, _reset_producer, _use_queue, wait_for

pytestmark = [pytest.mark.celery_worker, pytest.mark.xdist_group("celery_worker")]

SERIOUS = {
    "kinds": ["physical"],
    "occurred_on": "2025-03-02",
    "date_confirmed": "2025-03-02",
    "approximate": "on",
    "when_described": "last weekend",
    "person": "other_party",
    "what_happened": "Pushed her against the door.",
    "police": "no",
}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class OwnRedis:
    """A ``redis-server`` of the test's own on ``port``, keeping nothing on disk."""

    def __init__(self, port: int):
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.proc: subprocess.Popen | None = None

    def _client(self):
        import redis

        return redis.Redis.from_url(self.url, socket_connect_timeout=0.5, socket_timeout=2)

    def _answers(self) -> bool:
        try:
            return bool(self._client().ping())
        except Exception:  # noqa: BLE001 - not up yet
            return False

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is needed for this test"
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
            + ["--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(self._answers, 15, "the test's Redis to answer")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        assert not self._answers()


@pytest.fixture
def own_redis(transactional_db, allow_audit_flush, settings, tmp_path) -> Iterator[OwnRedis]:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: the worker process must share the test database")
    server = OwnRedis(_free_port())
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": server.url,
            "KEY_PREFIX": f"test-{uuid.uuid4().hex}",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    saved = {
        key: celery_app.conf[key]
        for key in ("broker_url", "broker_transport_options", "task_default_queue")
    }
    celery_app.conf.update(broker_url=server.url, broker_transport_options={})
    _reset_producer()
    softcache.reset()
    try:
        yield server
    finally:
        server.stop()
        celery_app.conf.update(**saved)
        _reset_producer()
        softcache.reset()
        connections.close_all()


def _delivered(case, incident):
    return (
        FollowUp.objects.filter(case=case, kind=CaseworkFollowUpKind.INCIDENT_RISK_REVIEW).count(),
        sorted(
            Notification.objects.filter(case=case, kind="incident_escalation").values_list(
                "recipient_id", "channel"
            )
        ),
        AuditEvent.objects.filter(action="incident.escalation", case_id=case.pk).count(),
    )


def test_an_escalation_saved_while_redis_is_stopped_is_delivered_once_it_returns(
    cast, login, own_redis, tmp_path
):
    cast.case.risk_level = RiskLevel.HIGH
    cast.case.save(update_fields=["risk_level"])
    own_redis.start()
    own_redis.stop()  # Redis goes away, cache and broker both

    client = login(cast.assigned)
    response = client.post(reverse("casework:incident_new", args=[cast.case.public_id]), SERIOUS)
    assert response.status_code == 302
    incident = Incident.objects.get(case=cast.case)
    assert incident.serious
    intent = Intent.objects.get(task="caseflow.casework.tasks.escalate_incident")
    assert intent.enqueued_at is None and intent.attempts == 1 and intent.last_error
    assert client.get(response["Location"]).status_code == 200  # the page, still without Redis
    assert outbox.relay().failed == 1  # the relay, while Redis is away, keeps it
    assert _delivered(cast.case, incident) == (0, [], 0)

    own_redis.start()
    worker = Worker(tmp_path / "worker", f"caseflow-test-{uuid.uuid4().hex[:10]}-restart")
    worker.env["REDIS_URL"] = own_redis.url
    _use_queue(worker.queue)
    worker.launch().ready()
    try:
        assert outbox.relay().sent == 1  # beat's relay, the minute after Redis returns
        wait_for(
            lambda: Intent.objects.filter(pk=intent.pk, completed_at__isnull=False).exists(),
            PATIENCE,
            "the escalation",
        )
        # A second delivery of the same message (as Redis redelivers) changes nothing.
        celery_app.send_task(intent.task, kwargs={**intent.kwargs, "intent_id": intent.pk})
        worker.drain()
        assert outbox.relay().sent == 0
    finally:
        worker.stop()
    supervisors = sorted(user.pk for user in case_supervisors(cast.case))
    assert supervisors, "the case's team has a supervisor to tell"
    followups, told, events = _delivered(cast.case, incident)
    assert (followups, events) == (1, 1)
    assert sorted({pk for pk, _channel in told}) == supervisors
    assert len(told) == len(set(told))  # one per supervisor and channel: none twice
