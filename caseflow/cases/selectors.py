"""Read-side queries for list pages: metadata and the survivor's name, scoped by policy, constant
query counts."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import (
    Count,
    DateTimeField,
    Exists,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    prefetch_related_objects,
)
from django.db.models.functions import Coalesce, Least
from django.utils import timezone
from rapidfuzz.distance import OSA

from caseflow import policy
from caseflow.accounts.models import Team, User
from caseflow.cases import features
from caseflow.cases.models import (
    OPEN_STATUSES,
    BreakGlassGrant,
    Case,
    CaseAssignment,
    CaseKey,
    CaseStatus,
    Party,
    PartyRole,
    RiskLevel,
    name_index_for,
)
from caseflow.inbox.models import FollowUp, FollowUpStatus
from caseflow.lib.compiled import CompiledCount, CompiledForIds, CompiledQuery
from caseflow.lib.encryption import normalise_identity, unwrap_data_key

#: At most this many matches of a name search are listed (a common name in a large caseload).
NAME_MATCH_LIMIT = 50


def _next_due():
    """The earliest of what falls due on a case: its open follow-ups, and what the features say
    falls due besides (``CaseFeature.next_due``: check-ins)."""
    followup = (
        FollowUp.objects.filter(case=OuterRef("pk"), status=FollowUpStatus.OPEN)
        .order_by("due_at")
        .values("due_at")[:1]
    )
    earliest = Subquery(followup, output_field=DateTimeField())
    for source in features.members(lambda f: f.next_due):
        earliest = _Earliest(Subquery(source(), output_field=DateTimeField()), earliest)
    return earliest


class _Earliest(Least):
    """The earlier of two values, ignoring a NULL. PostgreSQL's LEAST ignores NULLs, so each
    correlated subquery runs once; SQLite's MIN does not, so there each side is coalesced with
    the other (and each subquery appears twice)."""

    def as_sqlite(self, compiler, connection, **extra_context):
        first, second = self.get_source_expressions()
        both = Least(Coalesce(first, second), Coalesce(second, first))
        return compiler.compile(both)


def case_rows(queryset, user: Any = None):
    """The columns list pages show: metadata, and the survivor's name (:func:`list_name`). Of
    what is encrypted only the survivor's names are loaded: the case's wrapped data key comes in
    the same row, the survivors of the rows in one more query, so the count stays flat in rows.
    ``queryset`` must come from ``policy.visible_cases`` (every row is a case the user may read).
    With ``user``, each row also says whether that user reaches the case through emergency
    access now (``emergency``), for the badge."""
    return _case_columns(queryset, user, timezone.now()).prefetch_related(_survivors())


def _survivors() -> Prefetch:
    """The survivors of :func:`case_rows`' rows, in one more query."""
    return Prefetch(
        "parties",
        queryset=Party.objects.filter(role=PartyRole.SURVIVOR)
        .only("pk", "case_id", "full_name", "known_as")
        .order_by("created_at", "pk"),
        to_attr="survivor_rows",
    )


def _survivor_set(cases: list[int]) -> QuerySet[Party]:
    """The statement :func:`_survivors` sends for the cases of ids ``cases``."""
    survivors: QuerySet[Party] = _survivors().queryset  # type: ignore[assignment]
    return survivors.filter(case__in=cases)


#: The survivors of at most this many rows are read with SQL compiled once per process for each
#: number of rows; of more rows, as :func:`_survivors` reads them.
SURVIVOR_ROWS_MAX = 64
_SURVIVORS = CompiledForIds(Party, _survivor_set, most=SURVIVOR_ROWS_MAX)


def attach_survivors(rows: list[Case]) -> None:
    """``prefetch_related_objects(rows, _survivors())``: each row's ``survivor_rows``, each
    survivor's ``case`` its row, in the one statement the prefetch sends (with SQL compiled once
    per process for each number of rows)."""
    cases = {row.pk: row for row in rows}
    parties = _SURVIVORS.rows(list(cases))
    if parties is None:
        prefetch_related_objects(rows, _survivors())
        return
    found: dict[int, list[Party]] = {}
    case_field = Party._meta.get_field("case")
    for party in parties:
        case_field.set_cached_value(party, cases[party.case_id])
        found.setdefault(party.case_id, []).append(party)
    for row in rows:
        row.survivor_rows = found.get(row.pk, [])  # type: ignore[attr-defined]


