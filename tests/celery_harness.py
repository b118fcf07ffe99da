"""A real Celery worker for tests: ``celery worker --pool=solo`` as a subprocess on its own
Redis queue, against the test database (so PostgreSQL only: an SQLite test database lives in
this process's memory), and the module-scoped pair of workers the fault tests share (the
``worker_pair`` fixture in ``tests/conftest.py``).

Waiting here is bounded polling of another process's observable state, never a fixed sleep.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection

from caseflow.celery import app as celery_app
from caseflow.checkins.tasks import deliver_notification

BASE = Path(django_settings.BASE_DIR)

REDIS_URL = (
    os.environ.get("CASEFLOW_TEST_REDIS_URL")
    or os.environ.get("REDIS_URL")
    or "redis://127.0.0.1:6379/15"
)


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


#: How long a test waits for what a worker does: generous, as the drain's, for CI's two shared
#: cores with the browser suite beside them. What is checked is what the worker did, never how
#: fast it did it.
PATIENCE = 180


#: However busy the worker keeps, a wait that it never ends gives up after this many times its
#: patience.
LONGEST = 4


def wait_for(predicate, timeout: float, what: str, step: float = 0.1, progress=None):
    """Wait until ``predicate()`` holds, at most ``timeout`` seconds; or, given ``progress``
    (what the worker has done so far, e.g. the length of its log), at most ``timeout`` seconds
    in which nothing more is done, and at most ``LONGEST`` times ``timeout`` in all: a worker
    slowed by a busy machine is waited for while it still works."""
    start = time.monotonic()
    deadline = start + timeout
    seen = progress() if progress else None
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
        if progress is not None and (now := progress()) != seen:
            seen = now
            deadline = min(time.monotonic() + timeout, start + LONGEST * timeout)
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

    def log_size(self) -> int:
        """How much the worker has logged: it grows with every task it takes and ends."""
        return self.log.stat().st_size if self.log.exists() else 0

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

    def wait_for(self, predicate, what: str, timeout: float = PATIENCE):
        """``wait_for`` on what this worker does; should it time out, the worker's last words
        are in the failure."""
        try:
            return wait_for(predicate, timeout, what, progress=self.log_size)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{self.log_text()[-3000:]}") from None

    def drain(self, timeout: float = PATIENCE) -> None:
        """Wait until every task queued so far has run: a sentinel goes last on the FIFO queue
        of a one-at-a-time worker, and its success is logged. Should the worker do nothing for
        ``PATIENCE`` seconds before it, the worker's last words are in the failure."""
        marker = f"sentinel-{uuid.uuid4()}"
        deliver_notification.apply_async(args=(0,), task_id=marker, queue=self.queue)
        try:
            wait_for(
                lambda: f"[{marker}] succeeded" in self.log_text(),
                timeout,
                "the queue to drain",
                progress=self.log_size,
            )
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{self.log_text()[-3000:]}") from None

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
    main: Worker  # runs tasks
    paused: Worker  # holds every task open (to be killed mid-flight)


def _use_queue(queue: str) -> None:
    celery_app.conf.task_default_queue = queue
    _reset_producer()


def _reset_producer() -> None:
    celery_app._pool = None
    amqp = celery_app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None


@contextmanager
def worker_pair(tmp: Path, label: str, paused_env: dict[str, str]) -> Iterator[Workers]:
    """Two workers started together (starting one takes seconds): ``main`` runs tasks,
    ``paused`` is launched with ``paused_env`` (a pause to be killed in)."""
    _require_services()
    run = uuid.uuid4().hex[:10]
    main = Worker(tmp / "main", f"caseflow-test-{run}-{label}").launch()
    paused = Worker(tmp / "paused", f"caseflow-test-{run}-{label}-paused").launch(**paused_env)
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
        paused.ready()
        yield Workers(main, paused)
    finally:
        main.stop()
        paused.stop()
        celery_app.conf.update(**saved)
        _reset_producer()
