"""Background work for casework: escalating a serious incident after it is recorded."""

from __future__ import annotations

from celery import shared_task

from caseflow.casework import services
from caseflow.outbox.tasks import OutboxTask


@shared_task(base=OutboxTask, name="caseflow.casework.tasks.escalate_incident")
def escalate_incident(incident_id: int) -> None:
    """Propose a risk re-assessment and tell the supervisors if due. Idempotent: safe to retry."""
    services.incident_escalate(incident_id=incident_id)
