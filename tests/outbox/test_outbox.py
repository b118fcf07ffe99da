"""The outbox: intents written in the caller's transaction, sent after commit, never an error in
the request when the broker is away, sent again by the relay until their task marks them done."""

from __future__ import annotations

import datetime as dt
import logging
import re
from pathlib import Path

import pytest
import time_machine
from django.conf import settings
from django.db import transaction
from kombu.exceptions import OperationalError

from caseflow.celery import app as celery_app
from caseflow.outbox import services
from caseflow.outbox.models import Intent
from caseflow.outbox.tasks import OutboxTask

NOW = dt.datetime(2025, 3, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def broker(monkeypatch):
    """A stand-in for the broker: records what is sent; ``broker.down = True`` refuses it."""

    class Broker:
        down = False
        sent: list[tuple[str, dict]] = []

    fake = Broker()
    fake.sent = []

    def send_task(name, kwargs, **options):
        assert options.get("retry") is False  # a request never waits on a broker's retries
        if fake.down:
            raise OperationalError("Error 111 connecting to 127.0.0.1:1. Connection refused.")
        fake.sent.append((name, kwargs))

    monkeypatch.setattr(celery_app, "send_task", send_task)
    return fake


def test_an_intent_is_written_in_the_transaction_and_sent_after_commit(
    db, broker, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        intent = services.enqueue("caseflow.tests.noop", thing_id=7)
        assert broker.sent == []  # nothing leaves before the commit
    assert broker.sent == [("caseflow.tests.noop", {"thing_id": 7, "intent_id": intent.pk})]
    intent.refresh_from_db()
    assert intent.enqueued_at is not None and intent.attempts == 1 and intent.last_error == ""
    assert intent.completed_at is None


def test_a_rolled_back_transaction_leaves_no_intent(db, broker, django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        services.enqueue("caseflow.tests.noop", thing_id=7)
        raise RuntimeError("later failure")
    assert broker.sent == []
    assert not Intent.objects.exists()


def test_a_broker_failure_is_logged_without_arguments_and_not_raised(
    db, broker, django_capture_on_commit_callbacks, caplog
):
    broker.down = True
    with caplog.at_level(logging.WARNING), django_capture_on_commit_callbacks(execute=True):
        intent = services.enqueue("caseflow.tests.noop", thing_id=987654)
    intent.refresh_from_db()
    assert intent.enqueued_at is None and intent.attempts == 1
    assert intent.last_error == "OperationalError"
    (message,) = [r.getMessage() for r in caplog.records if r.name == "caseflow.outbox.services"]
    assert "not sent: OperationalError" in message
    assert "987654" not in message and "127.0.0.1" not in message


def test_only_ids_are_accepted(db):
    with pytest.raises(TypeError):
        services.enqueue("caseflow.tests.noop", note={"name": "someone"})
    with pytest.raises(TypeError):
        services.enqueue("caseflow.tests.noop", flag=True)
    assert not Intent.objects.exists()


def test_the_relay_sends_what_was_never_sent_and_what_was_lost(db, broker, settings):
    settings.OUTBOX_RESEND_SECONDS = 600
    with time_machine.travel(NOW, tick=False):
        never = Intent.objects.create(task="t.never", kwargs={"a": 1})
        recent = Intent.objects.create(task="t.recent", kwargs={"a": 2}, enqueued_at=NOW)
        lost = Intent.objects.create(
            task="t.lost", kwargs={"a": 3}, enqueued_at=NOW - dt.timedelta(minutes=11)
        )
        Intent.objects.create(
            task="t.done",
            kwargs={"a": 4},
            enqueued_at=NOW - dt.timedelta(hours=1),
            completed_at=NOW,
        )
        result = services.relay()
    assert (result.sent, result.failed) == (2, 0)
    assert sorted(name for name, _ in broker.sent) == ["t.lost", "t.never"]
    never.refresh_from_db()
    lost.refresh_from_db()
    assert never.enqueued_at == NOW and lost.enqueued_at == NOW and lost.attempts == 1
    recent.refresh_from_db()
    assert recent.attempts == 0
    with time_machine.travel(NOW, tick=False):
        assert services.relay().sent == 0  # sent again only once they are stale again


def test_the_relay_stops_at_the_first_broker_failure(db, broker):
    for i in range(3):
        Intent.objects.create(task="t", kwargs={"a": i})
    broker.down = True
    assert (services.relay().sent, services.relay().failed) == (0, 1)
    assert sorted(Intent.objects.values_list("attempts", flat=True)) == [0, 0, 2]
    broker.down = False
    assert services.relay(batch_size=2).sent == 3
    assert not Intent.objects.filter(enqueued_at__isnull=True).exists()


@celery_app.task(base=OutboxTask, name="caseflow.tests.outbox_probe", shared=False)
def probe(thing_id: int, fail: bool = False) -> int:
    Intent.objects.create(task="probe.side_effect", kwargs={"thing_id": thing_id})
    if fail:
        raise ValueError("no")
    return thing_id


def test_a_task_marks_its_intent_done_with_its_work(db):
    intent = Intent.objects.create(task=probe.name, kwargs={"thing_id": 5})
    assert probe(thing_id=5, intent_id=intent.pk) == 5
    intent.refresh_from_db()
    assert intent.completed_at is not None
    assert Intent.objects.filter(task="probe.side_effect").count() == 1


def test_a_failed_task_leaves_its_intent_pending_and_its_work_undone(db):
    intent = Intent.objects.create(task=probe.name, kwargs={"thing_id": 5})
    with pytest.raises(ValueError):
        probe(thing_id=5, fail=True, intent_id=intent.pk)
    intent.refresh_from_db()
    assert intent.completed_at is None
    assert not Intent.objects.filter(task="probe.side_effect").exists()
    probe.on_failure(ValueError("no"), "id", (), {"intent_id": intent.pk}, None)
    intent.refresh_from_db()
    assert intent.last_error == "ValueError"


def test_the_backlog_counts_pending_intents_and_dates_the_oldest(db):
    assert services.backlog() == (0, None)
    with time_machine.travel(NOW, tick=False):
        Intent.objects.create(task="t", kwargs={})
    Intent.objects.create(task="t", kwargs={})
    Intent.objects.create(task="t", kwargs={}, completed_at=NOW)
    assert services.backlog() == (2, NOW)


#: The only places that hand a task to the broker. The outbox, for all work a request starts;
#: and the scheduler's delivery of notification rows, which are their own outbox (written in the
#: sweep's transaction, stamped when enqueued, re-dispatched by the next sweep until sent).
ENQUEUERS = {"caseflow/outbox/services.py", "caseflow/checkins/tasks.py"}
ENQUEUE = re.compile(r"\.(delay|apply_async|delay_on_commit|send_task|signature|s)\(")


def test_nothing_enqueues_outside_the_outbox():
    root = Path(settings.BASE_DIR)
    found = {}
    files = list((root / "caseflow").rglob("*.py"))
    assert len(files) > 50
    for path in files:
        hits = ENQUEUE.findall(path.read_text())
        if hits:
            found[str(path.relative_to(root))] = hits
    assert set(found) == ENQUEUERS, found
