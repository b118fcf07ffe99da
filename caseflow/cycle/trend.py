"""What followed harm on the journey's trend picture: a row of marks per week beside the
incidents, and the pattern in words (:mod:`caseflow.cycle.pattern`)."""

from __future__ import annotations

import datetime as dt

from caseflow.cases.models import Case
from caseflow.cases.trend import TrendSource
from caseflow.cycle import catalogue, selectors
from caseflow.cycle.models import StandardKind
from caseflow.cycle.pattern import find_pattern, pattern_lines
from caseflow.lib.i18n import gettext_lazy as _

COLOURS = {
    StandardKind.APOLOGY: "#1d4e89",
    StandardKind.GIFT: "#7a3e9d",
    StandardKind.PROMISE: "#0f766e",
    StandardKind.AFFECTION: "#b4367a",
    StandardKind.PITY: "#9a3412",
    StandardKind.FAMILY: "#4d7c0f",
    StandardKind.JUST_TO_TALK: "#475569",
}


def pattern_summary(case: Case, since: dt.datetime) -> list[str]:
    """The pattern after the last incidents, in words: facts and counts only."""
    found = find_pattern(
        selectors.incident_moments(case, since), selectors.mark_moments(case, since)
    )
    if not found.followed:
        return []
    return pattern_lines(found, catalogue.labels(case.agency_id))


SOURCE = TrendSource(
    kind="cycle_marks",
    label=_("What followed harm"),
    fetch=selectors.mark_trend,
    categories={
        **{code: (label, COLOURS[StandardKind(code)]) for code, label in StandardKind.choices},
        "agency": (_("Your agency's own kinds"), "#a16207"),
    },
    order=15,
    summary=pattern_summary,
)
