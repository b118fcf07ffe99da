"""The duty line's pages: happy paths, bad input on the form, and who reaches what."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.calls import services
from caseflow.calls.models import Call
from caseflow.cases.models import Case, PartyRole
from tests import factories as f

NOW = dt.datetime(2026, 11, 10, 14, 30, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def pinned():
    with time_machine.travel(NOW, tick=False):
        yield


def _named(cast, user=None) -> Call:
    return services.call_log(
        actor=user or cast.assigned,
        caller_kind="survivor",
        caller_name="Rowan Ashby",
        needs=["housing"],
        notes="Staying with a friend tonight.",
    )


def test_the_form_opens_with_now_and_logs_an_anonymous_call(cast, login):
    client = login(cast.assigned)
    page = client.get(reverse("calls:new"))
    assert page.status_code == 200
    assert 'value="2026-11-10T14:30"' in page.content.decode()  # London is on UTC in November
    response = client.post(
        reverse("calls:new"),
        {
            "caller_kind": "anonymous",
            "taken_at": "2026-11-10T14:10",
            "duration_minutes": "12",
            "needs": ["safety", "information"],
            "responses": ["information"],
        },
    )
    call = Call.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("calls:detail", args=[call.public_id])
    assert call.caller_kind == "anonymous"
    assert call.taken_at == dt.datetime(2026, 11, 10, 14, 10, tzinfo=dt.UTC)
    detail = client.get(response["Location"])
    assert "Open a case from this call" not in detail.content.decode()


def test_a_name_on_an_anonymous_call_is_a_form_error_and_nothing_typed_is_lost(cast, login):
    client = login(cast.assigned)
    response = client.post(
        reverse("calls:new"),
        {
            "caller_kind": "anonymous",
            "taken_at": "2026-11-10T14:10",
            "caller_name": "Rowan",
            "needs": ["housing"],
        },
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "An anonymous call keeps nothing that could identify the caller" in body
    assert 'value="housing" checked' in body or "checked" in body
    assert not Call.objects.exists()


def test_a_call_in_the_future_is_a_form_error(cast, login):
    response = login(cast.assigned).post(
        reverse("calls:new"), {"caller_kind": "survivor", "taken_at": "2026-11-11T09:00"}
    )
    assert response.status_code == 200
    assert "This time is in the future." in response.content.decode()
    assert not Call.objects.exists()


def test_the_list_counts_by_day_and_shows_no_personal_data(cast, login):
    _named(cast)
    services.call_log(actor=cast.supervisor, caller_kind="anonymous")
    response = login(cast.same_team).get(reverse("calls:list"))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Rowan" not in body and "Staying" not in body
    assert "Anonymous" in body and "The survivor" in body
    assert AuditEvent.objects.filter(action="call.list").count() == 1


def test_the_list_refuses_other_methods_and_roles(cast, login):
    assert login(cast.assigned).post(reverse("calls:list")).status_code == 405
    assert login(cast.auditor).get(reverse("calls:list")).status_code == 403
    response = login(None).get(reverse("calls:list"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_a_call_is_read_by_its_logger_and_supervisors_only(cast, login):
    call = _named(cast)
    url = reverse("calls:detail", args=[call.public_id])
    mine = login(cast.assigned).get(url)
    assert mine.status_code == 200 and "Rowan Ashby" in mine.content.decode()
    assert login(cast.other_supervisor).get(url).status_code == 200
    assert login(cast.same_team).get(url).status_code == 404
    assert login(cast.other_agency).get(url).status_code == 404
    assert login(cast.assigned).post(url).status_code == 405
    assert AuditEvent.objects.filter(action="call.view").count() == 2


def test_an_anonymous_call_cannot_be_taken_on(cast, login):
    call = services.call_log(actor=cast.assigned, caller_kind="anonymous")
    client = login(cast.assigned)
    assert client.get(reverse("calls:open_case", args=[call.public_id])).status_code == 403
    assert client.get(reverse("calls:attach", args=[call.public_id])).status_code == 403


def test_opening_a_case_from_a_call(cast, login):
    call = _named(cast)
    client = login(cast.assigned)
    url = reverse("calls:open_case", args=[call.public_id])
    form = client.get(url)
    assert 'value="Rowan Ashby"' in form.content.decode()
    response = client.post(url, {"team": cast.team1.pk, "survivor_full_name": "Rowan Ashby"})
    call.refresh_from_db()
    case = Case.objects.get(pk=call.case_id)
    assert response.status_code == 302
    assert response["Location"] == reverse("cases:detail", args=[case.public_id])
    timeline = client.get(reverse("cases:timeline", args=[case.public_id]))
    assert "Call on the duty line" in timeline.content.decode()
    # Taken on once: the page is refused from now on.
    assert client.get(url).status_code == 403


def test_opening_a_case_from_a_call_offers_the_survivors_earlier_case(cast, login):
    f.add_party(cast.case, PartyRole.SURVIVOR, full_name="Rowan Ashby")
    call = _named(cast)
    client = login(cast.assigned)
    url = reverse("calls:open_case", args=[call.public_id])
    offered = client.post(url, {"team": cast.team1.pk, "survivor_full_name": "Rowan Ashby"})
    assert offered.status_code == 200
    assert "This survivor may already be known to the agency" in offered.content.decode()
    assert Case.objects.count() == 4  # the cast's cases, nothing opened
    taken = client.post(
        url,
        {"team": cast.team1.pk, "survivor_full_name": "Rowan Ashby", "reopen": cast.case.public_id},
    )
    assert taken.status_code == 302
    assert Call.objects.get(pk=call.pk).case_id == cast.case.pk


def test_a_new_case_from_a_call_despite_an_earlier_one_is_recorded_as_the_intakes_is(cast, login):
    f.add_party(cast.case, PartyRole.SURVIVOR, full_name="Rowan Ashby")
    call = _named(cast)
    client = login(cast.assigned)
    url = reverse("calls:open_case", args=[call.public_id])
    answer = {"team": cast.team1.pk, "survivor_full_name": "Rowan Ashby", "new_anyway": "1"}
    response = client.post(url, answer)
    assert response.status_code == 302
    call.refresh_from_db()
    opened = Case.objects.get(pk=call.case_id)
    assert opened.pk != cast.case.pk
    choice = AuditEvent.objects.get(action="intake.earlier_case", case_id=opened.pk)
    assert choice.detail == {"choice": "new_case", "cases": [cast.case.pk], "elsewhere": 0}


def test_attaching_a_call_to_a_case_found_by_name(cast, login):
    f.add_party(cast.case, PartyRole.SURVIVOR, full_name="Rowan Ashby")
    f.add_party(cast.team2_case, PartyRole.SURVIVOR, full_name="Rowan Ashby")
    call = _named(cast)
    client = login(cast.assigned)
    url = reverse("calls:attach", args=[call.public_id])
    found = client.post(url, {"name": "rowan  ASHBY"})
    body = found.content.decode()
    assert found.status_code == 200
    assert cast.case.reference in body
    assert cast.team2_case.reference not in body  # not a case this advocate may see
    assert AuditEvent.objects.filter(action="case.search_name").count() == 1
    # A case outside the advocate's reach is not found, whatever is posted.
    assert client.post(url, {"case": cast.team2_case.public_id}).status_code == 404
    done = client.post(url, {"case": cast.case.public_id})
    assert done.status_code == 302
    assert Call.objects.get(pk=call.pk).case_id == cast.case.pk
    assert AuditEvent.objects.filter(action="call.attach", case_id=cast.case.pk).count() == 1


def test_a_call_on_a_case_follows_the_case(cast, login):
    call = _named(cast)
    url = reverse("calls:detail", args=[call.public_id])
    assert login(cast.supervisor).get(url).status_code == 200
    services.call_attach(actor=cast.assigned, call=call, case=cast.restricted_case)
    # Only the restricted case's listed advocate reads it now, not the agency's supervisors.
    assert login(cast.assigned).get(url).status_code == 200
    assert login(cast.supervisor).get(url).status_code == 404
