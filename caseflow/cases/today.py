"""The today queue: what is overdue and what is due today, for an advocate (their own work) or
a supervisor (their teams' work), from every part of caseflow, on the home page.

Each feature of a case (:mod:`caseflow.cases.features`) brings its :class:`QueueSource` (check-ins
and follow-ups, plan reviews, expiring orders and releases, contacts waiting for review…). A source
answers with :class:`QueueItem` rows for a :class:`Scope` (whose work, on which cases, and what
"today" means), in a constant number of queries, metadata only: the home page never decrypts case
content.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from django.db.models import Model, QuerySet
from django.utils import timezone

from caseflow.accounts import zones
from caseflow.cases import features
from caseflow.lib.compiled import CompiledQuery, Kind

M = TypeVar("M", bound=Model)

#: At most this many items per source, so one case with a backlog does not fill the page.
PER_SOURCE = 50


@dataclass(frozen=True)
class Scope:
    user: Any
    #: The cases whose items are shown (the user's own, or their teams'), already within policy.
    cases: QuerySet
    #: Only items assigned to ``user`` (an advocate's queue) or everyone's (a supervisor's).
    own_only: bool
    now: dt.datetime
    #: The staff's day: midnight to midnight where the agency works.
    day_start: dt.datetime
    day_end: dt.datetime
    #: The ids of ``cases`` when it is exactly the cases the page has just listed
    #: (:func:`listed_scope`): the sources then send SQL compiled once per process for that
    #: number of cases (:class:`ListedQuery`).
    listed: tuple[int, ...] | None = None
    #: The values of ``selectors.team_open_cases_of`` (``user``, ``agency``, ``now``) when
    #: ``cases`` is exactly a supervisor's teams' open cases (:func:`team_scope`): the sources
    #: then send SQL compiled once per process for a supervisor's teams.
    teams: dict[str, Any] | None = None


@dataclass(frozen=True)
class Action:
    label: str
    url: str
    #: A one-tap POST (e.g. "Mark done") rather than a link to a page.
    post: bool = False
    #: Fields of the one-tap form besides the CSRF token.
    fields: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class QueueItem:
    due_at: dt.datetime
    #: Plain words for the kind: "Check-in", "Follow-up", "Safety plan review".
    kind: str
    #: What to do, in plain words, without personal data: "Call (phone)", "Review the plan".
    title: str
    case_reference: str
    case_public_id: str
    action: Action
    #: The case's primary key, for the audit record of what the page listed (never shown).
    case_id: int = 0
    #: Whose item it is (shown on a supervisor's queue), and their primary key (for its filter).
    owner: str = ""
    owner_id: int = 0
    #: The survivor's local time and whether it is safe to reach them now, when it matters.
    local_time: str = ""
    safe_now: bool | None = None
    #: Due on a date rather than at a time (orders, releases, reviews).
    all_day: bool = False
    #: Just done, and still undoable: listed apart with its "Undo".
    done: bool = False
    notes: tuple[str, ...] = field(default_factory=tuple)
    #: How many like things this one line stands for (automatic follow-ups of one kind on one
    #: case are merged into one item, with the earliest due date).
    count: int = 1
    #: Like items (on a supervisor's queue, grouped under one line): a stable key of the kind
    #: (defaults to the source's name) and its words (defaults to ``kind``).
    group_key: str = ""
    group_label: str = ""
    #: Listed first of its list whatever its date (a high-risk case with no safety plan yet).
    first: bool = False

    @property
    def like(self) -> str:
        return str(self.group_label or self.kind)


@dataclass(frozen=True)
class QueueSource:
    name: str
    fetch: Callable[[Scope], list[QueueItem]]
    order: int


def registered_sources() -> tuple[QueueSource, ...]:
    """Every feature's queue sources, by ``(order, name)``."""
    return tuple(sorted(features.members(lambda f: f.queue), key=lambda s: (s.order, s.name)))


def staff_zone() -> zoneinfo.ZoneInfo:
    """Where the agency's staff work: the day boundaries of "today" and the times they read
    (the zone activated for the request: the agency's, see :mod:`caseflow.accounts.zones`)."""
    return zones.current()


