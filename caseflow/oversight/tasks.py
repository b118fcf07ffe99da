"""Periodic audit work, run by beat (see CELERY_BEAT_SCHEDULE): no arguments, idempotent."""

from celery import shared_task

from caseflow.oversight import services


@shared_task
def break_glass_expiry() -> int:
    return services.break_glass_expire_sweep()


@shared_task
def unusual_access() -> int:
    return len(services.unusual_access_sweep())
