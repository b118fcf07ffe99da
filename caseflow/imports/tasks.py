"""Importing a large batch in the background: the batch's id in, one service call."""

from __future__ import annotations

from celery import shared_task

from caseflow.imports import services
from caseflow.imports.models import ImportBatch
from caseflow.outbox.tasks import OutboxTask


@shared_task(base=OutboxTask, name="caseflow.imports.tasks.import_commit")
def import_commit(batch_id: int) -> None:
    """Idempotent: a batch already imported is left alone; a worker killed half-way leaves
    nothing (one transaction) and the outbox sends the task again."""
    batch = ImportBatch.objects.select_related("created_by").get(pk=batch_id)
    try:
        services.batch_commit(actor=batch.created_by, batch_id=batch_id)
    except services.BatchHasErrors:
        services.batch_stop(batch_id=batch_id)