def day_bounds(now: dt.datetime) -> tuple[dt.datetime, dt.datetime]:
    """The staff's day around ``now`` (midnight to midnight where they work), in UTC."""
    local = now.astimezone(staff_zone())
    start = dt.datetime.combine(local.date(), dt.time(0), tzinfo=local.tzinfo)
    end = dt.datetime.combine(local.date() + dt.timedelta(days=1), dt.time(0), tzinfo=local.tzinfo)
    return start.astimezone(dt.UTC), end.astimezone(dt.UTC)


def scope_for(user: Any, cases: QuerySet, *, own_only: bool, now: dt.datetime | None = None):
    now = now or timezone.now()
    day_start, day_end = day_bounds(now)
    return Scope(
        user=user, cases=cases, own_only=own_only, now=now, day_start=day_start, day_end=day_end
    )


def listed_scope(
    user: Any, case_ids: Iterable[int], *, own_only: bool, now: dt.datetime | None = None
) -> Scope:
    """:func:`scope_for` the cases of ``case_ids``, which the page has just read within policy
    (``selectors.listed_case_set``: the same queryset by id)."""
    from caseflow.cases.models import Case

    ids = tuple(dict.fromkeys(case_ids))  # as ``pk__in`` sends them: each once, in order
    scope = scope_for(user, Case.objects.filter(pk__in=list(ids)), own_only=own_only, now=now)
    return replace(scope, listed=ids)


def team_scope(user: Any, *, now: dt.datetime | None = None) -> Scope:
    """:func:`scope_for` the open cases of the teams ``user`` supervises, within their scope
    (``selectors.team_open_case_set``), at the same ``now`` as the day's bounds."""
    from caseflow import policy
    from caseflow.cases import selectors

    found = policy.visible_cases_values(user)
    if found is None or not found[0] or found[1]["agency"] is None:
        return scope_for(user, selectors.team_open_case_set(user), own_only=False, now=now)
    values = {**found[1], "now": now or found[1]["now"]}
    scope = scope_for(
        user, selectors.team_open_cases_of(**values), own_only=False, now=values["now"]
    )
    return replace(scope, teams=values)


#: The numbers of listed cases a source keeps its statement compiled for (a caseload takes a
#: handful of sizes over a process's life); past them the statement is built per request.
LISTED_SIZES_MAX = 64


class ListedQuery(Generic[M]):
    """A queue source's statement, ``build(cases=<cases>, **values)``, compiled once per process
    for each number of listed cases (:attr:`Scope.listed`): the very statement the queryset
    sends with the listed cases' ids in their places (tests compare them); and once per process
    for a supervisor's teams' open cases (:attr:`Scope.teams`, with the supervisor, their agency
    and the time as its values). For a scope built from any other queryset it is built each
    time."""

    def __init__(self, model: type[M], build: Callable[..., QuerySet[M]], **slots: Kind):
        self.model = model
        self.build = build
        self.slots = slots
        self._by_size: dict[int, CompiledQuery[M]] = {}
        self._teams: CompiledQuery[M] | None = None

    def _team_compiled(self) -> CompiledQuery[M]:
        compiled = self._teams
        if compiled is None:
            from caseflow.cases import selectors

            def build(*, team_user: int, team_agency: int, team_now: dt.datetime, **values: Any):
                cases = selectors.team_open_cases_of(
                    user=team_user, agency=team_agency, now=team_now
                )
                return self.build(cases=cases, **values)

            slots: dict[str, Kind] = {
                **self.slots,
                "team_user": "int",
                "team_agency": "int",
                "team_now": "datetime",
            }
            compiled = self._teams = CompiledQuery(self.model, build, **slots)
        return compiled

    def _compiled(self, size: int) -> CompiledQuery[M] | None:
        compiled = self._by_size.get(size)
        if compiled is None and size > 0 and len(self._by_size) < LISTED_SIZES_MAX:
            from caseflow.cases.models import Case

            names = tuple(f"case_{n}" for n in range(size))

            def build(**values: Any) -> QuerySet[M]:
                cases = Case.objects.filter(pk__in=[values.pop(name) for name in names])
                return self.build(cases=cases, **values)

            slots: dict[str, Kind] = {**self.slots, **dict.fromkeys(names, "int")}
            compiled = self._by_size.setdefault(size, CompiledQuery(self.model, build, **slots))
        return compiled

    def rows(self, scope: Scope, **values: Any) -> list[M]:
        """The rows for ``scope``'s cases and ``values``."""
        if scope.teams is not None:
            teams = {f"team_{name}": value for name, value in scope.teams.items()}
            return self._team_compiled().rows(**values, **teams)
        compiled = None if scope.listed is None else self._compiled(len(scope.listed))
        if compiled is None or scope.listed is None:
            return list(self.build(cases=scope.cases, **values))
        ids: dict[str, Any] = {f"case_{n}": pk for n, pk in enumerate(scope.listed)}
        return compiled.rows(**{**values, **ids})


