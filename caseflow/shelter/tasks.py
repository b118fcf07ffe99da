"""Periodic work: open stays keep their bed held ahead."""

from __future__ import annotations

from celery import shared_task

from caseflow.shelter.services import holds_extend


@shared_task(name="caseflow.shelter.tasks.holds_extend")
def holds_extend_task() -> dict[str, int]:
    """Daily from beat; takes no arguments and is idempotent (nights are unique per bed)."""
    return holds_extend()
