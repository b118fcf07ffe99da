"""Funder reports: counts of one agency's work in one period, built as one grid of cells and
sums and protected by :mod:`caseflow.lib.suppression` as a whole (a total shown in several
breakdowns is one cell, so no breakdown gives away what another hides).

Who is counted: the survivors of the agency's cases open at any time in the period (opened before
its end, not closed before its start). Demographic answers are decrypted only to be counted here.
What caseflow cannot answer for each funder is listed in ``caseflow/reporting/README.md``.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from caseflow.cases.language import language_name, split_languages
from caseflow.cases.models import (
    AbuseChange,
    Case,
    CaseKey,
    CaseStatus,
    Closure,
    ClosureState,
    Episode,
    EpisodeStart,
    FeelsSafer,
    Party,
    PartyRole,
    RiskLevel,
    StandardClosureReason,
)
from caseflow.casework.models import (
    CaseNote,
    Incident,
    IncidentKind,
    Need,
    NeedKind,
    NeedStatus,
    NoteKind,
)
from caseflow.checkins.models import CheckIn, CheckInStatus
from caseflow.lib.encryption import unwrap_data_key
from caseflow.lib.suppression import Grid, suppress
from caseflow.partners.models import (
    DECLINED,
    NOT_ASKED,
    Demographics,
    Direction,
    MeetingReferral,
    ServiceReferral,
    ServiceType,
    answers,
)
from caseflow.safety.models import RiskAssessment

# --- Periods ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Period:
    start: dt.date
    end: dt.date  # inclusive
    label: str

    @property
    def since(self) -> dt.datetime:
        return dt.datetime.combine(self.start, dt.time(0), tzinfo=dt.UTC)

    @property
    def until(self) -> dt.datetime:
        return dt.datetime.combine(self.end + dt.timedelta(days=1), dt.time(0), tzinfo=dt.UTC)


def quarter(year: int, q: int) -> Period:
    start = dt.date(year, 3 * (q - 1) + 1, 1)
    end = (dt.date(year + 1, 1, 1) if q == 4 else dt.date(year, 3 * q + 1, 1)) - dt.timedelta(
        days=1
    )
    return Period(start, end, f"{year} Q{q}")


def year(y: int) -> Period:
    return Period(dt.date(y, 1, 1), dt.date(y, 12, 31), str(y))


# --- The rows a report counts -------------------------------------------------------------------


def served_cases(agency_id: int, period: Period) -> QuerySet[Case]:
    return Case.objects.filter(agency_id=agency_id, opened_at__lt=period.until).exclude(
        closed_at__lt=period.since
    )


def _load_keys(cases: Iterable[Case]) -> None:
    """Unwrap the data keys of ``cases`` in one query (not one per case)."""
    by_id = {c.pk: c for c in cases if "_data_key" not in c.__dict__}
    if not by_id:
        return
    for case_id, wrapped in CaseKey.objects.filter(case_id__in=list(by_id)).values_list(
        "case_id", "wrapped"
    ):
        by_id[case_id].__dict__["_data_key"] = unwrap_data_key(wrapped)


def demographic_by_case(cases: Sequence[Case], question: str) -> dict[int, str]:
    """Each case's survivor's answer to ``question`` (absent: never asked)."""
    _load_keys(cases)
    by_id = {c.pk: c for c in cases}
    found: dict[int, str] = {}
    rows = Demographics.objects.filter(
        case_id__in=list(by_id), party__role=PartyRole.SURVIVOR
    ).only("pk", "case_id", question)
    for row in rows.order_by("pk"):
        row.case = by_id[row.case_id]
        found.setdefault(row.case_id, getattr(row, question) or NOT_ASKED)
    return found


def demographic_answers(cases: Sequence[Case], question: str) -> Counter[str]:
    """How many survivors of ``cases`` gave each answer ("not asked" for no answers at all)."""
    found = demographic_by_case(cases, question)
    return Counter(found.get(c.pk, NOT_ASKED) for c in {c.pk: c for c in cases}.values())


# --- What a report is ---------------------------------------------------------------------------


@dataclass
class Row:
    label: str
    cells: list[int]  # indexes into the grid


@dataclass
class Section:
    title: str
    columns: list[str]
    rows: list[Row]
    #: The value column a chart shows (the first, or the total).
    chart_column: int = 0
    note: str = ""
    #: A heading for the CSV in a funder's layout (e.g. "Q11").
    code: str = ""
    #: The last row holds the totals.
    has_total: bool = True


@dataclass
class Shown:
    """A cell as published: its text, and its number when it is not suppressed."""

    text: str
    value: int | None


@dataclass
class FunderReport:
    slug: str
    title: str
    period: Period
    sections: list[Section]
    grid: Grid
    hidden: set[int] = field(default_factory=set)
    threshold: int = 5

    def shown(self, index: int) -> Shown:
        if index in self.hidden:
            # One mark for every hidden cell: telling the small ones apart would bound the rest.
            return Shown("*", None)
        value = self.grid.values[index]
        return Shown(str(value), value)

    @property
    def suppressed(self) -> int:
        return len(self.hidden)

    @property
    def cells(self) -> int:
        return len(self.grid.values)

    def table(self, section: Section) -> list[tuple[str, list[Shown]]]:
        return [(row.label, [self.shown(c) for c in row.cells]) for row in section.rows]

    def csv_rows(self) -> list[list[str]]:
        out: list[list[str]] = []
        for section in self.sections:
            out.append([section.code or section.title])
            out.append(["", *section.columns])
            for label, cells in self.table(section):
                out.append([label, *(c.text for c in cells)])
            out.append([])
        return out


class Builder:
    """Adds breakdowns to one grid; a total key shared between breakdowns is one cell."""

    def __init__(self) -> None:
        self.grid = Grid()
        self.sections: list[Section] = []

    def breakdown(
        self,
        key: str,
        title: str,
        choices: Sequence[tuple[str, Any]],
        counts: Counter[str] | dict[str, int],
        *,
        total: tuple[str, str] | None,
        column: str,
        code: str = "",
        note: str = "",
    ) -> None:
        """One column of counts by ``choices``; with a ``total`` (key, label) row that the
        counts add up to."""
        cells = [self.grid.cell(f"{key}:{value}", counts.get(value, 0)) for value, _l in choices]
        rows = [Row(str(label), [c]) for (_v, label), c in zip(choices, cells, strict=True)]
        if total is not None:
            t = self.grid.cell(total[0], sum(counts.get(v, 0) for v, _l in choices))
            self.grid.sum(t, cells)
            rows.append(Row(total[1], [t]))
        self.sections.append(
            Section(title, [column], rows, code=code, note=note, has_total=total is not None)
        )

    def crosstab(
        self,
        key: str,
        title: str,
        row_choices: Sequence[tuple[str, Any]],
        col_choices: Sequence[tuple[str, Any]],
        counts: Counter[tuple[str, str]],
        *,
        total_key: str,
        code: str = "",
        note: str = "",
    ) -> None:
        """Counts by two dimensions, with row, column and grand totals."""
        g = self.grid
        matrix = [
            [g.cell(f"{key}:{r}:{c}", counts.get((r, c), 0)) for c, _cl in col_choices]
            for r, _rl in row_choices
        ]
        row_totals = [
            g.cell(f"{key}:{r}:*", sum(counts.get((r, c), 0) for c, _cl in col_choices))
            for r, _rl in row_choices
        ]
        col_totals = [
            g.cell(f"{key}:*:{c}", sum(counts.get((r, c), 0) for r, _rl in row_choices))
            for c, _cl in col_choices
        ]
        grand = g.cell(total_key, sum(counts.values()))
        for cells, t in zip(matrix, row_totals, strict=True):
            g.sum(t, cells)
        for j, t in enumerate(col_totals):
            g.sum(t, [row[j] for row in matrix])
        g.sum(grand, row_totals)
        g.sum(grand, col_totals)
        rows = [
            Row(str(rl), [*cells, t])
            for (_r, rl), cells, t in zip(row_choices, matrix, row_totals, strict=True)
        ]
        rows.append(Row(_("Total"), [*col_totals, grand]))
        columns = [str(cl) for _c, cl in col_choices] + [_("Total")]
        self.sections.append(
            Section(title, columns, rows, chart_column=len(columns) - 1, code=code, note=note)
        )

    def finish(self, slug: str, title: str, period: Period) -> FunderReport:
        threshold = settings.AGGREGATE_MIN_CELL
        hidden = suppress(self.grid, threshold)
        return FunderReport(slug, title, period, self.sections, self.grid, hidden, threshold)


# --- Shared breakdowns --------------------------------------------------------------------------

PEOPLE = gettext_lazy("People")
SERVED = ("served", gettext_lazy("People served"))


def _grouped(counts: Counter[str], groups: dict[str, tuple[str, ...]]) -> Counter[str]:
    """Answers added up into a funder's own bands."""
    out: Counter[str] = Counter()
    for band, members in groups.items():
        out[band] = sum(counts.get(m, 0) for m in members)
    return out


