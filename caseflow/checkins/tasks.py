"""Celery tasks: ids in, one service call, idempotent.

Both are ``acks_late`` with ``reject_on_worker_lost``: a worker killed mid-task leaves the
message to be delivered again, and the second run finds the work done or does it once.
"""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task
from django.db import OperationalError

from caseflow.checkins import scheduler


@shared_task(
    name="caseflow.checkins.tasks.deliver_notification",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    autoretry_for=(SMTPException, ConnectionError, OperationalError),
    retry_backoff=10,
    retry_backoff_max=120,
    max_retries=5,
)
def deliver_notification(notification_id: int) -> str:
    return scheduler.notification_deliver(notification_id=notification_id)


def enqueue_deliveries(ids: list[int]) -> None:
    """Enqueue one delivery task per notification id, when the transaction commits."""
    for pk in ids:
        deliver_notification.delay_on_commit(pk)


@shared_task(
    name="caseflow.checkins.tasks.sweep_due",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def sweep_due() -> None:
    scheduler.sweep(enqueue=enqueue_deliveries)
