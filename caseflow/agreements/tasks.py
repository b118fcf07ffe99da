"""Background work for agreements: evaluating escalation rules after a breach is recorded."""

from __future__ import annotations

from celery import shared_task

from caseflow.agreements import services


@shared_task
def escalate_breach(breach_id: int) -> None:
    """Evaluate the escalation rules for one breach. Idempotent: safe to retry."""
    services.breach_escalate(breach_id=breach_id)
