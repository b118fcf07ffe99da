"""A large import on a real worker (``tests/celery_harness.py``; PostgreSQL and Redis): the
worker killed in the middle of the batch's transaction leaves nothing imported and the batch
waiting; the outbox sends it again, another worker imports it once, and the lost message
brought back later changes nothing."""

from __future__ import annotations

import pytest
from django.utils import timezone

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case
from caseflow.casework.models import CaseNote
from caseflow.celery import app as celery_app
from caseflow.imports import sample, services
from caseflow.imports.models import BatchState, ImportRecord
from caseflow.outbox import services as outbox
from caseflow.outbox.models import Intent
from tests.celery_harness import PATIENCE, _use_queue, wait_for

pytestmark = [pytest.mark.celery_worker, pytest.mark.xdist_group("celery_worker")]

#: The ``paused`` worker holds every outbox task's transaction open for a minute (to be killed
#: once the batch is written and before it commits).
PAUSED_WORKER_ENV = {"CASEFLOW_TEST_TASK_PAUSE": "60"}


def test_a_worker_killed_mid_import_leaves_nothing_and_the_batch_is_imported_once(
    cast, broker_to_workers, settings
):
    main, paused = broker_to_workers.main, broker_to_workers.paused
    settings.IMPORT_BACKGROUND_ROWS = 2
    data = sample.sample_csv(
        4, team="Team 1", advocate="assigned", today=timezone.localdate(), errors=0
    )
    batch = services.batch_upload(actor=cast.agency_admin, name="cases.csv", data=data)
    services.batch_check(actor=cast.agency_admin, batch=batch, mapping=batch.mapping)
    batch.refresh_from_db()
    before = (Case.objects.count(), CaseNote.objects.count())
    _use_queue(paused.queue)
    assert services.batch_start(actor=cast.agency_admin, batch=batch) is True
    intent = Intent.objects.get()
    assert intent.kwargs == {"batch_id": batch.pk} and intent.enqueued_at is not None
    wait_for(lambda: "task paused" in paused.log_text(), PATIENCE, "the batch to be written")
    paused.kill()  # SIGKILL inside the batch's transaction, before it commits
    assert (Case.objects.count(), CaseNote.objects.count()) == before
    assert not ImportRecord.objects.exists()
    batch.refresh_from_db()
    assert batch.state == BatchState.QUEUED
    intent.refresh_from_db()
    assert intent.completed_at is None
    assert not AuditEvent.objects.filter(action="import.commit").exists()

    settings.OUTBOX_RESEND_SECONDS = 0
    _use_queue(main.queue)
    assert outbox.relay().sent == 1
    wait_for(
        lambda: ImportRecord.objects.filter(batch=batch).count() == 4,
        PATIENCE,
        "the batch to be imported",
    )
    # The lost message, brought back by the broker, finds it imported.
    celery_app.send_task(intent.task, kwargs={**intent.kwargs, "intent_id": intent.pk})
    main.drain()
    batch.refresh_from_db()
    assert batch.state == BatchState.DONE and batch.counts["created"] == 4
    assert Case.objects.count() == before[0] + 4
    assert ImportRecord.objects.count() == 4
    assert AuditEvent.objects.filter(action="import.commit").count() == 1
    assert outbox.relay().sent == 0
