"""The case list's count, its rows and their survivors are read with SQL compiled once per
process: the very statements ``case_rows(policy.visible_cases(user))`` and its paginator send,
so the very rows."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.paginator import Paginator
from django.db import connection
from django.db.models import prefetch_related_objects
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from caseflow import policy
from caseflow.cases import selectors
from caseflow.cases.models import BreakGlassGrant, Case, CaseStatus, PartyRole
from caseflow.checkins.models import CheckIn, CheckInStatus
from tests import factories as f

pytestmark = pytest.mark.django_db


def _sql(queryset) -> tuple:
    return queryset.query.get_compiler("default").as_sql()


def _sent(run) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        run()
    return [q["sql"] for q in captured]


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
            [(p.pk, p.full_name, p.case is r) for p in r.survivor_rows],
        )
        for r in rows
    ]


def _built(user, status: str):
    cases = policy.visible_cases(user)
    return selectors.case_rows(cases.filter(status=status) if status else cases, user)


@pytest.fixture
def caseload(cast):
    """More of the assigned advocate's cases, one with a check-in due and one reached by
    emergency access, so every column has something to show."""
    now = timezone.now()
    for n in range(4):
        status = CaseStatus.ACTIVE if n % 2 else CaseStatus.REFERRAL
        case = f.open_case(cast.team1, [cast.assigned], reference=f"LIST-{n}", status=status)
        f.add_party(case, PartyRole.SURVIVOR, full_name=f"Survivor {n}")
    f.open_case(cast.team1, [cast.assigned], reference="LIST-CLOSED", status=CaseStatus.CLOSED)
    CheckIn.objects.create(
        case=cast.case,
        channel="phone",
        due_at=now + dt.timedelta(hours=3),
        status=CheckInStatus.SCHEDULED,
        assignee=cast.assigned,
    )
    Case.objects.filter(pk=cast.team2_case.pk).update(status=CaseStatus.ACTIVE)
    BreakGlassGrant.objects.create(
        case=cast.team2_case,
        user=cast.assigned,
        reason="A test",
        expires_at=now + dt.timedelta(hours=1),
    )
    return cast


@pytest.mark.parametrize("status", ["", CaseStatus.ACTIVE])
def test_the_count_and_each_window_are_what_the_queryset_sends(caseload, status):
    cast = caseload
    seen = []
    for user in (cast.assigned, cast.supervisor, cast.other_team):
        listed = selectors.CaseList.of(user, status, 2)
        assert listed is not None
        with time_machine.travel(listed.values["now"], tick=False):  # the scope's "now"
            built = _built(user, status)
            assert _sent(listed.count) == _sent(built.count)
            assert listed.count() == built.count()
            for start in (0, 2, 4):
                window = built[start : start + 2]
                compiled = listed._window(start)
                assert compiled is not None
                assert compiled.sql(**listed.values) == _sql(window)
                expected_sql = _sent(lambda: list(window))  # noqa: B023 - run here
                compiled_sql = _sent(lambda: listed[start : start + 2])  # noqa: B023
                assert compiled_sql == expected_sql
                assert _columns(listed[start : start + 2]) == _columns(window)
                seen += listed[start : start + 2]
    assert any(r.survivor_rows for r in seen) and any(r.emergency for r in seen)
    if not status:
        assert any(r.next_due for r in seen)


def test_a_page_is_the_paginators_page_of_the_queryset(caseload):
    cast = caseload
    listed = selectors.CaseList.of(cast.assigned, "", 3)
    assert listed is not None
    with time_machine.travel(listed.values["now"], tick=False):
        built = Paginator(_built(cast.assigned, ""), 3)
        compiled = Paginator(listed, 3)
        assert compiled.count == built.count == 8
        assert compiled.num_pages == built.num_pages
        for number in compiled.page_range:
            assert _columns(compiled.page(number).object_list) == _columns(
                built.page(number).object_list
            )
        # The last page is shorter than the window read for it.
        assert len(compiled.page(compiled.num_pages).object_list) == 2


def test_a_window_far_in_is_built_as_before(caseload):
    cast = caseload
    listed = selectors.CaseList.of(cast.assigned, "", 1)
    assert listed is not None
    start = selectors.LIST_WINDOWS_MAX
    assert listed._window(start) is None
    with time_machine.travel(listed.values["now"], tick=False):
        assert _columns(listed[start : start + 1]) == _columns(
            _built(cast.assigned, "")[start : start + 1]
        )


def test_whoever_reaches_no_case_is_listed_as_before(cast):
    assert selectors.CaseList.of(cast.auditor, "", 50) is None
    assert selectors.CaseList.of(cast.agency_admin, "", 50) is None


def test_survivors_are_attached_as_the_prefetch_attaches_them(caseload):
    cast = caseload
    rows = list(_built(cast.supervisor, "").order_by("pk"))
    assert len(rows) > 3

    def fresh():
        return list(Case.objects.filter(pk__in=[r.pk for r in rows]).order_by("pk"))

    prefetched, attached = fresh(), fresh()
    expected_sql = _sent(lambda: prefetch_related_objects(prefetched, selectors._survivors()))
    assert _sent(lambda: selectors.attach_survivors(attached)) == expected_sql
    assert [[(p.pk, p.case is r) for p in r.survivor_rows] for r in attached] == [
        [(p.pk, p.case is r) for p in r.survivor_rows] for r in prefetched
    ]
    assert any(r.survivor_rows for r in attached) and not all(r.survivor_rows for r in attached)
    ids = [r.pk for r in rows]
    assert selectors._SURVIVORS.sql(ids) == _sql(selectors._survivor_set(ids))


def test_the_list_page_with_a_search_shows_what_it_shows_without(caseload, login):
    client = login(caseload.assigned)
    listed = client.get(reverse("cases:list")).content.decode()
    searched = client.get(reverse("cases:list"), {"q": "LIST-"}).content.decode()
    for n in range(4):
        assert f"LIST-{n}" in listed and f"LIST-{n}" in searched
    assert caseload.case.reference in listed
    assert caseload.case.reference not in searched
