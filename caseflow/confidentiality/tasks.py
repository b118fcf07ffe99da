"""Confidentiality work in the background: release-expiry follow-ups, due purge proposals, and
large exports prepared for their asker (the export's id in) and deleted when they expire."""

from typing import Any

from celery import shared_task

from caseflow.confidentiality import services
from caseflow.outbox.tasks import OutboxTask


@shared_task
def sweep_release_expiry() -> int:
    return services.release_expiry_sweep()


@shared_task
def propose_purges() -> int:
    return len(services.purge_propose_due())


class PrepareExportTask(OutboxTask):
    """Marks the export running before the outbox's transaction opens (its page says so at
    once), then builds it inside that transaction, which also marks the intent done."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        export_id = kwargs.get("export_id")
        if export_id is not None:
            services.prepared_export_claim(export_id=export_id)
        return super().__call__(*args, **kwargs)


@shared_task(base=PrepareExportTask, name="caseflow.confidentiality.tasks.prepare_export")
def prepare_export(export_id: int) -> None:
    """Idempotent: one ready is left alone; a worker killed half-way leaves no result (one
    transaction; a file it wrote is named by nothing and swept) and the outbox sends the task
    again. One that can no longer be built as asked is marked failed, nothing kept."""
    try:
        services.prepared_export_build(export_id=export_id)
    except services.PreparationFailed as exc:
        services.prepared_export_fail(export_id=export_id, error=str(exc))


@shared_task(name="caseflow.confidentiality.tasks.purge_prepared_exports")
def purge_prepared_exports() -> int:
    """Delete the prepared exports past their expiry and their files (hourly, by beat)."""
    return services.prepared_export_purge()
