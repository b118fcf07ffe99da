"""A large funder report on a real worker (``tests/celery_harness.py``; PostgreSQL and Redis):
the worker killed in the middle of the report leaves it running with no result and no audit
record; the outbox sends it again, another worker prepares it once, and the lost message
brought back later changes nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import PartyRole
from caseflow.celery import app as celery_app
from caseflow.outbox import services as outbox
from caseflow.outbox.models import Intent
from caseflow.reporting import reports, services
from caseflow.reporting.models import PreparedReport, PreparedState
from tests import factories as f
from tests.celery_harness import PATIENCE, _use_queue, wait_for

pytestmark = [pytest.mark.celery_worker, pytest.mark.xdist_group("celery_worker")]

#: The ``paused`` worker holds every outbox task's transaction open for a minute (to be killed
#: once the report is computed and before it is kept).
PAUSED_WORKER_ENV = {"CASEFLOW_TEST_TASK_PAUSE": "60"}


def test_a_worker_killed_mid_report_leaves_nothing_and_the_report_is_prepared_once(
    cast, broker_to_workers, settings
):
    main, paused = broker_to_workers.main, broker_to_workers.paused
    for n in range(7):
        case = f.open_case(cast.team1, reference=f"R-{n}")
        case.opened_at = timezone.now() - dt.timedelta(days=400)
        case.save(update_fields=["opened_at"])
        f.add_party(case, PartyRole.SURVIVOR, full_name=f"Survivor {n}")
    period = reports.periods("federal_quarter", timezone.localdate())[0]
    _use_queue(paused.queue)
    prepared = services.prepared_start(actor=cast.supervisor, slug="voca", period=period)
    intent = Intent.objects.get()
    assert intent.kwargs == {"report_id": prepared.pk} and intent.enqueued_at is not None
    wait_for(lambda: "task paused" in paused.log_text(), PATIENCE, "the report to be computed")
    paused.kill()  # SIGKILL inside the report's transaction, before it commits
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.RUNNING and prepared.attempts == 1
    assert prepared.result is None
    intent.refresh_from_db()
    assert intent.completed_at is None
    assert not AuditEvent.objects.filter(action="report.funder").exists()

    settings.OUTBOX_RESEND_SECONDS = 0
    _use_queue(main.queue)
    assert outbox.relay().sent == 1
    wait_for(
        lambda: PreparedReport.objects.filter(pk=prepared.pk, state=PreparedState.READY).exists(),
        PATIENCE,
        "the report to be prepared",
    )
    # The lost message, brought back by the broker, finds it ready.
    celery_app.send_task(intent.task, kwargs={**intent.kwargs, "intent_id": intent.pk})
    main.drain()
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.READY and prepared.attempts == 2
    assert prepared.opened() == services.csv_bytes(reports.release("voca", cast.agency.pk, period))
    assert AuditEvent.objects.filter(action="report.funder").count() == 1
    assert outbox.relay().sent == 0
