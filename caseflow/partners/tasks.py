"""Periodic work: follow-ups for referrals whose reply is overdue."""

from __future__ import annotations

from celery import shared_task

from caseflow.partners.services import referral_followups_sweep


@shared_task(name="caseflow.partners.tasks.referral_followups_sweep")
def referral_followups_sweep_task() -> dict[str, int]:
    """Hourly from beat; takes no arguments and is idempotent (follow-ups are keyed by referral)."""
    return referral_followups_sweep()