def _case_columns(queryset, user: Any, now: dt.datetime):
    """:func:`case_rows` but their survivors: emergency access as at ``now``."""
    if user is not None:
        queryset = queryset.annotate(
            emergency=Exists(
                BreakGlassGrant.objects.filter(case=OuterRef("pk"), user=user, expires_at__gt=now)
            )
        )
    return (
        queryset.select_related("primary_advocate", "team", "key")
        # The next scheduled check-in or open follow-up, whichever is first: two correlated
        # subqueries in the same query, so the page's query count does not grow with its rows.
        .annotate(next_due=_next_due())
        .only(
            "public_id",
            "reference",
            "status",
            "risk_level",
            "opened_at",
            "restricted",
            "team__name",
            "primary_advocate__first_name",
            "primary_advocate__last_name",
            "primary_advocate__username",
            "key__wrapped",
        )
        .order_by("-opened_at", "pk")
    )


def initials_of(name: str) -> str:
    """``"Riley Sample"`` → ``"R.S."``: the first letter or digit of each word, in capitals."""
    firsts = (next((ch for ch in word if ch.isalnum()), "") for word in name.split())
    return "".join(f"{first.upper()}." for first in firsts if first)


def list_name(case: Case, *, initials: bool = False) -> str:
    """The survivor's name on a row of :func:`case_rows`: the name she chose to be called if
    she gave one, else her full name; with ``initials`` (the agency's setting for screens others
    may see) only its initials. Empty when the case has no survivor recorded or its key was
    destroyed."""
    survivors = getattr(case, "survivor_rows", None)
    if not survivors:
        return ""
    if "_data_key" not in case.__dict__:
        try:
            wrapped = case.key.wrapped
        except ObjectDoesNotExist:
            return ""  # shredded
        case.__dict__["_data_key"] = unwrap_data_key(wrapped)
    survivor = survivors[0]
    survivor.case = case  # shares the unwrapped data key
    name = survivor.shown_name or ""
    return initials_of(name) if initials else name


def _page_facts_set(case: int, annotations: dict, related: tuple[str, ...]) -> QuerySet[Case]:
    """The rows :func:`case_page_facts` reads, as ``get()`` asks for them (unordered, at most
    ``MAX_GET_RESULTS``)."""
    from django.db.models.query import MAX_GET_RESULTS

    names = ("safe_contact", *related)
    return (
        Case.objects.filter(pk=case)
        .select_related("key", *names)
        .annotate(**annotations)
        .only("pk", "key__wrapped", *(f"{name}__{f}" for name in names for f in _fields(name)))
        .order_by()[:MAX_GET_RESULTS]
    )


#: The facts query compiled once per process for each set of annotations and relations asked
#: (the features' own, kept for the process by the view): keyed by the dictionary's identity,
#: which the entry keeps alive. Past the limit the query is built per call, as before.
_PAGE_FACTS: dict[tuple[int, tuple[str, ...]], tuple[dict, CompiledQuery[Case]]] = {}
_PAGE_FACTS_MAX = 8


def _page_facts_rows(case: int, annotations: dict, related: tuple[str, ...]) -> list[Case]:
    key = (id(annotations), related)
    entry = _PAGE_FACTS.get(key)
    if entry is None:
        if len(_PAGE_FACTS) >= _PAGE_FACTS_MAX:
            return list(_page_facts_set(case, annotations, related))
        compiled = CompiledQuery(
            Case, lambda *, case: _page_facts_set(case, annotations, related), case="int"
        )
        entry = _PAGE_FACTS.setdefault(key, (annotations, compiled))
    return entry[1].rows(case=case)


def case_page_facts(case: Case, annotations: dict, related: tuple[str, ...] = ()) -> dict:
    """What the case page needs besides the case row, in one query: the case's data key (the
    page shows the summary and the people), its safe-contact profile, the one-to-one rows the
    panels name in ``related`` and the panels' ``annotations``. The rows are cached on ``case``
    itself (its key unwrapped, ``case.safe_contact`` and the others set, ``None`` when missing)
    and the annotations returned. ``case`` must already have been resolved through policy.

    The statement is the one ``get()`` sends, compiled once per process for each
    ``annotations`` dictionary: pass the same dictionary each time (the view keeps it)."""
    rows = _page_facts_rows(case.pk, annotations, tuple(related))
    if len(rows) != 1:
        raise Case.DoesNotExist if not rows else Case.MultipleObjectsReturned
    row = rows[0]
    try:
        wrapped = row.key.wrapped
    except ObjectDoesNotExist:
        wrapped = None  # shredded: ``case.data_key()`` says so when something needs it
    if wrapped is not None and "_data_key" not in case.__dict__:
        case.__dict__["_data_key"] = unwrap_data_key(wrapped)
    for name in ("safe_contact", *related):
        try:
            value = getattr(row, name)
        except ObjectDoesNotExist:
            value = None
        if value is not None:
            value.case = case  # shares the unwrapped data key
        getattr(Case, name).related.set_cached_value(case, value)
    return {name: getattr(row, name) for name in annotations}