@dataclass(frozen=True)
class Queue:
    overdue: list[QueueItem]
    today: list[QueueItem]
    #: Done in the last few minutes, with an "Undo".
    recent: list[QueueItem] = field(default_factory=list)

    @property
    def case_ids(self) -> set[int]:
        return {i.case_id for i in self.overdue + self.today}

    def __len__(self) -> int:
        return len(self.overdue) + len(self.today)


def queue(scope: Scope) -> Queue:
    """Every source's items for ``scope``: overdue first (oldest first), then due today."""
    items: list[QueueItem] = []
    for source in registered_sources():
        items.extend(
            i if i.group_key else replace(i, group_key=source.name)
            for i in source.fetch(scope)[:PER_SOURCE]
        )
    items.sort(key=lambda i: (not i.first, i.due_at, str(i.kind), i.case_reference))
    recent = [i for i in items if i.done]
    items = [i for i in items if not i.done]
    overdue = [i for i in items if _is_overdue(i, scope)]
    today = [i for i in items if not _is_overdue(i, scope) and i.due_at < scope.day_end]
    return Queue(overdue, today, recent)


def _is_overdue(item: QueueItem, scope: Scope) -> bool:
    # Something due on a date is overdue only once that day is over.
    return item.due_at < (scope.day_start if item.all_day else scope.now)


def local_date_start(day: dt.date) -> dt.datetime:
    """The start of ``day`` where staff work, in UTC: the ``due_at`` of an all-day item."""
    return dt.datetime.combine(day, dt.time(0), tzinfo=staff_zone()).astimezone(dt.UTC)


def staff_day(scope: Scope) -> dt.date:
    return scope.now.astimezone(staff_zone()).date()


@dataclass
class KindGroup:
    """Like items of one person, under one expandable line."""

    key: str
    label: str
    #: ("overdue" or "today", item), oldest first.
    rows: list[tuple[str, QueueItem]] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(item.count for _key, item in self.rows)

    @property
    def overdue(self) -> int:
        return sum(item.count for key, item in self.rows if key == "overdue")


@dataclass
class PersonGroup:
    owner: str
    owner_id: int
    kinds: list[KindGroup] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(group.count for group in self.kinds)

    @property
    def overdue(self) -> int:
        return sum(group.overdue for group in self.kinds)


def grouped(
    queue: Queue, *, owner_id: int = 0, kind: str = "", overdue_only: bool = False
) -> list[PersonGroup]:
    """A supervisor's queue, by person (by name) then by kind of item (in the order of the
    person's oldest item of that kind), keeping only what the filters ask for."""
    rows = [("overdue", i) for i in queue.overdue]
    if not overdue_only:
        rows += [("today", i) for i in queue.today]
    people: dict[tuple[str, int], PersonGroup] = {}
    for key, item in rows:
        if (owner_id and item.owner_id != owner_id) or (kind and item.group_key != kind):
            continue
        person = people.get((item.owner, item.owner_id))
        if person is None:
            person = people[(item.owner, item.owner_id)] = PersonGroup(item.owner, item.owner_id)
        group = next((g for g in person.kinds if g.key == item.group_key), None)
        if group is None:
            group = KindGroup(item.group_key, item.like)
            person.kinds.append(group)
        group.rows.append((key, item))
    return sorted(people.values(), key=lambda p: (p.owner.casefold(), p.owner_id))


def kinds_listed(queue: Queue) -> list[tuple[str, str]]:
    """The kinds of item on ``queue`` as (key, words), for its filter."""
    kinds = {i.group_key: i.like for i in queue.overdue + queue.today}
    return sorted(kinds.items(), key=lambda kv: kv[1].casefold())