def _new_and_returning(b: Builder, cases: Sequence[Case], period: Period, code: str = "") -> None:
    """Each person once: new (a first referral in the period), returning (came back or was
    referred again in the period), or continuing (support that began before it). A case without
    episodes counts by the day it was opened."""
    starts: dict[int, str] = {}
    for case_id, first in (
        Episode.objects.filter(
            case_id__in=[c.pk for c in cases],
            opened_at__gte=period.since,
            opened_at__lt=period.until,
        )
        .order_by("case_id", "opened_at", "pk")
        .values_list("case_id", "start")
    ):
        starts.setdefault(case_id, first)
    counts: Counter[str] = Counter()
    for case in cases:
        start = starts.get(case.pk)
        if start is None:
            start = EpisodeStart.REFERRAL if case.opened_at >= period.since else None
        if start is None:
            counts["continuing"] += 1
        elif start == EpisodeStart.REFERRAL:
            counts["new"] += 1
        else:
            counts["returning"] += 1
    b.breakdown(
        "new",
        _("New, returning and continuing"),
        [
            ("new", _("New in this period")),
            ("returning", _("Came back or referred again in this period")),
            ("continuing", _("Continuing from before")),
        ],
        counts,
        total=(SERVED[0], str(SERVED[1])),
        column=str(PEOPLE),
        code=code,
    )


