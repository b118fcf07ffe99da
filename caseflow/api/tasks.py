"""Webhook work: fan an event out to the agency's subscriptions, send one delivery, and the
sweep that sends again what a receiver did not accept (the rows are the truth: nothing is
scheduled ahead in the broker)."""

from __future__ import annotations

from celery import shared_task

from caseflow.api import services
from caseflow.outbox.tasks import OutboxTask


@shared_task(base=OutboxTask, name="caseflow.api.tasks.webhook_fanout")
def webhook_fanout(kind: str, agency_id: int, case: str, at: str) -> None:
    services.webhook_fanout(kind=kind, agency_id=agency_id, case_public_id=case, at=at)


@shared_task(base=OutboxTask, name="caseflow.api.tasks.deliver_webhook")
def deliver_webhook(delivery_id: int) -> None:
    services.delivery_attempt(delivery_id=delivery_id)


@shared_task(name="caseflow.api.tasks.webhook_retry_sweep")
def webhook_retry_sweep() -> None:
    services.delivery_retry_sweep()


@shared_task(name="caseflow.api.tasks.high_risk_sweep")
def high_risk_sweep() -> None:
    services.high_risk_sweep()
