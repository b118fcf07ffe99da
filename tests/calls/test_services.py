"""Logging calls and taking them on: what is kept, what is refused, what reaches the case."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connection, transaction

from caseflow import policy
from caseflow.audit.models import AuditEvent
from caseflow.calls import services
from caseflow.calls.models import Call
from caseflow.calls.services import CallRefused
from caseflow.cases import timeline
from caseflow.cases.models import CaseStatus, PartyRole
from caseflow.casework.models import CaseNote, Need
from caseflow.inbox.models import FollowUp
from tests import factories as f

NOW = dt.datetime(2026, 11, 10, 14, 30, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def pinned():
    with time_machine.travel(NOW, tick=False):
        yield


def _raw(call: Call, column: str) -> str | None:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {column} FROM calls_call WHERE id = %s", [call.pk])
        return cursor.fetchone()[0]


def _survivor_call(cast, **kw) -> Call:
    fields = {
        "caller_kind": "survivor",
        "needs": ["refuge", "housing", "children"],
        "safety_concerns": ["threats"],
        "responses": ["safety_planning"],
        "caller_name": "Rowan Ashby",
        "caller_phone": "07700 900123",
        "notes": "Left last night with the children.",
        "safety_detail": "He said he would find her.",
        "duration_minutes": 25,
        "taken_at": NOW - dt.timedelta(hours=1),
    }
    fields.update(kw)
    return services.call_log(actor=cast.assigned, **fields)


def test_an_anonymous_call_is_counted_with_codes_only(cast):
    call = services.call_log(
        actor=cast.assigned,
        caller_kind="anonymous",
        needs=["information", "safety"],
        safety_concerns=["in_danger_now"],
        responses=["information"],
        duration_minutes=8,
    )
    call.refresh_from_db()
    assert call.agency_id == cast.agency.pk
    assert call.taken_at == NOW
    assert call.needs == ["safety", "information"]  # the catalogue's order
    for column in ("caller_name", "caller_phone", "notes", "safety_detail", "follow_up_detail"):
        assert _raw(call, column) is None
    event = AuditEvent.objects.get(action="call.create")
    assert event.detail["caller_kind"] == "anonymous"
    assert event.detail["fields"] == []


@pytest.mark.parametrize(
    "given",
    [
        {"caller_name": "Rowan"},
        {"caller_phone": "07700 900123"},
        {"notes": "she lives on Elm Road"},
        {"safety_detail": "x"},
        {"follow_up_detail": "after six"},
        {"follow_up_wanted": True},
    ],
)
def test_an_anonymous_call_refuses_anything_that_could_identify(cast, given):
    with pytest.raises(CallRefused) as refused:
        services.call_log(actor=cast.assigned, caller_kind="anonymous", **given)
    assert set(refused.value.message_dict) == set(given)
    assert not Call.objects.exists()


def test_the_database_refuses_an_anonymous_call_with_a_name(cast):
    call = Call(
        agency=cast.agency, caller_kind="anonymous", caller_name="Rowan", logged_by=cast.assigned
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        call.save()


def test_blank_text_on_an_anonymous_call_is_no_text(cast):
    call = services.call_log(actor=cast.assigned, caller_kind="anonymous", notes="   ")
    assert _raw(call, "notes") is None


def test_a_named_call_is_encrypted_with_its_own_key(cast):
    call = _survivor_call(cast)
    assert call.wrapped_key
    assert "Rowan" not in _raw(call, "caller_name")
    again = Call.objects.get(pk=call.pk)
    assert again.caller_name == "Rowan Ashby"
    assert again.notes == "Left last night with the children."


@pytest.mark.parametrize("who", ["auditor", "agency_admin", "operator", "deactivated"])
def test_only_people_who_work_cases_log_calls(cast, who):
    with pytest.raises(PermissionDenied):
        services.call_log(actor=cast.actor(who), caller_kind="anonymous")


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({"taken_at": NOW + dt.timedelta(hours=1)}, "taken_at"),
        ({"taken_at": NOW - dt.timedelta(days=200)}, "taken_at"),
        ({"duration_minutes": 5000}, "duration_minutes"),
        ({"needs": ["nonsense"]}, "needs"),
        ({"caller_kind": "abuser"}, "caller_kind"),
    ],
)
def test_bad_values_are_refused_on_their_field(cast, given, field):
    fields = {"caller_kind": "survivor", **given}
    with pytest.raises(CallRefused) as refused:
        services.call_log(actor=cast.assigned, **fields)
    assert list(refused.value.message_dict) == [field]


def test_who_reads_a_call_on_no_case(cast):
    call = _survivor_call(cast)
    readers = {
        name
        for name in ("assigned", "same_team", "other_team", "supervisor", "other_supervisor")
        + ("auditor", "agency_admin", "other_agency", "operator")
        if Call.objects.filter(policy.visible_calls_filter(cast.actor(name)), pk=call.pk).exists()
    }
    assert readers == {"assigned", "supervisor", "other_supervisor"}


def test_a_call_opens_a_case_through_intake_carrying_what_was_recorded(cast):
    call = _survivor_call(cast, follow_up_wanted=True, follow_up_detail="Weekdays after 6pm")
    case = services.call_open_case(
        actor=cast.assigned,
        call=call,
        team=cast.team1,
        survivor={"full_name": "Rowan Ashby", "phone": "07700 900123"},
        other_party=None,
    )
    call.refresh_from_db()
    assert call.case_id == case.pk
    assert call.attached_by == cast.assigned
    assert call.wrapped_key == ""  # now under the case's key
    fresh = Call.objects.select_related("case").get(pk=call.pk)
    assert fresh.caller_name == "Rowan Ashby"
    assert case.primary_advocate == cast.assigned
    assert case.parties.get(role=PartyRole.SURVIVOR).full_name == "Rowan Ashby"
    # Refuge and housing are one need of the case; safety concerns travel in the note.
    assert sorted(Need.objects.filter(case=case).values_list("kind", flat=True)) == [
        "children",
        "housing",
    ]
    note = CaseNote.objects.get(case=case)
    assert note.occurred_at == NOW - dt.timedelta(hours=1)
    assert note.duration_minutes == 25
    assert "He said he would find her." in note.text
    followup = FollowUp.objects.get(case=case)
    assert followup.details == "Weekdays after 6pm"
    assert AuditEvent.objects.filter(action="call.open_case", case_id=case.pk).count() == 1
    assert AuditEvent.objects.filter(action="case.create", case_id=case.pk).count() == 1


def test_the_conflict_check_runs_when_a_call_opens_a_case(cast):
    # The caller names as the other party someone who is a client of the agency.
    f.add_party(cast.team2_case, PartyRole.SURVIVOR, full_name="Sam Reyes")
    call = _survivor_call(cast)
    case = services.call_open_case(
        actor=cast.assigned,
        call=call,
        team=cast.team1,
        survivor={"full_name": "Rowan Ashby"},
        other_party={"full_name": "Sam Reyes"},
    )
    assert case.conflict_flag is True


def test_a_call_takes_up_the_survivors_closed_case(cast):
    closed = f.open_case(cast.team1, [cast.assigned], status=CaseStatus.CLOSED)
    call = _survivor_call(cast)
    services.call_take_up_earlier(actor=cast.assigned, call=call, case=closed)
    closed.refresh_from_db()
    call.refresh_from_db()
    assert closed.status == CaseStatus.ACTIVE
    assert call.case_id == closed.pk


def test_attaching_is_audited_and_shows_on_the_case_timeline(cast):
    call = _survivor_call(cast)
    services.call_attach(actor=cast.assigned, call=call, case=cast.case)
    event = AuditEvent.objects.get(action="call.attach")
    assert event.case_id == cast.case.pk
    entries = timeline.page(cast.case, timeline.Query(kinds=frozenset({"duty_call"}))).entries
    assert [e.kind for e in entries] == ["duty_call"]
    assert "Left last night" in entries[0].body
    assert (
        "Needs raised",
        "Refuge or somewhere safe to stay, Housing, Children and child contact",
    ) in entries[0].facts


def test_once_on_a_case_a_call_is_read_by_who_reads_the_case(cast):
    call = _survivor_call(cast)
    services.call_attach(actor=cast.assigned, call=call, case=cast.case)
    readers = {
        name
        for name in ("assigned", "same_team", "supervisor", "other_supervisor", "other_team")
        if Call.objects.filter(policy.visible_calls_filter(cast.actor(name)), pk=call.pk).exists()
    }
    assert readers == {"assigned", "supervisor"}


def test_a_call_is_attached_only_to_a_case_the_actor_works(cast):
    call = services.call_log(actor=cast.supervisor, caller_kind="professional", notes="GP rang")
    with pytest.raises(PermissionDenied):
        services.call_attach(actor=cast.supervisor, call=call, case=cast.team2_case)
    with pytest.raises(PermissionDenied):
        services.call_attach(actor=cast.supervisor, call=call, case=cast.foreign_case)
    assert Call.objects.get(pk=call.pk).case_id is None


def test_an_anonymous_call_is_never_taken_on(cast):
    call = services.call_log(actor=cast.assigned, caller_kind="anonymous")
    with pytest.raises(PermissionDenied):
        services.call_attach(actor=cast.assigned, call=call, case=cast.case)


def test_a_call_is_taken_on_once(cast):
    call = _survivor_call(cast)
    services.call_attach(actor=cast.assigned, call=call, case=cast.case)
    stale = Call.objects.get(pk=call.pk)
    stale.case_id = None  # as another tab still saw it
    with pytest.raises(PermissionDenied):
        services.call_attach(actor=cast.assigned, call=stale, case=cast.restricted_case)
    assert Call.objects.get(pk=call.pk).case_id == cast.case.pk