def _demographic(
    b: Builder,
    cases: Sequence[Case],
    question: str,
    title: str,
    groups: dict[str, tuple[str, ...]] | None = None,
    labels: dict[str, Any] | None = None,
    code: str = "",
    total: tuple[str, Any] = SERVED,
) -> None:
    counts = demographic_answers(cases, question)
    choices: list[tuple[str, Any]]
    if groups is not None:
        counts = _grouped(counts, groups)
        choices = [(k, (labels or {}).get(k, k)) for k in groups]
    else:
        choices = answers(question)
    b.breakdown(
        f"demo:{question}:{code}",
        title,
        choices,
        counts,
        total=(total[0], str(total[1])),
        column=str(PEOPLE),
        code=code,
    )


NOT_RECORDED = "not_recorded"


def _languages(b: Builder, cases: Sequence[Case], code: str = "") -> None:
    """Languages served and interpreter use: each person once, by the language they prefer (the
    first they speak), and by the language an interpreter was needed for. Read from the plain
    language columns of the survivor's record (no personal file is opened)."""
    preferred: Counter[str] = Counter()
    interpreted: Counter[str] = Counter()
    rows = dict(
        (case_id, (spoken, interpreter))
        for case_id, spoken, interpreter in Party.objects.filter(
            case_id__in=[c.pk for c in cases], role=PartyRole.SURVIVOR
        )
        .order_by("case_id", "pk")
        .values_list("case_id", "languages", "interpreter_language")
    )
    for case in cases:
        spoken, interpreter = rows.get(case.pk, ("", ""))
        first = next(iter(split_languages(spoken)), "")
        preferred[first or NOT_RECORDED] += 1
        interpreted[interpreter or "none"] += 1

    def choices(counts: Counter[str], last: tuple[str, Any]) -> list[tuple[str, Any]]:
        named = [(key, language_name(key)) for key in counts if key != last[0]]
        return [*sorted(named, key=lambda item: item[1]), last]

    b.breakdown(
        f"language{code}",
        _("Preferred language"),
        choices(preferred, (NOT_RECORDED, _("Not recorded"))),
        preferred,
        total=(SERVED[0], str(SERVED[1])),
        column=str(PEOPLE),
    )
    b.breakdown(
        f"interpreter{code}",
        _("Interpreter needed, by language"),
        choices(interpreted, ("none", _("No interpreter recorded"))),
        interpreted,
        total=(SERVED[0], str(SERVED[1])),
        column=str(PEOPLE),
    )


