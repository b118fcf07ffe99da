"""Supervisors hear of unusual access patterns, once per person per hour."""

from __future__ import annotations

import datetime as dt

import time_machine
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.audit.services import record
from caseflow.inbox.models import Notification
from caseflow.oversight.services import unusual_access_sweep
from tests import factories as f

NOW = dt.datetime(2026, 6, 1, 10, 30, tzinfo=dt.UTC)


def _open_cases(cast, user, count, team=None):
    cases = [f.open_case(team or cast.team2) for _ in range(count)]
    with time_machine.travel(NOW - dt.timedelta(minutes=20), tick=False):
        for case in cases:
            record("case.view", actor=user, case=case)
    return cases


def test_more_than_n_cases_outside_the_caseload_alerts_the_supervisors(cast, settings):
    settings.AUDIT_UNUSUAL_ACCESS_PER_HOUR = 3
    _open_cases(cast, cast.same_team, 4)
    with time_machine.travel(NOW, tick=False):
        assert unusual_access_sweep() == [cast.same_team.pk]
        assert unusual_access_sweep() == []  # once per user per hour
    notes = list(Notification.objects.filter(kind="unusual_access"))
    assert [n.recipient for n in notes] == [cast.supervisor]
    assert notes[0].link == reverse("audit:user", args=[cast.same_team.pk])
    assert cast.same_team.username not in notes[0].text
    alert = AuditEvent.objects.get(action="alert.unusual_access")
    assert alert.object_id == str(cast.same_team.pk)
    assert alert.detail["cases_outside_caseload"] == 4


def test_n_cases_is_not_unusual(cast, settings):
    settings.AUDIT_UNUSUAL_ACCESS_PER_HOUR = 3
    _open_cases(cast, cast.same_team, 3)
    with time_machine.travel(NOW, tick=False):
        assert unusual_access_sweep() == []


def test_the_own_caseload_does_not_count(cast, settings):
    settings.AUDIT_UNUSUAL_ACCESS_PER_HOUR = 3
    cases = _open_cases(cast, cast.same_team, 5)
    for case in cases[:2]:
        case.assignments.create(user=cast.same_team)
    with time_machine.travel(NOW, tick=False):
        assert unusual_access_sweep() == []


def test_a_supervisor_reading_their_teams_cases_is_not_unusual(cast, settings):
    settings.AUDIT_UNUSUAL_ACCESS_PER_HOUR = 3
    _open_cases(cast, cast.supervisor, 6, team=cast.team1)
    with time_machine.travel(NOW, tick=False):
        assert unusual_access_sweep() == []


def test_reads_older_than_an_hour_do_not_count(cast, settings):
    settings.AUDIT_UNUSUAL_ACCESS_PER_HOUR = 3
    _open_cases(cast, cast.same_team, 4)
    with time_machine.travel(NOW + dt.timedelta(hours=1), tick=False):
        assert unusual_access_sweep() == []


def test_the_next_hour_alerts_again(cast, settings):
    settings.AUDIT_UNUSUAL_ACCESS_PER_HOUR = 3
    _open_cases(cast, cast.same_team, 4)
    with time_machine.travel(NOW, tick=False):
        unusual_access_sweep()
    with time_machine.travel(NOW + dt.timedelta(minutes=35), tick=False):
        for case in [f.open_case(cast.team2) for _ in range(4)]:
            record("case.view", actor=cast.same_team, case=case)
        assert unusual_access_sweep() == [cast.same_team.pk]
    assert Notification.objects.filter(kind="unusual_access").count() == 2


def test_alerts_show_in_the_workspace(cast, login, settings):
    settings.AUDIT_UNUSUAL_ACCESS_PER_HOUR = 3
    _open_cases(cast, cast.same_team, 4)
    with time_machine.travel(NOW, tick=False):
        unusual_access_sweep()
    body = login(cast.supervisor).get(reverse("audit:events")).content.decode()
    assert "Unusual access" in body


def test_break_glass_use_notifies_and_shows_as_an_alert(cast, login):
    from caseflow.cases.services import break_glass_open

    break_glass_open(actor=cast.same_team, reference="CASE-2", reason="Cover")
    body = login(cast.other_supervisor).get(reverse("audit:events")).content.decode()
    assert "Emergency access opened on case CASE-2" in body


def test_an_alert_dealt_with_is_no_longer_listed(cast, login):
    from caseflow.cases.models import BreakGlassGrant, BreakGlassOutcome
    from caseflow.cases.services import break_glass_open
    from caseflow.oversight.services import break_glass_review

    grant = break_glass_open(actor=cast.same_team, reference="CASE-2", reason="Cover")
    second = break_glass_open(actor=cast.same_team, reference="CASE-2", reason="Cover again")
    assert isinstance(grant, BreakGlassGrant)
    break_glass_review(
        actor=cast.other_supervisor, grant=grant, outcome=BreakGlassOutcome.JUSTIFIED, comment=""
    )
    response = login(cast.other_supervisor).get(reverse("audit:events"))
    alerts = response.context["alerts"]
    # The reviewed access's alert is cleared; the one still to review stays.
    assert [note.key for note in alerts] == [f"break_glass:{second.pk}"]
    assert Notification.objects.get(key=f"break_glass:{grant.pk}").read_at is not None
