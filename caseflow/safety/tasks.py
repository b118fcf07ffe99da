"""Periodic safety work: follow-ups for overdue plan reviews and expiring protective orders."""

from __future__ import annotations

from celery import shared_task

from caseflow.safety.services import safety_followups_sweep


@shared_task(name="caseflow.safety.tasks.followups_sweep")
def followups_sweep() -> dict[str, int]:
    """Hourly from beat; takes no arguments and is idempotent (follow-ups are keyed by source)."""
    return safety_followups_sweep()