def _services(b: Builder, cases: Sequence[Case], period: Period) -> None:
    ids = [c.pk for c in cases]
    notes = Counter(
        CaseNote.objects.filter(
            case_id__in=ids, occurred_at__gte=period.since, occurred_at__lt=period.until
        )
        .exclude(kind=NoteKind.INTERNAL)
        .values_list("kind", flat=True)
    )
    checkins = CheckIn.objects.filter(
        case_id__in=ids,
        status=CheckInStatus.DONE,
        due_at__gte=period.since,
        due_at__lt=period.until,
    ).count()
    referrals = ServiceReferral.objects.filter(
        case_id__in=ids,
        direction=Direction.OUT,
        sent_on__gte=period.start,
        sent_on__lte=period.end,
    ).count()
    meetings = MeetingReferral.objects.filter(
        case_id__in=ids, referred_on__gte=period.start, referred_on__lte=period.end
    ).count()
    plans = RiskAssessment.objects.filter(
        case_id__in=ids, created_at__gte=period.since, created_at__lt=period.until
    ).count()
    counts = {
        "support": sum(notes.get(k, 0) for k in ("call", "text", "email", "in_person", "video")),
        "court": notes.get(NoteKind.COURT, 0),
        "liaison": notes.get(NoteKind.AGENCY, 0),
        "checkins": checkins,
        "risk": plans,
        "referrals": referrals,
        "meetings": meetings,
    }
    b.breakdown(
        "services",
        _("Services given, by type"),
        [
            ("support", _("Advocacy and emotional support contacts")),
            ("court", _("Support at court")),
            ("liaison", _("Liaison with other agencies")),
            ("checkins", _("Safety check-ins completed")),
            ("risk", _("Risk assessments")),
            ("referrals", _("Referrals to other services")),
            ("meetings", _("Referrals to the risk meeting")),
        ],
        counts,
        total=("services:total", _("All services")),
        column=_("Services"),
    )


def _victimisation(b: Builder, cases: Sequence[Case], period: Period) -> None:
    people: dict[str, set[int]] = {k: set() for k in IncidentKind.values}
    for case_id, kinds in Incident.objects.filter(
        case_id__in=[c.pk for c in cases],
        occurred_at__gte=period.since - dt.timedelta(days=366),
        occurred_at__lt=period.until,
    ).values_list("case_id", "kinds"):
        for kind in kinds or []:
            if kind in people:
                people[kind].add(case_id)
    b.breakdown(
        "victimisation",
        _("People by type of abuse they reported"),
        IncidentKind.choices,
        {k: len(v) for k, v in people.items()},
        total=None,
        column=str(PEOPLE),
        note=_("One person may report several types, so there is no total."),
    )


VOCA_AGES = {
    "0_12": ("under_13",),
    "13_17": ("13_17",),
    "18_24": ("18_24",),
    "25_59": ("25_34", "35_44", "45_54", "55_59"),
    "60_plus": ("60_64", "65_plus"),
    "unknown": (DECLINED, NOT_ASKED),
}
VOCA_AGE_LABELS = {
    "0_12": gettext_lazy("0 to 12"),
    "13_17": gettext_lazy("13 to 17"),
    "18_24": gettext_lazy("18 to 24"),
    "25_59": gettext_lazy("25 to 59"),
    "60_plus": gettext_lazy("60 and older"),
    "unknown": gettext_lazy("Not reported"),
}


def _cases(agency_id: int, period: Period) -> list[Case]:
    return list(
        served_cases(agency_id, period).only("pk", "opened_at", "closed_at", "status", "risk_level")
    )


def voca_quarterly(agency_id: int, period: Period) -> FunderReport:
    cases = _cases(agency_id, period)
    b = Builder()
    _new_and_returning(b, cases, period)
    _services(b, cases, period)
    _victimisation(b, cases, period)
    _demographic(b, cases, "age_band", _("Age"), VOCA_AGES, VOCA_AGE_LABELS, code="age")
    _demographic(b, cases, "gender_identity", _("Gender identity"))
    _demographic(b, cases, "race_ethnicity", _("Race and ethnicity"))
    _demographic(b, cases, "disability", _("Disability"))
    _languages(b, cases)
    return b.finish("voca", str(REPORTS["voca"].title), period)


