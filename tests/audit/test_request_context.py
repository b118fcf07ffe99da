"""Services take the acting user; the request id and client address reach their audit events
through the request context, which the middleware sets for a request and the task base for a
task, and which neither leaves behind."""

from __future__ import annotations

from celery import shared_task
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.audit.services import record
from caseflow.lib.request_context import current, serving


@shared_task(name="tests.audit.record_missed")
def record_missed() -> int:
    return record("checkin.missed", detail={"by": "task"}).pk


def test_an_event_a_service_writes_during_a_request_carries_its_address_and_id(
    cast, login, settings
):
    settings.TRUSTED_PROXY_IP_HEADER = "X-Forwarded-For"
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    response = login(cast.supervisor).post(
        reverse("cases:assign", args=[cast.case.public_id]),
        {"primary": cast.same_team.pk},
        HTTP_X_FORWARDED_FOR="198.51.100.7",
    )
    assert response.status_code == 302
    # Written by cases.services.case_assign, which is given the supervisor, not the request.
    event = AuditEvent.objects.get(action="case.assign")
    assert event.actor_id == cast.supervisor.pk
    assert event.ip == "198.51.100.7"
    assert event.request_id == response["X-Request-ID"] != ""


def test_the_context_ends_with_the_request(cast, login):
    response = login(cast.assigned).get(reverse("cases:detail", args=[cast.case.public_id]))
    assert response["X-Request-ID"]
    assert current() is None
    event = record("checkin.missed")
    assert (event.request_id, event.ip) == ("", "")


def test_an_event_a_task_writes_carries_the_task_id_and_no_address(db):
    # As if the worker's thread still held a request's context: the task serves its own.
    with serving(request_id="stale-request", ip="198.51.100.7"):
        result = record_missed.apply(task_id="task-0001")
        assert current() is not None and current().request_id == "stale-request"
    event = AuditEvent.objects.get(pk=result.get())
    assert (event.request_id, event.ip) == ("task-0001", "")


def test_a_task_run_after_a_request_carries_nothing_of_it(cast, login):
    login(cast.assigned).get(reverse("cases:detail", args=[cast.case.public_id]))
    event = AuditEvent.objects.get(pk=record_missed.apply().get())
    assert event.ip == ""
    assert not AuditEvent.objects.filter(request_id=event.request_id, action="case.view").exists()
