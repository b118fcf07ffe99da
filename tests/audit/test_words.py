"""Audit pages in words: actions by their labels, details without internal ids, the action
filter as choices, and what someone from another team did with emergency access."""

from __future__ import annotations

import datetime as dt

import time_machine
from django.urls import reverse
from django.utils import translation

from caseflow.audit.services import record
from caseflow.cases import services as cases
from caseflow.oversight.forms import action_choices
from caseflow.oversight.templatetags.audit_words import detail_phrases, detail_words, object_words

T0 = dt.datetime(2026, 6, 1, 9, 0, tzinfo=dt.UTC)


def test_events_show_labels_and_no_codes_or_ids(cast, login):
    record("case.view", actor=cast.assigned, case=cast.case, obj=cast.case)
    record("dashboard.view", actor=cast.assigned, detail={"cases": [cast.case.pk, 987654321]})
    page = login(cast.supervisor).get(reverse("audit:events")).content.decode()
    assert "Viewed the case" in page and "Viewed the dashboard" in page
    assert "case.view" not in page.split("<table", 1)[1]
    assert "2 cases" in page and "987654321" not in page
    assert "(UTC)" not in page


def test_detail_words():
    assert detail_words({"fields": ["phone", "date_of_birth"], "grant": 7}) == [
        "Fields: phone, date of birth"
    ]
    assert detail_words({"cases": [1]}) == ["1 case"]
    assert detail_words({"elsewhere": True, "case_id": 4}) == ["Elsewhere in the agency: yes"]


def test_codes_in_details_are_words_and_ids_are_counted_or_left_out():
    detail = {
        "agreement": "w4SW2PlYkQ17i3s-vsogA",
        "evidence": ["8KBx1Ext5JvTAweVIsesA", "KfAPm0mYXa59-yaArE07A"],
        "review": "pending",
        "proposed": ["time_windows"],
        "format": "csv",
        "audience": "internal",
        "sha256": "ab" * 32,
        "checkin": None,
    }
    assert detail_words(detail, "agreement.event.create") == [
        "2 evidence files",
        "Review: Awaiting review",
        "Terms the checker found broken: Outside the agreed contact times",
        "Format: CSV",
        "For: our agency",
    ]
    # The same code means what the action's own choices say.
    assert detail_words({"kind": "housing", "status": "identified"}, "need.create") == [
        "Kind: Housing",
        "Status: Identified",
    ]
    assert detail_words({"from": "active", "to": "closed"}, "case.status") == [
        "From: Active",
        "To: Closed",
    ]
    assert object_words("breakglassgrant") == "emergency access"
    assert object_words("not_a_model") == ""


def test_details_are_read_in_the_readers_language_and_unknown_codes_stay_codes():
    with translation.override("es"):
        assert detail_words({"cases": [1, 2], "police": "no"}, "incident.create") == [
            "2 casos",
            "Intervino la policía: No",
        ]
    (phrase,) = detail_phrases({"format": "xyz"}, "report.export")
    assert phrase.parts == (("xyz", True),)
    (phrase,) = detail_phrases({"strange_key": 3}, "report.export")
    assert phrase.label_is_code and str(phrase) == "strange_key: 3"


def test_the_action_filter_is_a_choice_of_labels_grouped_by_area(cast, login):
    groups = dict(action_choices()[1:])
    assert ("case.view", "Viewed the case") in groups["Cases"]
    assert groups["Cases"][0] == ("case.", "Any of these (cases)")
    response = login(cast.auditor).get(reverse("audit:events"), {"action": "not.an.action"})
    assert response.context["form"].errors
    page = login(cast.auditor).get(reverse("audit:events")).content.decode()
    assert '<option value="case.view">Viewed the case</option>' in page
    assert "Incidents" in groups and "Other" not in groups


def test_a_supervisor_sees_what_someone_from_another_team_did_with_emergency_access(cast, login):
    with time_machine.travel(T0, tick=False):
        grant = cases.break_glass_open(
            actor=cast.same_team, reference="CASE-2", reason="Duty line call"
        )
    with time_machine.travel(T0 + dt.timedelta(minutes=5), tick=False):
        record("case.view", actor=cast.same_team, case=cast.team2_case, obj=cast.team2_case)
        record("case.view", actor=cast.same_team, case=cast.case, obj=cast.case)  # their own
    with time_machine.travel(T0 + dt.timedelta(days=1), tick=False):
        record("case.view", actor=cast.other_team, case=cast.team2_case, obj=cast.team2_case)
        response = login(cast.other_supervisor).get(
            reverse("audit:break_glass_review", args=[grant.pk])
        )
    assert response.status_code == 200
    activity = response.context["activity"]
    assert [(e.action, e.case_id) for e in activity] == [
        ("break_glass.open", cast.team2_case.pk),
        ("case.view", cast.team2_case.pk),
    ]
    assert "What they did with this access" in response.content.decode()


def test_the_fields_and_questions_an_event_lists_as_changed_are_named_in_words():
    """Each area's changed names in the words of the feature that keeps them, never a code."""
    cases_of_changes = {
        "hud_answers.save": (["prior_living", "dv_when"], "Where they stayed before"),
        "demographics.save": (["age_band"], "Age"),
        "hearing.update": (["kind", "starts_at"], "Kind of hearing, Date and time"),
        "meeting.update": (["meeting_on", "outcome"], "Meeting date"),
    }
    for action, (changed, words) in cases_of_changes.items():
        (phrase,) = detail_phrases({"changed": changed}, action)
        assert not any(machine for _text, machine in phrase.parts), (action, phrase.parts)
        assert words in str(phrase), (action, str(phrase))
        assert not any(name in str(phrase) for name in changed if "_" in name), str(phrase)
    # Another area's names are not borrowed: an unknown name stays a code.
    (phrase,) = detail_phrases({"changed": ["prior_living"]}, "hearing.update")
    assert phrase.parts == (("prior_living", True),)
    with translation.override("es"):
        (phrase,) = detail_phrases({"changed": ["kind"]}, "hearing.update")
    assert "hearing" not in str(phrase).lower() and not phrase.parts[0][1]