FVPSA_AGES = {
    "18_24": ("18_24",),
    "25_59": ("25_34", "35_44", "45_54", "55_59"),
    "60_plus": ("60_64", "65_plus"),
    "under_18": ("under_13", "13_17"),
    "unknown": (DECLINED, NOT_ASKED),
}


def fvpsa_annual(agency_id: int, period: Period) -> FunderReport:
    cases = _cases(agency_id, period)
    b = Builder()
    _new_and_returning(b, cases, period)
    labels = {**VOCA_AGE_LABELS, "under_18": str(_("Under 18"))}
    _demographic(b, cases, "age_band", _("Age"), FVPSA_AGES, labels, code="age")
    _demographic(b, cases, "race_ethnicity", _("Race and ethnicity"))
    _demographic(b, cases, "gender_identity", _("Gender identity"))
    _demographic(b, cases, "children", _("Children"))
    _languages(b, cases)
    _services(b, cases, period)
    referrals = Counter(
        ServiceReferral.objects.filter(
            case_id__in=[c.pk for c in cases],
            direction=Direction.OUT,
            sent_on__gte=period.start,
            sent_on__lte=period.end,
        ).values_list("service_type", flat=True)
    )
    b.breakdown(
        "referral_types",
        _("Referrals to other services, by service"),
        ServiceType.choices,
        referrals,
        total=("services:referrals", _("All referrals")),
        column=_("Referrals"),
    )
    return b.finish("fvpsa", str(REPORTS["fvpsa"].title), period)


HUD_AGES = {
    "under_5": (),
    "5_12": ("under_13",),
    "13_17": ("13_17",),
    "18_24": ("18_24",),
    "25_34": ("25_34",),
    "35_44": ("35_44",),
    "45_54": ("45_54",),
    "55_64": ("55_59", "60_64"),
    "65_plus": ("65_plus",),
    "dk": (DECLINED,),
    "dnc": (NOT_ASKED,),
}
HUD_AGE_LABELS = {
    "under_5": "Under 5",
    "5_12": "5 - 12",
    "13_17": "13 - 17",
    "18_24": "18 - 24",
    "25_34": "25 - 34",
    "35_44": "35 - 44",
    "45_54": "45 - 54",
    "55_64": "55 - 64",
    "65_plus": "65+",
    "dk": "Client Doesn't Know/Prefers Not to Answer",
    "dnc": "Data Not Collected",
}
HUD_RACE = {
    "indigenous": ("indigenous",),
    "asian": ("asian",),
    "black": ("black",),
    "hispanic": ("hispanic",),
    "mena": ("mena",),
    "pacific": ("pacific",),
    "white": ("white",),
    "multiple": ("multiple", "other"),
    "dk": (DECLINED,),
    "dnc": (NOT_ASKED,),
}
HUD_RACE_LABELS = {
    "indigenous": "American Indian, Alaska Native, or Indigenous",
    "asian": "Asian or Asian American",
    "black": "Black, African American, or African",
    "hispanic": "Hispanic/Latina/e/o",
    "mena": "Middle Eastern or North African",
    "pacific": "Native Hawaiian or Pacific Islander",
    "white": "White",
    "multiple": "Multiracial",
    "dk": "Client Doesn't Know/Prefers Not to Answer",
    "dnc": "Data Not Collected",
}


def hud_apr(agency_id: int, period: Period) -> FunderReport:
    """The questions of the HUD APR/CAPER CSV that caseflow can answer, each under its
    question number and with the published row and column names."""
    cases = _cases(agency_id, period)
    b = Builder()
    leavers = sum(1 for c in cases if c.status == CaseStatus.CLOSED and c.closed_at is not None)
    b.breakdown(
        "q5a",
        "Q5a: Report Validations Table",
        [("leavers", "Number of Leavers"), ("stayers", "Number of Stayers")],
        {"leavers": leavers, "stayers": len(cases) - leavers},
        total=(SERVED[0], "Total Number of Persons Served"),
        column="Count of Clients",
        code="Q5a",
    )
    _demographic(b, cases, "age_band", "Q11: Age", HUD_AGES, HUD_AGE_LABELS, code="Q11")
    _demographic(
        b, cases, "race_ethnicity", "Q12: Race and Ethnicity", HUD_RACE, HUD_RACE_LABELS, "Q12"
    )
    return b.finish("hud", str(REPORTS["hud"].title), period)


