"""Preparing a large funder report in the background (the prepared report's id in), and the
hourly purge of the prepared reports past their expiry."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from caseflow.outbox.tasks import OutboxTask
from caseflow.reporting import services


class PrepareTask(OutboxTask):
    """Marks the report running before the outbox's transaction opens (its page says so at
    once), then computes it inside that transaction, which also marks the intent done."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        report_id = kwargs.get("report_id")
        if report_id is not None:
            services.prepared_claim(report_id=report_id)
        return super().__call__(*args, **kwargs)


@shared_task(base=PrepareTask, name="caseflow.reporting.tasks.prepare_report")
def prepare_report(report_id: int) -> None:
    """Idempotent: a report ready is left alone; a worker killed half-way leaves no result (one
    transaction) and the outbox sends the task again. A report its asker may no longer run is
    marked failed, in the same transaction that marks the intent done."""
    try:
        services.prepared_compute(report_id=report_id)
    except services.PreparationFailed as exc:
        services.prepared_fail(report_id=report_id, error=str(exc))


@shared_task(name="caseflow.reporting.tasks.purge_prepared")
def purge_prepared() -> int:
    """Delete the prepared reports past their expiry (hourly, by beat)."""
    return services.prepared_purge()
