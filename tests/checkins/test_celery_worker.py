"""The scheduler with a real Celery worker on Redis (not eager mode).

The worker runs as a subprocess against this test database, so these tests need PostgreSQL (an
SQLite test database lives in this process's memory) and a reachable Redis. Without them they
are skipped, saying why, except when ``CASEFLOW_REQUIRE_SERVICES=1`` (CI's PostgreSQL run):
then an unreachable Redis fails. All of them run in one xdist worker, each on its own queue.

Waiting here is bounded polling of another process's observable state, never a fixed sleep.
"""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection, connections
from django.utils import timezone

from caseflow.celery import app as celery_app
from caseflow.checkins import scheduler, tasks
from caseflow.checkins.tasks import deliver_notification
from caseflow.inbox.models import Notification, NotificationChannel
from tests.checkins.helpers import make_checkin
from tests.conftest import canary

pytestmark = [pytest.mark.celery_worker, pytest.mark.xdist_group("celery_worker")]

REDIS_URL = (
    os.environ.get("CASEFLOW_TEST_REDIS_URL")
    or os.environ.get("REDIS_URL")
    or "redis://127.0.0.1:6379/15"
)
BASE = Path(django_settings.BASE_DIR)


def _redis():
    import redis

    return redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1, socket_timeout=5)


def _require_services() -> None:
    if connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL: the worker process must share the test database, and an SQLite "
            "test database lives in this process only (set DATABASE_URL to a PostgreSQL URL)"
        )
    try:
        _redis().ping()
    except Exception as exc:  # noqa: BLE001 - any failure means "unreachable"
        if os.environ.get("CASEFLOW_REQUIRE_SERVICES") == "1":
            pytest.fail(f"Redis at {REDIS_URL} is unreachable ({exc}) and services are required")
        pytest.skip(f"Redis at {REDIS_URL} is unreachable ({exc})")


def wait_for(predicate, timeout: float, what: str, step: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


class Worker:
    """One ``celery worker --pool=solo`` on its own queue, against the test database."""

    def __init__(self, tmp: Path, queue: str):
        tmp.mkdir(parents=True, exist_ok=True)
        self.tmp = tmp
        self.queue = queue
        self.proc: subprocess.Popen | None = None
        self.runs = 0
        db = connection.settings_dict
        auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
        self.env = {
            **os.environ,
            "DATABASE_URL": f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}",
            "REDIS_URL": REDIS_URL,
            "SECRET_KEY": django_settings.SECRET_KEY,
            "FIELD_ENCRYPTION_KEYS": ",".join(django_settings.FIELD_ENCRYPTION_KEYS),
            "BLIND_INDEX_KEY": django_settings.BLIND_INDEX_KEY,
            "AUDIT_SIGNING_KEY": django_settings.AUDIT_SIGNING_KEY,
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "CASEFLOW_VAR_DIR": str(tmp),
            # No connection outlives a task: the test database is flushed between tests.
            "DB_CONN_MAX_AGE": "0",
            "PYTHONUNBUFFERED": "1",
        }
        self.env.pop("CASEFLOW_TEST_DELIVERY_PAUSE", None)

    @property
    def log(self) -> Path:
        return self.tmp / f"worker-{self.runs}.log"

    @property
    def out(self) -> Path:
        return self.tmp / f"worker-{self.runs}.out"

    @property
    def mail(self) -> Path:
        return self.tmp / "mail"

    def log_text(self) -> str:
        return self.log.read_text() if self.log.exists() else ""

    def launch(self, **env: str) -> Worker:
        self.runs += 1
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "caseflow",
                "worker",
                "--pool=solo",
                "-Q",
                self.queue,
                "-n",
                f"{self.queue}-{self.runs}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel=INFO",
                f"--logfile={self.log}",
            ],
            env={**self.env, **env},
            cwd=BASE,
            stdout=self.out.open("ab"),
            stderr=subprocess.STDOUT,
        )
        return self

    def ready(self) -> Worker:
        try:
            wait_for(lambda: " ready." in self.log_text(), 45, "the worker to be ready")
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{self.out.read_text()[-3000:]}") from None
        return self

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGQUIT)  # cold shutdown: nothing is left in flight
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()

    def drain(self, timeout: float = 20) -> None:
        """Wait until every task queued so far has run: a sentinel goes last on the FIFO queue
        of a one-at-a-time worker, and its success is logged."""
        marker = f"sentinel-{uuid.uuid4()}"
        deliver_notification.apply_async(args=(0,), task_id=marker, queue=self.queue)
        wait_for(lambda: f"[{marker}] succeeded" in self.log_text(), timeout, "the queue to drain")

    def emails(self) -> list[str]:
        messages = []
        if self.mail.exists():
            for path in sorted(self.mail.iterdir()):
                for chunk in path.read_text().split("-" * 79):
                    if "Message-ID:" in chunk:
                        messages.append(chunk)
        return messages

    def clear_mail(self) -> None:
        if self.mail.exists():
            for path in self.mail.iterdir():
                path.unlink()


