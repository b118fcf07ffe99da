"""Funder reports cannot be subtracted: the attack of taking one released report from another
over nested periods (a quarter and its year, two reports of one year banding ages differently),
run over every pair of the periods a report may be run for, on a population with small groups.
The same attack against reports over free dates (as they were) finds the person it should."""

from __future__ import annotations

import datetime as dt
from itertools import product

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from caseflow.cases.models import Case, CaseStatus, PartyRole
from caseflow.checkins.models import CheckIn, CheckInStatus
from caseflow.partners.models import Demographics
from caseflow.reporting import reports
from caseflow.reporting.reports import FunderReport, Period
from tests import factories as f

pytestmark = pytest.mark.django_db

TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=dt.UTC)


def _at(day: str) -> dt.datetime:
    return dt.datetime.fromisoformat(day).replace(hour=10, tzinfo=dt.UTC)


def _person(team, n: int, opened: str, age: str, race: str, closed: str | None = None) -> None:
    case = f.open_case(team, reference=f"D-{n}", opened_at=_at(opened))
    if closed:
        case.status, case.closed_at = CaseStatus.CLOSED, _at(closed)
        case.save(update_fields=["status", "closed_at"])
    party = f.add_party(case, PartyRole.SURVIVOR, full_name=f"Person {n}")
    row = Demographics(case=case, party=party, age_band=age, race_ethnicity=race)
    row.save()


@pytest.fixture
def population(cast):
    """Groups of five or more, and one young person with a short stay in the second quarter of
    the federal year 2026: the one a subtraction would pick out."""
    people = (
        [("2025-10-03", "25_34", "white", None)] * 8
        + [("2025-10-10", "13_17", "asian", None)] * 5
        + [("2026-02-10", "13_17", "asian", "2026-02-20")]
        + [("2026-04-05", "60_64", "black", None)] * 3
        + [("2026-04-05", "65_plus", "black", None)] * 2
    )
    for n, (opened, age, race, closed) in enumerate(people):
        _person(cast.team1, n, opened, age, race, closed)
    # Safety check-ins done in each quarter: three in the third, a count the year must not give.
    case = Case.objects.get(reference="D-0")
    for day, times in (("2025-11-04", 6), ("2026-02-04", 5), ("2026-05-04", 3), ("2026-08-04", 7)):
        for _n in range(times):
            CheckIn.objects.create(
                case=case,
                channel="phone",
                due_at=_at(day),
                assignee=cast.assigned,
                status=CheckInStatus.DONE,
            )
    return cast.agency.pk


def _inside(inner: Period, outer: Period) -> bool:
    return outer.start <= inner.start and inner.end <= outer.end


def _counts_within(inner: tuple[str, frozenset[str]], outer: tuple[str, frozenset[str]]) -> bool:
    """Everyone the inner count counts is in the outer one (the attacker reads this off the row
    labels: 13 to 17 lies inside Under 18, everyone lies inside People served)."""
    if outer[0] == "served":
        return inner[0].startswith("served")
    return inner[0] == outer[0] and inner[1] <= outer[1]


def _published(report: FunderReport) -> dict[int, int]:
    return {c: report.grid.values[c] for c in report.displayed if c not in report.hidden}


def attack(released: list[FunderReport]) -> tuple[list[str], int, int]:
    """Every pair of released reports whose periods nest, every pair of published counts of
    people in them whose groups nest: a difference from 1 to the threshold less one picks out a
    group that small. Returns the findings, the pairs of reports and the pairs of cells read."""
    threshold = settings.AGGREGATE_MIN_CELL
    found: list[str] = []
    report_pairs = cell_pairs = 0
    for a, b in product(released, repeat=2):
        if a is b or not _inside(a.period, b.period):
            continue
        report_pairs += 1
        pa, pb = _published(a), _published(b)
        for ca, cb in product(pa, pb):
            ma, mb = a.meaning.get(ca), b.meaning.get(cb)
            if ma is None or mb is None or not _counts_within(ma, mb):
                continue
            if a.period == b.period and (ma == mb or a.slug == b.slug):
                continue
            cell_pairs += 1
            if 0 < pb[cb] - pa[ca] < threshold:
                found.append(f"{b.slug} {b.period.label} {mb} − {a.slug} {a.period.label} {ma}")
    return found, report_pairs, cell_pairs


def _sums_of_quarters(released: list[FunderReport]) -> tuple[list[str], int]:
    """A year's count of services less three quarters' gives the fourth."""
    found, checked = [], 0
    years = [r for r in released if r.slug == "fvpsa"]
    for year in years:
        quarters = [r for r in released if r.slug == "voca" and _inside(r.period, year.period)]
        assert len(quarters) == 4
        keys = {c: k for k, c in year.grid.keys.items()}
        for cell in year.displayed & year.additive:
            if cell in year.hidden:
                continue
            if not all(keys[cell] in q.grid.keys for q in quarters):
                continue
            per_quarter = [q.grid.keys[keys[cell]] for q in quarters]
            checked += 1
            if sum(c in q.hidden for c, q in zip(per_quarter, quarters, strict=True)) == 1:
                found.append(keys[cell])
    return found, checked


def _release_everything(agency_id: int) -> list[FunderReport]:
    out = []
    for slug, kind in reports.REPORTS.items():
        allowed = reports.periods(kind.period, timezone.localdate(), dt.date(2025, 10, 3))
        assert allowed
        out.extend(reports.release(slug, agency_id, p) for p in allowed)
    return out


@time_machine.travel(TODAY, tick=False)
def test_no_pair_of_released_reports_can_be_subtracted(population):
    released = _release_everything(population)
    assert {r.slug for r in released} == set(reports.REPORTS)
    found, report_pairs, cell_pairs = attack(released)
    assert found == []
    # Every quarter inside its year twice (FVPSA, HUD), the two reports of the year, and more.
    assert report_pairs >= 10 and cell_pairs > 100
    sums, checked = _sums_of_quarters(released)
    assert sums == [] and checked > 0
    fvpsa = next(r for r in released if r.slug == "fvpsa")
    assert fvpsa.grid.keys["services:checkins"] in fvpsa.hidden
    # The young person's quarter is published as it is on its own.
    q2 = next(r for r in released if r.slug == "voca" and r.period.start == dt.date(2026, 1, 1))
    alone = reports.voca_quarterly(population, q2.period)
    assert q2.hidden == alone.hidden


@time_machine.travel(TODAY, tick=False)
def test_the_attack_finds_the_person_in_reports_over_free_dates(population):
    start = dt.date(2025, 10, 1)
    released = [
        reports.build("hud", population, Period(start, start + dt.timedelta(days=n), f"{n}"))
        for n in range(128, 135)
    ]
    found, report_pairs, _cells = attack(released)
    assert report_pairs > 0
    # The day the young person came picks them out: one more aged 13 to 17, one more Asian.
    assert any("13_17" in line for line in found)
    assert any("asian" in line for line in found)


@time_machine.travel(TODAY, tick=False)
def test_the_attack_finds_the_person_when_a_year_is_suppressed_without_its_quarters(population):
    quarters = [reports.voca_quarterly(population, q) for q in reports.federal_quarters(2026)]
    year = reports.hud_apr(population, reports.federal_year(2026))
    found, report_pairs, _cells = attack([*quarters, year])
    assert report_pairs == 4
    assert any("13_17" in line for line in found)
    # And the services of the year less three quarters give the fourth.
    fvpsa = reports.fvpsa_annual(population, reports.federal_year(2026))
    sums, checked = _sums_of_quarters([*quarters, fvpsa])
    assert "services:checkins" in sums and checked > 0
