"""Background work for cases, run by beat (see CELERY_BEAT_SCHEDULE): no arguments, idempotent."""

from celery import shared_task

from caseflow.cases import drafts, reassign


@shared_task(name="caseflow.cases.tasks.forget_expired_drafts")
def forget_expired_drafts() -> int:
    """Forget drafts older than ``DRAFT_DAYS`` and those of deactivated staff."""
    return drafts.drafts_forget_expired()


@shared_task(name="caseflow.cases.tasks.no_primary_check")
def no_primary_check() -> int:
    """Tell supervisors of open cases left without an active primary advocate (daily)."""
    return reassign.no_primary_sweep()