def _fields(relation: str) -> list[str]:
    model = getattr(Case, relation).related.related_model
    return [f.name for f in model._meta.concrete_fields]


def my_open_case_set(user: User) -> QuerySet[Case]:
    """The user's own open cases (assigned, or opened through break-glass), within their scope.

    EXISTS rather than joins: a join on the assignments with an OR and DISTINCT made PostgreSQL
    hash every assignment of the agency to find one advocate's forty cases."""
    return _mine(policy.visible_cases(user), user)


def _mine(scope: QuerySet[Case], user: Any) -> QuerySet[Case]:
    mine = Exists(CaseAssignment.objects.filter(case=OuterRef("pk"), user=user)) | Exists(
        BreakGlassGrant.objects.filter(case=OuterRef("pk"), user=user)
    )
    return scope.filter(mine, status__in=OPEN_STATUSES)


def _my_open_rows(supervisor: bool, *, user: int, agency: int, now: dt.datetime) -> QuerySet[Case]:
    """:func:`my_open_cases` by the caseworker's ids (``policy.visible_cases_values``), at ``now``
    for the scope and emergency access alike, without the survivors' query."""
    scope = policy.visible_cases_of(supervisor, user=user, agency=agency, now=now)
    return _case_columns(_mine(scope, user), user, now)


#: The home page lists them: their SQL is built once per process, for an advocate and a
#: supervisor.
_MY_OPEN = {
    supervisor: CompiledQuery(
        Case,
        functools.partial(_my_open_rows, supervisor),
        user="int",
        agency="int",
        now="datetime",
    )
    for supervisor in (False, True)
}


def my_open_cases(user: User) -> list[Case]:
    """:func:`my_open_case_set` as list rows (:func:`case_rows`)."""
    found = policy.visible_cases_values(user)
    if found is None or found[1]["agency"] is None:
        return list(case_rows(my_open_case_set(user), user))
    supervisor, values = found
    rows = _MY_OPEN[supervisor].rows(**values)
    attach_survivors(rows)
    return rows


def _list_rows(
    supervisor: bool,
    by_status: bool,
    *,
    user: int,
    agency: int,
    now: dt.datetime,
    status: str = "",
) -> QuerySet[Case]:
    """The case list's rows (:func:`case_rows` without the survivors' query) by the caseworker's
    ids, at ``now`` for the scope and emergency access alike; ``by_status``, of ``status``
    only."""
    scope = policy.visible_cases_of(supervisor, user=user, agency=agency, now=now)
    if by_status:
        scope = scope.filter(status=status)
    return _case_columns(scope, user, now)


#: The case list's window of rows at most this far in is read with SQL compiled once per
#: process (for each role, with or without a status, and each window); further in, built.
LIST_WINDOWS_MAX = 20


