"""No count of people is printed in one cell and hidden in another that counts the same people.

The same people are often counted in more than one table (Q16's and Q18's stayers not yet
assessed, Q17's people with earned income and Q18's with only earned income when no one has
both). Suppression protects a hidden count only when every copy of it hides too, which it does
only for the copies the report ties to it. Here the copies are found by what the cells count,
not by their names: each person served in the demo's federal year is taken out of the agency in
turn and the report is built again. Two cells that lose the same people, for every person taken
out, count the same people. Each such group is printed together or hidden together.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

import pytest
import time_machine
from django.utils import timezone

from caseflow.accounts.models import User
from caseflow.cases.models import Case
from caseflow.demo import seed
from caseflow.reporting import reports
from tests.reporting import test_hud_cells as hud_cells
from tests.reporting.test_hud_cells import population  # noqa: F401, F811 (a fixture)

pytestmark = pytest.mark.django_db


def _copies(
    slug: str, agency: int, period: reports.Period, moved_to: int
) -> tuple[list[list[tuple[str, bool]]], int]:
    """The groups of printed counts (by key, and whether each is hidden) that count the same
    people in ``agency``'s report for ``period``, and the number of people served. Each person
    is taken out by moving her case to the agency ``moved_to`` (and back)."""
    report = reports.release(slug, agency, period)
    grid = report.grid
    names = {index: key for key, index in grid.keys.items()}
    counts = [c for c in report.displayed if c not in report.about and c not in report.public]
    lost: dict[int, list[int]] = {c: [] for c in counts}
    served = list(reports.served_cases(agency, period).values_list("pk", flat=True))
    for pk in served:
        Case.objects.filter(pk=pk).update(agency_id=moved_to)
        without = reports.build(slug, agency, period)
        Case.objects.filter(pk=pk).update(agency_id=agency)
        for cell in counts:
            there = without.grid.keys.get(names[cell])
            left = without.grid.values[there] if there is not None else 0
            lost[cell].append(grid.values[cell] - left)
    groups: dict[tuple[int, tuple[int, ...]], list[int]] = defaultdict(list)
    for cell in counts:
        if any(lost[cell]):
            groups[(grid.values[cell], tuple(lost[cell]))].append(cell)
    return [
        [(names[c], report.shown(c).value is None) for c in cells]
        for cells in groups.values()
        if len(cells) > 1
    ], len(served)


def _mixed(groups: list[list[tuple[str, bool]]]) -> list[list[tuple[str, bool]]]:
    return [group for group in groups if len({hidden for _key, hidden in group}) > 1]


@time_machine.travel(dt.datetime(2026, 12, 2, 12, tzinfo=dt.UTC), tick=False)
@pytest.mark.demo
@pytest.mark.parametrize("slug", ["hud", "fvpsa"])
def test_the_same_people_are_printed_everywhere_or_hidden_everywhere(cast, slug):
    seed.seed()
    agency = User.objects.get(username="ada.admin").membership.agency.pk
    period = reports.periods("federal_year", timezone.localdate())[0]
    groups, served = _copies(slug, agency, period, cast.other_agency_team.agency_id)
    assert served > 100
    # The report does print the same people in several cells (a total and its one part with
    # anyone in it, a count and its copy in another table), and they are found: in HUD's, the
    # stayers not yet required to have an annual assessment are printed in Q16, Q18 and Q21.
    assert groups
    if slug == "hud":
        keys = {f"{q}:not_required:annual" for q in ("q16", "q18", "q21")}
        assert any(keys <= {key for key, _hidden in group} for group in groups)
    assert _mixed(groups) == []


@time_machine.travel(hud_cells.TODAY, tick=False)
def test_on_twenty_people_only_chance_groups_mix(population, cast):  # noqa: F811
    """On the twenty people of :mod:`test_hud_cells`, four groups of cells that count the same
    people mix printed and hidden counts, each by chance: the cells mean different things, and
    only these people make them the same, so a reader cannot tell from the tables that they
    are. People 0 to 4 stayed in an emergency shelter before, had $1,001 to $1,500 at exit and
    a mental health condition at exit. The 12 with a source of income at start are the 12
    leavers, those with Medicaid at start and those supported 61 to 90 days. The 9 with SNAP
    at start are all those with benefits at start (both printed: that one is not by chance,
    each benefit's people are some of those with any, tied; until they were, the 9 with any
    hid) and, by chance, the leavers with a disabling condition (hidden). Before Q17's people
    with earned income were tied to Q18's, a fifth group mixed, and not by chance: Q18's 7
    leavers with only earned income, hidden, and Q17's 7 with earned income, printed (with
    Q18's 0 with both, printed, a reader worked the 7 out). The 8 leavers with income at exit
    are, by chance, those with SNAP, with any benefit and with Medicaid at exit, and those whose
    violence was within three months: printed, but for Q18's 8, which hides so that its three
    small counts at exit are not pinned down by their bounds (``test_hud_cells``)."""
    groups, served = _copies("hud", population, hud_cells.YEAR, cast.other_agency_team.agency_id)
    assert served == hud_cells.N
    assert sorted(sorted(group) for group in _mixed(groups)) == [
        [
            ("q13b1:mental_health:total", False),
            ("q15:emergency_shelter", True),
            ("q16:1500:exit", False),
        ],
        [
            ("q14b:within_3_months", False),
            ("q18:any:exit", True),
            ("q20a:snap:exit", False),
            ("q20b:some:exit", False),
            ("q21:medicaid:exit", False),
        ],
        [
            ("q18:any:start", True),
            ("q21:medicaid:start", False),
            ("q22:*:leavers", False),
            ("q22:90:*", False),
            ("q22:90:leavers", False),
            ("q22d:90:unknown", False),
            ("q5a:leavers", False),
        ],
        [("q19b:total:with", True), ("q20a:snap:start", False), ("q20b:some:start", False)],
    ]
