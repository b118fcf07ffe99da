"""Periodic confidentiality work: release-expiry follow-ups and due purge proposals."""

from celery import shared_task

from caseflow.confidentiality import services


@shared_task
def sweep_release_expiry() -> int:
    return services.release_expiry_sweep()


@shared_task
def propose_purges() -> int:
    return len(services.purge_propose_due())