class CaseList:
    """The case list of a caseworker (an advocate or a supervisor, of an agency), with or without
    a status asked, as :class:`~django.core.paginator.Paginator` reads it: its ``count()``
    and a window of its rows, each with SQL compiled once per process — the very statements
    ``case_rows(policy.visible_cases(user).filter(status=...), user)`` sends (tests compare
    them). A window is read at its full size (``per_page``) and cut to what the paginator asks
    for (the last page's is shorter): its statement does not depend on how many cases there
    are."""

    _counts: dict[tuple[bool, bool], Any] = {}
    _windows: dict[tuple[bool, bool, int, int], CompiledQuery[Case]] = {}

    def __init__(self, supervisor: bool, values: dict[str, Any], status: str, per_page: int):
        self.shape = (supervisor, bool(status))
        self.values = {**values, "status": status} if status else values
        self.per_page = per_page

    @classmethod
    def of(cls, user: Any, status: str, per_page: int) -> CaseList | None:
        """``user``'s case list, or ``None`` where it is built each time (no caseworker of an
        agency)."""
        found = policy.visible_cases_values(user)
        if found is None or found[1]["agency"] is None:
            return None
        return cls(found[0], found[1], status, per_page)

    @classmethod
    def _slots(cls, status: bool) -> dict[str, Any]:
        slots = {"user": "int", "agency": "int", "now": "datetime"}
        return {**slots, "status": "str"} if status else slots

    def count(self) -> int:
        compiled = self._counts.get(self.shape)
        if compiled is None:
            build = functools.partial(_list_rows, *self.shape)
            compiled = self._counts.setdefault(
                self.shape, CompiledCount(Case, build, **self._slots(self.shape[1]))
            )
        return compiled.count(**self.values)

    def _window(self, start: int) -> CompiledQuery[Case] | None:
        key = (*self.shape, start, self.per_page)
        compiled = self._windows.get(key)
        if compiled is None and start < LIST_WINDOWS_MAX * self.per_page:
            stop = start + self.per_page

            def build(**values: Any) -> QuerySet[Case]:
                return _list_rows(*self.shape, **values)[start:stop]

            compiled = self._windows.setdefault(
                key, CompiledQuery(Case, build, **self._slots(self.shape[1]))
            )
        return compiled

    def __getitem__(self, window: slice) -> list[Case]:
        start, stop = window.start or 0, window.stop
        if stop is None or stop - start > self.per_page:
            raise ValueError("the case list is read a page at a time")
        compiled = self._window(start)
        if compiled is None:
            rows = list(_list_rows(*self.shape, **self.values)[start:stop])
        else:
            rows = compiled.rows(**self.values)[: stop - start]
        attach_survivors(rows)
        return rows


def listed_case_set(rows: Iterable[Case]) -> QuerySet[Case]:
    """The cases of ``rows``, a list already read through ``policy.visible_cases`` (such as
    :func:`my_open_cases`), as a queryset by id: what the rows' page asks next about the same
    cases, without the scope's query built again."""
    return Case.objects.filter(pk__in=[row.pk for row in rows])


def team_open_case_set(user: User) -> QuerySet[Case]:
    """The open cases of the teams ``user`` supervises, within their scope."""
    return policy.visible_cases(user).filter(
        team__in=policy.supervised_teams(user), status__in=OPEN_STATUSES
    )


#: The case page's parties and the people assigned, as ``case.parties.all()`` and
#: ``case.assignees`` (by name) read them: their SQL is built once per process.
_PARTIES = CompiledQuery(Party, lambda case: Case(pk=case).parties.all(), case="int")
_ASSIGNEES = CompiledQuery(
    User,
    lambda case: Case(pk=case).assignees.order_by("first_name", "last_name", "username"),
    case="int",
)


def case_parties(case: Case) -> list[Party]:
    """``case.parties.all()``, each party's case ``case`` (sharing its unwrapped data key)."""
    parties = _PARTIES.rows(case=case.pk)
    for party in parties:
        party.case = case
    return parties


def case_assignees(case: Case) -> list[User]:
    """The people assigned to ``case``, by name."""
    return _ASSIGNEES.rows(case=case.pk)


def team_open_cases_of(*, user: int, agency: int, now: dt.datetime) -> QuerySet[Case]:
    """:func:`team_open_case_set` of the supervisor of id ``user``, of ``agency``, at ``now`` (the
    values ``policy.visible_cases_values`` gives): what a statement compiled once per process
    builds with its stand-ins."""
    return policy.visible_cases_of(True, user=user, agency=agency, now=now).filter(
        team__in=Team.objects.filter(members=user), status__in=OPEN_STATUSES
    )


def supervisor_overview(user: User) -> dict:
    """The supervisor's teams at a glance: each person's open and high-risk cases, the cases
    waiting for someone, emergency access to review and conflicts of interest."""
    found = policy.visible_cases_values(user)
    if found is None or not found[0] or found[1]["agency"] is None:
        return _overview(user, policy.visible_cases(user), list(policy.supervised_teams(user)))
    values = found[1]
    team_cases = _team_cases_of(**values)
    teams = list(policy.supervised_teams(user))
    counts = _per_person_counts(team_cases)
    per_advocate = _PEOPLE.rows(user=values["user"])
    _count_beside(per_advocate, counts)
    unassigned = _UNASSIGNED.rows(**values)
    conflicts = _CONFLICTS.rows(**values)
    prefetch_related_objects([*unassigned, *conflicts], _survivors())
    return {
        "teams": teams,
        "per_advocate": per_advocate,
        "unassigned": unassigned,
        "break_glass": _GRANTS.rows(**values),
        "conflicts": conflicts,
    }


