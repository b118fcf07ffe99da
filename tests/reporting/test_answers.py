"""The demographic counts of every report equal a plain count of the answers read one by one
from the survivors' records (what the reports did before they read each person's answers in one
decryption), whether the rows carry their answers in one token or not; ``seal_demographics``
writes that token again from the answers themselves."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from itertools import cycle

import pytest
import time_machine
from django.core.management import call_command

from caseflow.cases.models import Case, CaseStatus, PartyRole
from caseflow.partners.models import DECLINED, NOT_ASKED, QUESTIONS, Demographics, answers
from caseflow.reporting import reports
from caseflow.reporting.reports import Period
from tests import factories as f

pytestmark = pytest.mark.django_db

TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=dt.UTC)
PERIOD = Period(dt.date(2025, 10, 1), dt.date(2026, 9, 30), "the federal year 2026")
QUARTER = Period(dt.date(2026, 4, 1), dt.date(2026, 6, 30), "a quarter")
COUNTED = {
    "voca": (QUARTER, reports.VOCA_QUESTIONS),
    "fvpsa": (PERIOD, reports.FVPSA_QUESTIONS),
    "hud": (PERIOD, reports.HUD_QUESTIONS),
}


def _at(day: str) -> dt.datetime:
    return dt.datetime.fromisoformat(day).replace(hour=10, tzinfo=dt.UTC)


@pytest.fixture
def population(cast):
    """Survivors with every kind of answer: given, declined, not asked, no record at all, two
    survivors on one case (the first counts), a case closed before the period and a case of
    another agency (neither counted)."""
    choice = {q: cycle(value for value, _label in answers(q)) for q in QUESTIONS}
    opened = cycle(["2025-06-01", "2025-11-03", "2026-04-20", "2026-05-02"])
    made = 0
    for n in range(23):
        case = f.open_case(cast.team1, reference=f"A-{n}", opened_at=_at(next(opened)))
        party = f.add_party(case, PartyRole.SURVIVOR, full_name=f"Person {n}")
        if n % 7 == 6:
            continue  # never asked: no record
        given = {q: next(choice[q]) for q in QUESTIONS}
        if n % 5 == 0:
            given["gender_identity"] = DECLINED
        Demographics(case=case, party=party, **given).save()
        made += 1
        if n == 3:
            second = f.add_party(case, PartyRole.SURVIVOR, full_name="Second person")
            Demographics(case=case, party=second, age_band="65_plus").save()
    closed = f.open_case(cast.team1, reference="A-closed", opened_at=_at("2024-01-02"))
    closed.status, closed.closed_at = CaseStatus.CLOSED, _at("2024-06-01")
    closed.save(update_fields=["status", "closed_at"])
    for case in (closed, f.open_case(cast.other_agency_team, reference="B-1")):
        party = f.add_party(case, PartyRole.SURVIVOR, full_name="Not counted")
        Demographics(case=case, party=party, age_band="18_24").save()
    assert made > 15
    return cast.agency.pk


def _one_by_one(agency_id: int, period: Period, question: str) -> Counter[str]:
    """The count as the reports made it before: each served case's first survivor record, its
    answer decrypted through the model, "not asked" when there is none."""
    counts: Counter[str] = Counter()
    for case in reports.served_cases(agency_id, period):
        row = (
            Demographics.objects.filter(case=case, party__role=PartyRole.SURVIVOR)
            .order_by("pk")
            .first()
        )
        if row is not None:
            row.case = case
        counts[(getattr(row, question) if row else "") or NOT_ASKED] += 1
    assert sum(counts.values()) == reports.served_cases(agency_id, period).count()
    return counts


def _cells(report: reports.FunderReport) -> dict[str, tuple[int, bool]]:
    return {k: (report.grid.values[c], c in report.hidden) for k, c in report.grid.keys.items()}


@time_machine.travel(TODAY, tick=False)
def test_every_demographic_cell_equals_the_answers_counted_one_by_one(population):
    checked = 0
    for slug, (period, questions) in COUNTED.items():
        report = reports.build(slug, population, period)
        for question in questions:
            expected = _one_by_one(population, period, question)
            assert sum(expected.values()) > 10
            for value, _label in answers(question):
                key = f"demo:{question}:{value}"
                if key in report.grid.keys:
                    assert report.grid.values[report.grid.keys[key]] == expected[value], key
                    checked += 1
    assert checked > 60


@time_machine.travel(TODAY, tick=False)
def test_rows_without_their_one_token_count_the_same_and_the_command_writes_it(population):
    before = {slug: _cells(reports.build(slug, population, p)) for slug, (p, _q) in COUNTED.items()}
    annual = {s: _cells(r) for s, r in reports.annual_release(population, 2026).items()}
    Demographics.objects.update(all_answers=None)
    assert {s: _cells(reports.build(s, population, p)) for s, (p, _q) in COUNTED.items()} == before
    call_command("seal_demographics", "--missing")
    assert not Demographics.objects.filter(all_answers__isnull=True).exists()
    assert {s: _cells(r) for s, r in reports.annual_release(population, 2026).items()} == annual
    rows = list(Demographics.objects.select_related("case"))
    assert rows
    for row in rows:
        assert row.all_answers == {q: getattr(row, q) for q in QUESTIONS}


@time_machine.travel(TODAY, tick=False)
def test_a_saved_answer_is_read_by_the_next_report(population):
    case = Case.objects.get(reference="A-1")
    row = Demographics.objects.get(case=case)
    row.case = case
    row.age_band = "under_13"
    row.save(update_fields=["age_band"])
    assert dict(reports.read_answers([case.pk], ["age_band"])) == {
        case.pk: {"age_band": "under_13"}
    }
    report = reports.build("hud", population, PERIOD)
    expected = _one_by_one(population, PERIOD, "age_band")
    assert report.grid.values[report.grid.keys["demo:age_band:under_13"]] == expected["under_13"]
    with pytest.raises(ValueError):
        list(reports.read_answers([case.pk], ["updated_at"]))
