"""The outbox: every piece of background work a request starts goes through :func:`enqueue`.

:func:`enqueue` writes an :class:`~caseflow.outbox.models.Intent` in the caller's transaction
(so the work exists exactly when the change that asked for it does) and, once that transaction
commits, hands the task to the broker. A broker failure is logged (the intent's id and the
error's class, never its arguments) and never reaches the request: the intent waits.

:func:`relay` (a beat task every minute) sends every intent never sent, or sent more than
``OUTBOX_RESEND_SECONDS`` ago and still not done: a message the broker lost, or a worker killed
while running it, is sent again. A task marks its intent done in the transaction of its own
work (:class:`caseflow.outbox.tasks.OutboxTask`), so the intent is done exactly when the work
is; tasks are idempotent, so the rare second run is harmless.

Nothing else in caseflow enqueues a task (a test scans for it); notification deliveries keep
their own outbox, the notification rows themselves (see :mod:`caseflow.checkins.scheduler`).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Min
from django.utils import timezone

from caseflow.outbox.models import Intent

log = logging.getLogger(__name__)


def _name(task: Any) -> str:
    return task if isinstance(task, str) else task.name


def enqueue(task: Any, **ids: int | str) -> Intent:
    """Record that ``task`` (a task or its registered name) must run with ``ids``, in the
    current transaction, and send it to the broker once that transaction commits."""
    for key, value in ids.items():
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise TypeError(f"outbox arguments are ids only: {key} is {type(value).__name__}")
    intent = Intent.objects.create(task=_name(task), kwargs=ids)
    pk, name = intent.pk, intent.task

    # A function, not a functools.partial: when a robust on_commit callback raises, Django logs
    # ``func.__qualname__``, which a partial lacks, and the AttributeError escaped the request
    # (a 500 after the commit). The intent stays unsent and the outbox sends it later.
    def publish() -> None:
        _publish(pk, name, ids)

    transaction.on_commit(publish, robust=True)
    return intent


#: How long a request may wait for the broker (one connection attempt, no retries).
BROKER_TIMEOUT_SECONDS = 2


@contextmanager
def broker_connection() -> Iterator[Any]:
    """A connection to the broker, tried once with a short timeout: a request never waits on
    Celery's default publish retries (seconds) when the broker is away."""
    from caseflow.celery import app

    with app.connection_for_write(
        connect_timeout=BROKER_TIMEOUT_SECONDS,
        transport_options={"socket_connect_timeout": BROKER_TIMEOUT_SECONDS},
    ) as conn:
        conn.ensure_connection(
            max_retries=1,
            interval_start=0,
            interval_step=0,
            interval_max=0,
            timeout=BROKER_TIMEOUT_SECONDS,
        )
        yield conn


def _publish(pk: int, task: str, kwargs: dict) -> bool:
    """Hand one intent to the broker, once, without retrying; record the outcome. False when
    the broker refused it (logged, not raised)."""
    from caseflow.celery import app

    try:
        with broker_connection() as conn:
            app.send_task(task, kwargs={**kwargs, "intent_id": pk}, connection=conn, retry=False)
    except Exception as exc:  # noqa: BLE001 - whatever the broker raises, the intent waits
        log.warning("outbox: intent %s (%s) not sent: %s", pk, task, type(exc).__name__)
        Intent.objects.filter(pk=pk).update(
            attempts=F("attempts") + 1, last_error=type(exc).__name__[:100]
        )
        return False
    Intent.objects.filter(pk=pk).update(
        enqueued_at=timezone.now(), attempts=F("attempts") + 1, last_error=""
    )
    return True


@dataclass
class RelayResult:
    sent: int = 0
    failed: int = 0


def relay(*, batch_size: int = 200) -> RelayResult:
    """Send every intent due (never sent, or sent long ago and not done). Stops at the first
    broker failure: the next run tries again. Safe to run concurrently (rows are claimed)."""
    stale = timezone.now() - dt.timedelta(seconds=settings.OUTBOX_RESEND_SECONDS)
    result = RelayResult()
    while True:
        with transaction.atomic():
            qs = Intent.objects.due(stale).order_by("pk")
            if connection.features.has_select_for_update_skip_locked:
                qs = qs.select_for_update(skip_locked=True)
            rows = list(qs.values_list("pk", "task", "kwargs")[:batch_size])
            for pk, task, kwargs in rows:
                if not _publish(pk, task, kwargs):
                    result.failed += 1
                    return result
                result.sent += 1
        if len(rows) < batch_size:
            return result


def backlog() -> tuple[int, dt.datetime | None]:
    """(how many intents are not done, when the oldest of them was created)."""
    found = Intent.objects.pending().aggregate(oldest=Min("created_at"))
    count = Intent.objects.pending().count() if found["oldest"] else 0
    return count, found["oldest"]