def _overview(user: User, visible: QuerySet[Case], teams: list) -> dict:
    """:func:`supervisor_overview` with each statement built (whoever supervises no team)."""
    team_cases = visible.filter(team__in=policy.supervised_teams(user))
    per_advocate = list(_people(policy.supervised_teams(user)))
    _count_beside(per_advocate, _per_person_counts(team_cases))
    return {
        "teams": teams,
        "per_advocate": per_advocate,
        "unassigned": list(case_rows(_unassigned(team_cases))[:50]),
        "break_glass": list(_grants(team_cases)),
        "conflicts": list(case_rows(_conflicts(team_cases))[:20]),
    }


def _per_person_counts(team_cases: QuerySet[Case]) -> dict[int, Any]:
    # Open and high-risk counts per person in one grouped query over the assignments of the
    # team's open cases, joined to the staff list in Python: a per-user annotation over
    # ``visible_cases`` subqueries took hundreds of milliseconds at agency scale.
    return {
        row["user_id"]: row
        for row in CaseAssignment.objects.filter(
            case__in=team_cases.filter(status__in=OPEN_STATUSES)
        )
        .values("user_id")
        .annotate(
            active=Count("case_id", distinct=True),
            high=Count("case_id", filter=Q(case__risk_level=RiskLevel.HIGH), distinct=True),
        )
        .order_by()
    }


def _count_beside(people: list[User], counts: dict[int, Any]) -> None:
    for person in people:
        row: Any = counts.get(person.pk, {})
        # Shown in the supervisor's table beside each person.
        person.active_cases = row.get("active", 0)  # type: ignore[attr-defined]
        person.high_risk = row.get("high", 0)  # type: ignore[attr-defined]


def _people(teams: QuerySet[Team]) -> QuerySet[User]:
    return (
        User.objects.filter(teams__in=teams, membership__is_active=True, is_active=True)
        .distinct()
        .select_related("membership")
        .order_by("first_name", "last_name", "username")
    )


def _unassigned(team_cases: QuerySet[Case]) -> QuerySet[Case]:
    return team_cases.filter(status=CaseStatus.REFERRAL, assignments__isnull=True)


def _conflicts(team_cases: QuerySet[Case]) -> QuerySet[Case]:
    return team_cases.filter(conflict_flag=True, status__in=OPEN_STATUSES)


def _grants(team_cases: QuerySet[Case]) -> QuerySet[BreakGlassGrant]:
    return (
        BreakGlassGrant.objects.filter(case__in=team_cases, reviewed_at__isnull=True)
        .select_related("user", "case")
        .only(
            "granted_at",
            "expires_at",
            "user__username",
            "user__first_name",
            "user__last_name",
            "case__public_id",
            "case__reference",
        )
        .order_by("-granted_at")[:20]
    )


def _team_cases_of(*, user: int, agency: int, now: dt.datetime) -> QuerySet[Case]:
    """The cases of the teams the supervisor of id ``user`` belongs to, within their scope."""
    return policy.visible_cases_of(True, user=user, agency=agency, now=now).filter(
        team__in=Team.objects.filter(members=user)
    )


#: The supervisor's overview, its SQL built once per process (the survivors of the case rows
#: and the counts per person are built each time).
_PEOPLE = CompiledQuery(User, lambda user: _people(Team.objects.filter(members=user)), user="int")
_UNASSIGNED = CompiledQuery(
    Case,
    lambda **v: _case_columns(_unassigned(_team_cases_of(**v)), None, v["now"])[:50],
    user="int",
    agency="int",
    now="datetime",
)
_CONFLICTS = CompiledQuery(
    Case,
    lambda **v: _case_columns(_conflicts(_team_cases_of(**v)), None, v["now"])[:20],
    user="int",
    agency="int",
    now="datetime",
)
_GRANTS = CompiledQuery(
    BreakGlassGrant,
    lambda **v: _grants(_team_cases_of(**v)),
    user="int",
    agency="int",
    now="datetime",
)


@dataclass(frozen=True)
class NameMatches:
    #: The matching cases ``user`` may read, as list rows (metadata only).
    cases: list[Case]
    #: Whether a matching case may exist in the agency outside the user's scope (restricted
    #: cases are never hinted at: they are restricted so that nobody learns of them).
    elsewhere: bool


