"""Case notes: recording (with a follow-up), the author's edit window, amendments that keep the
earlier text, and notes written under emergency access."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from caseflow.audit.models import AuditEvent
from caseflow.cases import services as case_services
from caseflow.casework import services
from caseflow.casework.models import CaseNote, Need, NoteAmendment
from caseflow.inbox.models import FollowUp
from caseflow.lib.concurrency import StaleEdit
from tests.casework.helpers import make_incident, make_note

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 3, 10, 9, 0, tzinfo=dt.UTC)


def _post_note(client, case, **extra):
    data = {
        "kind": "call",
        "participants": ["survivor", "other_agency"],
        "direction": "incoming",
        "occurred_at": "2026-03-10T08:30",
        "duration_minutes": "25",
        "text": "Called about the hearing.",
    }
    data.update(extra)
    return client.post(reverse("casework:note_new", args=[case.public_id]), data)


@time_machine.travel(NOW, tick=False)
def test_recording_a_note_with_a_follow_up_in_one_step(cast, login):
    client = login(cast.assigned)
    incident = make_incident(cast.case, cast.assigned)
    response = _post_note(
        client,
        cast.case,
        incident=incident.public_id,
        followup="on",
        followup_due="2026-03-12T10:00",
        followup_details="Ring back about the hearing.",
    )
    note = CaseNote.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "casework:note", args=[cast.case.public_id, note.public_id]
    )
    note.case = cast.case
    assert note.text == "Called about the hearing."
    assert note.participants == ["survivor", "other_agency"]
    assert (note.duration_minutes, note.incident_id, note.break_glass_id) == (25, incident.pk, None)
    followup = FollowUp.objects.get(case=cast.case, source_key=f"note:{note.pk}:followup")
    assert followup.due_at == dt.datetime(2026, 3, 12, 10, 0, tzinfo=dt.UTC)
    assert followup.assignee == cast.case.primary_advocate
    event = AuditEvent.objects.get(action="note.create")
    assert event.detail["incident"] == incident.public_id
    assert "hearing" not in str(event.detail)
    page = client.get(response["Location"]).content.decode()
    assert "Called about the hearing." in page
    assert AuditEvent.objects.filter(action="note.view", object_id=note.public_id).exists()


@time_machine.travel(NOW, tick=False)
def test_a_follow_up_needs_its_due_time_and_nothing_is_saved_without_it(cast, login):
    response = _post_note(login(cast.assigned), cast.case, followup="on")
    assert response.status_code == 200
    assert "Say when the follow-up is due." in response.content.decode()
    assert not CaseNote.objects.exists()


def test_a_note_from_another_case_cannot_be_linked_to_this_cases_incident(cast):
    foreign = make_incident(cast.team2_case, cast.other_team)
    with pytest.raises(PermissionDenied):
        make_note(cast.case, cast.assigned, incident=foreign)


def test_the_author_edits_within_the_window_and_supervisors_see_what_it_said_before(cast, login):
    with time_machine.travel(NOW, tick=False):
        note = make_note(cast.case, cast.assigned, text="First words.", duration_minutes=25)
    with time_machine.travel(NOW + dt.timedelta(hours=23), tick=False):
        assert services.note_change_mode(cast.assigned, note) == "edit"
        services.note_change(
            actor=cast.assigned,
            note=note,
            changes={"text": "Talked through the week and the hearing.", "duration_minutes": 30},
            expected_version=1,
        )
    note.refresh_from_db()
    note.case = cast.case
    assert (note.text, note.duration_minutes, note.version) == (
        "Talked through the week and the hearing.",
        30,
        2,
    )
    # The earlier text is kept, encrypted like an amendment's, with no reason asked.
    kept = NoteAmendment.objects.get()
    kept.case = cast.case
    assert (kept.direct, kept.reason, kept.author) == (True, "", cast.assigned)
    assert kept.changes == [
        ["How long", "25 minutes", "30 minutes"],
        ["Note", "First words.", "Talked through the week and the hearing."],
    ]
    with connection.cursor() as cur:
        cur.execute("SELECT changes FROM casework_noteamendment")
        (raw,) = cur.fetchone()
    assert "First words" not in raw
    assert AuditEvent.objects.get(action="note.update").detail == {
        "fields": ["duration_minutes", "text"],
        "amendment": kept.pk,
    }
    url = reverse("casework:note", args=[cast.case.public_id, note.public_id])
    supervisor = login(cast.supervisor).get(url).content.decode()
    assert "Earlier versions" in supervisor and "First words." in supervisor
    assert "Amendments" not in supervisor  # no amendment was made
    body = login(cast.assigned).get(url).content.decode()  # the author, not a supervisor
    assert "Talked through the week" in body
    assert "First words." not in body and "Earlier versions" not in body


def test_after_the_window_only_an_amendment_with_a_reason_and_the_history_keeps_the_original(
    cast, login
):
    with time_machine.travel(NOW, tick=False):
        note = make_note(cast.case, cast.assigned, text="Original words.")
    later = NOW + dt.timedelta(hours=24, minutes=1)
    with time_machine.travel(later, tick=False):
        assert services.note_change_mode(cast.assigned, note) == "amend"
        with pytest.raises(ValueError):
            services.note_change(
                actor=cast.assigned,
                note=note,
                changes={"text": "New words."},
                expected_version=1,
            )
        client = login(cast.assigned)
        url = reverse("casework:note_change", args=[cast.case.public_id, note.public_id])
        form = client.get(url).content.decode()
        assert "Save amendment" in form
        data = {
            "kind": "call",
            "participants": ["survivor"],
            "direction": "incoming",
            "occurred_at": timezone.localtime(note.occurred_at).strftime("%Y-%m-%dT%H:%M"),
            "duration_minutes": "20",
            "text": "Corrected words.",
            "version": "1",
        }
        refused = client.post(url, data)
        assert refused.status_code == 200 and not NoteAmendment.objects.exists()
        assert client.post(url, {**data, "reason": "Misheard the date."}).status_code == 302
        page = client.get(reverse("casework:note", args=[cast.case.public_id, note.public_id]))
    amendment = NoteAmendment.objects.get()
    amendment.case = cast.case
    assert amendment.changes == [["Note", "Original words.", "Corrected words."]]
    assert (amendment.reason, amendment.author) == ("Misheard the date.", cast.assigned)
    event = AuditEvent.objects.get(action="note.amend")
    assert event.detail == {"fields": ["text"], "amendment": amendment.pk}
    body = page.content.decode()
    assert "Corrected words." in body and "Original words." in body and "Misheard the date." in body


def test_someone_else_may_only_amend_even_inside_the_window(cast):
    note = make_note(cast.case, cast.assigned)
    assert services.note_change_mode(cast.supervisor, note) == "amend"
    assert services.note_change_mode(cast.assigned, note) == "edit"
    assert services.note_change_mode(cast.other_team, note) is None


def test_a_stale_change_is_refused(cast):
    note = make_note(cast.case, cast.assigned)
    services.note_change(actor=cast.assigned, note=note, changes={"text": "A"}, expected_version=1)
    with pytest.raises(StaleEdit):
        services.note_change(
            actor=cast.assigned, note=note, changes={"text": "B"}, expected_version=1
        )


def test_a_note_under_emergency_access_is_allowed_and_flagged_for_review(cast, login):
    case_services.break_glass_open(
        actor=cast.same_team, reference=cast.case.reference, reason="Crisis call"
    )
    client = login(cast.same_team)
    # Emergency access reads and writes a note, nothing else.
    assert (
        client.get(reverse("casework:incident_new", args=[cast.case.public_id])).status_code == 403
    )
    form = client.get(reverse("casework:note_new", args=[cast.case.public_id])).content.decode()
    assert "marked for the supervisor" in form
    assert _post_note(client, cast.case, occurred_at="").status_code == 200
    response = _post_note(
        client,
        cast.case,
        occurred_at=timezone.now().strftime("%Y-%m-%dT%H:%M"),
    )
    assert response.status_code == 302
    note = CaseNote.objects.get()
    assert note.break_glass is not None and note.break_glass.user == cast.same_team
    assert AuditEvent.objects.get(action="note.create").detail["break_glass"] is True
    assert services.note_change_mode(cast.same_team, note) is None
    # The supervisor sees the flag on the note and in the emergency-access review.
    supervisor = login(cast.supervisor)
    page = supervisor.get(response["Location"]).content.decode()
    assert "Written under emergency access" in page
    assert reverse("audit:break_glass_review", args=[note.break_glass_id]) in page
    queue = supervisor.get(reverse("audit:break_glass")).content.decode()
    assert "1 note written" in queue
    review = supervisor.get(reverse("audit:break_glass_review", args=[note.break_glass_id]))
    assert reverse("casework:note", args=[cast.case.public_id, note.public_id]) in (
        review.content.decode()
    )


def test_a_note_by_a_caseworker_is_not_flagged_even_with_a_grant(cast):
    note = make_note(cast.case, cast.assigned)
    assert note.break_glass_id is None


def test_saving_the_form_unchanged_writes_nothing_even_with_seconds_stored(cast):
    note = make_note(cast.case, cast.assigned, when=NOW + dt.timedelta(seconds=42))
    services.note_change(
        actor=cast.supervisor,
        note=note,
        changes={"occurred_at": NOW, "text": note.text, "kind": "call"},
        expected_version=1,
        reason="Checked it.",
    )
    note.refresh_from_db()
    assert note.version == 1
    assert not NoteAmendment.objects.exists()
    assert not AuditEvent.objects.filter(action__in=["note.amend", "note.update"]).exists()


def test_a_note_can_be_about_a_check_in_of_the_same_case_only(cast, login):
    from caseflow.casework.models import CaseNote
    from caseflow.checkins.models import CheckIn

    mine = CheckIn.objects.create(
        case=cast.case, channel="phone", due_at=timezone.now(), assignee=cast.assigned
    )
    theirs = CheckIn.objects.create(
        case=cast.team2_case, channel="phone", due_at=timezone.now(), assignee=cast.other_team
    )
    client = login(cast.assigned)
    url = reverse("casework:note_new", args=[cast.case.public_id])
    page = client.get(url, {"checkin": mine.pk}).content.decode()
    assert f'<option value="{mine.pk}" selected>' in page
    data = {
        "kind": "call",
        "participants": ["survivor"],
        "direction": "outgoing",
        "occurred_at": "2025-03-02T10:00",
        "date_confirmed": "2025-03-02T10:00",
        "text": "Called at the check-in time; she was fine.",
    }
    client.post(url, {**data, "checkin": str(mine.pk)})
    note = CaseNote.objects.get()
    assert note.checkin == mine
    detail = client.get(
        reverse("casework:note", args=[cast.case.public_id, note.public_id])
    ).content.decode()
    assert "The check-in due" in detail
    # Another case's check-in is not a choice.
    response = client.post(url, {**data, "checkin": str(theirs.pk)})
    assert response.status_code == 200 and CaseNote.objects.count() == 1


def test_an_amendment_can_link_the_note_to_a_need_and_a_goal(cast, login):
    from tests.casework.helpers import make_goal, make_need

    with time_machine.travel(NOW, tick=False):
        note = make_note(cast.case, cast.assigned, text="Talked about moving.")
        need = make_need(cast.case, cast.assigned, kind="housing")
        goal = make_goal(cast.case, cast.assigned, need=need)
    later = NOW + dt.timedelta(days=3)
    with time_machine.travel(later, tick=False):
        client = login(cast.assigned)
        url = reverse("casework:note_change", args=[cast.case.public_id, note.public_id])
        form = client.get(url).content.decode()
        assert 'name="need"' in form and 'name="goal"' in form
        data = {
            "kind": "call",
            "participants": ["survivor"],
            "direction": "incoming",
            "occurred_at": timezone.localtime(note.occurred_at).strftime("%Y-%m-%dT%H:%M"),
            "duration_minutes": "20",
            "text": "Talked about moving.",
            "version": "1",
            "reason": "It was about the housing need.",
        }
        # A need of another case is not a choice: the form says so, nothing changes.
        other = make_need(cast.team2_case, cast.other_supervisor, kind="money")
        refused = client.post(url, {**data, "need": other.public_id})
        assert refused.status_code == 200 and "not one of the available choices" in (
            refused.content.decode()
        )
        response = client.post(url, {**data, "need": need.public_id, "goal": goal.public_id})
        assert response.status_code == 302
    note.refresh_from_db()
    assert (note.need_id, note.goal_id) == (need.pk, goal.pk)
    amendment = NoteAmendment.objects.get()
    amendment.case = cast.case
    assert amendment.changes == [
        ["About a need", "—", "Housing"],
        ["About a goal", "—", f"A goal set on {later - dt.timedelta(days=3):%d %b %Y}"],
    ]
    # Unlinking keeps the need itself and records the change.
    with time_machine.travel(later, tick=False):
        response = client.post(url, {**data, "version": "2", "need": "", "goal": goal.public_id})
    assert response.status_code == 302
    note.refresh_from_db()
    assert note.need_id is None and Need.objects.filter(pk=need.pk).exists()
