"""The scheduler with a real Celery worker on Redis (not eager mode).

The worker (``tests/celery_harness.py``) runs as a subprocess against this test database, so
these tests need PostgreSQL (an
SQLite test database lives in this process's memory) and a reachable Redis. Without them they
are skipped, saying why, except when ``CASEFLOW_REQUIRE_SERVICES=1`` (CI's PostgreSQL run):
then an unreachable Redis fails. All of them run in one xdist worker, each on its own queue.

Waiting here is bounded polling of another process's observable state, never a fixed sleep.
"""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connections
from django.utils import timezone

from caseflow.checkins import scheduler, tasks
from caseflow.checkins.tasks import deliver_notification
from caseflow.inbox.models import Notification, NotificationChannel
from tests.celery_harness import _redis, _use_queue
from tests.checkins.helpers import make_checkin
from tests.conftest import canary

pytestmark = [pytest.mark.celery_worker, pytest.mark.xdist_group("celery_worker")]

#: The ``paused`` worker of ``worker_pair`` holds every delivery open (to be killed mid-flight).
PAUSED_WORKER_ENV = {"CASEFLOW_TEST_DELIVERY_PAUSE": "60"}


@pytest.fixture
def workers(worker_pair):
    return worker_pair


@pytest.fixture
def worker(workers, transactional_db, allow_audit_flush):
    workers.main.clear_mail()
    _use_queue(workers.main.queue)
    try:
        yield workers.main
    finally:
        _use_queue(workers.main.queue)
        connections.close_all()


def all_sent(count: int):
    return lambda: Notification.objects.filter(sent_at__isnull=False).count() == count


def test_a_due_check_in_produces_one_notification_and_one_email(cast, worker):
    due = timezone.now() - dt.timedelta(minutes=1)
    make_checkin(cast.case, cast.assigned, due)
    result = scheduler.sweep(enqueue=tasks.enqueue_deliveries)
    assert result.notifications == 2 and result.enqueued == 2
    worker.wait_for(all_sent(2), "both deliveries")
    worker.drain()
    in_app = Notification.objects.get(channel=NotificationChannel.IN_APP)
    assert in_app.recipient == cast.assigned and in_app.kind == "checkin_due"
    (message,) = worker.emails()
    assert f"To: {cast.assigned.email}" in message
    assert cast.case.reference in message
    assert canary(cast.case) not in message and "Survivor" not in message


def test_racing_sweeps_and_duplicate_deliveries_still_send_once(cast, worker):
    due = timezone.now() - dt.timedelta(minutes=2)
    for i in range(15):
        make_checkin(cast.case, cast.assigned, due + dt.timedelta(seconds=i))
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def racer():
        try:
            barrier.wait(timeout=10)
            scheduler.sweep(batch_size=4, enqueue=tasks.enqueue_deliveries)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=racer) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert Notification.objects.count() == 30
    # The broker delivers every task a second time.
    for pk in Notification.objects.values_list("pk", flat=True):
        deliver_notification.delay(pk)
    worker.wait_for(all_sent(30), "all deliveries")
    worker.drain()
    assert len(worker.emails()) == 15


def test_a_worker_killed_mid_delivery_delivers_once_after_restart(cast, workers, worker, settings):
    spare = workers.paused
    make_checkin(cast.case, cast.assigned, timezone.now() - dt.timedelta(minutes=1))
    _use_queue(f"{spare.queue}-parked")  # nobody consumes this queue
    assert scheduler.sweep(enqueue=tasks.enqueue_deliveries).enqueued == 2
    Notification.objects.filter(channel=NotificationChannel.IN_APP).update(sent_at=timezone.now())
    email = Notification.objects.get(channel=NotificationChannel.EMAIL)
    _use_queue(spare.queue)
    deliver_notification.delay(email.pk)
    spare.wait_for(lambda: "delivery paused" in spare.log_text(), "the delivery to start")
    spare.kill()  # SIGKILL in the middle of the e-mail delivery, before it commits
    email.refresh_from_db()
    assert email.sent_at is None and spare.emails() == []
    # The worker restarts (without the pause); the next sweep enqueues what was claimed but
    # never sent.
    spare.launch().ready()
    settings.NOTIFY_REQUEUE_SECONDS = 0
    assert scheduler.sweep(enqueue=tasks.enqueue_deliveries).enqueued == 1
    spare.wait_for(all_sent(2), "the delivery after the restart")
    deliver_notification.delay(email.pk)  # the lost message, should the broker bring it back
    spare.drain()
    assert len(spare.emails()) == 1


def test_an_emptied_redis_still_delivers_within_a_minute_of_the_due_time(
    cast, worker, time_machine
):
    due = timezone.now().replace(microsecond=0)
    make_checkin(cast.case, cast.assigned, due)
    # Nobody consumes this queue: the tasks sit in Redis until Redis loses them.
    _use_queue(f"{worker.queue}-parked")
    assert scheduler.sweep(enqueue=tasks.enqueue_deliveries).enqueued == 2
    _redis().flushdb()  # Redis loses everything it held (only the tests' own database)
    _use_queue(worker.queue)
    # The beat's next sweep, a minute later, finds the unsent notifications in the database.
    time_machine.move_to(due + dt.timedelta(seconds=60), tick=True)
    assert scheduler.sweep(enqueue=tasks.enqueue_deliveries).enqueued == 2
    worker.wait_for(all_sent(2), "the re-enqueued deliveries")
    worker.drain()
    assert len(worker.emails()) == 1
    for note in Notification.objects.all():
        # Delivered by the first sweep after Redis lost it: within a minute of the due time.
        assert note.sent_at - due <= dt.timedelta(seconds=65)
