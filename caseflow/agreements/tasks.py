"""Background work for agreements: evaluating escalation rules after a breach is recorded."""

from __future__ import annotations

from celery import shared_task

from caseflow.agreements import services
from caseflow.outbox.tasks import OutboxTask


@shared_task(base=OutboxTask, name="caseflow.agreements.tasks.escalate_breach")
def escalate_breach(breach_id: int) -> None:
    """Evaluate the escalation rules for one breach. Idempotent: safe to retry."""
    services.breach_escalate(breach_id=breach_id)
