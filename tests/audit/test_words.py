"""Audit pages in words: actions by their labels, details without internal ids, the action
filter as choices, and what someone from another team did with emergency access."""

from __future__ import annotations

import datetime as dt

import time_machine
from django.urls import reverse

from caseflow.audit.services import record
from caseflow.cases import services as cases
from caseflow.oversight.forms import action_choices
from caseflow.oversight.templatetags.audit_words import detail_words

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


def test_the_action_filter_is_a_choice_of_labels_grouped_by_area(cast, login):
    groups = dict(action_choices()[1:])
    assert ("case.view", "Viewed the case") in groups["Cases"]
    assert groups["Cases"][0] == ("case.", "Any of these (cases)")
    response = login(cast.auditor).get(reverse("audit:events"), {"action": "not.an.action"})
    assert response.context["form"].errors
    page = login(cast.auditor).get(reverse("audit:events")).content.decode()
    assert '<option value="case.view">Viewed the case</option>' in page


def test_a_supervisor_sees_what_someone_from_another_team_did_with_emergency_access(cast, login):
    with time_machine.travel(T0, tick=False):
        grant = cases.break_glass_open(
            actor=cast.same_team, request=None, reference="CASE-2", reason="Duty line call"
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
