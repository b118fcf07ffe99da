"""Funder reports: counts of one agency's work in one period, built as one grid of cells and
sums and protected by :mod:`caseflow.lib.suppression` as a whole (a total shown in several
breakdowns is one cell, so no breakdown gives away what another hides).

Who is counted: the survivors of the agency's cases open at any time in the period (opened before
its end, not closed before its start). Demographic answers are decrypted only to be counted here.
What caseflow cannot answer for each funder is listed in ``caseflow/reporting/README.md``.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple, TypeVar, cast

from django.conf import settings
from django.db.models import BooleanField, ExpressionWrapper, Q, QuerySet, TextField
from django.db.models.functions import Cast, TruncDate
from django.utils import timezone
from django.utils.dates import MONTHS
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from caseflow.accounts import zones
from caseflow.accounts.models import Agency
from caseflow.assistance.models import COUNTED as PAID
from caseflow.assistance.models import Payment
from caseflow.calls.models import CallerKind
from caseflow.calls.selectors import calls_by_caller_kind
from caseflow.cases.fields import agency_field_config
from caseflow.cases.language import language_name, split_languages
from caseflow.cases.models import (
    AbuseChange,
    Case,
    CaseStatus,
    Closure,
    ClosureState,
    Episode,
    EpisodeStart,
    FeelsSafer,
    IntakeField,
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
from caseflow.community.models import STATEMENTS, Audience, SurveyAnswer, SurveyService
from caseflow.community.selectors import sessions_by_audience, survey_answers
from caseflow.lib.encryption import DataKey, EncryptedTextField, KeyDestroyed, unwrap_data_key
from caseflow.lib.suppression import (
    Grid,
    Told,
    printed_stars,
    suppress,
    telling_nothing_new,
    worked_out,
)
from caseflow.partners import hud
from caseflow.partners.models import (
    DECLINED,
    HOUSING_PROJECTS,
    NOT_ASKED,
    ONS_GROUPS,
    PERMANENT_HOUSING,
    QUESTIONS,
    Demographics,
    Direction,
    HudAnswers,
    HudProject,
    HudProjectType,
    MeetingReferral,
    ServiceReferral,
    ServiceType,
    answers,
)
from caseflow.partners.services import hud_collected, hud_project
from caseflow.safety.models import RiskAssessment
from caseflow.servicelog.selectors import counts_by_category, report_categories
from caseflow.shelter.selectors import last_nights, shelter_figures

T = TypeVar("T")

# --- Periods ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Period:
    """Days of the calendar, ``start`` to ``end``. The moments they begin and end are those of
    the zone in force: a report is built in its agency's zone (:func:`agency_days`), so a case
    opened on the evening of a quarter's last day is in that quarter, as its advocate dated it."""

    start: dt.date
    end: dt.date  # inclusive
    label: str

    @property
    def since(self) -> dt.datetime:
        return dt.datetime.combine(self.start, dt.time(0), tzinfo=timezone.get_current_timezone())

    @property
    def until(self) -> dt.datetime:
        return dt.datetime.combine(
            self.end + dt.timedelta(days=1), dt.time(0), tzinfo=timezone.get_current_timezone()
        )


def agency_days(build: Callable[[int, Period], T]) -> Callable[[int, Period], T]:
    """Build the report of an agency in its own zone, whoever asks and wherever it runs (a
    request in another zone, a worker): every period's bounds and every day a report takes
    from a moment (a case's opening and closing, an episode's start) are the agency's days, so
    a report reads the same in a page and in a prepared download."""

    @functools.wraps(build)
    def in_zone(agency_id: int, period: Period) -> T:
        agency = Agency.objects.only("time_zone").get(pk=agency_id)
        with zones.using(zones.agency_zone(agency)):
            return build(agency_id, period)

    return in_zone


def quarter(year: int, q: int) -> Period:
    start = dt.date(year, 3 * (q - 1) + 1, 1)
    return Period(start, _quarter_end(start), f"{year} Q{q}")


def year(y: int) -> Period:
    return Period(dt.date(y, 1, 1), dt.date(y, 12, 31), str(y))


def _quarter_end(start: dt.date) -> dt.date:
    month = start.month + 3
    after = dt.date(start.year + (month > 12), (month - 1) % 12 + 1, 1)
    return after - dt.timedelta(days=1)


def _month(day: dt.date) -> str:
    return str(MONTHS[day.month])


def calendar_quarter(start: dt.date) -> Period:
    """The three months from ``start`` (1 January, April, July or October)."""
    end = _quarter_end(start)
    label = _("%(first)s to %(last)s %(year)d") % {
        "first": _month(start),
        "last": _month(end),
        "year": end.year,
    }
    return Period(start, end, label)


def federal_year_of(day: dt.date) -> int:
    """The US federal fiscal year ``day`` falls in: FY 2027 runs from October 2026 to September
    2027."""
    return day.year + (day.month >= 10)


def federal_quarter(start: dt.date) -> Period:
    """A quarter of the federal fiscal year (Q1 is October to December)."""
    period = calendar_quarter(start)
    label = _("%(months)s (Q%(q)d of the federal year %(fy)d)") % {
        "months": period.label,
        "q": (start.month - 10) % 12 // 3 + 1,
        "fy": federal_year_of(start),
    }
    return Period(period.start, period.end, label)


def federal_year(fy: int) -> Period:
    start, end = dt.date(fy - 1, 10, 1), dt.date(fy, 9, 30)
    label = _("October %(first)d to September %(last)d (the federal year %(fy)d)") % {
        "first": fy - 1,
        "last": fy,
        "fy": fy,
    }
    return Period(start, end, label)


def federal_quarters(fy: int) -> list[Period]:
    return [federal_quarter(dt.date(fy - 1 + (m < 10), m, 1)) for m in (10, 1, 4, 7)]


#: How far back the period lists go.
PERIOD_YEARS = 10


def periods(kind: str, today: dt.date, earliest: dt.date | None = None) -> list[Period]:
    """The periods a report of ``kind`` may be run for, the latest first: fixed periods that do
    not overlap (quarters, or federal years) and have ended before ``today``, back to the one
    holding ``earliest`` (the agency's first case) and at most :data:`PERIOD_YEARS` years. Why
    only these: the reporting README, "Periods that cannot be subtracted"."""
    floor = today.replace(year=today.year - PERIOD_YEARS, day=1)
    if earliest is not None:
        floor = max(floor, earliest)
    out: list[Period] = []
    if kind == "federal_year":
        fy = federal_year_of(today) - 1
        while True:
            period = federal_year(fy)
            if period.end < floor:
                return out
            out.append(period)
            fy -= 1
    start = dt.date(today.year, (today.month - 1) // 3 * 3 + 1, 1)
    make = federal_quarter if kind == "federal_quarter" else calendar_quarter
    while True:
        start = dt.date(start.year - (start.month == 1), (start.month - 4) % 12 + 1, 1)
        period = make(start)
        if period.end < floor:
            return out
        out.append(period)


# --- The rows a report counts -------------------------------------------------------------------


class _Day(TruncDate):
    """``TruncDate`` read without its converter: the database gives a date (SQLite text, which
    its backend's own converter reads), so ``TruncBase``'s check of each value for a datetime
    has nothing to do, and would cost a call a row."""

    def get_db_converters(self, connection: Any) -> list[Any]:
        return self.output_field.get_db_converters(connection)


def local_day(moment: str) -> TruncDate:
    """The agency's day of the moment ``moment`` (a field name), worked out by the database in
    the agency's zone (``in_zone``): a date is read back at a fraction of the cost of parsing a
    timestamp and moving it into the zone in Python."""
    return _Day(moment, tzinfo=timezone.get_current_timezone())


def served_cases(agency_id: int, period: Period) -> QuerySet[Case]:
    return Case.objects.filter(agency_id=agency_id, opened_at__lt=period.until).exclude(
        closed_at__lt=period.since
    )


class CaseRow(NamedTuple):
    """A case counted, as a plain row (no model instance, no date to parse)."""

    pk: int
    #: Opened on or after the period's first day.
    opened_in_period: bool
    #: Closed by the period's end (a leaver, in HUD's words).
    left: bool


class HudEntry(NamedTuple):
    """A person's HUD answers as a report reads them (:func:`read_hud_answers`), with the
    agency's days that go with them."""

    answers: dict[str, Any]
    #: The day her latest episode of support begun by the period's end began (HUD's project
    #: start).
    began: dt.date
    #: The days her answers were first saved and her answers at exit first given (Q6e), None
    #: when caseflow did not yet keep them or they were not given.
    recorded_on: dt.date | None
    exit_recorded_on: dt.date | None
    #: The day her case closed, None while open.
    closed_on: dt.date | None


#: The demographic questions each report counts (read together, in one pass).
VOCA_QUESTIONS = ("age_band", "gender_identity", "race_ethnicity", "disability")
FVPSA_QUESTIONS = ("age_band", "race_ethnicity", "gender_identity", "children")
HUD_QUESTIONS = ("age_band", "gender_identity", "race_ethnicity")
#: Every question any report counts.
QUESTIONS_COUNTED = tuple(dict.fromkeys((*VOCA_QUESTIONS, *FVPSA_QUESTIONS, *HUD_QUESTIONS)))


def read_answers(
    case_ids: QuerySet[Any] | Iterable[int], questions: Sequence[str]
) -> Iterator[tuple[int, dict[str, str]]]:
    """Each case's survivor's answers to ``questions`` ("not asked" for one never answered),
    streamed as values rows: the first survivor's row of a case (by pk) only, its case key
    unwrapped once and its answers opened by one decryption (``all_answers``), whatever number
    of questions and breakdowns count them. A row written before ``all_answers`` existed is
    read question by question, in one more query for all such rows. A case with no row is not
    yielded (never asked)."""
    for case_id, given, _hud in read_people(case_ids, questions, None):
        if given is not None:
            yield case_id, given


def read_hud_answers(
    case_ids: QuerySet[Any] | Iterable[int], period: Period
) -> Iterator[tuple[int, HudEntry]]:
    """Each case's HUD entry and exit answers for ``period``: those of its latest episode of
    support begun before the period's end, with the day that episode began (HUD's project
    start) and the other days of :class:`HudEntry`, streamed as values rows, each case key
    unwrapped once and each person's answers opened by one decryption (every question is in
    one token). A case with no answers is not yielded (nothing collected)."""
    for case_id, _given, hud_given in read_people(case_ids, None, period):
        if hud_given is not None:
            yield case_id, hud_given


def _firsts(rows: Iterable[tuple[Any, ...]], at: int) -> Iterator[tuple[Any, ...]]:
    """The first of each case's rows (its id at ``at``; a case's rows come together)."""
    previous = None
    for row in rows:
        if row[at] != previous:
            previous = row[at]
            yield row


def read_people(
    case_ids: QuerySet[Any] | Iterable[int],
    questions: Sequence[str] | None,
    period: Period | None,
) -> Iterator[tuple[int, dict[str, str] | None, HudEntry | None]]:
    """:func:`read_answers` (the survivors' answers to ``questions``) and
    :func:`read_hud_answers` (the HUD answers for ``period``) in one pass, each case key
    unwrapped once for both: ``(case id, answers or None, (HUD answers, start) or None)`` in
    the order of the case ids, a case with neither not yielded. Either is left out when its
    argument is None. The two statements are read side by side, a case's rows together in
    each: nothing is kept of a case once the next one is read, but the rows written before
    ``all_answers`` existed, whose answers are yielded last (with no HUD answers)."""
    if questions is not None and not set(questions) <= set(QUESTIONS):
        raise ValueError(f"not demographic questions: {sorted(set(questions) - set(QUESTIONS))}")
    demographics: Iterator[tuple[Any, ...]] = iter(())
    if questions is not None:
        demographics = _firsts(
            Demographics.objects.filter(case_id__in=case_ids, party__role=PartyRole.SURVIVOR)
            # A case's rows together, its first first: no set of the cases seen is kept.
            .order_by("case_id", "pk")
            # The token as the text it is stored as: opened here, with the key of its own row,
            # so no ``Sealed`` wrapper is built for each row only to be taken apart again.
            .values_list("case_id", "case__key__wrapped", Cast("all_answers", TextField()), "pk")
            .iterator(chunk_size=2000),
            0,
        )
    entries: Iterator[tuple[Any, ...]] = iter(())
    if period is not None:
        entries = _firsts(
            HudAnswers.objects.filter(case_id__in=case_ids, episode__opened_at__lt=period.until)
            # A case's rows together, its latest episode first.
            .order_by("case_id", "-episode__number")
            .values_list(
                "case_id",
                "case__key__wrapped",
                Cast("answers", TextField()),
                local_day("episode__opened_at"),
                local_day("recorded_at"),
                local_day("exit_recorded_at"),
                local_day("case__closed_at"),
            )
            # Each token holds every HUD question (a kilobyte or two): fewer rows a fetch.
            .iterator(chunk_size=250),
            0,
        )
    together = cast(EncryptedTextField, Demographics._meta.get_field("all_answers"))
    hud_together = cast(EncryptedTextField, HudAnswers._meta.get_field("answers"))
    asked = tuple(questions or ())
    unsealed: dict[int, tuple[int, DataKey]] = {}
    blank = hud.blank()  # read only: each person's answers are a new dict over it
    d, h = next(demographics, None), next(entries, None)
    while d is not None or h is not None:
        # The lower case id of the two rows read.
        first = d if h is None or (d is not None and d[0] <= h[0]) else h
        assert first is not None
        case_id = first[0]
        wrapped = first[1]  # the case's key, on either row
        if wrapped is None:
            raise KeyDestroyed("a case counted in a report has no data key")
        key = unwrap_data_key(wrapped)
        given: dict[str, str] | None = None
        if d is not None and d[0] == case_id:
            _case_id, _wrapped, token, pk = d
            if token is None:
                unsealed[pk] = (case_id, key)
            else:
                opened = together.open(key, token)
                given = {q: opened.get(q) or NOT_ASKED for q in asked}
            d = next(demographics, None)
        entry: HudEntry | None = None
        if h is not None and h[0] == case_id:
            token = h[2]
            collected = hud_together.open(key, token) if token is not None else {}
            entry = HudEntry({**blank, **(collected or {})}, *h[3:])  # its days
            h = next(entries, None)
        if given is not None or entry is not None:
            yield case_id, given, entry
    if not unsealed:
        return
    fields = [cast(EncryptedTextField, Demographics._meta.get_field(q)) for q in asked]
    one_by_one = Demographics.objects.filter(pk__in=list(unsealed)).values_list("pk", *asked)
    for pk, *tokens in one_by_one.iterator(chunk_size=2000):
        case_id, key = unsealed[pk]
        yield (
            case_id,
            {
                field.name: (field.open(key, token.token) if token is not None else "") or NOT_ASKED
                for field, token in zip(fields, tokens, strict=True)
            },
            None,
        )


class Served:
    """The people a report counts, read once as plain rows: the cases (:class:`CaseRow`), a
    subquery of their ids for the other tables (no list of ids sent back to the database), and
    the counts of their survivors' answers to the report's ``questions``, read in one pass on
    first use (:func:`read_answers`)."""

    def __init__(self, cases: QuerySet[Case], period: Period, questions: Sequence[str]) -> None:
        flags = cases.annotate(
            opened_in=ExpressionWrapper(Q(opened_at__gte=period.since), BooleanField()),
            left=ExpressionWrapper(
                Q(status=CaseStatus.CLOSED, closed_at__lt=period.until), BooleanField()
            ),
        )
        self.rows = [
            CaseRow(pk, bool(opened_in), bool(left))
            for pk, opened_in, left in flags.values_list("pk", "opened_in", "left").iterator(
                chunk_size=2000
            )
        ]
        self.pks = frozenset(row.pk for row in self.rows)
        self.ids = cases.values("pk")
        self.questions = tuple(questions)
        #: How many people gave each set of answers to ``questions``, in their order.
        self._profiles: Counter[tuple[str, ...]] | None = None
        self._counts: dict[str, Counter[str]] = {}

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[CaseRow]:
        return iter(self.rows)

    def answers(self, question: str) -> Counter[str]:
        """How many people gave each answer to ``question`` ("not asked" for no answers)."""
        counts = self._counts.get(question)
        if counts is None:
            at = self._at(question)
            counts = Counter()
            for given, n in self._read().items():
                counts[given[at]] += n
            self._counts[question] = counts
        return counts

    def pairs(self, first: str, second: str) -> Counter[tuple[str, str]]:
        """How many people gave each pair of answers to the two questions (a person with no
        answers: "not asked" to both)."""
        i, j = self._at(first), self._at(second)
        counts: Counter[tuple[str, str]] = Counter()
        for given, n in self._read().items():
            counts[(given[i], given[j])] += n
        return counts

    def _at(self, question: str) -> int:
        if question not in self.questions:
            raise ValueError(f"{question!r} is not one of the questions this report reads")
        return self.questions.index(question)

    def _read(self) -> Counter[tuple[str, ...]]:
        if self._profiles is None:
            memo = _answers_read.get()
            if self.remembered():
                assert memo is not None
                self.count(
                    (case_id, memo.answers[case_id])
                    for case_id in self.pks
                    if case_id in memo.answers
                )
            else:
                self.count(read_answers(self.ids, self.questions))
        assert self._profiles is not None
        return self._profiles

    def remembered(self) -> bool:
        """The answers of these people were opened already, for every report of a release
        (:func:`answers_read_once`)."""
        memo = _answers_read.get()
        return memo is not None and memo.holds(self.pks, self.questions)

    def count(self, given_by_case: Iterable[tuple[int, dict[str, str]]]) -> None:
        """Count each case's answers (:func:`read_answers`) as they are read: how many people
        gave each set of answers, from which each question's counts and each pair's are
        added up when asked for."""
        profiles: Counter[tuple[str, ...]] = Counter()
        answered = 0
        questions = self.questions
        for case_id, given in given_by_case:
            if case_id not in self.pks:
                continue  # read in another statement: only the cases of self.rows count
            answered += 1
            profiles[tuple([given[q] for q in questions])] += 1
        if answered < len(self.pks):
            profiles[(NOT_ASKED,) * len(questions)] += len(self.pks) - answered
        self._profiles = profiles
        self._counts = {}


@dataclass
class AnswersRead:
    """The answers of a release's people, opened once for every report and period of the
    release (a federal year's FVPSA and HUD and its four VOCA quarters count the same people):
    each case key unwrapped and each person's answers decrypted once, not five times."""

    cases: frozenset[int]
    questions: frozenset[str]
    answers: dict[int, dict[str, str]]

    def holds(self, pks: frozenset[int], questions: Sequence[str]) -> bool:
        return pks <= self.cases and set(questions) <= self.questions


_answers_read: ContextVar[AnswersRead | None] = ContextVar("report_answers_read", default=None)


@contextmanager
def answers_read_once(cases: Served) -> Iterator[None]:
    """Inside, the people of ``cases`` (and any subset of them, such as a quarter's) have their
    answers to every question opened once, on first need."""
    questions = frozenset(QUESTIONS_COUNTED)
    memo = AnswersRead(cases.pks, questions, dict(read_answers(cases.ids, sorted(questions))))
    token = _answers_read.set(memo)
    try:
        yield
    finally:
        _answers_read.reset(token)


# --- Progress -----------------------------------------------------------------------------------

#: Called once per step of a report being built (a breakdown added, a suppression run), when a
#: caller follows the work (:func:`following_steps`); nothing otherwise.
_on_step: ContextVar[Callable[[], object] | None] = ContextVar("report_on_step", default=None)


def step() -> None:
    hook = _on_step.get()
    if hook is not None:
        hook()


@contextmanager
def following_steps(on_step: Callable[[], object]) -> Iterator[None]:
    """Call ``on_step`` at each step of the reports built inside (see :data:`STEPS`)."""
    token = _on_step.set(on_step)
    try:
        yield
    finally:
        _on_step.reset(token)


# --- What a report is ---------------------------------------------------------------------------


@dataclass
class Row:
    label: str
    cells: list[int]  # indexes into the grid
    #: The count this row's (one) count is a share of, printed after it as a percentage (Q6's
    #: error rates): published only when both counts are, so it tells nothing they do not.
    of: int | None = None
    #: The count whose share of :attr:`of` is printed, when it is not the row's first (Q6d's
    #: people whose chronic homelessness cannot be worked out, a count no column prints).
    part: int | None = None
    #: The columns the funder's table greys out in this row (Q6d's), printed blank, in order:
    #: each the place of a blank among the row's printed cells.
    blank: tuple[int, ...] = ()


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
    #: Its cells are figures about people (an average, a median), not counts: never added to
    #: another agency's, nor drawn as bars.
    figures: bool = False
    #: What the agency says of itself, printed in its one row before the row's counts (Q4a's
    #: project): one agency's, so never added to another's, nor drawn.
    facts: list[str] = field(default_factory=list)
    #: The name of the rows' column, where the funder's table has one (HUD's "Data Element").
    corner: str = ""

    @property
    def own(self) -> bool:
        """One agency's own (its project, the quality of its records): never added to another
        agency's, nor drawn."""
        return bool(self.facts) or any(row.of is not None for row in self.rows)


@dataclass
class Shown:
    """A cell as published: its text, and its number when it is not suppressed."""

    text: str
    value: int | None


#: What a count of people counts: a measure ("served:age_band") and the answers it adds up
#: (an age band of several answers is the set of them). "served" alone is everyone.
Meaning = tuple[str, frozenset[str]]


def _within(inner: Meaning, outer: Meaning) -> bool:
    """Every person ``inner`` counts is counted by ``outer`` (in the same period)."""
    if outer[0] == "served":
        return inner[0].startswith("served")
    return inner[0] == outer[0] and inner[1] <= outer[1]


@dataclass
class FunderReport:
    slug: str
    title: str
    period: Period
    sections: list[Section]
    grid: Grid
    hidden: set[int] = field(default_factory=set)
    threshold: int = 5
    #: Cells never shown (the finer answers bands are made of; links between releases).
    unpublished: set[int] = field(default_factory=set)
    #: The unpublished links between a year and one of its quarters (the year's count less the
    #: quarter's), which suppression cannot keep from a reader who solves for bounds without
    #: hiding the year's people served (the reporting README).
    quarter_links: set[int] = field(default_factory=set)
    #: Counts of people, by what they count (see :data:`Meaning`).
    meaning: dict[int, Meaning] = field(default_factory=dict)
    #: Counts of things done in the period, which add up over periods (services, referrals).
    additive: set[int] = field(default_factory=set)
    #: Figures that count no one (the beds the agency has): in no sum, so what suppression
    #: decides for them touches no other cell, and always published as they are.
    public: set[int] = field(default_factory=set)
    #: Figures about a group of people (an average, a median), each with the count of the
    #: group: in no sum, and published only with that count, when it is published and at least
    #: the threshold (a figure about fewer people is a figure about someone).
    about: dict[int, int] = field(default_factory=dict)
    #: Averages of a whole and of its parts (everyone's and each race's, Q22f): (the whole's
    #: average, its parts' averages), each in :attr:`about`. The whole's average times its
    #: count, less the published parts' averages times theirs, is the hidden parts' days
    #: together; when they are fewer people than the threshold, published parts' averages are
    #: withheld too (:meth:`withheld`).
    shares: list[tuple[int, list[int]]] = field(default_factory=list)
    #: Averages of a group made of other groups whose averages are printed (Q19a's performance
    #: measure: those who gained an income and those who had more): (the figure, its parts'
    #: figures), each in :attr:`about`. Published only when the figure of every part with
    #: anyone in it is, so that it tells nothing they do not (with the whole's average, it
    #: would otherwise tell the average of the few a part hides, or of those outside it).
    combined: list[tuple[int, list[int]]] = field(default_factory=list)

    @property
    def displayed(self) -> set[int]:
        return {c for s in self.sections for r in s.rows for c in r.cells}

    def _hides(self, index: int) -> bool:
        if index in self.about:
            if self._small_group(index) or index in self.withheld():
                return True
            values = self.grid.values
            return any(
                any(values[self.about[p]] and self._hides(p) for p in parts)
                for figure, parts in self.combined
                if figure == index
            )
        return index in self.hidden and index not in self.public

    def _small_group(self, figure: int) -> bool:
        """The figure's group's count is hidden or under the threshold."""
        group = self.about[figure]
        return group in self.hidden or self.grid.values[group] < self.threshold

    def withheld(self) -> set[int]:
        """The parts' averages withheld although their own groups are large enough: while the
        parts whose averages are hidden hold 1 to ``threshold - 1`` people in all (a count a
        reader works out from the whole's), the published part of the fewest people is
        withheld too, so that no average of fewer people follows from the others. Medians
        cannot be taken apart this way."""
        out: set[int] = set()
        values = self.grid.values
        for whole, parts in self.shares:
            if self._small_group(whole):
                continue
            shown = sorted(
                (p for p in parts if not self._small_group(p)),
                key=lambda p: (values[self.about[p]], p),
            )
            left = sum(values[self.about[p]] for p in parts if self._small_group(p))
            while shown and 0 < left < self.threshold:
                part = shown.pop(0)
                out.add(part)
                left += values[self.about[part]]
        return out

    def shown(self, index: int) -> Shown:
        if self._hides(index):
            # One mark for every hidden cell: telling the small ones apart would bound the rest.
            return Shown("*", None)
        value = self.grid.values[index]
        return Shown(str(value), value)

    @property
    def suppressed(self) -> int:
        return sum(1 for c in self.displayed if self._hides(c))

    @property
    def cells(self) -> int:
        return len(self.displayed)

    def table(self, section: Section) -> list[tuple[str, list[Shown]]]:
        facts = [Shown(text, None) for text in section.facts]
        out = []
        for row in section.rows:
            counts = [self.shown(c) for c in row.cells]
            for at in row.blank:
                counts.insert(at, Shown("", None))
            cells = [*facts, *counts, *self._share(row)]
            # A cell the funder's table leaves blank (the share of Q19b's last row).
            blank = len(section.columns) - len(cells)
            out.append((row.label, cells + [Shown("", None)] * max(blank, 0)))
        return out

    def _share(self, row: Row) -> list[Shown]:
        if row.of is None:
            return []
        part = self.shown(row.cells[0] if row.part is None else row.part)
        whole = self.shown(row.of)
        if part.value is None or whole.value is None:
            return [Shown("*", None)]
        share = Fraction(part.value, whole.value) if whole.value else Fraction(0)
        # Hundredths of a percent, halves up, as HUD prints its rates ("5.26%").
        hundredths = _half_up(share * 10000)
        return [Shown(f"{hundredths // 100}.{hundredths % 100:02d}%", None)]

    def csv_rows(self) -> list[list[str]]:
        out: list[list[str]] = []
        for section in self.sections:
            out.append([section.code or section.title])
            out.append([section.corner, *section.columns])
            for label, cells in self.table(section):
                out.append([label, *(c.text for c in cells)])
            out.append([])
        return out


class Builder:
    """Adds breakdowns to one grid; a total key shared between breakdowns is one cell."""

    def __init__(self) -> None:
        self.grid = Grid()
        self.sections: list[Section] = []
        #: The finer answers bands are made of; unpublished unless a breakdown shows one.
        self.atoms: set[int] = set()
        self.meaning: dict[int, Meaning] = {}
        self.additive: set[int] = set()
        self.public: set[int] = set()
        self.about: dict[int, int] = {}
        self.shares: list[tuple[int, list[int]]] = []
        self.combined: list[tuple[int, list[int]]] = []
        #: Counts of the people there on one day (Q8b): each lies inside the people served in
        #: any period that holds the day (a quarter released with the year).
        self.on_day: dict[int, dt.date] = {}
        #: Counts that are sums of other cells (Q27c's, of Q10d's), with the cells they add up:
        #: left out of suppression, and published only where a reader works them out already
        #: (:meth:`suppressed`).
        self.derived: dict[int, tuple[int, ...]] = {}

    def derive(self, key: str, parts: Sequence[int]) -> int:
        """A count that is the sum of ``parts`` (cells of the grid, none derived): it tells a
        reader nothing the grid does not, so it takes no part in choosing what to hide."""
        cell = self.grid.cell(key, sum(self.grid.values[p] for p in parts))
        self.derived[cell] = tuple(parts)
        return cell

    def suppressed(self, **options: Any) -> set[int]:
        """The cells to hide (:func:`suppress`, with ``options``), and the derived counts no
        reader works out from what is published. The derived counts' sums are then the grid's
        too (a reader knows them), read by every check of the release."""
        threshold = settings.AGGREGATE_MIN_CELL
        grid = self.grid
        fixed = set(options.pop("fixed", ())) | set(self.derived)
        hidden = suppress(grid, threshold, fixed=fixed, **options)
        if self.derived:
            shown = telling_nothing_new(grid.values, grid.sums, hidden, self.derived, threshold)
            # A year's count less a quarter's that only a reader of bounds works out is kept
            # from one who only subtracts (the reporting README): a derived count that bounds
            # pin, printed, may tell him it. Then only what he works out already is printed.
            any_small = {c for c, v in enumerate(grid.values) if 0 < abs(v) < threshold}
            then_hidden = hidden | (set(self.derived) - shown)
            with_them = [*grid.sums, *self.derived.items()]
            if (
                worked_out(grid.values, with_them, then_hidden, bounds=False)
                - worked_out(grid.values, grid.sums, hidden, bounds=False)
            ) & any_small:
                shown = telling_nothing_new(
                    grid.values, grid.sums, hidden, self.derived, threshold, bounds=False
                )
            hidden |= set(self.derived) - shown
            stars = printed_stars(grid.values, hidden, options.get("unpublished", ()))
            small = {c for c in hidden if 0 < abs(grid.values[c]) < threshold}
            before = worked_out(grid.values, grid.sums, hidden, at_least_one=stars, asked=small)
            for cell, parts in self.derived.items():
                grid.sum(cell, parts, link=True)
            # Read again with those sums: a derived count printed as "*" is at least 1, which a
            # reader of bounds reads with them. Where a small count is then told that was not
            # before, what is hidden stays hidden and complements are added.
            told = worked_out(grid.values, grid.sums, hidden, at_least_one=stars, asked=small)
            if (told - before) & small:
                held = set(options.pop("fixed_hidden", ())) | hidden
                hidden = suppress(grid, threshold, fixed=fixed | held, fixed_hidden=held, **options)
        return hidden

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
        cells: Sequence[int] | None = None,
        measure: str = "",
        additive: bool = False,
        public: bool = False,
    ) -> None:
        """One column of counts by ``choices``; with a ``total`` (key, label) row that the
        counts add up to. ``cells`` are given when the caller made them (bands of finer
        answers); a ``measure`` says what people the counts are (see :data:`Meaning`);
        ``additive`` counts add up over periods; ``public`` figures count no one (beds) and are
        never hidden."""
        if cells is None:
            cells = [
                self.grid.cell(f"{key}:{value}", counts.get(value, 0)) for value, _l in choices
            ]
            if measure:
                for (value, _l), c in zip(choices, cells, strict=True):
                    self.meaning[c] = (measure, frozenset([value]))
        if additive:
            self.additive.update(cells)
        if public:
            self.public.update(cells)
        rows = [Row(str(label), [c]) for (_v, label), c in zip(choices, cells, strict=True)]
        if total is not None:
            t = self.grid.cell(total[0], sum(self.grid.values[c] for c in cells))
            self.grid.sum(t, cells)
            rows.append(Row(total[1], [t]))
            if additive:
                self.additive.add(t)
            if public:
                self.public.add(t)
            elif measure:
                self.meaning[t] = (total[0], frozenset())
        self.sections.append(
            Section(title, [column], rows, code=code, note=note, has_total=total is not None)
        )
        step()

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
        total_first: bool = False,
    ) -> None:
        """Counts by two dimensions, with row, column and grand totals (the totals' column last,
        or first with ``total_first``, as HUD's Q22a1 prints it)."""
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

        def line(cells: list[int], total: int) -> list[int]:
            return [total, *cells] if total_first else [*cells, total]

        rows = [
            Row(str(rl), line(cells, t))
            for (_r, rl), cells, t in zip(row_choices, matrix, row_totals, strict=True)
        ]
        rows.append(Row(_("Total"), line(col_totals, grand)))
        columns = [str(cl) for _c, cl in col_choices]
        columns = [_("Total"), *columns] if total_first else [*columns, _("Total")]
        chart = 0 if total_first else len(columns) - 1
        self.sections.append(
            Section(title, columns, rows, chart_column=chart, code=code, note=note)
        )
        step()

    def inside(self, part: int | Sequence[int], whole: int, key: str) -> int:
        """``part`` (a cell, or several that count no one twice) is some of the people
        ``whole`` counts: the rest is a count too, ``key``'s cell, never published, tied so
        that suppression keeps a small one (or a small ``part``) from being worked out by
        subtracting. Answers the rest's cell."""
        g = self.grid
        parts = [part] if isinstance(part, int) else list(part)
        rest = g.cell(key, g.values[whole] - sum(g.values[c] for c in parts))
        g.sum(whole, [*parts, rest], link=True)
        self.atoms.add(rest)
        return rest

    def band(self, key: str, measure: str, members: Sequence[str], counts: Counter[str]) -> int:
        """The cell of a band of answers, tied to the cells of the answers it is made of (the
        same answer in another breakdown is the same cell, so two reports banding ages
        differently cannot be subtracted to show a finer band)."""
        atoms = [self.grid.cell(f"{key}:{m}", counts.get(m, 0)) for m in members]
        for m, c in zip(members, atoms, strict=True):
            self.atoms.add(c)
            self.meaning[c] = (measure, frozenset([m]))
        if len(atoms) == 1:
            return atoms[0]
        name = "+".join(sorted(members)) or "(none)"
        cell = self.grid.cell(f"{key}:{name}", sum(counts.get(m, 0) for m in members))
        if atoms:
            self.grid.sum(cell, atoms)
        self.meaning[cell] = (measure, frozenset(members))
        return cell

    def report(
        self, slug: str, title: str, period: Period, sections: list[Section]
    ) -> FunderReport:
        """A report of some of this builder's sections, before suppression."""
        shown = {c for s in sections for r in s.rows for c in r.cells}
        return FunderReport(
            slug,
            title,
            period,
            sections,
            self.grid,
            set(),
            settings.AGGREGATE_MIN_CELL,
            unpublished=self.atoms - shown,
            meaning={c: m for c, m in self.meaning.items()},
            additive=set(self.additive),
            public=set(self.public),
            about=dict(self.about),
            shares=list(self.shares),
            combined=list(self.combined),
        )

    def finish(self, slug: str, title: str, period: Period) -> FunderReport:
        report = self.report(slug, title, period, self.sections)
        report.hidden = self.suppressed(unpublished=report.unpublished)
        step()
        return report


