"""Cover: while an advocate is away a colleague sees and works their cases, every look recorded
as cover, and it ends by itself."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from caseflow import policy
from caseflow.audit.models import AuditEvent
from caseflow.cases import cover
from caseflow.cases.models import Cover

# Tuesday 10 March 2026, 09:00 in London.
NOW = dt.datetime(2026, 3, 10, 9, 0, tzinfo=dt.UTC)
TODAY = dt.date(2026, 3, 10)


@pytest.fixture(autouse=True)
def pinned():
    with time_machine.travel(NOW, tick=False):
        yield


def _set(cast, first=TODAY, last=TODAY + dt.timedelta(days=1)):
    return cover.cover_set(
        actor=cast.supervisor,
        absent=cast.assigned,
        covering=cast.same_team,
        first_day=first,
        last_day=last,
    )


def test_the_colleague_covering_works_the_cases_on_those_days_only(cast, login):
    detail = reverse("cases:detail", args=[cast.case.public_id])
    client = login(cast.same_team)
    assert client.get(detail).status_code == 404  # not theirs before the cover
    response = login(cast.supervisor).post(
        reverse("cases:cover"),
        {
            "absent": cast.assigned.pk,
            "covering": cast.same_team.pk,
            "first_day": "2026-03-10",
            "last_day": "2026-03-11",
        },
    )
    assert response.status_code == 302
    made = Cover.objects.get()
    assert (made.starts_at, made.ends_at) == (
        dt.datetime(2026, 3, 10, 0, 0, tzinfo=dt.UTC),  # London is on GMT in March until the 29th
        dt.datetime(2026, 3, 12, 0, 0, tzinfo=dt.UTC),
    )
    client = login(cast.same_team)
    assert client.get(detail).status_code == 200
    assert policy.may(cast.same_team, cast.case, "edit")
    # Every look is recorded as cover; the restricted case stays with its access list.
    seen = AuditEvent.objects.filter(actor_id=cast.same_team.pk, action="case.view").get()
    assert seen.detail.get("as_cover") is True and seen.case_id == cast.case.pk
    assert (
        client.get(reverse("cases:detail", args=[cast.restricted_case.public_id])).status_code
        == 404
    )
    listed = client.get(reverse("cases:list")).content.decode()
    assert "CASE-1" in listed and "CASE-R" not in listed
    # The supervisor's own reads are not marked as cover.
    login(cast.supervisor).get(detail)
    mine = AuditEvent.objects.filter(actor_id=cast.supervisor.pk, action="case.view").get()
    assert "as_cover" not in mine.detail
    # It ends by itself at the end of the last day.
    with time_machine.travel(dt.datetime(2026, 3, 12, 0, 0, 1, tzinfo=dt.UTC), tick=False):
        assert login(cast.same_team).get(detail).status_code == 404


def test_a_cover_to_come_gives_nothing_yet_and_one_ended_early_nothing_more(cast, login):
    later = _set(cast, first=TODAY + dt.timedelta(days=3), last=TODAY + dt.timedelta(days=4))
    assert not policy.can_view_case(cast.same_team, cast.case)
    now = _set(cast)
    assert policy.can_view_case(cast.same_team, cast.case)
    client = login(cast.supervisor)
    page = client.get(reverse("cases:cover")).content.decode()
    assert "Tuesday 10 March 2026 to Wednesday 11 March 2026" in page
    assert client.post(reverse("cases:cover_end", args=[now.public_id])).status_code == 302
    assert not policy.can_view_case(cast.same_team, cast.case)
    assert AuditEvent.objects.filter(action="cover.end").count() == 1
    assert Cover.objects.get(pk=later.pk).ended_at is None


@pytest.mark.parametrize(
    ("first", "last", "words"),
    [
        ("2026-03-12", "2026-03-11", "The last day cannot be before the first day."),
        ("2026-03-09", "2026-03-11", "Cover starts today at the earliest."),
        ("2026-03-10", "2026-07-10", "Cover lasts three months at the most."),
        ("2026-03-10", "10/03/2026x", "Enter a valid date."),
    ],
)
def test_dates_that_cannot_be_are_a_form_error_and_nothing_is_set(cast, login, first, last, words):
    response = login(cast.supervisor).post(
        reverse("cases:cover"),
        {
            "absent": cast.assigned.pk,
            "covering": cast.same_team.pk,
            "first_day": first,
            "last_day": last,
        },
    )
    assert response.status_code == 200
    assert words in response.content.decode()
    assert not Cover.objects.exists()


def test_nobody_covers_themselves_and_another_team_cannot_be_covered(cast, login):
    client = login(cast.supervisor)
    same = client.post(
        reverse("cases:cover"),
        {
            "absent": cast.assigned.pk,
            "covering": cast.assigned.pk,
            "first_day": "2026-03-10",
            "last_day": "2026-03-10",
        },
    )
    assert "Choose a colleague other than the person who is away." in same.content.decode()
    other = login(cast.other_supervisor).post(
        reverse("cases:cover"),
        {
            "absent": cast.assigned.pk,
            "covering": cast.other_team.pk,
            "first_day": "2026-03-10",
            "last_day": "2026-03-10",
        },
    )
    assert "Select a valid choice" in other.content.decode()
    assert not Cover.objects.exists()
    with pytest.raises(cover.PermissionDenied):
        cover.cover_set(
            actor=cast.other_supervisor,
            absent=cast.assigned,
            covering=cast.other_team,
            first_day=TODAY,
            last_day=TODAY,
        )
