"""The case page's parties, assignees, field settings, check-ins and the check-in it offers to
rate, and the home page's own open cases, are read with SQL compiled once per process: the very
statements the querysets they replace send, so the very rows."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from caseflow import policy
from caseflow.cases import fields, selectors
from caseflow.cases.models import (
    BreakGlassGrant,
    Case,
    CaseStatus,
    FieldSetting,
    IntakeField,
    PartyRole,
)
from caseflow.checkins import selectors as checkin_selectors
from caseflow.checkins.models import CheckIn, CheckInOutcome, CheckInStatus
from caseflow.wellbeing import selectors as wellbeing_selectors
from tests import factories as f

pytestmark = pytest.mark.django_db


def _sql(queryset) -> tuple:
    return queryset.query.get_compiler("default").as_sql()


def _sent(run) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        run()
    return [q["sql"] for q in captured]


def test_the_parties_and_assignees_are_read_as_the_case_reads_them(cast):
    case = cast.case
    f.add_party(case, PartyRole.CHILD, full_name="A child")
    assert selectors._PARTIES.sql(case=case.pk) == _sql(case.parties.all())
    assert selectors._ASSIGNEES.sql(case=case.pk) == _sql(
        case.assignees.order_by("first_name", "last_name", "username")
    )
    parties = selectors.case_parties(case)
    assert [p.pk for p in parties] == [p.pk for p in case.parties.all()]
    assert parties and all(p.case is case for p in parties)
    assert selectors.case_assignees(case) == list(
        case.assignees.order_by("first_name", "last_name", "username")
    )
    assert cast.assigned in selectors.case_assignees(case)
    assert _sent(lambda: selectors.case_parties(case)) == _sent(lambda: list(case.parties.all()))


def test_the_field_settings_are_read_as_their_queryset_reads_them(cast):
    agency = cast.case.agency_id
    FieldSetting.objects.create(agency_id=agency, field=IntakeField.values[0], hidden=True)
    assert fields._SETTINGS.sql(agency=agency) == _sql(
        FieldSetting.objects.filter(agency_id=agency, field__in=IntakeField.values)
    )
    assert fields.agency_field_config(agency)[IntakeField.values[0]]["hidden"] is True


def test_the_case_pages_checkins_are_read_as_their_querysets_read_them(cast):
    case, now = cast.case, timezone.now()
    fields_ = [f for f in checkin_selectors.CHECKIN_LIST_FIELDS if not f.startswith("case__")]
    since = now - dt.timedelta(days=30)
    upcoming = (
        CheckIn.objects.filter(
            case=case, status__in=checkin_selectors.UPCOMING_STATUSES, due_at__gte=since
        )
        .only(*fields_)
        .order_by("due_at", "pk")[: checkin_selectors.CASE_UPCOMING_LIMIT]
    )
    recent = (
        CheckIn.objects.filter(case=case, status__in=checkin_selectors.PAST_STATUSES)
        .only(*fields_)
        .order_by("-due_at", "-pk")[: checkin_selectors.CASE_RECENT_LIMIT]
    )
    assert checkin_selectors._UPCOMING.sql(case=case.pk, since=since) == _sql(upcoming)
    assert checkin_selectors._RECENT.sql(case=case.pk) == _sql(recent)
    for hours, status in ((2, CheckInStatus.SCHEDULED), (-3, CheckInStatus.DONE)):
        CheckIn.objects.create(
            case=case,
            channel="phone",
            due_at=now + hours * dt.timedelta(hours=1),
            status=status,
            assignee=cast.assigned,
        )
    found = checkin_selectors.case_checkins(case, now)
    assert [c.pk for c in found["upcoming"]] == [c.pk for c in upcoming]
    assert [c.pk for c in found["recent"]] == [c.pk for c in recent]
    assert found["upcoming"] and found["recent"]


def test_the_checkin_offered_for_rating_is_the_one_first_gives(cast):
    case, now = cast.case, timezone.now()
    reached = CheckIn.objects.create(
        case=case,
        channel="phone",
        due_at=now - dt.timedelta(hours=5),
        assignee=cast.assigned,
        status=CheckInStatus.DONE,
        outcome=CheckInOutcome.REACHED,
        outcome_at=now - dt.timedelta(hours=4),
    )

    def first():
        return (
            CheckIn.objects.filter(
                case=case,
                outcome__in=wellbeing_selectors.REACHED,
                outcome_at__gte=now - wellbeing_selectors.OFFER_FOR,
                outcome_at__lte=now,
            )
            .order_by("-outcome_at", "-pk")
            .first()
        )

    compiled = wellbeing_selectors._LATEST_REACHED
    expected = _sent(first)
    assert (
        _sent(
            lambda: compiled.rows(case=case.pk, since=now - wellbeing_selectors.OFFER_FOR, now=now)
        )
        == expected
    )
    offered = wellbeing_selectors.checkin_to_rate(case, now)
    assert offered == reached == first()
    assert offered.case is case
    assert wellbeing_selectors.checkin_to_rate(case, now - dt.timedelta(days=5)) is None


def _columns(rows) -> list[tuple]:
    return [
        (
            r.pk,
            r.public_id,
            r.status,
            r.next_due,
            r.emergency,
            r.key.wrapped,
            r.team.name,
            r.primary_advocate_id,
            [(p.pk, p.full_name) for p in r.survivor_rows],
        )
        for r in rows
    ]


def test_my_open_cases_are_the_rows_case_rows_gives_statement_for_statement(cast):
    now = timezone.now()
    CheckIn.objects.create(
        case=cast.case,
        channel="phone",
        due_at=now + dt.timedelta(hours=3),
        status=CheckInStatus.SCHEDULED,
        assignee=cast.assigned,
    )
    seen = []
    for user in (cast.assigned, cast.supervisor, cast.other_team):
        found = policy.visible_cases_values(user)
        assert found is not None
        supervisor, values = found
        with time_machine.travel(values["now"], tick=False):  # the scope's "now"
            built = selectors.case_rows(selectors.my_open_case_set(user), user)
            assert selectors._MY_OPEN[supervisor].sql(**values) == _sql(built)
            expected_sql = _sent(lambda: list(built))  # noqa: B023 - run here
            expected = list(built)
            compiled_sql = _sent(lambda: selectors.my_open_cases(user))  # noqa: B023
            compiled = selectors.my_open_cases(user)
        assert compiled_sql == expected_sql
        assert _columns(compiled) == _columns(expected)
        seen += compiled
    assert cast.case.pk in {r.pk for r in seen}
    assert any(r.survivor_rows for r in seen) and any(r.next_due for r in seen)
    # Whoever reaches no case lists none, as before.
    assert selectors.my_open_cases(cast.auditor) == []


def _overview_columns(overview: dict) -> dict:
    return {
        "teams": [t.pk for t in overview["teams"]],
        "per_advocate": [
            (p.pk, p.membership.role, p.active_cases, p.high_risk) for p in overview["per_advocate"]
        ],
        "unassigned": _columns_of(overview["unassigned"]),
        "break_glass": [
            (g.pk, g.user.username, g.case.public_id, g.expires_at) for g in overview["break_glass"]
        ],
        "conflicts": _columns_of(overview["conflicts"]),
    }


def _columns_of(rows) -> list[tuple]:
    return [
        (r.pk, r.reference, r.next_due, r.team.name, [p.pk for p in r.survivor_rows]) for r in rows
    ]


def test_the_supervisors_overview_is_the_built_one(cast):
    now = timezone.now()
    Case.objects.filter(pk=cast.case.pk).update(conflict_flag=True)
    unassigned = f.open_case(cast.team1, [], reference="CASE-U")
    Case.objects.filter(pk=unassigned.pk).update(status=CaseStatus.REFERRAL)
    BreakGlassGrant.objects.create(
        case=cast.case,
        user=cast.same_team,
        reason="A call out of hours",
        expires_at=now + dt.timedelta(hours=1),
    )
    for user in (cast.supervisor, cast.other_supervisor):
        found = policy.visible_cases_values(user)
        assert found is not None and found[0]
        values = found[1]
        with time_machine.travel(values["now"], tick=False):  # the scope's "now"
            team_cases = policy.visible_cases(user).filter(team__in=policy.supervised_teams(user))
            assert selectors._UNASSIGNED.sql(**values) == _sql(
                selectors.case_rows(selectors._unassigned(team_cases))[:50]
            )
            assert selectors._CONFLICTS.sql(**values) == _sql(
                selectors.case_rows(selectors._conflicts(team_cases))[:20]
            )
            assert selectors._GRANTS.sql(**values) == _sql(selectors._grants(team_cases))
            assert selectors._PEOPLE.sql(user=user.pk) == _sql(
                selectors._people(policy.supervised_teams(user))
            )
            built = selectors._overview(
                user, policy.visible_cases(user), list(policy.supervised_teams(user))
            )
            built_sql = _sent(
                lambda: selectors._overview(  # noqa: B023 - run here
                    user,  # noqa: B023
                    policy.visible_cases(user),  # noqa: B023
                    list(policy.supervised_teams(user)),  # noqa: B023
                )
            )
            compiled_sql = _sent(lambda: selectors.supervisor_overview(user))  # noqa: B023
            compiled = selectors.supervisor_overview(user)
        assert _overview_columns(compiled) == _overview_columns(built)
        assert len(compiled_sql) <= len(built_sql)
    mine = _overview_columns(selectors.supervisor_overview(cast.supervisor))
    assert mine["unassigned"] and mine["conflicts"] and mine["break_glass"]
    assert any(active for _pk, _role, active, _high in mine["per_advocate"])