# --- Shared breakdowns --------------------------------------------------------------------------

PEOPLE = gettext_lazy("People")
SERVED = ("served", gettext_lazy("People served"))


def _new_and_returning(b: Builder, cases: Served, period: Period, code: str = "") -> None:
    """Each person once: new (a first referral in the period), returning (came back or was
    referred again in the period), or continuing (support that began before it). A case without
    episodes counts by the day it was opened."""
    starts: dict[int, str] = {}
    for case_id, first in (
        Episode.objects.filter(
            case_id__in=cases.ids,
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
            start = EpisodeStart.REFERRAL if case.opened_in_period else None
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
        measure="served:new",
    )


def _demographic(
    b: Builder,
    cases: Served,
    question: str,
    title: str,
    groups: dict[str, tuple[str, ...]] | None = None,
    labels: dict[str, Any] | None = None,
    code: str = "",
    total: tuple[str, Any] = SERVED,
    column: Any = PEOPLE,
) -> None:
    counts = cases.answers(question)
    if groups is None:
        groups = {value: (value,) for value, _l in answers(question)}
        labels = dict(answers(question))
    measure = f"served:{question}"
    choices = [(k, (labels or {}).get(k, k)) for k in groups]
    cells = [b.band(f"demo:{question}", measure, members, counts) for members in groups.values()]
    b.breakdown(
        f"demo:{question}",
        title,
        choices,
        counts,
        total=(total[0], str(total[1])),
        column=str(column),
        code=code,
        cells=cells,
        measure=measure,
    )


NOT_RECORDED = "not_recorded"


def _languages(b: Builder, cases: Served, code: str = "") -> None:
    """Languages served and interpreter use: each person once, by the language they prefer (the
    first they speak), and by the language an interpreter was needed for. Read from the plain
    language columns of the survivor's record (no personal file is opened)."""
    preferred: Counter[str] = Counter()
    interpreted: Counter[str] = Counter()
    rows = dict(
        (case_id, (spoken, interpreter))
        for case_id, spoken, interpreter in Party.objects.filter(
            case_id__in=cases.ids, role=PartyRole.SURVIVOR
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
        measure="served:language",
    )
    b.breakdown(
        f"interpreter{code}",
        _("Interpreter needed, by language"),
        choices(interpreted, ("none", _("No interpreter recorded"))),
        interpreted,
        total=(SERVED[0], str(SERVED[1])),
        column=str(PEOPLE),
        measure="served:interpreter",
    )


def _services(b: Builder, agency_id: int, period: Period) -> None:
    """Services given in the period, on any of the agency's cases: counted by the day each was
    given, not by whether its case counts as served then (a payment made or a check-in done
    after the case was closed was still given), so that a year's count is the sum of its
    quarters' (they are published together: the reporting README)."""
    ids = {"agency_id": agency_id}
    notes = Counter(
        CaseNote.objects.filter(**ids, occurred_at__gte=period.since, occurred_at__lt=period.until)
        .exclude(kind=NoteKind.INTERNAL)
        .values_list("kind", flat=True)
    )
    checkins = CheckIn.objects.filter(
        **ids,
        status=CheckInStatus.DONE,
        due_at__gte=period.since,
        due_at__lt=period.until,
    ).count()
    referrals = ServiceReferral.objects.filter(
        **ids,
        direction=Direction.OUT,
        sent_on__gte=period.start,
        sent_on__lte=period.end,
    ).count()
    meetings = MeetingReferral.objects.filter(
        **ids, referred_on__gte=period.start, referred_on__lte=period.end
    ).count()
    plans = RiskAssessment.objects.filter(
        **ids, created_at__gte=period.since, created_at__lt=period.until
    ).count()
    payments = Payment.objects.filter(
        **ids, state__in=PAID, paid_on__gte=period.start, paid_on__lte=period.end
    ).count()
    counts = {
        "support": sum(notes.get(k, 0) for k in ("call", "text", "email", "in_person", "video")),
        "court": notes.get(NoteKind.COURT, 0),
        "liaison": notes.get(NoteKind.AGENCY, 0),
        "checkins": checkins,
        "risk": plans,
        "referrals": referrals,
        "meetings": meetings,
        "assistance": payments,
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
            ("assistance", _("Emergency financial help (payments made)")),
        ],
        counts,
        total=("services:total", _("All services")),
        column=_("Services"),
        additive=True,
    )


def _funder_categories(b: Builder, agency_id: int, period: Period) -> None:
    """Services given in the period, counted in the funders' categories staff chose for each
    (:mod:`caseflow.servicelog`): every service the agency counted, on a case or from a call on
    none. The rows are the same for every period read at one time, so a year's cells are tied
    to its quarters' by key. Their minutes are not reported: see the reporting README."""
    b.breakdown(
        "service_categories",
        _("Services given, by the funder's categories"),
        report_categories(agency_id),
        counts_by_category(agency_id, period.start, period.end),
        total=("service_categories:total", _("All services counted in a category")),
        column=_("Services"),
        additive=True,
    )


def _victimisation(b: Builder, cases: Served, period: Period) -> None:
    people: dict[str, set[int]] = {k: set() for k in IncidentKind.values}
    for case_id, kinds in Incident.objects.filter(
        case_id__in=cases.ids,
        occurred_at__gte=period.since - dt.timedelta(days=366),
        occurred_at__lt=period.until,
    ).values_list("case_id", "kinds"):
        for kind in kinds or []:
            if kind in people and case_id in cases.pks:
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


def _calls(b: Builder, agency_id: int, period: Period) -> None:
    """Hotline and crisis calls taken in the period, by who called: every call, on a case or
    not, anonymous ones included (they hold nothing personal and are only counted)."""
    counts = calls_by_caller_kind(agency_id=agency_id, start=period.since, end=period.until)
    b.breakdown(
        "calls",
        _("Hotline and crisis calls, by who called"),
        CallerKind.choices,
        counts,
        total=("calls:total", _("All calls")),
        column=_("Calls"),
        additive=True,
    )


def _shelter(b: Builder, agency_id: int, period: Period) -> None:
    """Shelter nights, the people sheltered, the beds, and the households turned away for lack
    of space (:func:`caseflow.shelter.selectors.shelter_figures`)."""
    figures = shelter_figures(agency_id, period.start, period.end, timezone.localdate())
    b.breakdown(
        "shelter",
        _("Shelter"),
        [
            ("nights", _("Shelter nights (a bed slept in for a night)")),
            ("turn_aways", _("Households turned away for lack of space")),
            ("turned_people", _("People in the households turned away")),
        ],
        {
            "nights": figures.shelter_nights,
            "turn_aways": figures.turn_aways,
            "turned_people": figures.people_turned_away,
        },
        total=None,
        column=_("Count"),
        additive=True,
    )
    b.breakdown(
        "sheltered",
        _("People sheltered"),
        [("adults", _("Adults")), ("children", _("Children staying with them"))],
        {"adults": figures.adults_sheltered, "children": figures.children_sheltered},
        total=("sheltered:total", _("Everyone sheltered")),
        column=str(PEOPLE),
    )
    b.breakdown(
        "beds",
        _("Bed count"),
        [("beds", _("Beds in use at the agency's open sites"))],
        {"beds": figures.beds},
        total=None,
        column=_("Beds"),
        public=True,
        note=_("Beds count no one, so the figure is never hidden."),
    )


def _community(b: Builder, agency_id: int, period: Period) -> None:
    """Prevention and community education sessions (counting no survivor, so never hidden),
    and FVPSA's two outcome statements as survivors answered them on the anonymous surveys
    they handed back (:mod:`caseflow.community`), by the service each was about. The two
    statements are asked on the same surveys: their totals, by service and in all, are the
    same cells."""
    sessions, people = sessions_by_audience(agency_id, period.start, period.end)
    b.breakdown(
        "education_sessions",
        _("Prevention and community education sessions, by who they were for"),
        Audience.choices,
        sessions,
        total=("education_sessions:total", _("All sessions")),
        column=_("Sessions"),
        public=True,
    )
    b.breakdown(
        "education_people",
        _("People who came to prevention and community education sessions"),
        Audience.choices,
        people,
        total=("education_people:total", _("Everyone who came")),
        column=str(PEOPLE),
        public=True,
        note=_("A head count at each session: someone who came twice counts twice."),
    )
    answers = survey_answers(agency_id, period.start, period.end)
    for statement in ("safety", "resources"):
        b.crosstab(
            f"outcome_{statement}",
            _("Outcome surveys: “%(statement)s”") % {"statement": STATEMENTS[statement]},
            SurveyAnswer.choices,
            SurveyService.choices,
            answers[statement],
            total_key="outcome_surveys:total",
            note=_(
                "From the anonymous surveys survivors handed back; the Total row is the "
                "surveys returned."
            ),
        )
    g = b.grid
    for service in SurveyService.values:
        g.sum(g.keys[f"outcome_safety:*:{service}"], [g.keys[f"outcome_resources:*:{service}"]])


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


def _cases(agency_id: int, period: Period, questions: Sequence[str]) -> Served:
    return Served(served_cases(agency_id, period), period, questions)


@agency_days
def voca_quarterly(agency_id: int, period: Period) -> FunderReport:
    """One quarter on its own: quarters do not overlap, so nothing else is read with it."""
    cases = _cases(agency_id, period, VOCA_QUESTIONS)
    b = Builder()
    _new_and_returning(b, cases, period)
    _services(b, agency_id, period)
    _funder_categories(b, agency_id, period)
    _calls(b, agency_id, period)
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


@agency_days
def fvpsa_annual(agency_id: int, period: Period) -> FunderReport:
    """The FVPSA counts for ``period`` suppressed on their own (what :func:`release` starts
    from; on its own it can be subtracted from the quarters inside it)."""
    b = Builder()
    _fvpsa(b, agency_id, period, _cases(agency_id, period, FVPSA_QUESTIONS))
    return b.finish("fvpsa", str(REPORTS["fvpsa"].title), period)


def _fvpsa(b: Builder, agency_id: int, period: Period, cases: Served) -> None:
    _new_and_returning(b, cases, period)
    labels = {**VOCA_AGE_LABELS, "under_18": str(_("Under 18"))}
    _demographic(b, cases, "age_band", _("Age"), FVPSA_AGES, labels, code="age")
    _demographic(b, cases, "race_ethnicity", _("Race and ethnicity"))
    _demographic(b, cases, "gender_identity", _("Gender identity"))
    _demographic(b, cases, "children", _("Children"))
    _languages(b, cases)
    _services(b, agency_id, period)
    _funder_categories(b, agency_id, period)
    # Given in the period on any of the agency's cases, as the services are (above).
    referrals = Counter(
        ServiceReferral.objects.filter(
            agency_id=agency_id,
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
        additive=True,
    )
    _calls(b, agency_id, period)
    _shelter(b, agency_id, period)
    _community(b, agency_id, period)


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
    "5_12": "5-12",
    "13_17": "13-17",
    "18_24": "18-24",
    "25_34": "25-34",
    "35_44": "35-44",
    "45_54": "45-54",
    "55_64": "55-64",
    "65_plus": "65+",
    "dk": "Client Doesn't Know/Prefers Not to Answer",
    "dnc": "Data Not Collected",
}
HUD_GENDERS: dict[str, tuple[str, ...]] = {
    "woman": ("woman",),
    "man": ("man",),
    "culturally_specific": ("culturally_specific",),
    "transgender": ("transgender",),
    "non_binary": ("non_binary",),
    "questioning": ("questioning",),
    "different": ("different",),
    "dk": (DECLINED,),
    "dnc": (NOT_ASKED,),
}
HUD_GENDER_LABELS = {
    "woman": "Woman",
    "man": "Man",
    "culturally_specific": "Culturally Specific Identity",
    "transgender": "Transgender",
    "non_binary": "Non-Binary",
    "questioning": "Questioning",
    "different": "Different Identity",
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


@agency_days
def hud_apr(agency_id: int, period: Period) -> FunderReport:
    """The questions of the HUD APR/CAPER CSV that caseflow can answer, each under its
    question number and with the published row and column names (suppressed on their own, as
    :func:`fvpsa_annual`)."""
    b = Builder()
    _hud(b, agency_id, period, _cases(agency_id, period, HUD_QUESTIONS))
    return b.finish("hud", str(REPORTS["hud"].title), period)


def _hud(b: Builder, agency_id: int, period: Period, cases: Served) -> None:
    first = len(b.sections)
    # The agency asks HUD's entry and exit questions: each person's HUD answers are read with
    # her demographic answers, in one pass that unwraps each case key once for both (when a
    # release has not opened the demographic answers already).
    project = hud_project(agency_id)
    permanent = project is not None and project.project_type in PERMANENT_HOUSING
    tally = _HudTally(period, cases.rows, permanent=permanent) if hud_collected(agency_id) else None
    if tally is not None:
        # Q22e for a project that houses people (or one not yet described).
        tally.housing = project is None or project.project_type in HOUSING_PROJECTS
        tally.chronic_row = hud_chronic_dq_row(project)
    if tally is not None and not cases.remembered():
        cases.count(tally.demographics(read_people(cases.ids, cases.questions, period)))
        if tally.late_youth:  # answers saved before they were kept in one token, read last
            tally.count_youth(read_hud_answers(sorted(tally.late_youth), period))
    elif tally is not None:
        # The release opened everyone's demographic answers already: their races from there.
        memo = _answers_read.get()
        assert memo is not None
        tally.races = {
            pk: memo.answers[pk]["race_ethnicity"] for pk in cases.pks if pk in memo.answers
        }
        # The youth before their HUD answers are counted (Q27d, Q27g to Q27i).
        tally.youth_cases = {
            pk
            for pk in cases.pks
            if pk in memo.answers and memo.answers[pk]["age_band"] in HUD_YOUTH_ANSWERS
        }
        tally.take(read_hud_answers(cases.ids, period))
        tally.group_answers = {
            pk: memo.answers[pk]
            for pk in tally.chronic_cases | tally.veteran_cases
            if pk in memo.answers
        }
    leavers = sum(1 for c in cases if c.left)
    b.breakdown(
        "q5a",
        "Q5a: Report Validations Table",
        [("leavers", "Number of leavers"), ("stayers", "Number of stayers")],
        {"leavers": leavers, "stayers": len(cases) - leavers},
        total=(SERVED[0], "Total number of persons served"),
        column="Count of Clients",
        code="Q5a",
        measure="served:q5a",
    )
    # HUD prints the people served first, then the leavers and the stayers.
    q5a = b.sections[-1]
    q5a.rows.insert(0, q5a.rows.pop())
    q5a.has_total = False
    q5a.corner = "Category"
    b.sections.insert(first, _project(project, period, b.grid.keys[SERVED[0]]))
    for question, title, groups, labels, code in (
        ("gender_identity", "Q10a: Gender", HUD_GENDERS, HUD_GENDER_LABELS, "Q10a"),
        ("age_band", "Q11: Age", HUD_AGES, HUD_AGE_LABELS, "Q11"),
        ("race_ethnicity", "Q12: Race and Ethnicity", HUD_RACE, HUD_RACE_LABELS, "Q12"),
    ):
        total = (SERVED[0], "Total")
        _demographic(b, cases, question, title, groups, labels, code, total, column="Total")
    b.sections.insert(first + 2, _identifying_quality(b, cases))  # Q10a's and Q12's cells
    _gender_by_age(b, cases)
    _youth(b, cases)  # Q10d's pairs of a youth's age
    _youth_gender(b)  # Q10d's cells of a youth's age
    spans: dict[int, tuple[dt.date, dt.date | None]] = {}
    lengths: dict[int, int] = {}
    _length_of_participation(
        b,
        period,
        cases,
        tally.opened if tally is not None else None,
        spans=spans,
        days=lengths,
        starts=tally.began if tally is not None else None,
    )
    b.sections.append(_inactive_records(b, period, cases, project, spans))
    if tally is not None:
        _hud_questions(b, tally.finish())
        # Permanent housing: a household is there on a day once it has moved in (3.20).
        psh_rrh = project is not None and project.project_type in HUD_MOVED_IN_ROW
        _households(b, period, tally, spans, tally.moved_on if permanent else None, moved=psh_rrh)
        _chronic_households(b, tally)  # Q8a's and Q26b's counts by each other
        _length_by_household(b, tally, lengths)  # Q22a1's and Q8a's
        _youth_length(b, tally, lengths, cases)  # Q22a1's and Q27a's
        _not_required_by_length(b)  # Q18's and Q22a1's, Q27h's and Q27e's
        chronic = (tally.chronic_cases, "q26b:yes")
        veterans = (tally.veteran_cases, "q5a:veterans")
        for group, question, code, title, rows in (
            (veterans, "gender_identity", "Q25c", "Q25c: Gender - Veterans", HUD_GROUP_GENDERS),
            (veterans, "age_band", "Q25d", "Q25d: Age - Veterans", HUD_GROUP_AGES),
            (
                chronic,
                "gender_identity",
                "Q26c",
                "Q26c: Gender of Chronically Homeless Persons",
                HUD_GROUP_GENDERS,
            ),
            (
                chronic,
                "age_band",
                "Q26d",
                "Q26d: Age of Chronically Homeless Persons",
                HUD_GROUP_AGES,
            ),
        ):
            _group_by(b, tally, cases, group, question, code, title, rows)
        b.sections[first + 2 : first + 2] = [
            *_data_quality(b, project),
            _chronic_data_quality(b, tally),
            _timeliness(b, tally.timeliness),
        ]
    _validations_by_age(b)  # Q5a's rows of Q10d's and Q27a's cells
    # The questions in the order of HUD's tables (counted in another, as the cells they share
    # need).
    b.sections[first:] = sorted(b.sections[first:], key=lambda s: HUD_ORDER.index(s.code))


#: The order of HUD's tables in the APR/CAPER, of those caseflow answers.
HUD_ORDER = [
    "Q4a",
    "Q5a",
    "Q6a",
    "Q6b",
    "Q6c",
    "Q6d",
    "Q6e",
    "Q6f",
    "Q8a",
    "Q8b",
    "Q10a",
    "Q10d",
    "Q11",
    "Q12",
    "Q13a1",
    "Q13b1",
    "Q13c1",
    "Q13a2",
    "Q13b2",
    "Q13c2",
    "Q14a",
    "Q14b",
    "Q15",
    "Q16",
    "Q17",
    "Q18",
    "Q19a1",
    "Q19a2",
    "Q19b",
    "Q20a",
    "Q20b",
    "Q21",
    "Q22a1",
    "Q22a2",
    "Q22b",
    "Q22c",
    "Q22d",
    "Q22e",
    "Q22f",
    "Q22g",
    "Q23c",
    "Q23d",
    "Q25a",
    "Q25c",
    "Q25d",
    "Q25i",
    "Q25j",
    "Q26a",
    "Q26b",
    "Q26c",
    "Q26d",
    "Q26e",
    "Q26f",
    "Q26g",
    "Q26h",
    "Q27a",
    "Q27c",
    "Q27d",
    "Q27e",
    "Q27f1",
    "Q27f2",
    "Q27g",
    "Q27h",
    "Q27i",
    "Q27j",
    "Q27k",
    "Q27l",
]


#: Q4a's columns, as the APR names them; the last two are counts of the people served.
HUD_PROJECT_COLUMNS = [
    "Organization Name",
    "Organization ID",
    "Project Name",
    "Project ID",
    "HMIS Project Type",
    "RRH Subtype",
    "Coordinated Entry Access Point",
    "Affiliated with a residential project",
    "Project IDs of affiliations",
    "CoC Number",
    "Geocode",
    "Victim Service Provider",
    "HMIS Software Name",
    "Report Start Date",
    "Report End Date",
    "Total Active Clients",
    "Total Active Households",
]


def _project(project: HudProject | None, period: Period, served: int) -> Section:
    """Q4a: the ``project`` as its agency admin described it (the HUD project settings), in the
    reader's words, and the people served. Each survivor served is one household: caseflow
    counts no household members (see the reporting README), so the two counts are one cell."""
    note = ""
    if project is None:
        facts = [""] * 11
        note = _(
            "The agency has not described its HUD project yet: an agency admin does so in "
            "Settings, HUD project."
        )
    else:
        yes, no = _("Yes"), _("No")
        facts = [
            project.organization_name,
            project.organization_id,
            project.project_name,
            project.project_id,
            str(project.get_project_type_display()),
            str(project.get_rrh_subtype_display()) if project.rrh_subtype else "",
            yes if project.coordinated_entry_access_point else no,
            (yes if project.affiliated_with_residential else no)
            if project.project_type == HudProjectType.SERVICES_ONLY
            else "",
            project.affiliated_project_ids,
            project.coc_number,
            project.geocode,
        ]
    facts += [_("Yes"), "caseflow", period.start.isoformat(), period.end.isoformat()]
    return Section(
        "Q4a: Project Identifiers in HMIS",
        HUD_PROJECT_COLUMNS,
        [Row("", [served, served])],
        code="Q4a",
        note=note,
        has_total=False,
        facts=facts,
    )


#: Q6a's columns, as the FY2024 APR names them.
HUD_PII_COLUMNS = [
    "Client Doesn't Know/Prefers Not to Answer",
    "Information Missing",
    "Data Issues",
    "Total",
    "% of Issue Rate",
]
#: Q6a's rows caseflow answers, each with its question (HUD's 3.04 and 3.06 are caseflow's).
HUD_PII_ROWS = [
    ("race_ethnicity", "Race and Ethnicity (3.04)"),
    ("gender_identity", "Gender (3.06)"),
]
UNKNOWN_ANSWERS = frozenset({DECLINED, NOT_ASKED})


def _identifying_quality(b: Builder, cases: Served) -> Section:
    """Q6a: the people whose race and ethnicity, and whose gender, is "doesn't know/prefers not
    to answer" (Q12's and Q10a's cells) or not collected (theirs too), each row's total a sum of
    the two (a derived count) with its share of the people served; "Data Issues" is greyed out
    in these rows, as in HUD's table. The overall score counts everyone with either unknown
    once: the race's two cells and the people whose gender alone is unknown (a count never
    published), themselves tied to the gender's cells through those with both unknown (never
    published either), so suppression reads the score with the cells it overlaps. Name, social
    security number and date of birth are not given (see the reporting README)."""
    g = b.grid
    served = g.keys[SERVED[0]]
    unknown: dict[str, list[int]] = {}
    rows = []
    for question, label in HUD_PII_ROWS:
        parts = unknown[question] = [
            g.keys[f"demo:{question}:{DECLINED}"],
            g.keys[f"demo:{question}:{NOT_ASKED}"],
        ]
        total = b.derive(f"q6a:{question}", parts)
        rows.append(Row(label, [*parts, total], of=served, part=total, blank=(2,)))
    pairs = cases.pairs("race_ethnicity", "gender_identity")
    both = sum(n for (race, gender), n in pairs.items() if {race, gender} <= UNKNOWN_ANSWERS)
    gender = unknown["gender_identity"]
    gender_all = g.cell("q6a:gender:all", sum(g.values[c] for c in gender))
    g.sum(gender_all, gender, link=True)
    both_cell = g.cell("q6a:both", both)
    gender_only = g.cell("q6a:gender:only", g.values[gender_all] - both)
    g.sum(gender_all, [gender_only, both_cell], link=True)
    race = unknown["race_ethnicity"]
    overall = g.cell("q6a:overall", sum(g.values[c] for c in race) + g.values[gender_only])
    g.sum(overall, [*race, gender_only], link=True)
    b.atoms.update((gender_all, both_cell, gender_only))
    rows.append(Row("Overall Score", [overall], of=served, blank=(0, 1, 2)))
    step()
    return Section(
        "Q6a: Data Quality: Personally Identifiable Information",
        HUD_PII_COLUMNS,
        rows,
        code="Q6a",
        has_total=False,
        corner="Data Element",
    )


def _data_quality(b: Builder, project: Any) -> list[Section]:
    """Q6b and Q6c: the people whose answer to each universal data element, and to income and
    destination, is "doesn't know", "prefers not to answer" or not collected (and the stayers
    without the annual assessment they need), each with its share of the people it is asked of.
    Each error count is the sum of cells the other questions already print (Q25a, Q13a2, Q23c,
    Q18), tied to them; the elements that cannot be wrong in caseflow are 0."""
    g = b.grid
    served, stayers, leavers = g.keys[SERVED[0]], g.keys["q5a:stayers"], g.keys["q5a:leavers"]

    def errors(key: str, parts: list[str]) -> int:
        cells = [g.keys[p] for p in parts]
        cell = g.cell(key, sum(g.values[c] for c in cells))
        g.sum(cell, cells)
        return cell

    # Episodes of support cannot overlap, and each survivor heads their own household.
    no_error = g.cell("q6b:none", 0)
    # The Continuum of Care is the project's: every person's is missing until it is set.
    coc = no_error if project is not None and project.coc_number else served
    universal = [
        ("Veteran Status (3.07)", errors("q6b:veteran", ["q25a:dk", "q25a:dnc"]), served),
        ("Project Start Date (3.10)", no_error, served),
        ("Relationship to Head of Household (3.15)", no_error, served),
        ("Enrollment CoC (3.16)", coc, served),
        ("Disabling Condition (3.08)", errors("q6b:disabling", ["q13a2:dk", "q13a2:dnc"]), served),
    ]
    money = [
        (
            "Destination (3.12)",
            errors("q6c:destination", ["q23c:dk", "q23c:dnc", "q23c:no_exit_interview"]),
            leavers,
        ),
        (
            "Income and Sources (4.02) at Start",
            errors("q6c:start", ["q18:dk:start", "q18:dnc:start"]),
            served,
        ),
        (
            "Income and Sources (4.02) at Annual Assessment",
            errors("q6c:annual", ["q18:dk:annual", "q18:dnc:annual", "q18:missing:annual"]),
            stayers,
        ),
        (
            "Income and Sources (4.02) at Exit",
            errors("q6c:exit", ["q18:dk:exit", "q18:dnc:exit"]),
            leavers,
        ),
    ]
    step()
    return [
        Section(
            title,
            ["Error Count", "% of Error Rate"],
            [Row(label, [cell], of=whole) for label, cell, whole in rows],
            code=code,
            has_total=False,
            corner="Data Element",
        )
        for code, title, rows in (
            ("Q6b", "Q6b: Data Quality: Universal Data Elements", universal),
            ("Q6c", "Q6c: Data Quality: Income and Housing Data Quality", money),
        )
    ]


#: Q6f's columns, as the FY2024 APR names them.
HUD_INACTIVE_COLUMNS = ["# of Records", "# of Inactive Records", "% of Inactive Records"]
#: How long without a night in the shelter makes a record inactive (Q6f), in days.
HUD_INACTIVE_DAYS = 90


def _inactive_records(
    b: Builder,
    period: Period,
    cases: Served,
    project: HudProject | None,
    spans: dict[int, tuple[dt.date, dt.date | None]],
) -> Section:
    """Q6f's bed night row: in a night-by-night emergency shelter, the people still supported at
    the period's end whose support began at least 90 days before it (the records), and those of
    them with no night in a shelter bed in the last 90 days (inactive: their last night, or the
    day support began if later or if they have none, more than 90 days before the end), with its
    share. A period not yet over is seen as of its last night so far (yesterday's): a night
    still to come, which an open stay holds, is not a night spent, and the period's last day is
    not come. Each count lies inside the one before it (the stayers, the records), the rest a
    count never published. Any other project has no such records: 0, and a note says why. The
    contact row is not given: caseflow records no current living situation (4.12), which is
    HUD's contact."""
    g = b.grid
    records: list[int] = []
    inactive = 0
    nightly = project is not None and project.project_type == HudProjectType.ES_NIGHTLY
    if nightly:
        end = min(period.end, timezone.localdate() - dt.timedelta(days=1))
        since = end - dt.timedelta(days=HUD_INACTIVE_DAYS)
        records = [c.pk for c in cases if not c.left and c.pk in spans and spans[c.pk][0] <= since]
        nights = last_nights(cases.ids, end)  # everyone served's, read by a subquery
        # The last sign of them: their last night, or the day support began if later.
        inactive = sum(
            1
            for pk in records
            if (end - max(nights.get(pk, spans[pk][0]), spans[pk][0])).days > HUD_INACTIVE_DAYS
        )
    counted = g.cell("q6f:records", len(records))
    b.inside(counted, g.keys["q5a:stayers"], "q6f:rest:stayers")
    idle = g.cell("q6f:inactive", inactive)
    b.inside(idle, counted, "q6f:rest:records")
    step()
    return Section(
        "Q6f: Data Quality: Inactive Records: Street Outreach and Emergency Shelter",
        HUD_INACTIVE_COLUMNS,
        [Row("Bed Night (All clients in ES - NBN)", [counted, idle], of=counted, part=idle)],
        code="Q6f",
        has_total=False,
        corner="Data Element",
        note=""
        if nightly
        else _(
            "Only a night-by-night emergency shelter counts bed nights: the project is not "
            "one (Settings, HUD project)."
        ),
    )


#: Q6d's rows: the project types HUD counts in each (2.02.6), in HUD's order; "Other" is in
#: none, so HUD's table counts no one of such a project.
HUD_CHRONIC_DQ_ROWS: list[tuple[str, str, frozenset[str]]] = [
    (
        "es",
        "ES-EE, ES-NbN, SH, Street Outreach",
        frozenset(
            {
                HudProjectType.ES_ENTRY_EXIT,
                HudProjectType.ES_NIGHTLY,
                HudProjectType.SAFE_HAVEN,
                HudProjectType.OUTREACH,
            }
        ),
    ),
    ("th", "TH", frozenset({HudProjectType.TRANSITIONAL})),
    ("ph", "PH (all)", PERMANENT_HOUSING),
    ("ce", "CE", frozenset({HudProjectType.COORDINATED_ENTRY})),
    (
        "sso",
        "SSO, Day Shelter, HP",
        frozenset(
            {
                HudProjectType.SERVICES_ONLY,
                HudProjectType.DAY_SHELTER,
                HudProjectType.PREVENTION,
            }
        ),
    ),
]
#: Q6d's columns (the rows' column is "Entering into project type"), as the FY2024 APR names
#: them; HUD greys out the first row's two "Missing time" columns and the total's five.
HUD_CHRONIC_DQ_COLUMNS = [
    "Count of total records",
    "Missing time in institution (3.917.2)",
    "Missing time in housing (3.917.2)",
    "Approximate date this episode started (3.917.3) DK/PNTA/missing",
    "Number of times (3.917.4) DK/PNTA/missing",
    "Number of months (3.917.5) DK/PNTA/missing",
    "% of records unable to calculate",
]
#: The answers Q6d counts as missing, in its columns' order (after the count of records).
HUD_CHRONIC_DQ_MISSING = ("institution", "housing", "date", "times", "months")
#: HUD counts in Q6d only the people whose project start is on or after the day element 3.917
#: took its present form.
HUD_CHRONIC_DQ_SINCE = dt.date(2016, 10, 1)


def hud_chronic_dq_row(project: HudProject | None) -> str | None:
    """The code of Q6d's row of the agency's ``project`` type; None for a project not yet
    described, or of a type HUD's table has no row for ("Other")."""
    if project is None:
        return None
    return next(
        (code for code, _l, types in HUD_CHRONIC_DQ_ROWS if project.project_type in types), None
    )


def hud_chronic_missing(answers: dict[str, Any], *, everyone: bool) -> set[str]:
    """Q6d's columns whose answer at entry (3.917) a person lacks, of
    :data:`HUD_CHRONIC_DQ_MISSING`, as HUD's reporting glossary counts them. A length of stay,
    a number of times or of months is lacking when it is "doesn't know", "prefers not to
    answer", not collected (or a code no longer offered); a day homelessness began, when none
    is given.

    With ``everyone`` (the row of shelters, safe havens and street outreach), the day, the
    times and the months are asked of everyone, and the lengths of stay are not counted.
    Otherwise the length of stay is lacking "in institution" for someone who came from an
    institution, "in housing" for someone who came from anywhere but an institution or a
    homeless situation (an unknown situation among them); and the day, the times and the
    months are asked only of those who came from a homeless situation, or from a short stay
    (under 90 days in an institution, under a week elsewhere) after a night on the streets,
    in a shelter or a safe haven."""
    prior, length = answers.get("prior_living"), answers.get("prior_length")
    homeless = prior in hud.HOMELESS
    institution = prior in HUD_INSTITUTIONS
    missing = set()
    asked = everyone or homeless
    if not everyone and not homeless:
        if length not in hud.PRIOR_LENGTH_CODES:
            missing.add("institution" if institution else "housing")
        short = hud.INSTITUTIONAL_SHORT if institution else hud.OTHER_SHORT
        asked = length in short and answers.get("prior_night_street") == "yes"
    if asked:
        if hud.date_of(answers.get("homeless_since")) is None:
            missing.add("date")
        if answers.get("times_homeless") not in hud.TIMES_HOMELESS_CODES:
            missing.add("times")
        if answers.get("months_homeless") not in hud.MONTHS_HOMELESS_CODES:
            missing.add("months")
    return missing


#: The living situations of the institutional group (3.917's 200s).
HUD_INSTITUTIONS = frozenset(
    code for group, _w, items in hud.LIVING_GROUPS if group == "institutional" for code, _l in items
)


def _chronic_data_quality(b: Builder, t: _HudTally) -> Section:
    """Q6d: the people counted in the row of the project's type, by the answers at entry that
    chronic homelessness is worked out from and they lack, and the share of them who lack any;
    the other rows are 0, and the total is the project's row (the same cells). Every count is
    tied to the count of records through the rest of it (a cell never published), the count of
    records to the people served through those whose support began before HUD's table counts
    anyone, and the lengths of stay missing in an institution to Q15's subtotal of institutional
    situations: each is a part of a count printed, so that suppression reads them together."""
    g, counts = b.grid, t.chronic_missing
    zero = g.cell("q6d:none", 0)

    def within(key: str, value: int, whole: int) -> int:
        """A cell of ``value`` people among ``whole``'s, tied to it through the rest of them
        (unpublished; left out when there are none)."""
        cell = g.cell(key, value)
        rest = g.values[whole] - value
        if rest:
            other = g.cell(f"{key}:rest", rest)
            b.atoms.add(other)
            g.sum(whole, [cell, other])
        else:
            g.sum(whole, [cell])
        return cell

    # The first row (shelters, safe havens, street outreach) has no lengths of stay.
    first = HUD_CHRONIC_DQ_ROWS[0][0]
    asked = HUD_CHRONIC_DQ_MISSING[2:] if t.chronic_row == first else HUD_CHRONIC_DQ_MISSING
    records = unable = zero
    missing = dict.fromkeys(HUD_CHRONIC_DQ_MISSING, zero)
    if t.chronic_row is not None:
        served = g.keys[SERVED[0]]
        records = within("q6d:records", counts["records"], served) if counts["before"] else served
        unable = within("q6d:unable", counts["unable"], records)
        for column in asked:
            missing[column] = within(f"q6d:{column}", counts[column], records)
    if "institution" in asked and t.chronic_row is not None:
        # The lengths of stay in an institution: a part of Q15's institutional situations too.
        institutional = g.keys["q15:institutional"]
        rest = g.values[institutional] - counts["institution"]
        if rest:
            other = g.cell("q6d:institution:q15", rest)
            b.atoms.add(other)
            g.sum(institutional, [missing["institution"], other])
        else:
            g.sum(institutional, [missing["institution"]])
    rows = []
    for code, label, _types in HUD_CHRONIC_DQ_ROWS:
        ours = code == t.chronic_row
        columns = HUD_CHRONIC_DQ_MISSING[2:] if code == first else HUD_CHRONIC_DQ_MISSING
        cells = [records if ours else zero, *(missing[c] if ours else zero for c in columns)]
        rows.append(
            Row(
                label,
                cells,
                of=cells[0],
                part=unable if ours else zero,
                blank=(1, 2) if code == first else (),
            )
        )
    rows.append(Row("Total", [records], of=records, part=unable, blank=(1, 2, 3, 4, 5)))
    note = _(
        "Everyone served whose support began on or after 1 October 2016, in the row of the "
        "project's type (Settings, HUD project); the other rows are 0. Each survivor is her own "
        "household's head. A share is shown only where its count and the count of records are."
    )
    if t.chronic_row is None:
        note = _(
            "HUD counts no one here until the agency's HUD project has a type this table has a "
            "row for (an agency admin describes it in Settings, HUD project)."
        )
    step()
    return Section(
        "Q6d: Data Quality: Chronic Homelessness",
        HUD_CHRONIC_DQ_COLUMNS,
        rows,
        code="Q6d",
        note=note,
        corner="Entering into project type",
    )


#: Q6e's bands of the days from a start or an exit to the day its answers were recorded.
HUD_TIMELINESS = [
    ("negative", "< 0 days", -1),
    ("0", "0 days", 0),
    ("3", "1-3 days", 3),
    ("6", "4-6 days", 6),
    ("10", "7-10 days", 10),
    ("more", "11+ days", None),
]


def hud_band(bands: Sequence[tuple[str, str, int | None]], days: int) -> str:
    """The code of the first of HUD's ``bands`` (code, label, the most days it holds; None for
    no limit) that holds ``days``."""
    for code, _label, most in bands:
        if most is None or days <= most:
            return code
    raise AssertionError("the last band holds every length")


def hud_timeliness_band(days: int) -> str:
    """Q6e's band of answers recorded ``days`` after the start or the exit (before it: "< 0
    days", answers given ahead of the day, as at a referral)."""
    return hud_band(HUD_TIMELINESS, days)


def _timeliness(b: Builder, counts: Counter[tuple[str, str]]) -> Section:
    """Q6e: the people whose support began in the period, by the days from that day to the day
    their HUD answers were first saved; the leavers, by the days from their exit to the day
    their answers at exit were first given (``counts``, by band and column, counted with the
    rest of their answers: :meth:`_HudTally.add`). Answers saved before caseflow kept those
    days are not counted."""
    g = b.grid
    table = [
        Row(
            label,
            [
                g.cell(f"q6e:{code}:{column}", counts.get((code, column), 0))
                for column in ("start", "exit")
            ],
        )
        for code, label, _most in HUD_TIMELINESS
    ]
    step()
    return Section(
        "Q6e: Data Quality: Timeliness",
        ["Number of Project Start Records", "Number of Project Exit Records"],
        table,
        code="Q6e",
        has_total=False,
        corner="Time for Record Entry",
        note=_(
            "Answers saved before caseflow kept the day they were first recorded are not counted."
        ),
    )


#: HUD's bands of the length of participation (Q22a1), each the most days it holds.
HUD_LENGTHS = [
    ("30", "30 days or less", 30),
    ("60", "31 to 60 days", 60),
    ("90", "61 to 90 days", 90),
    ("180", "91 to 180 days", 180),
    ("365", "181 to 365 days", 365),
    ("730", "366 to 730 days (1-2 Yrs)", 730),
    ("1095", "731 to 1,095 days (2-3 Yrs)", 1095),
    ("1460", "1,096 to 1,460 days (3-4 Yrs)", 1460),
    ("1825", "1,461 to 1,825 days (4-5 Yrs)", 1825),
    ("more", "More than 1,825 days (> 5 Yrs)", None),
]


def hud_length_band(days: int) -> str:
    """The Q22a1 band of a participation of ``days`` days."""
    return hud_band(HUD_LENGTHS, days)


#: Q22d's first four bands: Q22a1's first ("30 days or less") in four.
HUD_FIRST_MONTH = [
    ("7", "7 days or less", 7),
    ("14", "8 to 14 days", 14),
    ("21", "15 to 21 days", 21),
    ("22_30", "22 to 30 days", 30),
]
#: Q22a2's names of the same four bands (the ESG CAPER's: its first "0 to 7 days").
HUD_ESG_FIRST_MONTH = {
    code: "0 to 7 days" if code == "7" else label for code, label, _most in HUD_FIRST_MONTH
}
#: Q22d's bands: Q22a1's, its first in four.
HUD_LENGTHS_BY_HOUSEHOLD = [*HUD_FIRST_MONTH, *HUD_LENGTHS[1:]]


def _length_by_household(b: Builder, t: _HudTally, days: dict[int, int]) -> None:
    """Q22d: Q22a1's people (everyone served) by length of participation and household type
    (Q8a's columns). Each band's total is Q22a1's (its first band in four: Q22a2's) and each
    column's Q8a's: the same cells, so suppression reads the tables together."""
    g = b.grid
    types = [code for code, _label in HUD_HOUSEHOLDS]
    counts: Counter[tuple[str, str]] = Counter(
        (hud_band(HUD_LENGTHS_BY_HOUSEHOLD, length), t.household_of[pk])
        for pk, length in days.items()
        if pk in t.household_of
    )
    rows = []
    for band, label, _most in HUD_LENGTHS_BY_HOUSEHOLD:
        cells = [g.cell(f"q22d:{band}:{code}", counts[(band, code)]) for code in types]
        total = g.keys[f"q22:{band}:*"]  # Q22a1's, or Q22a2's in the first month
        g.sum(total, cells)
        rows.append((label, total, cells))
    columns = [g.keys[f"q8a:{code}"] for code in types]
    for j, outer in enumerate(columns):
        g.sum(outer, [cells[j] for _label, _total, cells in rows])
    b.sections.append(
        Section(
            "Q22d: Length of Participation by Household Type",
            ["Total", *(label for _code, label in HUD_HOUSEHOLDS)],
            [
                *(Row(label, [total, *cells]) for label, total, cells in rows),
                Row("Total", [g.keys[SERVED[0]], *columns]),
            ],
            code="Q22d",
        )
    )
    step()


def _youth_length(b: Builder, t: _HudTally, days: dict[int, int], cases: Served) -> None:
    """Q27e: the youth (Q27a's people) by length of participation, in Q22a1's bands, rows and
    columns; each count inside Q22a1's (the rest, who are not youth, never published), its
    total Q27a's youth and its columns' totals Q27h's youth who left and who stay (the same
    people, tied)."""
    left = {c.pk for c in cases if c.left}
    counts: Counter[tuple[str, str]] = Counter(
        (hud_length_band(days[pk]), "leavers" if pk in left else "stayers")
        for pk in t.youth_cases
        if pk in days
    )
    columns = [("leavers", "Leavers"), ("stayers", "Stayers")]
    b.crosstab(
        "q27e",
        "Q27e: Length of Participation - Youth",
        [(code, label) for code, label, _most in HUD_LENGTHS],
        columns,
        counts,
        total_key=HUD_YOUTH_KEY,
        code="Q27e",
        total_first=True,
    )
    g = b.grid
    for band, _label, _most in HUD_LENGTHS:
        for column, _name in columns:
            part, whole = g.keys[f"q27e:{band}:{column}"], g.keys[f"q22:{band}:{column}"]
            b.inside(part, whole, f"q27e:rest:{band}:{column}")
    for column, _name in columns:
        g.sum(g.keys[f"q27h:{column}"], [g.keys[f"q27e:*:{column}"]], link=True)
    # Q27j: their average and median days, as Q22b's of everyone; the rest's average (of those
    # who are not youth) a figure never published, so that while the rest are 1 to 4 people
    # the youth's average, with Q22b's, does not tell theirs (:attr:`FunderReport.shares`).
    lengths: dict[str, list[int]] = {"leavers": [], "stayers": []}
    rest: dict[str, list[int]] = {"leavers": [], "stayers": []}
    for pk, length in days.items():
        (lengths if pk in t.youth_cases else rest)["leavers" if pk in left else "stayers"].append(
            length
        )
    _average_and_median(
        b,
        lengths,
        "q27j",
        "Q27j: Average and Median Length of Participation in Days - Youth",
        {"leavers": "q27h:leavers", "stayers": "q27h:stayers"},
    )
    for column in ("leavers", "stayers"):
        average, _median = _average_and_median_of(rest[column])
        others = g.cell(f"q27j:average:rest:{column}", average)
        b.about[others] = g.keys[f"q27h:rest:q5a:{column}"]
        youth = g.keys[f"q27j:average:{column}"]
        b.shares.append((g.keys[f"q22b:average:{column}"], [youth, others]))


def _length_of_participation(
    b: Builder,
    period: Period,
    cases: Served,
    each: Callable[[int, dt.date], None] | None = None,
    spans: dict[int, tuple[dt.date, dt.date | None]] | None = None,
    days: dict[int, int] | None = None,
    starts: Mapping[int, dt.date] | None = None,
) -> None:
    """Q22a1: days from the start of support to the case's closing (a leaver), or to the day
    after the period's last (a stayer, there through its last day, as HUD counts), by HUD's
    bands, leavers and stayers; its totals are Q5a's (the same people). The start is HUD's
    project start, the day her latest episode of support begun by the period's end began
    (``starts``, once ``each`` has been given the case), or else the day the case opened.
    ``each`` is given each case and the day it opened; ``spans`` is filled with each case's
    days of opening and closing, and ``days`` with its days of participation."""
    # The agency's days (:func:`agency_days`), as the database works them out.
    rows = Case.objects.filter(pk__in=cases.ids).values_list(
        "pk", local_day("opened_at"), local_day("closed_at")
    )
    left = {c.pk for c in cases if c.left}
    counts: Counter[tuple[str, str]] = Counter()
    first_month: Counter[tuple[str, str]] = Counter()  # Q22a1's first band by Q22a2's
    lengths: dict[str, list[int]] = {"leavers": [], "stayers": []}
    for pk, began, closed_on in rows.iterator(chunk_size=2000):
        if pk not in cases.pks:
            continue
        if each is not None:
            each(pk, began)
        if spans is not None:
            spans[pk] = (began, closed_on)
        leaver = pk in left  # closed before the period's end: ``closed_at`` is set
        # A stayer was there through the period's last day.
        stayed = period.end + dt.timedelta(days=1)
        end = closed_on if leaver and closed_on is not None else stayed
        start = began if starts is None else starts.get(pk, began)
        length = max((end - start).days, 0)
        if days is not None:
            days[pk] = length
        column = "leavers" if leaver else "stayers"
        counts[(hud_length_band(length), column)] += 1
        if length <= HUD_FIRST_MONTH[-1][2]:
            first_month[(hud_band(HUD_FIRST_MONTH, length), column)] += 1
        lengths[column].append(length)
    b.crosstab(
        "q22",
        "Q22a1: Length of Participation - CoC Projects",
        [(code, label) for code, label, _most in HUD_LENGTHS],
        [("leavers", "Leavers"), ("stayers", "Stayers")],
        counts,
        total_key=SERVED[0],
        code="Q22a1",
        total_first=True,
    )
    grid = b.grid
    for column in ("leavers", "stayers"):
        grid.sum(grid.keys[f"q5a:{column}"], [grid.keys[f"q22:*:{column}"]], link=True)
    _esg_length_of_participation(b, first_month)
    _average_and_median(b, lengths)


def _esg_length_of_participation(b: Builder, first_month: Counter[tuple[str, str]]) -> None:
    """Q22a2, the ESG CAPER's length of participation: Q22a1's people, rows and columns, its
    first band ("30 days or less") in Q22d's four (``first_month``: how many leavers and
    stayers in each). Every other cell is Q22a1's; each of the four bands' cells is tied to its
    row's total (Q22d's, the same cell) and, with the other three, to Q22a1's first band of its
    column, so suppression reads the three tables together."""
    g = b.grid
    columns = ("leavers", "stayers")
    rows = []
    for band, _label, _most in HUD_FIRST_MONTH:
        cells = [g.cell(f"q22:{band}:{c}", first_month[(band, c)]) for c in columns]
        total = g.cell(f"q22:{band}:*", sum(g.values[c] for c in cells))
        g.sum(total, cells)
        rows.append(Row(HUD_ESG_FIRST_MONTH[band], [total, *cells]))
    for column in (*columns, "*"):
        parts = [g.keys[f"q22:{band}:{column}"] for band, _l, _m in HUD_FIRST_MONTH]
        g.sum(g.keys[f"q22:30:{column}"], parts, link=True)
    q22a1 = b.sections[-1]
    assert q22a1.code == "Q22a1"
    rows += q22a1.rows[1:]  # Q22a1's rows after its first, and its total: the same cells
    b.sections.append(
        Section(
            "Q22a2: Length of Participation - ESG Projects",
            list(q22a1.columns),
            rows,
            chart_column=q22a1.chart_column,
            code="Q22a2",
        )
    )
    step()


#: HUD's household types, the columns of Q8a and Q8b after their total: the answer to
#: "household type" (``hud.HOUSEHOLD_TYPES``) or, when it is not known, "Unknown Household
#: Type".
HUD_HOUSEHOLDS = [
    ("without_children", "Without Children"),
    ("children_and_adults", "With Children and Adults"),
    ("only_children", "With Only Children"),
    ("unknown", "Unknown Household Type"),
]
_HOUSEHOLD_CODES = frozenset(code for code, _label in HUD_HOUSEHOLDS[:-1])
#: The project types whose households that moved in are Q8a's second row (HUD: PSH and RRH).
HUD_MOVED_IN_ROW = frozenset({HudProjectType.SUPPORTIVE, HudProjectType.RAPID_REHOUSING})
#: Q8b's rows: the month whose last Wednesday is counted.
HUD_PIT_MONTHS = [(1, "January"), (4, "April"), (7, "July"), (10, "October")]


def hud_household_type(answer: Any) -> str:
    """Q8a's column of an answer to "household type": the type, or "unknown" for "doesn't
    know", "prefers not to answer", not collected or a code no longer offered."""
    return answer if answer in _HOUSEHOLD_CODES else "unknown"


def hud_pit_day(period: Period, month: int) -> dt.date | None:
    """The last Wednesday of ``month`` in ``period`` (the latest, should the period hold two),
    None when it holds none."""
    for year in range(period.end.year, period.start.year - 1, -1):
        last = dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)
        day = last - dt.timedelta(days=(last.weekday() - 2) % 7)
        if period.start <= day <= period.end:
            return day
    return None


def _inside(b: Builder, key: str, counts: Counter[str], outer: list[int]) -> list[int]:
    """A row of households by type (its total first), each count inside ``outer``'s of its
    column (Q8a's): the rest of that column is a count too, never published, tied so that
    suppression keeps a small one from being worked out by subtracting."""
    g = b.grid
    cells = [g.cell(f"{key}:{code}", counts[code]) for code, _label in HUD_HOUSEHOLDS]
    total = g.cell(key, sum(counts.values()))
    g.sum(total, cells)
    for inner, whole in zip([total, *cells], outer, strict=True):
        b.inside(inner, whole, f"{key}:rest:{whole}")
    return [total, *cells]


def _there_on(
    day: dt.date, began: dt.date, closed_on: dt.date | None, housed: dt.date | None
) -> bool:
    """A household is there on ``day``: its case had opened by it and had not closed by it, and
    it was housed by it (``housed``: the day it moved in, in permanent housing, else the day
    its case opened; None while it has not moved in)."""
    return (
        housed is not None and max(began, housed) <= day and (closed_on is None or closed_on > day)
    )


def _households(
    b: Builder,
    period: Period,
    t: _HudTally,
    spans: dict[int, tuple[dt.date, dt.date | None]],
    moved_on: dict[int, dt.date] | None,
    *,
    moved: bool = False,
) -> None:
    """Q8a, the households served (and, in permanent supportive housing or rapid re-housing,
    ``moved``, those that had moved in by the period's end), and Q8b, the households there on
    the last Wednesday of January, April, July and October, by the household type recorded at
    entry; each survivor heads her own household. A household is there on a day when its case
    had opened by that day and had not closed by it (HUD's project start on or before the day,
    its exit after it) and, in a permanent housing project (``moved_on`` given), when it had
    moved in by it.

    Each of Q8b's counts lies inside Q8a's of its column, and each row inside the people
    served in the quarter that holds its day: the rest (served, but not there that day) is a
    count too, never published, so suppression keeps a small one from being worked out."""
    g = b.grid
    types = Counter(t.household_of.values())
    cells = [g.cell(f"q8a:{code}", types[code]) for code, _label in HUD_HOUSEHOLDS]
    total = g.cell(SERVED[0], t.people)
    g.sum(total, cells)
    # Permanent supportive housing and rapid re-housing (``moved``): the households that had
    # moved in by the period's end, each inside the households served of its type.
    housed = Counter(t.household_of[pk] for pk in (moved_on or {}) if moved)
    moved_in = _inside(b, "q8a:moved", housed, [total, *cells])
    columns = ["Total", *(label for _code, label in HUD_HOUSEHOLDS)]
    b.sections.append(
        Section(
            "Q8a: Number of Households Served",
            columns,
            [
                Row("Total Households", [total, *cells]),
                Row("For PSH & RRH - the total households served who moved into housing", moved_in),
            ],
            code="Q8a",
            has_total=False,
        )
    )
    rows = []
    for month, label in HUD_PIT_MONTHS:
        day = hud_pit_day(period, month)
        there: Counter[str] = Counter()
        if day is not None:
            for pk, household in t.household_of.items():
                began, closed_on = spans[pk]
                home_on = began if moved_on is None else moved_on.get(pk)
                if _there_on(day, began, closed_on, home_on):
                    there[household] += 1
        row = _inside(b, f"q8b:{month}", there, [total, *cells])
        rows.append(Row(label, row))
        if day is not None:
            b.on_day[row[0]] = day
    b.sections.append(
        Section(
            "Q8b: Point-in-Time Count of Households on the Last Wednesday",
            columns,
            rows,
            code="Q8b",
            has_total=False,
        )
    )
    step()


def _half_up(value: Fraction) -> int:
    """``value`` to the nearest whole number, a half up (as a reader rounds, not to even)."""
    return math.floor(value + Fraction(1, 2))


def _average_of(count: int, total: int | Decimal) -> int:
    """The average of ``total`` over ``count`` people in whole units, halves up (0 for no one)."""
    return _half_up(Fraction(total) / count) if count else 0


def _average_and_median_of(days: Sequence[int]) -> tuple[int, int]:
    """The average and the median of ``days`` in whole days, halves rounded up (the median of
    an even number of people is the mean of its two middle ones); 0 and 0 for no one."""
    ordered = sorted(days)
    n = len(ordered)
    if not n:
        return 0, 0
    average = _half_up(Fraction(sum(ordered), n))
    return average, _half_up(Fraction(ordered[(n - 1) // 2] + ordered[n // 2], 2))


def _average_and_median(
    b: Builder,
    lengths: dict[str, list[int]],
    key: str = "q22b",
    title: str = "Q22b: Average and Median Length of Participation in Days",
    groups: dict[str, str] | None = None,
) -> None:
    """Q22b (and Q27j, the youth's): the average and the median days of participation of the
    leavers and of the stayers (whole days, halves rounded up; the median of an even number of
    people is the mean of its two middle ones), each published only with its group's count
    (:attr:`FunderReport.about`: Q5a's leavers and stayers, or the cells of ``groups``)."""
    g = b.grid
    rows: dict[str, list[int]] = {"average": [], "median": []}
    for column in ("leavers", "stayers"):
        group = g.keys[(groups or {}).get(column, f"q5a:{column}")]
        average, median = _average_and_median_of(lengths[column])
        for name, value in (("average", average), ("median", median)):
            cell = g.cell(f"{key}:{name}:{column}", value)
            b.about[cell] = group
            rows[name].append(cell)
    b.sections.append(
        Section(
            title,
            ["Leavers", "Stayers"],
            [Row("Average Length", rows["average"]), Row("Median Length", rows["median"])],
            code=title.partition(":")[0],
            has_total=False,
            figures=True,
            note=_("Shown only where the group's count is, and is at least the threshold."),
        )
    )
    step()


# --- HUD's entry and exit questions (an agency that asks them: caseflow.partners.hud) ----------

#: HUD's words for "doesn't know" and "prefers not to answer" (one row), and "not collected".
HUD_DK = ("dk", "Client Doesn't Know/Prefers Not to Answer")
HUD_DNC = ("dnc", "Data Not Collected")
HUD_YES_NO = [("yes", "Yes"), ("no", "No"), HUD_DK, HUD_DNC]

#: The APR's names of the living situations (Q15, Q23c), by caseflow's code.
HUD_LIVING_LABELS = {
    "place_not_meant": (
        "Place not meant for habitation (e.g., a vehicle, an abandoned building, "
        "bus/train/subway station/airport or anywhere outside)"
    ),
    "emergency_shelter": (
        "Emergency shelter, including hotel or motel paid for with emergency shelter voucher, "
        "Host Home shelter"
    ),
    "safe_haven": "Safe Haven",
    "foster_care": "Foster care home or foster care group home",
    "hospital": "Hospital or other residential non-psychiatric medical facility",
    "jail": "Jail, prison or juvenile detention facility",
    "long_term_care": "Long-term care facility or nursing home",
    "psychiatric": "Psychiatric hospital or other psychiatric facility",
    "substance_treatment": "Substance abuse treatment facility or detox center",
    "transitional": "Transitional housing for homeless persons (including homeless youth)",
    "halfway_house": "Residential project or halfway house with no homeless criteria",
    "hotel_no_voucher": "Hotel or motel paid for without emergency shelter voucher",
    "host_home": "Host Home (non-crisis)",
    "family_temporary": (
        "Staying or living with family, temporary tenure (e.g., room, apartment, or house)"
    ),
    "friends_temporary": (
        "Staying or living with friends, temporary tenure (e.g., room, apartment, or house)"
    ),
    "hopwa_th": "Moved from one HOPWA funded project to HOPWA TH",
    "family_permanent": "Staying or living with family, permanent tenure",
    "friends_permanent": "Staying or living with friends, permanent tenure",
    "hopwa_ph": "Moved from one HOPWA funded project to HOPWA PH",
    "rental_no_subsidy": "Rental by client, no ongoing housing subsidy",
    "rental_subsidy": "Rental by client, with ongoing housing subsidy",
    "owned_subsidy": "Owned by client, with ongoing housing subsidy",
    "owned_no_subsidy": "Owned by client, no ongoing housing subsidy",
    "no_exit_interview": "No Exit Interview completed",
    "other": "Other",
    "deceased": "Deceased",
}
HUD_LIVING_GROUP_LABELS = {
    "homeless": "Homeless Situations",
    "institutional": "Institutional Situations",
    "temporary": "Temporary Situations",
    "permanent": "Permanent Situations",
}
#: Q15's (prior living situations, 3.917) own names where they are not Q23c's, its groups'
#: names, and its order of the rows: HUD's rows first, then those of caseflow's answers that
#: 3.917 has not (staying with family or friends to stay, HOPWA), each in its group.
HUD_PRIOR_LIVING_LABELS = {
    "place_not_meant": "Place not meant for habitation",
    "family_temporary": "Staying or living in a family member's room, apartment or house",
    "friends_temporary": "Staying or living in a friend's room, apartment or house",
}
HUD_PRIOR_LIVING_GROUP_LABELS = {
    **HUD_LIVING_GROUP_LABELS,
    "institutional": "Institutional Settings",
    "temporary": "Temporary Situation",
}
HUD_PRIOR_LIVING_ORDER = {
    "temporary": [
        "transitional",
        "halfway_house",
        "hotel_no_voucher",
        "host_home",
        "friends_temporary",
        "family_temporary",
        "hopwa_th",
    ],
    "permanent": [
        "rental_no_subsidy",
        "rental_subsidy",
        "owned_subsidy",
        "owned_no_subsidy",
        "family_permanent",
        "friends_permanent",
        "hopwa_ph",
    ],
}
HUD_DV_WHEN = [
    ("within_3_months", "Within the past three months"),
    ("3_to_6_months", "Three to six months ago"),
    ("6_to_12_months", "Six months to one year"),
    ("over_a_year", "One year ago, or more"),
    HUD_DK,
    HUD_DNC,
]
HUD_DV_WHEN_CODES = frozenset(v for v, _l in HUD_DV_WHEN)
#: Q16's bands of monthly income: (code, HUD's name, the most dollars it holds).
HUD_INCOME_BANDS: list[tuple[str, str, int | None]] = [
    ("150", "$1 - $150", 150),
    ("250", "$151 - $250", 250),
    ("500", "$251 - $500", 500),
    ("1000", "$501 - $1,000", 1000),
    ("1500", "$1,001 - $1,500", 1500),
    ("2000", "$1,501 - $2,000", 2000),
    ("more", "$2,001+", None),
]
HUD_INCOME_SOURCES = {
    "earned": "Earned Income",
    "unemployment": "Unemployment Insurance",
    "ssi": "Supplemental Security Income (SSI)",
    "ssdi": "Social Security Disability Insurance (SSDI)",
    "va_disability_service": "VA Service - Connected Disability Compensation",
    "va_disability_non_service": "VA Non-Service Connected Disability Pension",
    "private_disability": "Private Disability Insurance",
    "workers_comp": "Worker's Compensation",
    "tanf": "Temporary Assistance for Needy Families (TANF)",
    "general_assistance": "General Assistance (GA)",
    "retirement_ss": "Retirement Income from Social Security",
    "pension": "Pension or retirement income from a former job",
    "child_support": "Child Support",
    "alimony": "Alimony and other spousal support",
    "other": "Other Source",
}
HUD_BENEFITS = {
    "snap": "Supplemental Nutrition Assistance Program (SNAP) (Previously known as Food Stamps)",
    "wic": "Special Supplemental Nutrition Program for Women, Infants, and Children (WIC)",
    "tanf_child_care": "TANF Child Care Services",
    "tanf_transportation": "TANF Transportation Services",
    "tanf_other": "Other TANF-Funded Services",
    "other": "Other Source",
}
HUD_INSURANCE = {
    "medicaid": "MEDICAID",
    "medicare": "MEDICARE",
    "schip": "State Children's Health Insurance Program",
    "va": "Veteran's Health Administration (VHA)",
    "employer": "Employer - Provided Health Insurances",
    "cobra": "Health Insurance obtained through COBRA",
    "private": "Private Pay Health Insurance",
    "state": "State Health Insurance for Adults",
    "indian_health": "Indian Health Services Program",
    "other": "Other",
}
HUD_CONDITIONS = [
    ("mental_health", "Mental Health Disorder"),
    ("alcohol", "Alcohol Use Disorder"),
    ("drug", "Drug Use Disorder"),
    ("both", "Both Alcohol and Drug Use Disorders"),
    ("chronic_health", "Chronic Health Condition"),
    ("hiv_aids", "HIV/AIDS"),
    ("developmental", "Developmental Disability"),
    ("physical", "Physical Disability"),
]


def hud_row(value: Any, rows: Iterable[str] = ()) -> str:
    """HUD's row of an answer: itself when it is one of ``rows``, "dk" for "doesn't know" or
    "prefers not to answer", and "dnc" for anything else (not collected, or a code no row holds,
    so that every person is counted once and the totals hold)."""
    if value in (hud.DONT_KNOW, hud.PREFERS_NOT):
        return HUD_DK[0]
    return value if value in rows else HUD_DNC[0]


def hud_income_band(any_income: str, amount: str) -> str:
    """Q16's row of an income answer: "none", a band, "dk" or "dnc" (said to have income but
    no amount given: not collected)."""
    if any_income == "no":
        return "none"
    if any_income != "yes":
        return hud_row(any_income)
    dollars = hud.amount_of(amount)
    if dollars is None:
        return HUD_DNC[0]
    if dollars <= 0:
        return "none"
    for code, _label, most in HUD_INCOME_BANDS:
        if most is None or dollars <= most:
            return code
    raise AssertionError("the last band holds every amount")


def hud_conditions(answers: dict[str, Any], prefix: str = "") -> set[str]:
    """Q13a1's rows a person is counted in (Q13b1's with ``prefix`` "exit_"): alcohol and drug
    use together are "both"."""
    return _conditions(answers.get(f"{prefix}conditions_any"), answers.get(f"{prefix}conditions"))[
        0
    ]


#: Alcohol and drug use disorders, shown together in Q13a1 as "both".
_ALCOHOL_AND_DRUG = frozenset({"alcohol", "drug"})


def _conditions(answer: Any, named: Any) -> tuple[set[str], str]:
    """:func:`hud_conditions` and :func:`hud_condition_count` of the answers to "has a
    disabling condition" and "conditions", the list of them read once for both."""
    if answer == "no":
        return set(), "none"
    if answer != "yes":
        return set(), hud_row(answer)
    given = set(named or [])
    # Alcohol and drug use are each a condition in the count (Q13a1 shows them as "both").
    count = _CONDITION_COUNT.get(len(given), "3")
    if given >= _ALCOHOL_AND_DRUG:
        given = (given - _ALCOHOL_AND_DRUG) | {"both"}
    return given, count


#: Q13a2's and Q13b2's rows: how many of HUD's conditions a person has (alcohol and drug use
#: disorders are two, as HUD counts them).
HUD_CONDITION_COUNTS = [
    ("none", "None"),
    ("1", "1 Condition"),
    ("2", "2 Conditions"),
    ("3", "3+ Conditions"),
    ("unknown", "Condition Unknown"),
    HUD_DK,
    HUD_DNC,
]


#: Q13a2's row of a number of conditions named (more than two are "3").
_CONDITION_COUNT = {0: "unknown", 1: "1", 2: "2"}


def hud_condition_count(answers: dict[str, Any], prefix: str = "") -> str:
    """Q13a2's row of a person (Q13b2's with ``prefix`` "exit_"): "none" for no disabling
    condition, how many (3 or more are "3"), "unknown" for a condition said but none named, or
    "dk" or "dnc"."""
    return _conditions(answers.get(f"{prefix}conditions_any"), answers.get(f"{prefix}conditions"))[
        1
    ]


#: Q18's rows: the kinds of cash income a person has (earned income, from work, and any other).
HUD_INCOME_CATEGORIES = [
    ("earned", "Adults with Only Earned Income (i.e., Employment Income)"),
    ("other", "Adults with Only Other Income"),
    ("both", "Adults with Both Earned and Other Income"),
    ("none", "Adults with No Income"),
    ("dk", "Adults with Client Doesn't Know/Prefers Not to Answer Income Information"),
    ("dnc", "Adults with Missing Income Information"),
]


def hud_income_category(answers: dict[str, Any], prefix: str = "") -> str:
    """Q18's row of a person at start (at exit with ``prefix`` "exit_"), by the sources named:
    only earned, only other, both, "none", "dk", or "dnc" (not collected, or income said but no
    source named)."""
    answer = answers.get(f"{prefix}income_any")
    if answer == "no":
        return "none"
    if answer != "yes":
        return hud_row(answer)
    return _income_kinds(set(answers.get(f"{prefix}income_sources") or []))


#: Q18's row of a person with income, by whether she named earned income and any other source.
_INCOME_KINDS = {(True, False): "earned", (False, True): "other", (True, True): "both"}


def _income_kinds(given: set[str]) -> str:
    """Q18's row of a person who said she has income and named the sources ``given``."""
    earned = "earned" in given
    return _INCOME_KINDS.get((earned, len(given) > (1 if earned else 0)), HUD_DNC[0])


def hud_disabling(answers: dict[str, Any]) -> str:
    """Q19b's column of a person: "with" or "without" a disabling condition (3.08, asked at
    entry, as HUD's reports take it from the project start), or "unknown" (doesn't know,
    prefers not to answer, not collected)."""
    return {"yes": "with", "no": "without"}.get(answers.get("conditions_any", ""), "unknown")


def hud_income_rows(answers: dict[str, Any], prefix: str) -> set[str]:
    """Q19b's rows of a person (at exit with ``prefix`` "exit_"): each source of income named,
    "none" for no income, and "total" always (income not known, or said with no source named,
    is in the total only)."""
    answer = answers.get(f"{prefix}income_any")
    if answer == "yes":
        named = set(answers.get(f"{prefix}income_sources") or []) & set(HUD_INCOME_SOURCES)
        return {"total", *named}
    return {"total", "none"} if answer == "no" else {"total"}


#: The stayers' column's rows of those without an annual assessment that counts (as the
#: stayers' kinds of :func:`hud.annual_assessment`).
HUD_NOT_ASSESSED = [
    ("not_required", "Number of adult stayers not yet required to have an annual assessment"),
    ("missing", "Number of adult stayers without required annual assessment"),
]


class _Assessed(NamedTuple):
    """The names of the answers :meth:`_HudTally._assessment` reads at one stage."""

    income_any: str
    income_amount: str
    income_sources: str
    benefits_any: str
    benefits_sources: str
    insurance_any: str
    insurance_sources: str


#: Those names at start (no prefix), at the annual assessment and at exit, made once.
_ASSESSED = {
    prefix: _Assessed(*(f"{prefix}{name}" for name in _Assessed._fields))
    for prefix in ("", "annual_", "exit_")
}


class _HudTally:
    """What the APR questions count of each person's HUD answers, counted as the answers are
    read (:func:`read_people`): nothing is kept of a person but the cases without answers (a
    reference each), whose annual assessment waits for the day their case opened
    (:meth:`opened`), and, for the questions by race (Q22f, Q22g), the days of each person
    they count and her answer to the race question (their medians need every person's days,
    and a person's race may be read after her HUD answers)."""

    def __init__(
        self, period: Period, cases: Iterable[CaseRow], *, permanent: bool = False
    ) -> None:
        self.period = period
        self._rows = cases
        #: A permanent housing project: the days to move in (Q22c), and its day of housing is
        #: the day they moved in (Q22e).
        self.permanent = permanent
        self.move_in: Counter[str] = Counter()
        #: The day each person moved into housing by the period's end (Q8b's households).
        self.moved_on: dict[int, dt.date] = {}
        #: Each person's household type (Q8a, Q8b: :func:`hud_household_type`).
        self.household_of: dict[int, str] = {}
        self.move_in_days = self.moved = self.moved_leavers = self.left_without = 0
        self.end = period.end.isoformat()
        # The cases in the order the answers are read, to find those with none as they go.
        self._cases = iter(sorted(cases))
        self._blank = hud.blank()
        self._without: dict[int, CaseRow] = {}
        self.people = self.leavers = self.stayers = 0
        #: Counts at start (everyone), at the annual assessment (stayers) and at exit (leavers).
        at = ("start", "annual", "exit")
        self.prior_living: Counter[Any] = Counter()
        self.dv_history: Counter[str] = Counter()
        self.dv_when: Counter[tuple[str, str]] = Counter()
        self.destination: Counter[Any] = Counter()
        self.subsidy: Counter[str] = Counter()
        #: Each leaver's destination and, renting with a subsidy, the subsidy's row: a group's
        #: (the veterans', the youth's) are counted once the group is known (:meth:`exits_of`).
        self.exits: dict[int, tuple[Any, str]] = {}
        #: The youth (Q27a's people), from their demographic answers: known before a person's
        #: HUD answers are counted (:meth:`demographics`, :func:`_hud`).
        self.youth_cases: set[int] = set()
        #: Each person's HUD project start: the day her latest episode of support begun by the
        #: period's end began (the day her case opened when she has no answers).
        self.began: dict[int, dt.date] = {}
        #: The youth's living situations before (Q27d: Q15's), sources of income (Q27g:
        #: Q17's), kinds of income (Q27h: Q18's) and, for those who left, sources by disabling
        #: condition (Q27i: Q19b's).
        self.youth_living: Counter[Any] = Counter()
        self.youth_sources: dict[str, Counter[str]] = {k: Counter() for k in at}
        self.youth_category: dict[str, Counter[str]] = {k: Counter() for k in at}
        self.youth_disabling: Counter[tuple[str, str]] = Counter()
        #: Q27l: the youth's days from homelessness to housing (Q22e's bands).
        self.youth_prior_days: Counter[str] = Counter()
        #: Q27k: the youth's moves into housing in the period by Q22c's bands, with "moved"
        #: (their count), "days" (their days together), "left_without" and "moved_leavers".
        self.youth_moves: Counter[str] = Counter()
        #: Whether the person being counted is a youth.
        self._youth = False
        #: The youth whose answer to the age question was read after her HUD answers were
        #: counted (:meth:`count_youth`).
        self.late_youth: set[int] = set()
        self.not_assessed: Counter[str] = Counter()
        self.income: dict[str, Counter[str]] = {k: Counter() for k in at}
        self.sources: dict[str, Counter[str]] = {k: Counter() for k in at}
        self.category: dict[str, Counter[str]] = {k: Counter() for k in at}
        #: The people whose income was not collected at each stage (in Q16's and Q18's "Data
        #: Not Collected" rows both, with those each files there for a part left blank).
        self.income_not_collected: Counter[str] = Counter()
        self.benefits: dict[str, Counter[str]] = {k: Counter() for k in at}
        self.benefit_count: dict[str, Counter[str]] = {k: Counter() for k in at}
        self.insured: dict[str, Counter[str]] = {k: Counter() for k in at}
        self.covered: dict[str, Counter[str]] = {k: Counter() for k in at}
        #: Conditions at start, at exit, and the stayers' as last recorded.
        recorded = ("start", "exit", "stayers")
        self.conditions: dict[str, Counter[str]] = {k: Counter() for k in recorded}
        #: The same of the chronically homeless (Q26e, Q26g, Q26h: Q13's, Q17's and Q20a's).
        self.chronic_conditions: dict[str, Counter[str]] = {k: Counter() for k in recorded}
        self.chronic_sources: dict[str, Counter[str]] = {k: Counter() for k in at}
        self.chronic_benefits: dict[str, Counter[str]] = {k: Counter() for k in at}
        #: Q26f: the chronically homeless's kinds of income (the stayers' column with those
        #: not assessed, as Q18's).
        self.chronic_category: dict[str, Counter[str]] = {k: Counter() for k in at}
        #: Q26a: the households by whether their head was and by household type.
        self.chronic_households: Counter[tuple[str, str]] = Counter()
        #: Whether the person being counted was chronically homeless at the start of support.
        self._chronic = False
        self.condition_count: dict[str, Counter[str]] = {k: Counter() for k in recorded}
        #: Q19b: the leavers by their sources of income at exit (a row for each source, "none"
        #: and "total") and whether they have a disabling condition ("with", "without",
        #: "unknown"; :func:`hud_disabling`).
        self.disabling: Counter[tuple[str, str]] = Counter()
        self.prior_days: Counter[str] = Counter()
        #: Whether the project is one HUD counts in Q22e (:data:`HOUSING_PROJECTS`).
        self.housing = True
        #: Q6d: the code of the row of the project's type (:data:`HUD_CHRONIC_DQ_ROWS`), None
        #: when HUD's table has none for it; its people ("records") by the answers they lack
        #: (:func:`hud_chronic_missing`), those lacking any ("unable"), and those whose support
        #: began before HUD's table counts anyone ("before").
        self.chronic_row: str | None = None
        self.chronic_missing: Counter[str] = Counter()
        self.veteran: Counter[str] = Counter()
        #: Q22f's people (Q22c's): the days each took to move in, None for a leaver who did
        #: not; Q22g's (Q22e's): the days from homelessness to housing, None where Q22e has
        #: none. By case.
        self.to_move_in: list[tuple[int, int | None]] = []
        self.to_housing: list[tuple[int, int | None]] = []
        #: Each person's answer to the race question, by case (read with her demographic
        #: answers, or given by the release that opened them: :meth:`take`).
        self.races: dict[int, str] = {}
        #: The cases of the chronically homeless and of the veterans, and their demographic
        #: answers (Q25c, Q25d, Q26c, Q26d).
        self.chronic_cases: set[int] = set()
        self.veteran_cases: set[int] = set()
        self.group_answers: dict[int, dict[str, str]] = {}
        #: Q6e: the days to record a start and an exit, by band and column.
        self.timeliness: Counter[tuple[str, str]] = Counter()
        #: Q19a1 (the stayers at their annual assessment) and Q19a2 (the leavers at exit): the
        #: people whose income is known at start and then, by (row, column) of
        #: :data:`HUD_INCOME_CHANGE_ROWS` and :data:`HUD_INCOME_CHANGE_COLUMNS`, and the
        #: change in their monthly dollars, added up the same way.
        self.income_change: dict[str, Counter[tuple[str, str]]] = {
            k: Counter() for k in ("annual", "exit")
        }
        self.income_change_dollars: dict[str, dict[tuple[str, str], Decimal]] = {
            k: {} for k in ("annual", "exit")
        }
        #: Of those, the chronically homeless and the youth (Q26f's and Q27h's last row), by
        #: (group, column).
        self.income_known: Counter[tuple[str, str]] = Counter()

    def take(self, given: Iterable[tuple[int, HudEntry]]) -> None:
        """Count each case's answers and their days (:func:`read_hud_answers`), in the order of
        the case ids."""
        for case_id, entry in given:
            self.add(case_id, entry)
        self._without.update((c.pk, c) for c in self._cases)

    def demographics(
        self, rows: Iterable[tuple[int, dict[str, str] | None, HudEntry | None]]
    ) -> Iterator[tuple[int, dict[str, str]]]:
        """The demographic answers of :func:`read_people`'s rows (for :meth:`Served.count`), the
        HUD answers counted here on the way."""
        by_race = self.permanent or self.housing
        for case_id, given, entry in rows:
            # A youth is known before her HUD answers are counted (Q27d, Q27g to Q27i).
            if given is not None and given["age_band"] in HUD_YOUTH_ANSWERS:
                self.youth_cases.add(case_id)
                if entry is None and case_id in self.household_of:  # counted already
                    self.late_youth.add(case_id)
            if entry is not None:
                self.add(case_id, entry)
            if given is not None:
                if by_race:
                    self.races[case_id] = given["race_ethnicity"]
                # Counted just above.
                if case_id in self.chronic_cases or case_id in self.veteran_cases:
                    self.group_answers[case_id] = given
                yield case_id, given
        self._without.update((c.pk, c) for c in self._cases)

    def count_youth(self, given: Iterable[tuple[int, HudEntry]]) -> None:
        """Count as a youth's the HUD answers of :attr:`late_youth` (read again): a survivor's
        demographic answers saved before caseflow kept them in one token are read after every
        HUD answer (:func:`read_people`), so her HUD answers were counted before she was known
        to be a youth."""
        again = _HudTally(
            self.period,
            [c for c in self._rows if c.pk in self.late_youth],
            permanent=self.permanent,
        )
        again.housing, again.youth_cases = self.housing, self.late_youth
        again.take(given)
        self.youth_living += again.youth_living
        self.youth_prior_days += again.youth_prior_days
        self.youth_moves += again.youth_moves
        self.youth_disabling += again.youth_disabling
        for column in self.youth_sources:
            self.youth_sources[column] += again.youth_sources[column]
            self.youth_category[column] += again.youth_category[column]
        for column in self.income_change:
            self.income_known[("youth", column)] += again.income_known[("youth", column)]
        self.late_youth = set()

    def exits_of(self, group: set[int]) -> tuple[Counter[Any], Counter[str]]:
        """The people of ``group`` who left, by destination, and those of them who went to rent
        with a subsidy, by subsidy (Q25i and Q25j the veterans', Q27f1 and Q27f2 the youth's)."""
        destinations: Counter[Any] = Counter()
        subsidies: Counter[str] = Counter()
        for pk in group & self.exits.keys():
            destination, subsidy = self.exits[pk]
            destinations[destination] += 1
            if subsidy:
                subsidies[subsidy] += 1
        return destinations, subsidies

    @property
    def chronic(self) -> Counter[str]:
        """Q26b: everyone counted by whether she was chronically homeless at the start of
        support (Q26a's households, each survivor heading her own, whatever their type)."""
        out: Counter[str] = Counter()
        for (status, _household), n in self.chronic_households.items():
            out[status] += n
        return out

    def add(self, case_id: int, entry: HudEntry) -> None:
        """Count a case's answers; the cases before it in order have none."""
        for c in self._cases:
            if c.pk == case_id:
                self._person(c, entry.answers, entry.began, entry.began)
                self._timeliness(c, entry)
                return
            if c.pk > case_id:  # not a case counted: the next read is its turn again
                self._cases = itertools.chain([c], self._cases)
                return
            self._without[c.pk] = c

    def _timeliness(self, c: CaseRow, entry: HudEntry) -> None:
        """Q6e: the days from the start of support in the period to the answers' first saving,
        and from a leaver's exit to her answers at exit."""
        if entry.recorded_on is not None and entry.began >= self.period.start:
            days = (entry.recorded_on - entry.began).days
            self.timeliness[(hud_timeliness_band(days), "start")] += 1
        if c.left and entry.exit_recorded_on is not None and entry.closed_on is not None:
            days = (entry.exit_recorded_on - entry.closed_on).days
            self.timeliness[(hud_timeliness_band(days), "exit")] += 1

    def opened(self, case_id: int, day: dt.date) -> None:
        """Count a person with no answers once the day her case opened is known (her annual
        assessment is counted from it; the rest of her answers as not collected)."""
        c = self._without.pop(case_id, None)
        if c is not None:
            self._person(c, self._blank, None, day)

    def finish(self) -> _HudTally:
        """Count the people with no answers whose opening day was not given."""
        for c in self._without.values():
            self._person(c, self._blank, None, self.period.start)
        self._without = {}
        return self

    def _person(self, c: CaseRow, a: dict[str, Any], start: dt.date | None, began: dt.date) -> None:
        """Count one person: her answers ``a``, the day her episode of support began (``start``,
        None when she has no answers) and the day her annual assessments count from."""
        self.people += 1
        self.began[c.pk] = began
        self.household_of[c.pk] = hud_household_type(a["household_type"])
        self.prior_living[a["prior_living"]] += 1
        self._youth = youth = c.pk in self.youth_cases
        if youth:
            self.youth_living[a["prior_living"]] += 1
        self.dv_history[hud_row(a["dv_history"], ("yes", "no"))] += 1
        chronic = hud.chronically_homeless(a, start if start is not None else self.period.start)
        self._chronic = chronic == "yes"
        if self._chronic:
            self.chronic_cases.add(c.pk)
        self.chronic_households[(chronic, self.household_of[c.pk])] += 1
        if a["dv_history"] == "yes":
            when = hud_row(a["dv_when"], HUD_DV_WHEN_CODES)
            self.dv_when[(when, hud_row(a["dv_fleeing"], ("yes", "no")))] += 1
        self._assessment("start", a, "")
        rows, count = _conditions(a.get("conditions_any"), a.get("conditions"))
        self._conditions_of("start", rows, count)
        since = hud.date_of(a.get("homeless_since"))
        moved = _moved_in(a, self.period) if self.permanent else None
        if moved is not None:
            self.moved_on[c.pk] = moved
        housed_on = moved if self.permanent else start
        prior: int | None = None
        if self.permanent and housed_on is None:
            band = "not_yet"
        elif since is None or housed_on is None or since > housed_on:
            # A homelessness begun after the day of housing is a mistake: not collected.
            band = "dnc"
        else:
            prior = (housed_on - since).days
            band = hud_prior_days_band(prior)
        self.prior_days[band] += 1
        if youth:
            self.youth_prior_days[band] += 1
        if self.housing:
            self.to_housing.append((c.pk, prior))
        if moved is not None and start is not None:
            self.moved_leavers += c.left
            if youth:
                self.youth_moves["moved_leavers"] += c.left
            if moved >= self.period.start:  # Q22c: the moves into housing in the period
                days = max((moved - start).days, 0)
                self.move_in[hud_move_in_band(days)] += 1
                self.move_in_days += days
                self.moved += 1
                self.to_move_in.append((c.pk, days))
                if youth:
                    self.youth_moves.update((hud_move_in_band(days), "moved"))
                    self.youth_moves["days"] += days
        elif self.permanent and c.left:
            self.left_without += 1
            self.to_move_in.append((c.pk, None))
            if youth:
                self.youth_moves["left_without"] += 1
        if self.chronic_row is not None:
            self._chronic_missing(a, began)
        answer = a["veteran"]
        if answer == "yes":
            self.veteran_cases.add(c.pk)
            self.veteran["chronic_veteran" if chronic == "yes" else "veteran"] += 1
        else:
            self.veteran["no" if answer == "no" else hud_row(answer)] += 1
        if c.left:
            self.leavers += 1
            self.destination[a["destination"]] += 1
            subsidy = ""
            if a["destination"] == "rental_subsidy":
                subsidy = hud_row(a["destination_subsidy"], HUD_SUBSIDY_CODES)
                self.subsidy[subsidy] += 1
            self.exits[c.pk] = (a["destination"], subsidy)
            self._assessment("exit", a, "exit_")
            self._income_change("exit", a, a, "exit_")
            rows, count = _conditions(a.get("exit_conditions_any"), a.get("exit_conditions"))
            self._conditions_of("exit", rows, count)
            column = hud_disabling(a)
            for row in hud_income_rows(a, "exit_"):
                self.disabling[(row, column)] += 1
                if youth:
                    self.youth_disabling[(row, column)] += 1
            return
        self.stayers += 1
        # Her annual assessment, from the day her episode of support began (the day her case
        # opened when she has no answers at all).
        recorded = hud.assessments(a)  # read once for both
        kind, assessed = hud.annual_assessment(a, began, self.period.end, recorded=recorded)
        if assessed is None:
            self.not_assessed[kind] += 1
            if self._chronic:
                self.chronic_category["annual"][kind] += 1
            if youth:
                self.youth_category["annual"][kind] += 1
            self.covered["annual"][kind] += 1
        else:
            self._assessment("annual", assessed, "annual_")
            self._income_change("annual", a, assessed, "annual_")
        # Her conditions as last recorded by the period's end: at her latest annual assessment
        # then (the last made by then, oldest first), or else at entry (caseflow records no
        # updates between them).
        made = next((x for x in reversed(recorded) if x["annual_on"] <= self.end), None)
        if made is None:
            rows, count = _conditions(a.get("conditions_any"), a.get("conditions"))
        else:
            rows, count = _conditions(made["annual_conditions_any"], made["annual_conditions"])
        self._conditions_of("stayers", rows, count)

    def _income_change(
        self, column: str, start: dict[str, Any], later: dict[str, Any], prefix: str
    ) -> None:
        """Q19a1 or Q19a2 (``column``): the person's income at start (her ``start`` answers)
        against her income then (``later``, the answers with ``prefix``), when both are
        known (:func:`hud.income_amounts`): for each kind of income, her column of
        :data:`HUD_INCOME_CHANGE_COLUMNS` and the change in dollars."""
        before = hud.income_amounts(start, "")
        after = hud.income_amounts(later, prefix)
        if before is None or after is None:
            return
        if self._chronic:
            self.income_known[("chronic", column)] += 1
        if self._youth:
            self.income_known[("youth", column)] += 1
        counts = self.income_change[column]
        dollars = self.income_change_dollars[column]
        held = zip(_income_held(start, ""), _income_held(later, prefix), strict=True)
        for (row, _l, _w), (had, has), was, now in zip(
            HUD_INCOME_CHANGE_ROWS, held, before, after, strict=True
        ):
            if had and has:
                kind = "less" if now < was else "more" if now > was else "same"
            else:
                kind = "lost" if had else "gained" if has else "neither"
            counts[(row, kind)] += 1
            dollars[(row, kind)] = dollars.get((row, kind), Decimal(0)) + (now - was)

    def _conditions_of(self, column: str, rows: set[str], count: str) -> None:
        """Count the person's conditions (Q13's ``rows`` and how many, ``count``) in
        ``column``, and among the chronically homeless's (Q26e) when she is one."""
        _each(self.conditions[column], rows)
        self.condition_count[column][count] += 1
        if self._chronic:
            _each(self.chronic_conditions[column], rows)

    def _chronic_missing(self, a: dict[str, Any], began: dt.date) -> None:
        """Q6d: a person whose support began on ``began``, by the answers at entry she lacks."""
        if began < HUD_CHRONIC_DQ_SINCE:
            self.chronic_missing["before"] += 1
            return
        missing = hud_chronic_missing(a, everyone=self.chronic_row == HUD_CHRONIC_DQ_ROWS[0][0])
        self.chronic_missing["records"] += 1
        _each(self.chronic_missing, missing)
        if missing:
            self.chronic_missing["unable"] += 1

    def _assessment(self, column: str, a: dict[str, Any], prefix: str) -> None:
        """Income, benefits and insurance at start, at the annual assessment or at exit
        (:func:`hud_income_band`, :func:`hud_income_category`, :func:`hud_benefit_count`)."""
        k = _ASSESSED[prefix]
        answer = a[k.income_any]
        self.income[column][hud_income_band(answer, a[k.income_amount])] += 1
        if answer == "yes":
            given = set(a[k.income_sources] or [])
            _each(self.sources[column], given)
            if self._chronic:
                _each(self.chronic_sources[column], given)
            if self._youth:
                _each(self.youth_sources[column], given)
            kind = _income_kinds(given)
        else:
            kind = "none" if answer == "no" else hud_row(answer)
            if kind == HUD_DNC[0]:
                self.income_not_collected[column] += 1
        self.category[column][kind] += 1
        if self._chronic:
            self.chronic_category[column][kind] += 1
        if self._youth:
            self.youth_category[column][kind] += 1
        answer = a[k.benefits_any]
        if answer == "yes":
            named = a[k.benefits_sources]
            _each(self.benefits[column], set(named or []))
            if self._chronic:
                _each(self.chronic_benefits[column], set(named or []))
            self.benefit_count[column]["some" if named else HUD_DNC[0]] += 1
        else:
            self.benefit_count[column]["none" if answer == "no" else hud_row(answer)] += 1
        answer = a[k.insurance_any]
        if answer == "yes":
            given = set(a[k.insurance_sources] or [])
            _each(self.insured[column], given)
            n = len(given)
            self.covered[column]["one" if n == 1 else "more" if n > 1 else "unlisted"] += 1
        else:
            self.covered[column]["none" if answer == "no" else hud_row(answer)] += 1


def _each(counter: Counter[str], items: Iterable[str]) -> None:
    """Count each of ``items`` once more (``Counter.update``, without its check, per call, of
    whether it was given a mapping)."""
    for item in items:
        counter[item] += 1


def hud_benefit_count(answers: dict[str, Any], prefix: str) -> str:
    """Q20b's row of a person: "none", "some", or "dk" or "dnc" ("yes" with none named is
    missing, as in Q18)."""
    answer = answers[f"{prefix}benefits_any"]
    if answer == "no":
        return "none"
    if answer != "yes":
        return hud_row(answer)
    return "some" if answers[f"{prefix}benefits_sources"] else HUD_DNC[0]


def _hud_questions(b: Builder, t: _HudTally) -> None:
    """The APR questions counted from HUD's entry and exit answers, for everyone counted (entry
    answers), the stayers (their annual assessment) and the leavers (exit answers), each
    person's answers read in one decryption and counted as they are read (:class:`_HudTally`)."""
    stayers = ("q5a:stayers", "Total")
    served = (SERVED[0], "Total")
    left = ("q5a:leavers", "Total")

    def living(key: str, title: str, code: str, values: Counter[Any], total: tuple[str, str]):
        known = {v for _g, _w, items in hud.LIVING_GROUPS for v, _l in items}
        # The living situation before (everyone's, the youth's); the others are destinations.
        prior = key in ("q15", "q27d")
        leaving = not prior
        known |= {v for v, _l in hud.EXIT_OTHER} if leaving else set()
        labels = {**HUD_LIVING_LABELS, **HUD_PRIOR_LIVING_LABELS} if prior else HUD_LIVING_LABELS
        groups = HUD_PRIOR_LIVING_GROUP_LABELS if prior else HUD_LIVING_GROUP_LABELS
        counts: Counter[str] = Counter()
        for v, n in values.items():
            counts[hud_row(v, known)] += n
        rows: list[Row] = []
        subtotals = []
        for group, _words, items in hud.LIVING_GROUPS:
            order = [v for v, _l in items]
            if prior:
                order = HUD_PRIOR_LIVING_ORDER.get(group, order)
            cells = [b.grid.cell(f"{key}:{v}", counts.get(v, 0)) for v in order]
            rows += [Row(labels[v], [c]) for v, c in zip(order, cells, strict=True)]
            sub = b.grid.cell(f"{key}:{group}", sum(b.grid.values[c] for c in cells))
            b.grid.sum(sub, cells)
            rows.append(Row(f"Subtotal - {groups[group]}", [sub]))
            subtotals.append(sub)
        others = [v for v, _l in hud.EXIT_OTHER] if leaving else []
        rest = [(v, HUD_LIVING_LABELS[v]) for v in others] + [HUD_DK, HUD_DNC]
        cells = [b.grid.cell(f"{key}:{v}", counts.get(v, 0)) for v, _l in rest]
        rows += [Row(label, [c]) for (_v, label), c in zip(rest, cells, strict=True)]
        t_ = b.grid.cell(total[0], values.total())
        b.grid.sum(t_, [*subtotals, *cells])
        rows.append(Row(total[1], [t_]))
        b.sections.append(Section(title, ["Total"], rows, code=code))
        step()

    living("q15", "Q15: Living Situation", "Q15", t.prior_living, served)
    b.breakdown(
        "q14a",
        "Q14a: Domestic Violence History",
        HUD_YES_NO,
        t.dv_history,
        total=served,
        column="Total",
        code="Q14a",
    )
    when: Counter[str] = Counter()
    for (row, _fleeing), n in t.dv_when.items():
        when[row] += n
    b.breakdown(
        "q14b",
        "Q14b: Most recent experience of domestic violence, sexual assault, dating violence, "
        "stalking, or human trafficking",
        HUD_DV_WHEN,
        when,
        total=("q14a:yes", "Total"),
        column="Total",
        code="Q14b",
    )
    living("q23c", "Q23c: Exit Destination", "Q23c", t.destination, ("q5a:leavers", "TOTAL"))
    g = b.grid

    def group_left(key: str, code: str, group: str, destinations: Counter[Any], *within: str):
        """A group's people who left, by destination (Q23c's rows, each count inside Q23c's, the
        rest never published); their total inside Q5a's leavers and each cell of ``within``
        (the group's people), each rest never published too."""
        total = f"{key}:total"
        living(key, f"{code}: Exit Destination - {group}", code, destinations, (total, "TOTAL"))
        rows = [k for k in g.keys if k.startswith(f"{key}:") and k != total]
        for k in rows:
            row = k[len(key) + 1 :]
            b.inside(g.keys[k], g.keys[f"q23c:{row}"], f"{key}:rest:{row}")
        b.inside(g.keys[total], g.keys["q5a:leavers"], f"{key}:rest:total")
        for whole in within:
            b.inside(g.keys[total], g.keys[whole], f"{key}:rest:stayers")

    # Q25i and Q25j: the veterans who left (their total inside Q5a's veterans, in
    # _veterans_and_chronic); Q27f1 and Q27f2: the youth who left, inside Q27a's youth.
    veterans, veterans_subsidies = t.exits_of(t.veteran_cases)
    group_left("q25i", "Q25i", "Veterans", veterans)
    _exit_subsidies(b, "q23d", "Q23d", "", t.subsidy, "q23c:rental_subsidy")
    _exit_subsidies(b, "q25j", "Q25j", "Veterans", veterans_subsidies, "q25i:rental_subsidy")
    # Q27d: the youth's living situations before, each count inside Q15's, their total Q27a's.
    living(
        "q27d", "Q27d: Living Situation - Youth", "Q27d", t.youth_living, (HUD_YOUTH_KEY, "Total")
    )
    for k in [k for k in g.keys if k.startswith("q27d:")]:
        b.inside(g.keys[k], g.keys[f"q15:{k[5:]}"], f"q27d:rest:{k[5:]}")
    youth, youth_subsidies = t.exits_of(t.youth_cases)
    group_left("q27f1", "Q27f1", "Youth", youth, HUD_YOUTH_KEY)
    _exit_subsidies(b, "q27f2", "Q27f2", "Youth", youth_subsidies, "q27f1:rental_subsidy")
    bands = [
        ("none", "No Income"),
        *((code, label) for code, label, _most in HUD_INCOME_BANDS),
        HUD_DK,
        HUD_DNC,
        *HUD_NOT_ASSESSED,
    ]
    _hud_columns(
        b,
        "q16",
        "Q16: Cash Income - Ranges",
        "Q16",
        bands,
        [
            ("start", "Income at Start", t.income["start"], (SERVED[0], "Total Adults")),
            (
                "annual",
                "Income at Latest Annual Assessment for Stayers",
                t.not_assessed + t.income["annual"],
                stayers,
            ),
            ("exit", "Income at Exit for Leavers", t.income["exit"], left),
        ],
    )
    _hud_columns(
        b,
        "q17",
        "Q17: Cash Income - Sources",
        "Q17",
        list(HUD_INCOME_SOURCES.items()),
        [
            ("start", "Income at Start", t.sources["start"], None),
            (
                "annual",
                "Income at Latest Annual Assessment for Stayers",
                t.sources["annual"],
                None,
            ),
            ("exit", "Income at Exit for Leavers", t.sources["exit"], None),
        ],
        note=_("One person may have several sources, so there is no total."),
    )
    _income_categories(b, t)
    _earned_once(b, "q17", "q18")
    q18 = b.sections[-1]
    q18.rows.append(
        Row(
            "Adults with Income Information at Start and Annual Assessment/Exit",
            _income_change(b, t),
            blank=(0,),
        )
    )
    _disabling_and_income(b, t)
    _hud_columns(
        b,
        "q20a",
        "Q20a: Type of Non-Cash Benefit Sources",
        "Q20a",
        list(HUD_BENEFITS.items()),
        [
            ("start", "Benefit at Start", t.benefits["start"], None),
            (
                "annual",
                "Benefit at Latest Annual Assessment for Stayers",
                t.benefits["annual"],
                None,
            ),
            ("exit", "Benefit at Exit for Leavers", t.benefits["exit"], None),
        ],
        note=_("One person may have several benefits, so there is no total."),
    )
    _hud_columns(
        b,
        "q20b",
        "Q20b: Number of Non-Cash Benefit Sources",
        "Q20b",
        HUD_BENEFIT_COUNTS,
        [
            ("start", "Benefit at Start", t.benefit_count["start"], served),
            (
                "annual",
                "Benefit at Latest Annual Assessment for Stayers",
                # Those not assessed are "not stayed long enough" or not collected: one row.
                Counter({HUD_DNC[0]: t.not_assessed.total()}) + t.benefit_count["annual"],
                stayers,
            ),
            ("exit", "Benefit at Exit for Leavers", t.benefit_count["exit"], left),
        ],
    )
    _hud_columns(
        b,
        "q21",
        "Q21: Health Insurance",
        "Q21",
        list(HUD_INSURANCE.items()),
        [
            ("start", "At Start", t.insured["start"], None),
            ("annual", "At Annual Assessment for Stayers", t.insured["annual"], None),
            ("exit", "At Exit for Leavers", t.insured["exit"], None),
        ],
    )
    # The people by how many sources cover them: a partition of everyone counted (at start) and
    # of the leavers (at exit), each tied to its total through an unpublished cell (said to be
    # insured, no source ticked).
    # HUD's rows in HUD's order, then one of caseflow's own: the stayers without the annual
    # assessment they needed (HUD counts them as not collected).
    partition = [
        ("none", "No Health Insurance"),
        HUD_DK,
        HUD_DNC,
        ("not_required", "Number of Stayers not yet Required To Have an Annual Assessment"),
        ("one", "1 Source of Health Insurance"),
        ("more", "More than 1 Source of Health Insurance"),
        ("missing", "Number of Stayers Without Required Annual Assessment"),
    ]
    columns = []
    for column, total, count in (
        ("start", SERVED[0], t.people),
        ("annual", stayers[0], t.stayers),
        ("exit", left[0], t.leavers),
    ):
        covered = t.covered[column]
        cells = [b.grid.cell(f"q21:{v}:{column}", covered.get(v, 0)) for v, _l in partition]
        unlisted = b.grid.cell(f"q21:unlisted:{column}", covered.get("unlisted", 0))
        b.atoms.add(unlisted)
        b.grid.sum(b.grid.cell(total, count), [*cells, unlisted])
        columns.append(cells)
    b.sections[-1].rows += [
        Row(label, [col[i] for col in columns]) for i, (_v, label) in enumerate(partition)
    ]
    _not_assessed_once(b)
    _no_income_inside(b)  # Q18's inside Q16's
    _not_collected_inside(b, t)  # Q16's and Q18's, each around the same people
    _income_change_inside(b)  # Q19a's inside Q18's
    _answers_inside_any(b)  # Q20a's and Q21's each inside those with any
    _hud_columns(
        b,
        "q13a1",
        "Q13a1: Physical and Mental Health Conditions at Start",
        "Q13a1",
        HUD_CONDITIONS,
        [("total", "Total Persons", t.conditions["start"], None)],
        note=_("One person may have several conditions, so there is no total."),
    )
    b.breakdown(
        "q13a2",
        "Q13a2: Number of Conditions at Start",
        HUD_CONDITION_COUNTS,
        t.condition_count["start"],
        total=served,
        column="Total Persons",
        code="Q13a2",
    )
    _hud_columns(
        b,
        "q13b1",
        "Q13b1: Physical and Mental Health Conditions at Exit",
        "Q13b1",
        HUD_CONDITIONS,
        [("total", "Total Persons", t.conditions["exit"], None)],
        note=_("Leavers only. One person may have several conditions, so there is no total."),
    )
    b.breakdown(
        "q13b2",
        "Q13b2: Number of Conditions at Exit",
        HUD_CONDITION_COUNTS,
        t.condition_count["exit"],
        total=left,
        column="Total Persons",
        code="Q13b2",
    )
    # The stayers' conditions as last recorded by the period's end: at their latest annual
    # assessment then, or else at entry (caseflow records no updates between them).
    _hud_columns(
        b,
        "q13c1",
        "Q13c1: Physical and Mental Health Conditions for Stayers",
        "Q13c1",
        HUD_CONDITIONS,
        [("total", "Total Persons", t.conditions["stayers"], None)],
        note=_(
            "Stayers only, as last recorded: at their latest annual assessment, or at entry. "
            "One person may have several conditions, so there is no total."
        ),
    )
    b.breakdown(
        "q13c2",
        "Q13c2: Number of Conditions for Stayers",
        HUD_CONDITION_COUNTS,
        t.condition_count["stayers"],
        total=stayers,
        column="Total Persons",
        code="Q13c2",
    )
    _conditions_inside_any(b)
    if t.permanent:
        _time_to_move_in(b, t)
    if t.housing:
        _time_prior_to_housing(b, t.prior_days, t.people, permanent=t.permanent)
        # Q27l: the youth's, each count inside Q22e's, its total Q27a's youth.
        _time_prior_to_housing(
            b,
            t.youth_prior_days,
            len(t.youth_cases),
            permanent=t.permanent,
            key="q27l",
            title="Q27l: Length of Time Prior to Housing - based on 3.917 Date Homelessness "
            "Started - Youth",
            total=HUD_YOUTH_KEY,
        )
        g = b.grid
        for k in [k for k in g.keys if k.startswith("q27l:")]:
            b.inside(g.keys[k], g.keys[f"q22e:{k[5:]}"], f"q27l:rest:{k[5:]}")
    if t.permanent:
        _days_by_race(
            b,
            "q22f",
            "Q22f: Length of Time between Project Start Date and Housing Move-in Date by Race "
            "and Ethnicity",
            t.to_move_in,
            t.races,
            everyone=False,
            note=_(
                "Q22c's people: those who moved into housing in the period, by the days from "
                "the start of support, and the leavers who left without moving in. Each "
                "average and median is shown only where its column's count of people who moved "
                "in is, and is at least the threshold."
            ),
        )
    if t.housing:
        _days_by_race(
            b,
            "q22g",
            "Q22g: Length of Time Prior to Housing by Race and Ethnicity - based on 3.917 Date "
            "Homelessness Started",
            t.to_housing,
            t.races,
            everyone=True,
            note=_(
                "Q22e's people: those housed, by the days from the day their homelessness "
                "began, and in the second row everyone else (not yet moved into housing, or "
                "the day their homelessness began not known). Each average and median is shown "
                "only where its column's count of people housed is, and is at least the "
                "threshold."
            ),
        )
    _veterans_and_chronic(b, t.veteran, t.chronic)
    _inside_disabling(b)
    _chronic_persons(b, t)
    _youth_income(b, t)
    if t.permanent:
        _youth_move_in(b, t)  # Q22c's and Q27h's


#: Q20b's rows: the people by whether they have non-cash benefits ("yes" with none named is
#: missing, as in Q18).
HUD_BENEFIT_COUNTS = [
    ("none", "No Sources"),
    ("some", "1 + Source(s)"),
    HUD_DK,
    ("dnc", "Data Not Collected/Not stayed long enough for Annual Assessment"),
]
#: Q23d's rows: the rental subsidy of the leavers who went to rent with one (3.12A).
HUD_SUBSIDY_LABELS = {
    "gpd_tip": "GPD TIP housing subsidy",
    "vash": "VASH housing subsidy",
    "rrh": "RRH or equivalent subsidy",
    "hcv": "HCV voucher (tenant or project based) (not dedicated)",
    "public_housing": "Public housing unit",
    "other_ongoing": "Rental by client, with other ongoing housing subsidy",
    "stability_voucher": "Housing Stability Voucher",
    "fup": "Family Unification Program Voucher (FUP)",
    "fyi": "Foster Youth to Independence Initiative (FYI)",
    "psh": "Permanent Supportive Housing",
    "other_dedicated": "Other permanent housing dedicated for formerly homeless persons",
}
HUD_SUBSIDY_CODES = frozenset(code for code, _l in hud.SUBSIDIES)
#: Q25a's rows: the people by veteran status, veterans by whether they were chronically
#: homeless.
HUD_VETERANS = [
    ("chronic_veteran", "Chronically Homeless Veteran"),
    ("veteran", "Non-Chronically Homeless Veteran"),
    ("no", "Not a Veteran"),
    HUD_DK,
    HUD_DNC,
]
HUD_CHRONIC = [
    ("yes", "Chronically Homeless"),
    ("no", "Not Chronically Homeless"),
    HUD_DK,
    HUD_DNC,
]


#: Q23d's rows, and Q25j's and Q27f2's.
HUD_SUBSIDY_ROWS = [*HUD_SUBSIDY_LABELS.items(), HUD_DK, HUD_DNC]


def _exit_subsidies(
    b: Builder, key: str, code: str, group: str, subsidies: Counter[str], total: str
) -> None:
    """Q23d: the subsidy of the leavers who went to rent with one (its total is Q23c's row
    ``total``); with a ``group`` (Q25j the veterans, Q27f2 the youth), those of the group, each
    count inside Q23d's of its row (the rest never published), its total the group's row of
    Q25i or Q27f1 (the same cell)."""
    title = (
        f"{code}: Exit Destination \u2013 Subsidy Type of Persons Exiting to Rental by Client "
        "With An Ongoing Subsidy"
    )
    b.breakdown(
        key,
        f"{title} - {group}" if group else title,
        HUD_SUBSIDY_ROWS,
        subsidies,
        total=(total, "Total"),
        column="Total",
        code=code,
    )
    if group:
        g = b.grid
        for row, _label in HUD_SUBSIDY_ROWS:
            b.inside(g.keys[f"{key}:{row}"], g.keys[f"q23d:{row}"], f"{key}:rest:{row}")


#: Q22e's bands of the days from the day homelessness began to housing, each the most days it
#: holds.
HUD_PRIOR_DAYS = [
    ("7", "7 days or less", 7),
    ("14", "8 to 14 days", 14),
    ("21", "15 to 21 days", 21),
    ("30", "22 to 30 days", 30),
    ("60", "31 to 60 days", 60),
    ("90", "61 to 90 days", 90),
    ("180", "91 to 180 days", 180),
    ("365", "181 to 365 days", 365),
    ("730", "366 to 730 days (1-2 Yrs)", 730),
    ("more", "731 days or more", None),
]


def hud_prior_days_band(days: int) -> str:
    """The Q22e band of ``days`` days from the day homelessness began to housing."""
    return hud_band(HUD_PRIOR_DAYS, days)


def _moved_in(answers: dict[str, Any], period: Period) -> dt.date | None:
    """The day a person moved into housing (3.20), when it is by the period's end."""
    moved = hud.date_of(answers.get("move_in_on"))
    return moved if moved is not None and moved <= period.end else None


def _time_prior_to_housing(
    b: Builder,
    counts: Counter[str],
    people: int,
    *,
    permanent: bool = False,
    key: str = "q22e",
    title: str = "Q22e: Length of Time Prior to Housing - based on 3.917 Date Homelessness Started",
    total: str = SERVED[0],
) -> None:
    """Q22e: everyone counted by the days from the day their homelessness began (3.917) to
    HUD's day of housing: the start of support for a project that is not permanent housing, the
    day they moved in for one that is ("not yet moved into housing" until then); without the day
    homelessness began, "Data Not Collected". Its total is the people served (Q27l, the youth's:
    ``total``, Q27a's youth)."""
    g = b.grid
    bands = [g.cell(f"{key}:{code}", counts.get(code, 0)) for code, _l, _m in HUD_PRIOR_DAYS]
    housed = g.cell(f"{key}:housed", sum(g.values[c] for c in bands))
    g.sum(housed, bands)
    not_yet = g.cell(f"{key}:not_yet", counts.get("not_yet", 0))
    missing = g.cell(f"{key}:dnc", counts.get("dnc", 0))
    g.sum(g.cell(total, people), [housed, not_yet, missing])
    rows = [Row(label, [c]) for (_code, label, _m), c in zip(HUD_PRIOR_DAYS, bands, strict=True)]
    rows += [
        Row("Total (persons moved into housing)", [housed]),
        Row("Not yet moved into housing", [not_yet]),
        Row("Data not collected", [missing]),
        Row("Total persons", [g.keys[total]]),
    ]
    b.sections.append(
        Section(
            title,
            ["Total"],
            rows,
            code=title.partition(":")[0],
            note=""
            if permanent
            else _(
                "Support that is not permanent housing houses on its first day: no one is "
                "waiting to move in."
            ),
        )
    )
    step()


#: Q22c's bands of the days from the start of support to moving into housing: Q22e's (the
#: last holds the rest, so that the total is everyone who moved in).
HUD_MOVE_IN_DAYS = HUD_PRIOR_DAYS


def hud_move_in_band(days: int) -> str:
    """The Q22c band of ``days`` from the start of support to moving in."""
    return hud_band(HUD_MOVE_IN_DAYS, days)


def _move_in_cells(
    b: Builder,
    key: str,
    moves: Mapping[str, int],
    days: int,
    moved_leavers: int,
    people: int,
    *,
    leavers: str,
    total: str,
) -> list[int]:
    """Q22c's cells (Q27k's, the youth's: ``key``): the people who moved into housing in the
    period by the days from the start of support (``moves`` by band, with ``"moved"`` and
    ``"left_without"``), their average of ``days``, the leavers who left without moving in and
    both together. Tied to ``leavers`` and ``total`` (Q5a's leavers and the people served, or
    the youth's) through the people no row shows, never published: the leavers who moved in
    before leaving, and everyone else of ``people`` (the stayers who have not moved in yet, and
    those who moved in before the period). The rows' cells, in order."""
    g = b.grid
    bands = [g.cell(f"{key}:{code}", moves.get(code, 0)) for code, _l, _m in HUD_MOVE_IN_DAYS]
    moved = moves.get("moved", 0)
    moved_in = g.cell(f"{key}:moved", moved)
    g.sum(moved_in, bands)
    average = g.cell(f"{key}:average", _average_of(moved, days))
    b.about[average] = moved_in
    without = g.cell(f"{key}:left_without", moves.get("left_without", 0))
    everyone = g.cell(f"{key}:total", moved + g.values[without])
    g.sum(everyone, [moved_in, without])
    moved_left = g.cell(f"{key}:moved_leavers", moved_leavers)
    waiting = g.cell(f"{key}:stayers_waiting", people - g.values[everyone])
    b.atoms.update((moved_left, waiting))
    g.sum(g.keys[leavers], [without, moved_left])
    g.sum(g.keys[total], [everyone, waiting])
    return [*bands, moved_in, average, without, everyone]


def _move_in_section(b: Builder, title: str, cells: list[int]) -> None:
    """Q22c's table (or Q27k's) of :func:`_move_in_cells`'s cells."""
    bands, (moved_in, average, without, everyone) = cells[:-4], cells[-4:]
    rows = [Row(label, [c]) for (_c, label, _m), c in zip(HUD_MOVE_IN_DAYS, bands, strict=True)]
    rows += [
        Row("Total (persons moved into housing)", [moved_in]),
        Row("Average length of time to housing", [average]),
        Row("Persons who were exited without move-in", [without]),
        Row("Total persons", [everyone]),
    ]
    b.sections.append(
        Section(
            title,
            ["Total"],
            rows,
            code=title.partition(":")[0],
            has_total=False,
            note=_(
                "The average is shown only where the count of people who moved in is, and is "
                "at least the threshold."
            ),
        )
    )
    step()


def _time_to_move_in(b: Builder, t: _HudTally) -> None:
    """Q22c (permanent housing projects): the people who moved into housing in the period, by
    the days from the start of support to the day they moved in, with their average (published
    only with their count, as Q22b's figures); the leavers who left without moving in; and both
    together."""
    moves = {**t.move_in, "moved": t.moved, "left_without": t.left_without}
    cells = _move_in_cells(
        b,
        "q22c",
        moves,
        t.move_in_days,
        t.moved_leavers,
        t.people,
        leavers="q5a:leavers",
        total=SERVED[0],
    )
    _move_in_section(
        b, "Q22c: Length of Time between Project Start Date and Housing Move-in Date", cells
    )


def _youth_move_in(b: Builder, t: _HudTally) -> None:
    """Q27k (permanent housing projects): the youth, as Q22c counts everyone; each count inside
    Q22c's (the rest never published), tied to Q27h's youth who left and to Q27a's youth as
    Q22c's are to Q5a's. Their average is published only with their count, and withheld while
    it and Q22c's would tell the others' (their average a figure never published)."""
    g = b.grid
    moves = t.youth_moves
    cells = _move_in_cells(
        b,
        "q27k",
        moves,
        moves["days"],
        moves["moved_leavers"],
        len(t.youth_cases),
        leavers="q27h:leavers",
        total=HUD_YOUTH_KEY,
    )
    for code in [*(c for c, _l, _m in HUD_MOVE_IN_DAYS), "moved", "left_without", "total"]:
        b.inside(g.keys[f"q27k:{code}"], g.keys[f"q22c:{code}"], f"q27k:rest:{code}")
    others_moved = t.moved - moves["moved"]
    others = g.cell(
        "q27k:average:rest",
        _average_of(others_moved, t.move_in_days - moves["days"]),
    )
    b.about[others] = g.keys["q27k:rest:moved"]
    b.shares.append((g.keys["q22c:average"], [cells[-3], others]))
    _move_in_section(
        b,
        "Q27k: Length of Time between Project Start Date and Housing Move-in Date - Youth",
        cells,
    )


#: Q22f's and Q22g's columns after the total: Q12's groups of answers, "Multiracial" standing
#: for HUD's two columns of combinations as in Q12 (caseflow records one answer a person), and
#: HUD's one column of the answers not known.
HUD_RACE_COLUMNS = [
    *((key, HUD_RACE_LABELS[key]) for key in HUD_RACE if key not in ("dk", "dnc")),
    ("unknown", "Unknown (Doesn't Know, Prefers not to Answer, Data not Collected)"),
]
#: The column of each answer to the race question.
HUD_RACE_COLUMN = {
    answer: "unknown" if key in ("dk", "dnc") else key
    for key, members in HUD_RACE.items()
    for answer in members
}


def _days_by_race(
    b: Builder,
    key: str,
    title: str,
    people: Sequence[tuple[int, int | None]],
    races: dict[int, str],
    *,
    everyone: bool,
    note: str,
) -> None:
    """Q22f (Q22c's people) and Q22g (Q22e's) by race and ethnicity: in each column, the
    people with days (who moved in; who were housed), the others (who left without moving in;
    everyone else), and the average and median of the days, each published only with its
    column's first count (:attr:`FunderReport.about`, and :attr:`FunderReport.shares` for the
    averages). The total column is Q22c's (or Q22e's) cells; each race column is tied to
    Q12's row: exactly for Q22g, whose people are everyone served, and for Q22f through the
    people of that row it does not count (never published)."""
    g = b.grid
    days: dict[str, list[int]] = {column: [] for column, _l in HUD_RACE_COLUMNS}
    others: Counter[str] = Counter()
    for case_id, n in people:
        column = HUD_RACE_COLUMN.get(races.get(case_id, NOT_ASKED), "unknown")
        if n is None:
            others[column] += 1
        else:
            days[column].append(n)
    everyone_days = [n for _case, n in people if n is not None]
    if everyone:  # Q22g: Q22e's people housed, and the rest of Q22e's people
        moved_total = g.keys["q22e:housed"]
        rest = g.values[g.keys[SERVED[0]]] - g.values[moved_total]
        other_total = g.cell(f"{key}:other:total", rest)
        whole = g.keys[SERVED[0]]
        g.sum(whole, [moved_total, other_total], link=True)
        average_key = f"{key}:average:total"
    else:  # Q22f: Q22c's cells
        moved_total, other_total = g.keys["q22c:moved"], g.keys["q22c:left_without"]
        whole = g.keys["q22c:total"]
        average_key = "q22c:average"
    if g.values[moved_total] != len(everyone_days) or g.values[other_total] != sum(others.values()):
        raise ValueError(f"{key}'s people are not its total's")
    average, median = _average_and_median_of(everyone_days)
    rows: dict[str, list[int]] = {
        "moved": [moved_total],
        "other": [other_total],
        "average": [g.cell(average_key, average)],
        "median": [g.cell(f"{key}:median:total", median)],
    }
    # Q12's cell of each column (the unknown's: its two rows together, a cell never shown).
    q12 = next(s for s in b.sections if s.code == "Q12")
    served = {k: row.cells[0] for k, row in zip(HUD_RACE, q12.rows, strict=False)}
    unknown = "hud:race_unknown"
    if unknown not in g.keys:
        parts = [served["dk"], served["dnc"]]
        g.sum(g.cell(unknown, sum(g.values[c] for c in parts)), parts, link=True)
        b.atoms.add(g.keys[unknown])
    served["unknown"] = g.keys[unknown]
    for column, _label in HUD_RACE_COLUMNS:
        moved = g.cell(f"{key}:moved:{column}", len(days[column]))
        other = g.cell(f"{key}:other:{column}", others[column])
        average, median = _average_and_median_of(days[column])
        rows["moved"].append(moved)
        rows["other"].append(other)
        for name, value in (("average", average), ("median", median)):
            rows[name].append(g.cell(f"{key}:{name}:{column}", value))
        members = [moved, other]
        if not everyone:
            # The people of Q12's row Q22f does not count: never published.
            rest = g.values[served[column]] - g.values[moved] - g.values[other]
            members.append(g.cell(f"{key}:rest:{column}", rest))
            b.atoms.add(members[-1])
        g.sum(served[column], members, link=True)
    g.sum(moved_total, rows["moved"][1:], link=True)
    g.sum(other_total, rows["other"][1:], link=True)
    if everyone:
        # Q22g's second total is a cell of its own, the people served less those housed. The
        # same sums again, each row's total beside the other row's columns: nothing more is
        # known, but Q22e's people housed, exposed through it, now have its columns as
        # neighbours, where suppression looks for a complement first (without them, on
        # tests/reporting/test_hud_cells.py's population, it hid zeros one by one and then
        # the people served and much else).
        g.sum(whole, [moved_total, *rows["other"][1:]], link=True)
        g.sum(whole, [other_total, *rows["moved"][1:]], link=True)
    for name in ("average", "median"):
        for figure, group in zip(rows[name], rows["moved"], strict=True):
            b.about[figure] = group
    b.shares.append((rows["average"][0], rows["average"][1:]))
    labels = [
        ("moved", "Persons Moved into housing"),
        ("other", "Persons who were exited without move-in"),
        ("average", "Average time to Move-In"),
        ("median", "Median time to Move-In"),
    ]
    b.sections.append(
        Section(
            title,
            ["Total", *(label for _c, label in HUD_RACE_COLUMNS)],
            [Row(label, rows[name]) for name, label in labels],
            code=key.capitalize(),
            has_total=False,
            note=note,
        )
    )
    step()


def _veterans_and_chronic(b: Builder, veterans: Counter[str], chronic: Counter[str]) -> None:
    """Q25a, everyone counted by veteran status, and Q26b, everyone by whether they were
    chronically homeless at the start of support (each adds up to the people served), and Q5a's
    rows of veterans and of chronically homeless persons (the same cells)."""
    b.breakdown(
        "q25a",
        "Q25a: Number of Veterans",
        HUD_VETERANS,
        veterans,
        total=(SERVED[0], "Total"),
        column="Total",
        code="Q25a",
    )
    b.breakdown(
        "q26b",
        "Q26b: Number of Chronically Homeless Persons by Household",
        HUD_CHRONIC,
        chronic,
        total=(SERVED[0], "Total"),
        column="Total",
        code="Q26b",
    )
    g = b.grid
    parts = [g.keys["q25a:chronic_veteran"], g.keys["q25a:veteran"]]
    served_veterans = g.cell("q5a:veterans", sum(g.values[c] for c in parts))
    g.sum(served_veterans, parts)
    # The veterans who left (Q25i's total) are some of them: the rest, who stay, never published.
    left = g.keys["q25i:total"]
    b.inside(left, served_veterans, "q25i:rest:stayers")
    q5a = next(s for s in b.sections if s.code == "Q5a")
    q5a.rows += [
        Row("Number of veterans", [served_veterans]),
        Row("Number of chronically homeless persons", [g.keys["q26b:yes"]]),
    ]


def _inside_disabling(b: Builder) -> None:
    """The disabling condition (3.08), whose answer files everyone in Q13a2, files the
    leavers again in Q19b's columns and decides Q26b's chronic homelessness, which needs one:
    who said she has none is not chronically homeless, and whose answer is "doesn't know",
    "prefers not to answer" or not collected is in the same row of Q26b. So Q13a2's "None",
    "doesn't know" and "not collected" are some of Q26b's "No", "doesn't know" and "not
    collected"; Q25a's chronically homeless veterans some of Q26b's chronically homeless; and
    Q19b's leavers with a disabling condition, without one and whose answer is not known some
    of Q13a2's with one or more conditions (a condition not named among them), "None", and
    "doesn't know" and "not collected". Each rest (those with a disabling condition, those not
    veterans, the stayers) is a count never published, tied, so that a reader who subtracts
    does not learn a small one; Q13a2's rows added up are never published either."""
    g = b.grid
    for row, status in (("none", "no"), (HUD_DK[0], HUD_DK[0]), (HUD_DNC[0], HUD_DNC[0])):
        b.inside(g.keys[f"q13a2:{row}"], g.keys[f"q26b:{status}"], f"q26b:{status}:not_q13a2")
    b.inside(g.keys["q25a:chronic_veteran"], g.keys["q26b:yes"], "q26b:yes:not_veteran")
    for column, rows in (
        ("with", ("1", "2", "3", "unknown")),
        ("without", ("none",)),
        ("unknown", (HUD_DK[0], HUD_DNC[0])),
    ):
        leavers = g.keys.get(f"q19b:total:{column}")
        if leavers is None:  # no leaver's answer is unknown: no cell
            continue
        whole = _added_up(b, [g.keys[f"q13a2:{row}"] for row in rows], f"q13a2:q19b_{column}")
        b.inside(leavers, whole, f"q13a2:q19b_{column}:stayers")


def _chronic_persons(b: Builder, t: _HudTally) -> None:
    """Q26e, Q26g and Q26h: the conditions, the sources of income and the non-cash benefits of
    the chronically homeless persons (Q26b's first row), each column those of the question
    that counts everyone (Q13a1, Q13c1 and Q13b1; Q17; Q20a), of which each count is a part."""
    _hud_parts(
        b,
        "q26e",
        "Q26e: Physical and Mental Health Conditions - Chronically Homeless Persons",
        "Q26e",
        HUD_CONDITIONS,
        [
            ("start", "Conditions At Start", t.chronic_conditions["start"], "q13a1:{}:total"),
            (
                "stayers",
                "Conditions at Latest Assessment for Stayers",
                t.chronic_conditions["stayers"],
                "q13c1:{}:total",
            ),
            (
                "exit",
                "Conditions at Exit for Leavers",
                t.chronic_conditions["exit"],
                "q13b1:{}:total",
            ),
        ],
        note=_(
            "The chronically homeless persons' conditions, as Q13a1, Q13c1 and Q13b1 count "
            "everyone's. One person may have several conditions, so there is no total."
        ),
    )
    at = [
        ("start", "at Start"),
        ("annual", "at Latest Annual Assessment for Stayers"),
        ("exit", "at Exit for Leavers"),
    ]
    for code, title, rows, name, counts, whole, note in (
        (
            "Q26g",
            "Q26g: Type of Cash Income Sources - Chronically Homeless Persons",
            HUD_INCOME_SOURCES,
            "Income",
            t.chronic_sources,
            "q17",
            _(
                "The chronically homeless persons' sources of income, as Q17 counts "
                "everyone's. One person may have several sources, so there is no total."
            ),
        ),
        (
            "Q26h",
            "Q26h: Type of Non-Cash Benefit Sources - Chronically Homeless Persons",
            HUD_BENEFITS,
            "Benefit",
            t.chronic_benefits,
            "q20a",
            _(
                "The chronically homeless persons' non-cash benefits, as Q20a counts "
                "everyone's. One person may have several benefits, so there is no total."
            ),
        ),
    ):
        columns = [
            (column, f"{name} {when}", counts[column], f"{whole}:{{}}:{column}")
            for column, when in at
        ]
        _hud_parts(b, code.lower(), title, code, list(rows.items()), columns, note=note)
    _chronic_income_categories(b, t)


def _youth_income(b: Builder, t: _HudTally) -> None:
    """Q27g, Q27h and Q27i: the youth's sources of income (Q17's, each count a part of
    Q17's), kinds of income (Q18's, each a part of Q18's; its totals Q27a's youth and those of
    them who stay and who left, inside Q5a's stayers and leavers) and, for those who left,
    sources by disabling condition (Q19b's, each a part of Q19b's)."""
    at = [
        ("start", "Income at Start"),
        ("annual", "Income at Latest Annual Assessment for Stayers"),
        ("exit", "Income at Exit for Leavers"),
    ]
    _hud_parts(
        b,
        "q27g",
        "Q27g: Type of Cash Income Sources - Youth",
        "Q27g",
        list(HUD_INCOME_SOURCES.items()),
        [(c, when, t.youth_sources[c], f"q17:{{}}:{c}") for c, when in at],
        note=_(
            "The youth's sources of income, as Q17 counts everyone's. One person may have "
            "several sources, so there is no total."
        ),
    )
    _group_income_categories(
        b,
        "q27h",
        "Q27h: Client Cash Income Category - Earned/Other Income Category - by Start and "
        "Annual Assessment/Exit Status - Youth",
        t.youth_category,
        HUD_YOUTH_KEY,
        ("Youth", "youth stayers"),
        (t.income_known[("youth", "annual")], t.income_known[("youth", "exit")]),
    )
    _earned_once(b, "q27g", "q27h")
    # Q27f1's youth who left, by destination, are Q27h's youth who left (every leaver has a
    # destination, as Q23c's total is Q5a's leavers): the same people, tied.
    g = b.grid
    g.sum(g.keys["q27f1:total"], [g.keys["q27h:leavers"]], link=True)
    _disabling_by_income(
        b,
        "q27i",
        "Q27i: Disabling Conditions and Income for Youth at Exit",
        t.youth_disabling,
        {"none": "q27h:none:exit", "total": "q27h:leavers"},
        "q27g:{}:exit",
        HUD_YOUTH_DISABLING_ROWS,
        HUD_YOUTH_DISABLING_COLUMNS,
        within="q19b",
    )


def _chronic_income_categories(b: Builder, t: _HudTally) -> None:
    """Q26f: the chronically homeless persons at start, the stayers among them at their annual
    assessment and the leavers at exit, by the kinds of income they have (see
    :func:`_group_income_categories`); its total Q26b's chronically homeless."""
    name = "Chronically Homeless Persons"
    _group_income_categories(
        b,
        "q26f",
        "Q26f: Client Cash Income - Chronically Homeless Persons",
        t.chronic_category,
        "q26b:yes",
        (name, name),
        (t.income_known[("chronic", "annual")], t.income_known[("chronic", "exit")]),
    )
    _earned_once(b, "q26g", "q26f")


def _group_income_categories(
    b: Builder,
    key: str,
    title: str,
    counts: dict[str, Counter[str]],
    total: str,
    names: tuple[str, str],
    known: tuple[int, int],
) -> None:
    """A group's people (Q26f the chronically homeless's, Q27h the youth's) at start, the
    stayers among them at their annual assessment and the leavers at exit, by the kinds of
    income they have: Q18's rows and columns (its "Adults" and "adult stayers" the ``names``
    given), each count a part of Q18's. Its totals are the group's (``total``'s cell) and those
    of them who stay and who left (their sum), each inside Q5a's stayers and leavers (the rest
    never published); as in Q18, those with one source or more (a subtotal of the first three
    rows, tied to them); and, last, the stayers and the leavers among them whose income is
    known at start and then (``known``: Q19a1's and Q19a2's people), each inside those Q18
    prints and inside the group's stayers or leavers."""
    g = b.grid
    staying = g.cell(f"{key}:stayers", counts["annual"].total())
    leaving = g.cell(f"{key}:leavers", counts["exit"].total())
    g.sum(g.keys[total], [staying, leaving])
    for inner, outer in ((staying, "q5a:stayers"), (leaving, "q5a:leavers")):
        b.inside(inner, g.keys[outer], f"{key}:rest:{outer}")
    people, stayers = names
    rows = [
        (code, label.replace("adult stayers", stayers).replace("Adults", people))
        for code, label in [*HUD_INCOME_CATEGORIES, *HUD_NOT_ASSESSED]
    ]
    everyone = f"Total {people}"
    _hud_parts(
        b,
        key,
        title,
        title.partition(":")[0],
        rows,
        [
            (column, f"Number of {people} {when}", counts[column], f"q18:{{}}:{column}")
            for column, when in (
                ("start", "at Start"),
                ("annual", "at Annual Assessment (Stayers)"),
                ("exit", "at Exit (Leavers)"),
            )
        ],
        totals=[(total, everyone), (f"{key}:stayers", everyone), (f"{key}:leavers", everyone)],
    )
    _with_income(b, key)
    cells = []
    for column, count, group, whole in zip(
        ("annual", "exit"), known, (staying, leaving), ("q19a1:total", "q19a2:total"), strict=True
    ):
        cell = g.cell(f"{key}:known:{column}", count)
        b.inside(cell, g.keys[whole], f"{key}:rest:known:{column}")
        _inside_assessed(b, cell, group, key, column, f"{key}:rest:known:{column}:group")
        cells.append(cell)
    b.sections[-1].rows.append(
        Row(
            f"{people} with Income Information at Start and Annual Assessment/Exit",
            cells,
            blank=(0,),
        )
    )


#: Q25d's and Q26d's rows: Q11's bands (:data:`HUD_AGES`), its three of children as one, each
#: with the answers to the age question it holds.
HUD_GROUP_AGES = [
    (code, label, tuple(a for band in bands for a in HUD_AGES[band]))
    for code, label, bands in [
        ("0_17", "0 - 17", ("under_5", "5_12", "13_17")),
        ("18_24", "18 - 24", ("18_24",)),
        ("25_34", "25 - 34", ("25_34",)),
        ("35_44", "35 - 44", ("35_44",)),
        ("45_54", "45 - 54", ("45_54",)),
        ("55_64", "55 - 64", ("55_64",)),
        ("65_plus", "65+", ("65_plus",)),
        (*HUD_DK, ("dk",)),
        (*HUD_DNC, ("dnc",)),
    ]
]
#: Q25c's and Q26c's rows: Q10a's.
HUD_GROUP_GENDERS = [(code, HUD_GENDER_LABELS[code], given) for code, given in HUD_GENDERS.items()]


def _group_by(
    b: Builder,
    t: _HudTally,
    cases: Served,
    group: tuple[set[int], str],
    question: str,
    code: str,
    title: str,
    rows: Sequence[tuple[str, str, tuple[str, ...]]],
) -> None:
    """Q25c, Q25d, Q26c and Q26d: a group of the people counted (``group``: their cases and
    the key of the cell that counts them, Q5a's veterans or Q26b's chronically homeless, the
    same cell the section's total) by their answer to a demographic ``question``, in ``rows``
    (each with the answers it holds). Each count lies inside the people served with those
    answers (the band of them, the cell Q10a's or Q11's row is): the rest is a count too,
    never published, tied so that suppression keeps a small one from being worked out."""
    g = b.grid
    key = code.lower()
    members, counted = group
    row_of = {answer: row for row, _label, given in rows for answer in given}
    counts = Counter(
        row_of.get(t.group_answers.get(pk, {}).get(question, NOT_ASKED), HUD_DNC[0])
        for pk in members
    )
    answers = cases.answers(question)
    cells = []
    for row, _label, given in rows:
        part = g.cell(f"{key}:{row}", counts[row])
        whole = b.band(f"demo:{question}", f"served:{question}", given, answers)
        b.inside(part, whole, f"{key}:rest:{row}")
        cells.append(part)
    total = g.keys[counted]
    g.sum(total, cells)
    labels = [label for _row, label, _given in rows]
    b.sections.append(
        Section(
            title,
            ["Total"],
            [
                *(Row(label, [cell]) for label, cell in zip(labels, cells, strict=True)),
                Row("Total", [total]),
            ],
            code=code,
        )
    )
    step()


#: Q10d's age columns, each with the answers to the age question it holds.
HUD_GENDER_AGE_COLUMNS = [
    (code, label, tuple(a for band in bands for a in HUD_AGES[band]))
    for code, label, bands in [
        ("0_17", "Under Age 18", ("under_5", "5_12", "13_17")),
        ("18_24", "Age 18-24", ("18_24",)),
        ("25_64", "Age 25-64", ("25_34", "35_44", "45_54", "55_64")),
        ("65_plus", "Age 65 and over", ("65_plus",)),
        (*HUD_DK, ("dk",)),
        (*HUD_DNC, ("dnc",)),
    ]
]


def _gender_by_age(b: Builder, cases: Served) -> None:
    """Q10d: everyone served by gender (Q10a's rows, its counts the total column) and by age
    (Q11's bands in four ranges, their counts the total row). Each pair of answers people gave
    is a count of its own, never published, tied both to the count of that answer to the
    gender question and to the count of that answer to the age question; each printed cell
    adds up the pairs it holds. So no printed cell, subtracted from Q10a's, Q11's or another
    report's counts of either question, gives away a finer count that suppression did not see.

    A pair no one can have given (its gender or its age answered by no one) is a zero anyone
    reading Q10a and Q11 knows: it is in no sum, so that suppression never hides it to keep
    another count from being worked out (a zero that is known keeps nothing hidden)."""
    g = b.grid
    pairs = cases.pairs("gender_identity", "age_band")
    genders = cases.answers("gender_identity")
    ages = cases.answers("age_band")
    age_answers = [a for _code, _label, given in HUD_GENDER_AGE_COLUMNS for a in given]
    gender_answers = [a for given in HUD_GENDERS.values() for a in given]
    #: The pairs someone may have given (both answers given by someone), each its cell.
    atom: dict[tuple[str, str], int] = {}
    for gender in gender_answers:
        for age in age_answers:
            if genders[gender] and ages[age]:
                cell = g.cell(f"q10d:pair:{gender}:{age}", pairs[(gender, age)])
                b.atoms.add(cell)
                atom[(gender, age)] = cell
    for age in age_answers:
        parts = [atom[(gender, age)] for gender in gender_answers if (gender, age) in atom]
        if parts:
            g.sum(b.band("demo:age_band", "served:age_band", (age,), ages), parts)
    rows = []
    for code, given in HUD_GENDERS.items():
        whole = b.band("demo:gender_identity", "served:gender_identity", given, genders)
        held = [atom[p] for p in itertools.product(given, age_answers) if p in atom]
        if held:
            g.sum(whole, held)
        cells = []
        for column, _label, answers_held in HUD_GENDER_AGE_COLUMNS:
            parts = [atom[p] for p in itertools.product(given, answers_held) if p in atom]
            if len(parts) == 1:
                cells.append(parts[0])
                continue
            cell = g.cell(f"q10d:{code}:{column}", sum(g.values[c] for c in parts))
            if parts:
                g.sum(cell, parts)
            cells.append(cell)
        rows.append(Row(HUD_GENDER_LABELS[code], [whole, *cells]))
    totals = [
        b.band("demo:age_band", "served:age_band", held, ages)
        for _column, _label, held in HUD_GENDER_AGE_COLUMNS
    ]
    rows.append(Row("Total", [g.keys[SERVED[0]], *totals]))
    b.sections.append(
        Section(
            "Q10d: Gender by Age Ranges",
            ["Total", *(label for _code, label, _held in HUD_GENDER_AGE_COLUMNS)],
            rows,
            code="Q10d",
        )
    )
    step()


#: Q27a's rows: the youth by age (Q10d's first two columns, the same cells).
HUD_YOUTH_AGES = [
    ("0_17", "12 - 17", HUD_GENDER_AGE_COLUMNS[0][2]),
    ("18_24", "18 - 24", HUD_GENDER_AGE_COLUMNS[1][2]),
]
#: The answers to the age question of a youth (Q27a's people).
HUD_YOUTH_ANSWERS = frozenset(a for _code, _label, held in HUD_YOUTH_AGES for a in held)
#: Q27a's total, the youth: the cell of those answers together (:meth:`Builder.band`).
HUD_YOUTH_KEY = "demo:age_band:" + "+".join(sorted(HUD_YOUTH_ANSWERS))


def _youth(b: Builder, cases: Served) -> None:
    """Q27a: the youth (everyone served under 25, each survivor heading her own household) by
    age: its rows are Q10d's columns of those ages and Q11's bands added up (the same cells),
    its total their sum."""
    g = b.grid
    ages = cases.answers("age_band")
    rows = [
        Row(label, [b.band("demo:age_band", "served:age_band", held, ages)])
        for _code, label, held in HUD_YOUTH_AGES
    ]
    youth = b.band("demo:age_band", "served:age_band", sorted(HUD_YOUTH_ANSWERS), ages)
    assert g.keys[HUD_YOUTH_KEY] == youth
    g.sum(youth, [row.cells[0] for row in rows])
    rows.append(Row("Total", [youth]))
    b.sections.append(Section("Q27a: Age of Youth", ["Total"], rows, code="Q27a"))
    step()


def _youth_gender(b: Builder) -> None:
    """Q27c: the youth by gender. Its columns under 18 and 18 to 24 are Q10d's (the same cells),
    its total column each gender's two added up, and its total row Q27a's (the same cells). No
    count in it is new to a reader of Q10d, so its totals are derived counts (:meth:`Builder.
    derive`): they take no part in suppression, and each is published where a reader of Q10d
    works it out already, hidden otherwise. Tied to Q10d's cells for suppression instead, they
    made it hide the people served to keep a total of two hidden cells hidden (the reporting
    README)."""
    g = b.grid
    q10d = next(s for s in b.sections if s.code == "Q10d")
    rows = []
    for code, row in zip(HUD_GENDERS, q10d.rows[:-1], strict=True):
        parts = row.cells[1:3]
        rows.append(Row(HUD_GENDER_LABELS[code], [b.derive(f"q27c:{code}", parts), *parts]))
    rows.append(Row("Total", [g.keys[HUD_YOUTH_KEY], *q10d.rows[-1].cells[1:3]]))
    b.sections.append(
        Section(
            "Q27c: Gender - Youth",
            ["Total", *(label for _code, label, _held in HUD_GENDER_AGE_COLUMNS[:2])],
            rows,
            code="Q27c",
        )
    )
    step()


def _validations_by_age(b: Builder) -> None:
    """Q5a's rows by age, from Q10d's total row (Q11's bands added up) and Q27a: the children
    (Q10d's under 18, the same cell) and the youth under 25 (Q27a's total, the same cell); the
    adults (18 and over) and the people whose age is not known, and the child and unknown-age
    heads of household, derived counts (:meth:`Builder.derive`) printed only where a reader of
    Q10d works them out already. Counted for suppression like Q10d's other cells, a year's count
    of adults lies inside each quarter's bands, and once hid many of the year's cells (the
    reporting README). Each survivor heads her own household: the adults are the adult heads of
    household (the same cell), the adult and head of household leavers are the leavers. Not
    given: the adult leavers and stayers, the parenting youth, the heads of household and adult
    stayers of 365 days or more (Q22a1's bands part at 365 days, not before it)."""
    g = b.grid
    sections = {s.code: s for s in b.sections}
    _total, under_18, aged_18_24, aged_25_64, over_64, declined, not_asked = (
        sections["Q10d"].rows[-1].cells
    )
    adults = b.derive("q5a:adults", [aged_18_24, aged_25_64, over_64])
    unknown = b.derive("q5a:unknown_age", [declined, not_asked])
    not_adults = b.derive("q5a:child_or_unknown_heads", [under_18, declined, not_asked])
    q5a = sections["Q5a"]
    rows = {row.label: row for row in q5a.rows}
    served, leavers, stayers = (
        rows[label]
        for label in ("Total number of persons served", "Number of leavers", "Number of stayers")
    )
    q5a.rows[:3] = [
        served,
        Row("Number of adults (age 18 or over)", [adults]),
        Row("Number of children (under age 18)", [under_18]),
        Row("Number of persons with unknown age", [unknown]),
        leavers,
        Row("Number of adult and head of household leavers", leavers.cells),
        stayers,
    ]
    # After the veterans and the chronically homeless persons (for an agency that asks HUD's
    # questions).
    q5a.rows += [
        Row("Number of youth under age 25", [g.keys[HUD_YOUTH_KEY]]),
        Row("Number of adult heads of household", [adults]),
        Row("Number of child and unknown-age heads of household", [not_adults]),
    ]
    step()


def _chronic_households(b: Builder, t: _HudTally) -> None:
    """Q26a: the households by whether their head (each survivor heads her own) was
    chronically homeless at the start of support, and by household type. Its total column is
    Q26b's counts and its total row Q8a's (the same cells): each row adds up to the one, each
    column to the other."""
    g = b.grid
    types = [code for code, _label in HUD_HOUSEHOLDS]
    matrix = []
    rows = []
    for status, label in HUD_CHRONIC:
        cells = [
            g.cell(f"q26a:{status}:{code}", t.chronic_households[(status, code)]) for code in types
        ]
        whole = g.keys[f"q26b:{status}"]
        g.sum(whole, cells)
        matrix.append(cells)
        rows.append(Row(label, [whole, *cells]))
    columns = [g.keys[f"q8a:{code}"] for code in types]
    for outer, column in zip(columns, zip(*matrix, strict=True), strict=True):
        g.sum(outer, column)
    rows.append(Row("Total", [g.keys[SERVED[0]], *columns]))
    b.sections.append(
        Section(
            "Q26a: Chronic Homeless Status - Number of Households w/at least one or more CH person",
            ["Total", *(label for _code, label in HUD_HOUSEHOLDS)],
            rows,
            code="Q26a",
        )
    )
    step()


def _hud_parts(
    b: Builder,
    key: str,
    title: str,
    code: str,
    rows: Sequence[tuple[str, str]],
    columns: Sequence[tuple[str, str, Counter[str], str]],
    note: str = "",
    totals: Sequence[tuple[str, str]] | None = None,
) -> None:
    """A section of counts by ``rows``, each column ``(key, name, counts, whole)`` a part of
    the counts of everyone another question prints (``whole``, the key of its cell with the
    row's code for ``{}``), with no total, or adding up to the ``totals`` (key, label) given.
    Each count lies inside its whole: the rest is a count too, never published, tied so that
    suppression keeps a small one from being worked out by subtracting."""
    ends: Sequence[tuple[str, str] | None] = totals or [None] * len(columns)
    parts = [
        (c, name, counts, end) for (c, name, counts, _w), end in zip(columns, ends, strict=True)
    ]
    _hud_columns(b, key, title, code, rows, parts, note=note)
    g = b.grid
    for column, _name, _counts, whole in columns:
        for row, _label in rows:
            part, outer = g.keys[f"{key}:{row}:{column}"], g.keys[whole.format(row)]
            b.inside(part, outer, f"{key}:rest:{row}:{column}")


def _income_categories(b: Builder, t: _HudTally) -> None:
    """Q18: everyone counted at start, the stayers at their annual assessment and the leavers at
    exit, by the kinds of income they have, and the people with one source or more (a subtotal
    of the first three rows, tied to them)."""
    columns = [
        ("start", "Number of Adults at Start", t.category["start"], SERVED[0]),
        (
            "annual",
            "Number of Adults at Annual Assessment (Stayers)",
            t.not_assessed + t.category["annual"],
            "q5a:stayers",
        ),
        ("exit", "Number of Adults at Exit (Leavers)", t.category["exit"], "q5a:leavers"),
    ]
    _hud_columns(
        b,
        "q18",
        "Q18: Client Cash Income Category - Earned/Other Income Category - by Start and Annual "
        "Assessment/Exit Status",
        "Q18",
        [*HUD_INCOME_CATEGORIES, *HUD_NOT_ASSESSED],
        [(key, name, counts, (total, "Total Adults")) for key, name, counts, total in columns],
    )
    _with_income(b, "q18")


def _with_income(b: Builder, key: str) -> None:
    """The row "1 or more source of income" under the income table ``key`` (Q18, Q26f, Q27h)
    just built: in each of its columns the subtotal of its first three rows, tied to them."""
    g, anyone = b.grid, []
    for column in ("start", "annual", "exit"):
        parts = [g.keys[f"{key}:{r}:{column}"] for r in ("earned", "other", "both")]
        cell = g.cell(f"{key}:any:{column}", sum(g.values[c] for c in parts))
        g.sum(cell, parts)
        anyone.append(cell)
    b.sections[-1].rows.append(Row("1 or more source of income", anyone))


def _earned_once(b: Builder, sources: str, categories: str) -> None:
    """The people with earned income, printed in a table of sources (Q17, Q26g, Q27g) and, as
    those with only earned income and those with both, in its table of kinds of income (Q18,
    Q26f, Q27h): in each column the one is the sum of the other two, tied, so that a count
    hidden in one table is not worked out from the other (when no one has both, the same
    people are printed twice). The other sources are some of those with other income
    (:func:`_sources_inside_any`)."""
    g = b.grid
    for column in ("start", "annual", "exit"):
        g.sum(
            g.keys[f"{sources}:earned:{column}"],
            [g.keys[f"{categories}:{kind}:{column}"] for kind in ("earned", "both")],
            link=True,
        )
    _sources_inside_any(b, sources, categories)


def _not_assessed_once(b: Builder) -> None:
    """The stayers not assessed, printed in Q16, Q18 and Q21 (each its own cells), are the same
    people: each of Q16's and Q21's cells is tied to Q18's as equal, so that a cell hidden in one
    table is hidden in the others (a copy printed beside it would tell it). So are the people
    whose income (start, annual assessment, exit) is "doesn't know" or "prefers not to
    answer", in Q16 and Q18."""
    g = b.grid
    for code, _label in HUD_NOT_ASSESSED:
        same = g.keys[f"q18:{code}:annual"]
        for table in ("q16", "q21"):
            g.sum(same, [g.keys[f"{table}:{code}:annual"]], link=True)
    for column in ("start", "annual", "exit"):
        g.sum(g.keys[f"q18:dk:{column}"], [g.keys[f"q16:dk:{column}"]], link=True)


def _no_income_inside(b: Builder) -> None:
    """Q18's "No Income" (said to have no income) is some of Q16's (no income, or income said
    to be $0 a month, whatever its sources): in each column the rest, those who said they had
    income of $0, is a count never published, tied, so that a reader who knows both rules and
    subtracts the two rows does not learn a small one."""
    for column in ("start", "annual", "exit"):
        b.inside(
            b.grid.keys[f"q18:none:{column}"],
            b.grid.keys[f"q16:none:{column}"],
            f"q16:none:rest:{column}",
        )


def _not_collected_inside(b: Builder, t: _HudTally) -> None:
    """Q16's and Q18's "Data Not Collected" rows each hold the people whose income was not
    collected, and those each files there for a part of it left blank (Q16 the amount, Q18 the
    sources): in each column, the people not collected are a count never published, inside
    both, so that the two rows, the same people when no part was left blank, are read as
    such."""
    g = b.grid
    for column in ("start", "annual", "exit"):
        asked_not = g.cell(f"income:not_collected:{column}", t.income_not_collected[column])
        b.atoms.add(asked_not)
        for table in ("q16", "q18"):
            b.inside(asked_not, g.keys[f"{table}:dnc:{column}"], f"{table}:dnc:rest:{column}")


def _income_change_inside(b: Builder) -> None:
    """Q19a1's and Q19a2's people are some of Q18's, at start and then (the annual assessment,
    exit): the people of a Q19a row who have its kind of income then (less, the same, more,
    gained it) are those with it among Q18's then, and those who had it at start (lost it,
    less, the same, more) among Q18's at start (the stayers' and the leavers' together).

    So each of Q18's kinds of income holds some of Q19a's people, a count a reader works out
    from Q19a's rows (those with both kinds are those with earned income and those with other
    income less those with any): in each of Q18's columns and kinds, that count (never
    published) and the rest, those whose income at start or then is not known (never
    published), are tied to Q18's cell, so that a reader who knows both rules does not learn a
    small one by subtracting (Q17's earned income is tied to Q18's already:
    :func:`_earned_once`)."""
    g = b.grid
    # Q19a's columns of the people who have a row's kind of income at each stage.
    stages = {
        "then": ("less", "same", "more", "gained"),
        "start": ("lost", "less", "same", "more"),
    }
    held: dict[tuple[str, str], list[int]] = {}
    for key, column in (("q19a1", "annual"), ("q19a2", "exit")):
        for stage, having_it in stages.items():
            having = {}
            for row, _l, _w in HUD_INCOME_CHANGE_ROWS:
                parts = [g.keys[f"{key}:{row}:{change}"] for change in having_it]
                having[row] = _added_up(b, parts, f"{key}:{row}:{stage}")
            # Q19a's people of each of Q18's kinds: with any income, those with earned income
            # (and other), other income (and earned), both (in both); with none, the rest.
            earned, other, anyone = (g.values[having[r]] for r in ("earned", "other", "total"))
            everyone = g.keys[f"{key}:total"]
            count = {
                "earned": anyone - other,
                "other": anyone - earned,
                "both": earned + other - anyone,
                "none": g.values[everyone] - anyone,
            }
            of_kind = {c: g.cell(f"{key}:{c}:{stage}:q18", n) for c, n in count.items()}
            b.atoms.update(of_kind.values())
            g.sum(having["earned"], [of_kind["earned"], of_kind["both"]], link=True)
            g.sum(having["other"], [of_kind["other"], of_kind["both"]], link=True)
            g.sum(having["total"], [of_kind[c] for c in ("earned", "other", "both")], link=True)
            g.sum(everyone, [having["total"], of_kind["none"]], link=True)
            for c, cell in of_kind.items():
                held.setdefault(("start" if stage == "start" else column, c), []).append(cell)
    for (column, c), parts in held.items():
        b.inside(parts, g.keys[f"q18:{c}:{column}"], f"q18:{c}:{column}:not_in_q19a")


def _added_up(b: Builder, cells: list[int], key: str) -> int:
    """The one of ``cells``, or their sum: ``key``'s cell, never published and tied to them
    (a reader knows it only where they are all printed)."""
    if len(cells) == 1:
        return cells[0]
    g = b.grid
    whole = g.cell(key, sum(g.values[c] for c in cells))
    g.sum(whole, cells, link=True)
    b.atoms.add(whole)
    return whole


def _each_inside_any(
    b: Builder, key: str, rows: Iterable[str], column: str, wholes: list[str]
) -> None:
    """Each of ``key``'s rows in ``column`` counts one of several answers a person may give
    (a source of income, a benefit, an insurance, a condition), so its people are some of those
    who gave at least one: ``wholes``, cells that count no one twice (one, or the people with
    one and those with more). The rest, those with another answer and not this one, is a count
    never published, tied (:meth:`Builder.inside`), so that a reader who subtracts a row from
    the people with any does not learn a small one. Several ``wholes`` are added up in a cell
    never published (:func:`_added_up`)."""
    g = b.grid
    whole = _added_up(b, [g.keys[w] for w in wholes], f"{key}:any_answer:{column}")
    for row in rows:
        part = g.keys[f"{key}:{row}:{column}"]
        b.inside(part, whole, f"{key}:{row}:{column}:not_it")


def _sources_inside_any(b: Builder, sources: str, categories: str) -> None:
    """The sources of income other than earned income (Q17's, Q26g's, Q27g's; earned income
    is the same people as two kinds, :func:`_earned_once`), each inside the people with other
    income of its table of kinds (Q18's, Q26f's, Q27h's: only other income, and both)."""
    other = [code for code in HUD_INCOME_SOURCES if code != "earned"]
    for column in ("start", "annual", "exit"):
        kinds = [f"{categories}:{k}:{column}" for k in ("other", "both")]
        _each_inside_any(b, sources, other, column, kinds)


def _answers_inside_any(b: Builder) -> None:
    """Q20a's benefits and Q21's insurances, each inside the people who have at least one in
    its column (Q20b's "1 + Source(s)", Q21's one source and more than one)."""
    for column in ("start", "annual", "exit"):
        _each_inside_any(b, "q20a", HUD_BENEFITS, column, [f"q20b:some:{column}"])
        _each_inside_any(
            b, "q21", HUD_INSURANCE, column, [f"q21:{k}:{column}" for k in ("one", "more")]
        )


def _conditions_inside_any(b: Builder) -> None:
    """Q13a1's, Q13b1's and Q13c1's conditions, each inside the people of Q13a2's, Q13b2's and
    Q13c2's with one condition or more (:func:`_each_inside_any`)."""
    rows = [code for code, _label in HUD_CONDITIONS]
    for each, count in (("q13a1", "q13a2"), ("q13b1", "q13b2"), ("q13c1", "q13c2")):
        _each_inside_any(b, each, rows, "total", [f"{count}:{n}" for n in ("1", "2", "3")])


def _not_required_by_length(b: Builder) -> None:
    """The stayers not yet required to have an annual assessment (Q18's, and Q27h's of the
    youth) are the stayers supported 365 days or less (Q22a1's first five bands, Q27e's), both
    counted from HUD's project start: each is tied to the sum of those bands, so that a count
    hidden in one is not told by the other."""
    g = b.grid
    first_year = [band for band, _label, most in HUD_LENGTHS if most is not None and most <= 365]
    for categories, lengths in (("q18", "q22"), ("q27h", "q27e")):
        bands = [g.keys[f"{lengths}:{band}:stayers"] for band in first_year]
        g.sum(g.keys[f"{categories}:not_required:annual"], bands, link=True)


def _inside_assessed(b: Builder, part: int, whole: int, table: str, column: str, key: str) -> None:
    """``part`` is some of the people ``whole`` counts (the stayers or the leavers of Q5a, or of
    a group): those whose income is known at start and then. For the stayers, some of those
    assessed: ``whole`` less the stayers not assessed (the cells of ``table``'s rows of them,
    printed), so that the rest, a count never published, is the stayers assessed whose income
    is not known (:meth:`Builder.inside` for the leavers)."""
    if column != "annual":
        b.inside(part, whole, key)
        return
    not_assessed = [b.grid.keys[f"{table}:{code}:annual"] for code, _l in HUD_NOT_ASSESSED]
    b.inside([*not_assessed, part], whole, key)


def _income_held(values: dict[str, Any], prefix: str) -> tuple[bool, bool, bool]:
    """Whether a person whose income is known (:func:`hud.income_amounts`) has earned income,
    other income and any income at one stage, by the sources named (as Q18 counts them)."""
    if values.get(f"{prefix}income_any") != "yes":
        return False, False, False
    named = set(values.get(f"{prefix}income_sources") or [])
    return "earned" in named, bool(named - {"earned"}), True


#: Q19a1's and Q19a2's rows: each kind of income (code, its count row's label, its average
#: row's word).
HUD_INCOME_CHANGE_ROWS = [
    ("earned", "Number of Adults with Earned Income (i.e., Employment Income)", "Earned Income"),
    ("other", "Number of Adults with Other Income", "Other Income"),
    ("total", "Number of Adults with Any Income (i.e., Total Income)", "Overall Income"),
]
#: Their columns, a partition of the people counted (``{at}`` the later stage's name).
HUD_INCOME_CHANGE_COLUMNS = [
    ("lost", "Had Income Category at Start and Did Not Have It at {at}"),
    ("less", "Retained Income Category But Had Less $ at {at} Than at Start"),
    ("same", "Retained Income Category and Same $ at {at} as at Start"),
    ("more", "Retained Income Category and Increased $ at {at}"),
    ("gained", "Did Not Have the Income Category at Start and Gained the Income Category at {at}"),
    ("neither", "Did Not Have the Income Category at Start or at {at}"),
]
#: The columns whose change is not 0 by definition (those that kept the same dollars, or had
#: none at either stage, changed by 0).
_INCOME_CHANGED = ("lost", "less", "more", "gained")


def _change(dollars: dict[tuple[str, str], Decimal], row: str, *kinds: str) -> Decimal:
    """The change in dollars of the people in ``kinds``'s columns of ``row`` (0 for none)."""
    return sum((dollars.get((row, kind), Decimal(0)) for kind in kinds), Decimal(0))


def _income_change(b: Builder, t: _HudTally) -> list[int]:
    """Q19a1 (the stayers at their annual assessment) and Q19a2 (the leavers at exit): the
    people whose income is known at start and then, for earned income, other income and any
    income, by whether they had it at each stage and whether its dollars went down, stayed or
    went up, with the average change of each column (in whole dollars a month, halves up).
    Returns the cells of the people each counts (Q18's last row).

    Each row's columns add up to the people counted (one cell for the three rows), inside the
    stayers assessed or Q5a's leavers (the rest never published: :func:`_inside_assessed`);
    the performance measure is those who gained it or had more, a subtotal tied to its two
    columns, and its share of everyone counted. An average is published only with its count,
    and the averages of a row's columns are the parts of its total's: withheld while the people
    whose averages are hidden would be too few (:attr:`FunderReport.shares`; those of the
    columns that changed by 0 by definition hide nothing and are no part of it). The
    performance measure's average gain is published only when those of its two columns are, or
    of the one with anyone in it (:attr:`FunderReport.combined`)."""
    g = b.grid
    kinds = [kind for kind, _l in HUD_INCOME_CHANGE_COLUMNS]
    totals = []
    for column, key, at, whole in (
        ("annual", "q19a1", "Annual Assessment", "q5a:stayers"),
        ("exit", "q19a2", "Exit", "q5a:leavers"),
    ):
        counts = t.income_change[column]
        dollars = t.income_change_dollars[column]
        people = sum(counts[("total", kind)] for kind in kinds)
        everyone = g.cell(f"{key}:total", people)
        totals.append(everyone)
        _inside_assessed(b, everyone, g.keys[whole], "q18", column, f"{key}:rest")
        rows = []
        for row, label, words in HUD_INCOME_CHANGE_ROWS:
            parts = {kind: g.cell(f"{key}:{row}:{kind}", counts[(row, kind)]) for kind in kinds}
            g.sum(everyone, list(parts.values()))
            gained = [parts["more"], parts["gained"]]
            measure = g.cell(f"{key}:{row}:measure", sum(g.values[c] for c in gained))
            g.sum(measure, gained)
            figures = {}
            for kind, part in parts.items():
                figure = g.cell(
                    f"{key}:{row}:{kind}:average",
                    _average_of(g.values[part], _change(dollars, row, kind)),
                )
                b.about[figure] = part
                figures[kind] = figure
            overall = g.cell(
                f"{key}:{row}:average", _average_of(people, _change(dollars, row, *kinds))
            )
            b.about[overall] = everyone
            gain = g.cell(
                f"{key}:{row}:measure:average",
                _average_of(g.values[measure], _change(dollars, row, "more", "gained")),
            )
            b.about[gain] = measure
            b.shares.append((overall, [figures[kind] for kind in _INCOME_CHANGED]))
            b.combined.append((gain, [figures["more"], figures["gained"]]))
            rows.append(Row(label, [*parts.values(), everyone, measure], of=everyone, part=measure))
            rows.append(Row(f"Average Change in {words}", [*figures.values(), overall, gain]))
        b.sections.append(
            Section(
                f"Q{key[1:]}: Client Cash Income Change - Income Source - by "
                f"Start and {'Latest' if column == 'annual' else 'Exit'} Status",
                [
                    *(name.format(at=at) for _k, name in HUD_INCOME_CHANGE_COLUMNS),
                    "Total Adults (including those with No Income)",
                    "Performance Measure: Adults who Gained or Increased Income from Start to "
                    f"{at}, Average Gain",
                    "Performance measure: Percent of Persons who Accomplished this Measure",
                ],
                rows,
                code=f"Q{key[1:]}",
                has_total=False,
                note=_(
                    "Counts every survivor whose income at start and then is known (each source "
                    "and the monthly dollars: with earned and other income, the earned income's "
                    "too), not only adults. The average changes are in whole dollars a month, "
                    "each shown only where its count is, and is at least the threshold."
                ),
            )
        )
        step()
    return totals


#: Q19b's rows: Q17's sources (every source caseflow records is one of them), then the leavers
#: with no income and all of them.
HUD_DISABLING_ROWS = [
    *HUD_INCOME_SOURCES.items(),
    ("none", "No Sources"),
    ("total", "Unduplicated Total Adults"),
]
#: Q19b's columns, as HUD names each household type's (without its "AO: ", "AC: ", "UK: ").
HUD_DISABLING_COLUMNS = [
    "Adult with Disabling Condition",
    "Adult without Disabling Condition",
    "Total Adults",
    "% with Disabling Condition by Source",
]


def _disabling_and_income(b: Builder, t: _HudTally) -> None:
    """Q19b: the leavers by each source of income at exit, those with none, and all of them,
    with and without a disabling condition, and the share with one. Each row's total is a cell
    another question prints (Q17's source at exit, Q18's leavers with no income, Q5a's leavers),
    the sum of its two columns and of the people whose disabling condition is not known (a cell
    never published, counted in the total only). When no leaver's is unknown, none is in any
    row, and a reader who sees the last row add up knows it: the columns then add up to the
    total on their own."""
    _disabling_by_income(
        b,
        "q19b",
        "Q19b: Disabling Conditions and Income for Adults at Exit",
        t.disabling,
        {"none": "q18:none:exit", "total": "q5a:leavers"},
        "q17:{}:exit",
        HUD_DISABLING_ROWS,
        HUD_DISABLING_COLUMNS,
    )


#: Q27i's rows and columns: Q19b's, of the youth.
HUD_YOUTH_DISABLING_ROWS = [*HUD_DISABLING_ROWS[:-1], ("total", "Unduplicated Total Youth")]
HUD_YOUTH_DISABLING_COLUMNS = [
    "Youth with Disabling Condition",
    "Youth without Disabling Condition",
    "Total Youth",
    "% with Disabling Condition by Source",
]


def _disabling_by_income(
    b: Builder,
    key: str,
    title: str,
    counts: Counter[tuple[str, str]],
    totals: dict[str, str],
    sources: str,
    rows_of: Sequence[tuple[str, str]],
    columns: Sequence[str],
    *,
    within: str = "",
) -> None:
    """Q19b's table (and Q27i, the youth's): ``counts`` by (row, column); each row's total the
    cell of ``totals`` (by row) or of ``sources`` (with the source for ``{}``). With
    ``within`` (Q19b's key), each count lies inside the same cell of that table, the rest
    never published."""
    g = b.grid
    unknown = counts[("total", "unknown")] > 0
    rows = []
    for code, label in rows_of:
        parts = [
            g.cell(f"{key}:{code}:{column}", counts[(code, column)])
            for column in ("with", "without", *(("unknown",) if unknown else ()))
        ]
        if unknown:
            b.atoms.add(parts[-1])
        total = g.cell(totals.get(code, sources.format(code)), sum(g.values[c] for c in parts))
        g.sum(total, parts)
        if within:
            for column, part in zip(("with", "without", "unknown"), parts, strict=False):
                whole = g.keys[f"{within}:{code}:{column}"]
                b.inside(part, whole, f"{key}:rest:{code}:{column}")
        # HUD leaves the share of its last row blank.
        rows.append(Row(label, [*parts[:2], total], of=None if code == "total" else total))
    b.sections.append(
        Section(
            title,
            list(columns),
            rows,
            code=title.partition(":")[0],
            note=_(
                "Leavers only, by the disabling condition asked at entry. One person may have "
                "several sources. Those whose disabling condition is not known are counted in "
                "the total only; a share is shown only where its count and its total are."
            ),
        )
    )
    step()


def _hud_columns(
    b: Builder,
    key: str,
    title: str,
    code: str,
    rows: Sequence[tuple[str, str]],
    columns: Sequence[tuple[str, str, Counter[str], tuple[str, str] | None]],
    note: str = "",
) -> None:
    """One section of several columns of counts by ``rows``: each column ``(key, name, counts,
    total)`` adds up to its ``total`` (key, label) cell when it has one (then every column must
    have one)."""
    g = b.grid
    matrix = [
        [g.cell(f"{key}:{r}:{c}", counts.get(r, 0)) for r, _l in rows]
        for c, _n, counts, _t in columns
    ]
    out = [Row(label, [col[i] for col in matrix]) for i, (_r, label) in enumerate(rows)]
    totals = [t for _c, _n, _counts, t in columns]
    if all(totals):
        cells = []
        for col, (_c, _n, _counts, total) in zip(matrix, columns, strict=True):
            assert total is not None
            t = g.cell(total[0], sum(g.values[c] for c in col))
            g.sum(t, col)
            cells.append(t)
        first = totals[0]
        assert first is not None
        out.append(Row(first[1], cells))
    b.sections.append(
        Section(
            title,
            [name for _c, name, _counts, _t in columns],
            out,
            code=code,
            note=note,
            has_total=all(totals),
        )
    )
    step()


BANDS = [
    (RiskLevel.HIGH, RiskLevel.HIGH.label),
    (RiskLevel.MEDIUM, RiskLevel.MEDIUM.label),
    (RiskLevel.STANDARD, RiskLevel.STANDARD.label),
    (RiskLevel.UNKNOWN, RiskLevel.UNKNOWN.label),
]


@agency_days
def insights_outcomes(agency_id: int, period: Period) -> FunderReport:
    """Intake against exit for the closures of the period: risk band at intake and at exit,
    whether the abuse stopped, whether the survivor feels safer, why support ended, and the
    needs met."""
    closures: list[Any] = list(
        Closure.objects.filter(
            case__agency_id=agency_id,
            state=ClosureState.CLOSED,
            closed_at__gte=period.since,
            closed_at__lt=period.until,
        ).values_list(
            "case_id",
            "risk_at_intake",
            "risk_at_exit",
            "abuse_change",
            "feels_safer",
            "reason__standard",
            named=True,
        )
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
        Counter(c.reason__standard or StandardClosureReason.OTHER for c in closures),
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
    asked = ["age_band"]
    if not agency_field_config(agency_id)[IntakeField.DEMOGRAPHIC_ETHNIC_GROUP]["hidden"]:
        asked.append("ethnic_group")
    given = dict(read_answers({c.case_id for c in closures}, asked))

    def answer(case_id: int, question: str) -> str:
        return given.get(case_id, {}).get(question, NOT_ASKED)

    b.breakdown(
        "exit_age",
        _("Age"),
        answers("age_band"),
        Counter(answer(c.case_id, "age_band") for c in closures),
        total=exits,
        column=str(PEOPLE),
    )
    if "ethnic_group" in asked:
        group_of = {a: g for g, (_l, members) in ONS_GROUPS.items() for a in members}
        b.breakdown(
            "exit_ethnic_group",
            _("Ethnic group (the 2021 census's groups)"),
            [
                *((g, label) for g, (label, _m) in ONS_GROUPS.items()),
                (DECLINED, _("Declined to answer")),
                (NOT_ASKED, _("Not asked")),
            ],
            Counter(
                group_of.get(answer(c.case_id, "ethnic_group"), answer(c.case_id, "ethnic_group"))
                for c in closures
            ),
            total=exits,
            column=str(PEOPLE),
        )
    return b.finish("insights", str(REPORTS["insights"].title), period)


@dataclass(frozen=True)
class ReportKind:
    slug: str
    title: Any
    description: Any
    #: "federal_quarter", "federal_year" or "quarter" (a calendar quarter): see :func:`periods`.
    period: str
    build: Callable[[int, Period], FunderReport]


REPORTS: dict[str, ReportKind] = {
    "voca": ReportKind(
        "voca",
        gettext_lazy("Quarterly performance measures (VOCA style)"),
        gettext_lazy(
            "People served, new and continuing, services by type, hotline calls, types of abuse."
        ),
        "federal_quarter",
        voca_quarterly,
    ),
    "fvpsa": ReportKind(
        "fvpsa",
        gettext_lazy("Annual counts (FVPSA style)"),
        gettext_lazy(
            "People served by age, race and ethnicity, services, referrals, hotline calls and "
            "shelter."
        ),
        "federal_year",
        fvpsa_annual,
    ),
    "hud": ReportKind(
        "hud",
        gettext_lazy("HUD APR / CAPER CSV (comparable database)"),
        gettext_lazy("The APR questions caseflow can answer, in the published layout."),
        "federal_year",
        hud_apr,
    ),
    "insights": ReportKind(
        "insights",
        gettext_lazy("Intake and exit outcomes (Insights style)"),
        gettext_lazy("Risk at intake against risk at exit, for cases closed in the period."),
        "quarter",
        insights_outcomes,
    ),
}


def build(slug: str, agency_id: int, period: Period) -> FunderReport:
    """Report ``slug`` for any ``period``, suppressed on its own. What people are given is
    :func:`release`."""
    return REPORTS[slug].build(agency_id, period)


#: The reports released together for one federal year, and what they are built from.
ANNUAL = {"fvpsa": _fvpsa, "hud": _hud}


def release(slug: str, agency_id: int, period: Period) -> FunderReport:
    """Report ``slug`` as it is given out, for one of its fixed periods (:func:`periods`).

    Quarters (VOCA, Insights) do not overlap one another and are suppressed on their own. A
    federal year holds four VOCA quarters and is given out twice (FVPSA, HUD), so its two reports
    are one grid, suppressed together, and read with its quarters as published: each count of
    people in the year is tied to each count inside it in a quarter by an unpublished
    difference (the people of the year who are not in that quarter's count), which must not be
    worked out when small; each count of services in the year is the sum of the quarters'. The
    quarters' hidden cells stay hidden and no quarter cell is hidden anew, so a quarter reads
    the same whether or not its year has been run. The reasoning: the reporting README."""
    kind = REPORTS[slug]
    if not is_fixed(kind.period, period):
        raise ValueError("not one of the report's fixed periods")
    if slug not in ANNUAL:
        report = kind.build(agency_id, period)
    else:
        report = annual_release(agency_id, federal_year_of(period.end))[slug]
    found = told(report)
    if found:
        # Never given out: raised with how many, never which (a key names a group of people).
        raise Told(f"{len(found)} small counts could be worked out")
    return report


def told(report: FunderReport) -> set[int]:
    """The small counts (1 to the threshold less 1) a reader works out of ``report`` as it is
    given out, as every release is checked before it is: one who adds and subtracts and knows
    counts are never negative, and one who also solves for each hidden count's least and
    greatest value knowing a printed "*" is never 0. A year's count less one of its quarters'
    is read the first way only (:attr:`FunderReport.quarter_links`, the reporting README).
    Empty for a release that may be given out: suppression chooses complements until it is,
    and a count no complement keeps hidden stops the release (:class:`Told`)."""
    grid = report.grid
    small = {c for c in report.hidden if 0 < abs(grid.values[c]) < report.threshold}
    if not small:
        return set()
    stars = printed_stars(grid.values, report.hidden, report.unpublished)
    plain = worked_out(grid.values, grid.sums, report.hidden, bounds=False)
    bounded = worked_out(grid.values, grid.sums, report.hidden, at_least_one=stars, asked=small)
    return (plain | (bounded - report.quarter_links)) & small


def is_fixed(kind: str, period: Period) -> bool:
    """``period`` is one of the fixed periods of ``kind`` (ended or not)."""
    start, end = period.start, period.end
    if kind == "federal_year":
        return (start.month, start.day, end) == (10, 1, dt.date(start.year + 1, 9, 30))
    return start.day == 1 and start.month in (1, 4, 7, 10) and end == _quarter_end(start)


def annual_release(agency_id: int, fy: int) -> dict[str, FunderReport]:
    """The FVPSA and HUD reports of federal year ``fy``, suppressed together and against the
    year's four VOCA quarters (see :func:`release`), in the agency's days (:func:`agency_days`)."""
    return _annual_in_zone(agency_id, federal_year(fy))


@agency_days
def _annual_in_zone(agency_id: int, period: Period) -> dict[str, FunderReport]:
    fy = federal_year_of(period.end)
    cases = _cases(agency_id, period, sorted({*FVPSA_QUESTIONS, *HUD_QUESTIONS}))
    with answers_read_once(cases):
        return _annual_release(agency_id, fy, period, cases)


def _annual_release(agency_id: int, fy: int, period: Period, cases: Served) -> dict:
    b = Builder()
    parts: dict[str, list[Section]] = {}
    for slug, add in ANNUAL.items():
        first = len(b.sections)
        add(b, agency_id, period, cases)
        parts[slug] = b.sections[first:]
    made = {slug: b.report(slug, str(REPORTS[slug].title), period, s) for slug, s in parts.items()}
    grid = b.grid
    shown = {slug: r.displayed for slug, r in made.items()}
    displayed = set().union(*shown.values())
    unpublished = b.atoms - displayed
    fixed: set[int] = set()
    fixed_hidden: set[int] = set()

    quarter_links: set[int] = set()

    def difference(outer: int, inner: int, tag: str) -> int:
        d = grid.cell(f"{tag}|{outer}-{inner}", grid.values[outer] - grid.values[inner])
        grid.sum(outer, [inner, d], link=True)
        unpublished.add(d)
        return d

    # The two reports of the year: a band of one that lies inside a band of the other.
    slugs = list(shown)
    for x in slugs:
        for y in slugs:
            if x == y:
                continue
            for outer in shown[x] - shown[y]:
                for inner in shown[y] - shown[x]:
                    mo, mi = b.meaning.get(outer), b.meaning.get(inner)
                    if mo and mi and mo[0] != "served" and _within(mi, mo):
                        difference(outer, inner, "band")
    # The quarters, as they are published.
    by_key: list[dict[str, int]] = []
    for n, q in enumerate(federal_quarters(fy)):
        qr = voca_quarterly(agency_id, q)
        keys = {c: k for k, c in qr.grid.keys.items()}
        index = {c: grid.cell(f"q{n}|{keys[c]}", v) for c, v in enumerate(qr.grid.values)}
        for total, members in qr.grid.sums:
            grid.sum(index[total], [index[m] for m in members], link=True)
        fixed.update(index.values())
        fixed_hidden.update(index[c] for c in qr.hidden - qr.unpublished)
        unpublished.update(index[c] for c in qr.unpublished)
        for inner in qr.displayed:
            for outer in displayed:
                mi, mo = qr.meaning.get(inner), b.meaning.get(outer)
                if mi and mo and _within(mi, mo):
                    quarter_links.add(difference(outer, index[inner], f"q{n}"))
        by_key.append({keys[c]: index[c] for c in qr.additive})
        for on_day, day in b.on_day.items():
            if q.start <= day <= q.end and SERVED[0] in qr.grid.keys:
                quarter_links.add(difference(index[qr.grid.keys[SERVED[0]]], on_day, f"q{n}"))
    year_keys = {c: k for k, c in grid.keys.items()}
    for cell in displayed & b.additive:
        in_quarters = [q[year_keys[cell]] for q in by_key if year_keys[cell] in q]
        if len(in_quarters) == len(by_key):
            grid.sum(cell, in_quarters, link=True)
    hidden = b.suppressed(unpublished=unpublished, fixed=fixed, fixed_hidden=fixed_hidden)
    step()
    for report in made.values():
        report.hidden = hidden
        report.unpublished = unpublished
        report.quarter_links = quarter_links
    return made
