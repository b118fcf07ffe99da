"""Celery tasks: ids in, one service call, idempotent. The options they share (acks late,
redelivered when a worker is lost, retried while the database is away) are on
:class:`caseflow.lib.tasks.CaseflowTask`."""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task

from caseflow.checkins import proposals, scheduler
from caseflow.lib.tasks import CaseflowTask


@shared_task(
    name="caseflow.checkins.tasks.deliver_notification",
    # E-mail can fail for a while too.
    autoretry_for=(*CaseflowTask.autoretry_for, SMTPException),
)
def deliver_notification(notification_id: int) -> str:
    return scheduler.notification_deliver(notification_id=notification_id)


def enqueue_deliveries(ids: list[int]) -> None:
    """Enqueue one delivery task per notification id, when the transaction commits."""
    for pk in ids:
        deliver_notification.delay_on_commit(pk)


@shared_task(name="caseflow.checkins.tasks.sweep_due")
def sweep_due() -> None:
    scheduler.sweep(enqueue=enqueue_deliveries)


@shared_task(name="caseflow.checkins.tasks.proposals_sweep")
def proposals_sweep() -> int:
    """Hourly from beat; takes no arguments and is idempotent (follow-ups keyed by occasion)."""
    return proposals.checkin_proposals_sweep()
