"""A large case export on a real worker (``tests/celery_harness.py``; PostgreSQL and Redis): the
worker killed after writing the file and before its transaction commits leaves the export running
with nothing named and nothing disclosed; the file it wrote is swept; the outbox sends the task
again, another worker prepares it once, the lost message brought back changes nothing, and the
hand-over records the disclosure once."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.utils import timezone

from caseflow.celery import app as celery_app
from caseflow.confidentiality import services
from caseflow.confidentiality.models import Category, Disclosure, DisclosureKind, PreparedExport
from caseflow.confidentiality.services import prepared_exports
from caseflow.lib import sealedfiles
from caseflow.lib.prepared import PreparedState
from caseflow.outbox import services as outbox
from caseflow.outbox.models import Intent
from tests.celery_harness import PATIENCE, _use_queue, wait_for
from tests.confidentiality.helpers import RECIPIENT, release

pytestmark = [pytest.mark.celery_worker, pytest.mark.xdist_group("celery_worker")]

#: The ``paused`` worker holds every outbox task's transaction open for a minute (to be killed
#: once the export is written and before it is kept).
PAUSED_WORKER_ENV = {"CASEFLOW_TEST_TASK_PAUSE": "60"}


def _files(worker) -> list:
    folder = worker.tmp / "media" / prepared_exports.FOLDER
    return sorted(p for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []


def test_a_worker_killed_mid_export_leaves_nothing_and_it_is_prepared_once(
    cast, broker_to_workers, settings
):
    main, paused = broker_to_workers.main, broker_to_workers.paused
    rel = release(cast, categories=[Category.CONTACT, Category.ADDRESS])
    _use_queue(paused.queue)
    prepared = services.prepared_export_start(
        actor=cast.assigned,
        case=cast.case,
        kind=DisclosureKind.CASE_EXPORT,
        release_id=rel.public_id,
        recipient=RECIPIENT,
        categories=[],
    )
    intent = Intent.objects.get(task=prepared_exports.TASK)
    assert intent.kwargs == {"export_id": prepared.pk} and intent.enqueued_at is not None
    wait_for(lambda: "task paused" in paused.log_text(), PATIENCE, "the export to be written")
    paused.kill()  # SIGKILL inside the export's transaction, before it commits
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.RUNNING and prepared.attempts == 1
    assert prepared.file_name == ""
    intent.refresh_from_db()
    assert intent.completed_at is None
    # The file the lost worker wrote is named by nothing, so it is never served; the sweep
    # deletes it once it is older than EXPORT_STALE_SECONDS.
    (lost,) = _files(paused)
    settings.MEDIA_ROOT = paused.tmp / "media"
    prepared_exports.prepared_export_purge()
    assert _files(paused) == [lost]
    prepared_exports.prepared_export_purge(now=timezone.now() + dt.timedelta(hours=1))
    assert _files(paused) == []

    settings.OUTBOX_RESEND_SECONDS = 0
    _use_queue(main.queue)
    assert outbox.relay().sent == 1
    wait_for(
        lambda: PreparedExport.objects.filter(pk=prepared.pk, state=PreparedState.READY).exists(),
        PATIENCE,
        "the export to be prepared",
    )
    # The lost message, brought back by the broker, finds it ready.
    celery_app.send_task(intent.task, kwargs={**intent.kwargs, "intent_id": intent.pk})
    main.drain()
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.READY and prepared.attempts == 2
    (kept,) = _files(main)
    assert kept.name == prepared.file_name.rsplit("/", 1)[-1]
    assert not Disclosure.objects.exists()
    assert outbox.relay().sent == 0

    settings.MEDIA_ROOT = main.tmp / "media"
    prepared.case = cast.case
    for _ in range(2):
        handed = services.prepared_export_download(actor=cast.assigned, prepared=prepared)
    document = json.loads(handed.data)
    assert [s["category"] for s in document["sections"]] == ["address", "contact"]
    assert document["disclosure"] == Disclosure.objects.get().pk
    assert sealedfiles.exists(prepared.file_name)