@dataclass
class Workers:
    main: Worker  # delivers
    spare: Worker  # holds every delivery open (to be killed mid-flight)


def _use_queue(queue: str) -> None:
    celery_app.conf.task_default_queue = queue
    _reset_producer()


def _reset_producer() -> None:
    celery_app._pool = None
    amqp = celery_app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None


@pytest.fixture(scope="module")
def workers(django_db_setup, django_db_blocker, tmp_path_factory):
    """Two workers for the module (starting one takes seconds): started together."""
    _require_services()
    tmp = tmp_path_factory.mktemp("celery")
    run = uuid.uuid4().hex[:10]
    main = Worker(tmp / "main", f"caseflow-test-{run}-main").launch()
    spare = Worker(tmp / "spare", f"caseflow-test-{run}-spare").launch(
        CASEFLOW_TEST_DELIVERY_PAUSE="60"
    )
    saved = {
        key: celery_app.conf[key]
        for key in ("broker_url", "broker_transport_options", "task_default_queue")
    }
    celery_app.conf.update(
        broker_url=REDIS_URL, broker_transport_options={"visibility_timeout": 3600}
    )
    _use_queue(main.queue)
    try:
        main.ready()
        spare.ready()
        yield Workers(main, spare)
    finally:
        main.stop()
        spare.stop()
        celery_app.conf.update(**saved)
        _reset_producer()


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
    wait_for(all_sent(2), 20, "both deliveries")
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
    wait_for(all_sent(30), 30, "all deliveries")
    worker.drain()
    assert len(worker.emails()) == 15


def test_a_worker_killed_mid_delivery_delivers_once_after_restart(cast, workers, worker, settings):
    spare = workers.spare
    make_checkin(cast.case, cast.assigned, timezone.now() - dt.timedelta(minutes=1))
    _use_queue(f"{spare.queue}-parked")  # nobody consumes this queue
    assert scheduler.sweep(enqueue=tasks.enqueue_deliveries).enqueued == 2
    Notification.objects.filter(channel=NotificationChannel.IN_APP).update(sent_at=timezone.now())
    email = Notification.objects.get(channel=NotificationChannel.EMAIL)
    _use_queue(spare.queue)
    deliver_notification.delay(email.pk)
    wait_for(lambda: "delivery paused" in spare.log_text(), 20, "the delivery to start")
    spare.kill()  # SIGKILL in the middle of the e-mail delivery, before it commits
    email.refresh_from_db()
    assert email.sent_at is None and spare.emails() == []
    # The worker restarts (without the pause); the next sweep enqueues what was claimed but
    # never sent.
    spare.launch().ready()
    settings.NOTIFY_REQUEUE_SECONDS = 0
    assert scheduler.sweep(enqueue=tasks.enqueue_deliveries).enqueued == 1
    wait_for(all_sent(2), 20, "the delivery after the restart")
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
    wait_for(all_sent(2), 20, "the re-enqueued deliveries")
    worker.drain()
    assert len(worker.emails()) == 1
    for note in Notification.objects.all():
        # Delivered by the first sweep after Redis lost it: within a minute of the due time.
        assert note.sent_at - due <= dt.timedelta(seconds=65)