def find_by_name(user, *, name: str, role: str) -> NameMatches:
    """Cases of ``user``'s agency where a person of ``role`` has ``name``, through the blind
    index only: the name is never queried, stored or logged in plain text."""
    index = name_index_for(name)
    agency_id = policy.agency_id_of(user)
    if not index or agency_id is None:
        return NameMatches([], False)
    matching = Party.objects.filter(case__agency_id=agency_id, role=role, name_index=index).values(
        "case_id"
    )
    visible = policy.visible_cases(user).filter(pk__in=matching)
    cases = list(case_rows(visible, user)[:NAME_MATCH_LIMIT])
    elsewhere = (
        Case.objects.filter(agency_id=agency_id, restricted=False, pk__in=matching)
        .exclude(pk__in=visible.values("pk"))
        .exists()
    )
    return NameMatches(cases, elsewhere)


#: How many of the user's own cases a similar-name search reads at most (newest first). An
#: advocate's caseload is far smaller; a supervisor's team may be larger, and is told so.
SIMILAR_SCAN_LIMIT = 3000


@dataclass
class SimilarNames:
    #: The user's own cases with a person of the role whose name is like the one searched.
    cases: list[Case]
    #: Whether the user may see more cases than were read (``SIMILAR_SCAN_LIMIT``).
    partial: bool
    #: Every case found (``cases`` lists at most ``NAME_MATCH_LIMIT`` of them).
    found: frozenset[int] = frozenset()


def _words_match(wanted: list[str], words: list[str]) -> bool:
    """Every word searched is in the name: the same, the start of a word (two letters or more),
    or, from four letters, one letter off (added, dropped, changed or two swapped)."""
    for want in wanted:
        if not any(
            word == want
            or (len(want) >= 2 and word.startswith(want))
            or (len(want) >= 4 and OSA.distance(want, word, score_cutoff=1) <= 1)
            for word in words
        ):
            return False
    return True


def _names_match(wanted: list[str], party: Party) -> bool:
    """A name of ``party`` (full name, the name they go by, another name they were known by)
    matches every word of ``wanted``; with nothing wanted, any person does."""
    if not wanted:
        return True
    return any(
        known and _words_match(wanted, normalise_identity(known).split())
        for known in (party.full_name, party.known_as or "", *party.alias_list)
    )


def find_similar_in_own_cases(
    user, *, name: str = "", role: str, date_of_birth: dt.date | None = None
) -> SimilarNames:
    """The cases ``user`` may read where a person of ``role`` is called something like
    ``name``: part of the name, the surname alone, the name they go by, another name they were
    known by, or one letter off. With ``date_of_birth`` the person was also born that day (a
    date of birth alone finds everyone of the role born that day).

    Names are encrypted, so this reads and decrypts the names of the user's own cases in
    memory (never the agency's: the agency-wide check stays exact, on the blind index). Nothing
    is stored or logged but the cases found."""
    wanted = normalise_identity(name).split()
    born = date_of_birth.isoformat() if date_of_birth is not None else None
    if not wanted and born is None:
        return SimilarNames([], False)
    visible = policy.visible_cases(user)
    case_ids = list(
        visible.order_by("-opened_at").values_list("pk", flat=True)[: SIMILAR_SCAN_LIMIT + 1]
    )
    partial = len(case_ids) > SIMILAR_SCAN_LIMIT
    case_ids = case_ids[:SIMILAR_SCAN_LIMIT]
    keys = dict(CaseKey.objects.filter(case_id__in=case_ids).values_list("case_id", "wrapped"))
    found: set[int] = set()
    parties = (
        Party.objects.filter(case_id__in=case_ids, role=role)
        .only("pk", "case_id", "full_name", "known_as", "aliases", "date_of_birth")
        .iterator(chunk_size=500)
    )
    unwrapped: dict[int, Any] = {}
    for party in parties:
        if party.case_id in found or party.case_id not in keys:
            continue
        if party.case_id not in unwrapped:
            unwrapped[party.case_id] = unwrap_data_key(keys[party.case_id])
        holder = Case(pk=party.case_id)
        holder.__dict__["_data_key"] = unwrapped[party.case_id]
        party.case = holder
        if born is not None and party.date_of_birth != born:
            continue
        if _names_match(wanted, party):
            found.add(party.case_id)
    cases = list(case_rows(visible.filter(pk__in=found), user)[:NAME_MATCH_LIMIT])
    return SimilarNames(cases, partial, frozenset(found))


def break_glass_until(user: User, case: Case) -> dt.datetime | None:
    """When ``user``'s emergency access to ``case`` ends, if they hold one now."""
    return (
        BreakGlassGrant.objects.filter(case=case, user=user, expires_at__gt=timezone.now())
        .order_by("-expires_at")
        .values_list("expires_at", flat=True)
        .first()
    )