BANDS = [
    (RiskLevel.HIGH, RiskLevel.HIGH.label),
    (RiskLevel.MEDIUM, RiskLevel.MEDIUM.label),
    (RiskLevel.STANDARD, RiskLevel.STANDARD.label),
    (RiskLevel.UNKNOWN, RiskLevel.UNKNOWN.label),
]


def insights_outcomes(agency_id: int, period: Period) -> FunderReport:
    """Intake against exit for the closures of the period: risk band at intake and at exit,
    whether the abuse stopped, whether the survivor feels safer, why support ended, and the
    needs met."""
    closures = list(
        Closure.objects.filter(
            case__agency_id=agency_id,
            state=ClosureState.CLOSED,
            closed_at__gte=period.since,
            closed_at__lt=period.until,
        ).select_related("reason")
    )
    exits = ("exits", _("All exits"))
    b = Builder()
    b.crosstab(
        "risk",
        _("Risk at intake (rows) and at exit (columns)"),
        BANDS,
        BANDS,
        Counter((c.risk_at_intake, c.risk_at_exit) for c in closures),
        total_key=exits[0],
    )
    b.breakdown(
        "abuse",
        _("Did the abuse stop?"),
        AbuseChange.choices,
        Counter(c.abuse_change for c in closures),
        total=exits,
        column=str(PEOPLE),
    )
    b.breakdown(
        "safer",
        _("Does the survivor feel safer?"),
        FeelsSafer.choices,
        Counter(c.feels_safer for c in closures),
        total=exits,
        column=str(PEOPLE),
    )
    b.breakdown(
        "reason",
        _("Why support ended"),
        StandardClosureReason.choices,
        Counter(c.reason.standard or StandardClosureReason.OTHER for c in closures),
        total=exits,
        column=str(PEOPLE),
        note=_("The agency's own reasons are counted under Other."),
    )
    met = Counter(
        Need.objects.filter(
            case__agency_id=agency_id,
            status=NeedStatus.MET,
            status_since__gte=period.start,
            status_since__lte=period.end,
        ).values_list("kind", flat=True)
    )
    b.breakdown(
        "needs_met",
        _("Needs met in the period"),
        NeedKind.choices,
        met,
        total=("needs_met:total", _("All needs met")),
        column=_("Needs"),
    )
    cases = list(Case.objects.filter(pk__in={c.case_id for c in closures}).only("pk"))
    ages = demographic_by_case(cases, "age_band")
    b.breakdown(
        "exit_age",
        _("Age"),
        answers("age_band"),
        Counter(ages.get(c.case_id, NOT_ASKED) for c in closures),
        total=exits,
        column=str(PEOPLE),
    )
    return b.finish("insights", str(REPORTS["insights"].title), period)


@dataclass(frozen=True)
class ReportKind:
    slug: str
    title: Any
    description: Any
    period: str  # "quarter", "year" or "range"
    build: Callable[[int, Period], FunderReport]


REPORTS: dict[str, ReportKind] = {
    "voca": ReportKind(
        "voca",
        gettext_lazy("Quarterly performance measures (VOCA style)"),
        gettext_lazy("People served, new and continuing, services by type, types of abuse."),
        "quarter",
        voca_quarterly,
    ),
    "fvpsa": ReportKind(
        "fvpsa",
        gettext_lazy("Annual counts (FVPSA style)"),
        gettext_lazy("People served by age, race and ethnicity, services and referrals."),
        "year",
        fvpsa_annual,
    ),
    "hud": ReportKind(
        "hud",
        gettext_lazy("HUD APR / CAPER CSV (comparable database)"),
        gettext_lazy("The APR questions caseflow can answer, in the published layout."),
        "range",
        hud_apr,
    ),
    "insights": ReportKind(
        "insights",
        gettext_lazy("Intake and exit outcomes (Insights style)"),
        gettext_lazy("Risk at intake against risk at exit, for cases closed in the period."),
        "range",
        insights_outcomes,
    ),
}


def build(slug: str, agency_id: int, period: Period) -> FunderReport:
    return REPORTS[slug].build(agency_id, period)
