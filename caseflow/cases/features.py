"""How a part of caseflow joins the case: one :class:`CaseFeature` per app, registered once.

Every place an app can add to a case is a member of :class:`CaseFeature`, listed here with its
contract. An app builds its feature in its own ``feature.py`` (``FEATURE = CaseFeature(...)``)
and registers it with one call in its ``AppConfig.ready``::

    def ready(self) -> None:
        from caseflow.cases.features import register_feature
        from caseflow.safety.feature import FEATURE

        register_feature(FEATURE)

``cases`` and the parts that show a case (the case page, timeline, trend, today queue, closure,
packs) then iterate over :func:`registered`. Nothing else registers anything.

The members
-----------

``name``
    The app's label (``"safety"``). One feature per app: the start-up check ``cases.E001`` fails
    when an installed app has a ``feature`` module but registered no feature, ``cases.E002`` when
    a registered feature names no installed app.
``order``
    Where the feature stands among the others (unique). Members that carry no order of their own
    (facts, calendar sources, next-due, open work, pack rows, follow-up kinds, revokers) are
    read in this order.
``panels``
    :class:`Panel` sections of the case page. ``render(request, case)`` gets a case already
    resolved through policy (the read is recorded by the page) and returns ``(template name,
    context)``, or ``None`` to show nothing. It never fetches the case, never widens who sees
    what. Panels of every feature are shown by ``Panel.order`` (unique across features).
    ``Panel.contents``, optional, is ``(anchor, label)``: the id of the panel's heading and the
    word for it in the page's contents list ("Notes", "Safety"), shown only when the panel is.
``case_facts``
    ``() -> {name: expression}``: annotations (``Exists``, ``Subquery``) that the case page's one
    facts query computes before any panel queries its own rows, read by a panel with
    :func:`caseflow.cases.panels.fact` / ``may_have``. They depend on the case only (built once
    per process). A panel must stay correct when the facts were not run (``fact`` is ``None``).
``case_related``
    One-to-one relations of the case to load in that same query (``("safety_plan",)``), read with
    :func:`caseflow.cases.panels.loaded`.
``timeline``
    :class:`caseflow.cases.timeline.Source` per kind of dated record; the contract of ``fetch``
    is in :mod:`caseflow.cases.timeline` (a page of its own kind, constant queries, keyset).
    Kinds are unique across features; sources are listed by ``(order, kind)``.
``trend``
    :class:`caseflow.cases.trend.TrendSource`: ``fetch(case, since)`` returns ``(moment,
    category)`` for the journey's trend picture, in a fixed number of queries; ``summary(case,
    since)``, optional, adds lines in words after the row's own (facts and counts only). Kinds
    unique; rows drawn by ``(order, kind)``.
``trend_lines``
    :class:`caseflow.cases.trend.TrendLine`: ``fetch(case, since)`` returns ``(moment, series,
    number)`` for a line of numbers on the journey's trend picture (the survivor's own ratings),
    each series on its own scale, in a fixed number of queries. Kinds unique (with the trend's
    count rows); lines drawn by ``(order, kind)`` beside the risk level, above the counts.
``queue``
    :class:`caseflow.cases.today.QueueSource`: ``fetch(scope)`` returns the items overdue or due
    today on the scope's cases (already within policy), metadata only, constant queries. Names
    unique; asked by ``(order, name)``.
``calendar``
    :class:`caseflow.cases.calendar.CalendarSource`: ``fetch(user, since, until)`` returns the
    events of the user's own cases for the staff calendar feed (``checkins:feed``), a neutral
    title and the time only, never case data (no name, reference, court or place); the contract
    is in :mod:`caseflow.cases.calendar`. Names unique; asked in the features' order.
``next_due``
    ``() -> QuerySet`` of ``due_at`` values correlated on ``OuterRef("pk")``: what else falls due
    on a case besides its follow-ups (the case tables' "Next due" column).
``open_work``
    :class:`OpenWork` kept running on an open case (future check-ins): closing lists it on the
    closure page (``list_open(case)``, plain lines) and cancels it (``cancel(case, *,
    actor)``, returning how many). Kinds unique.
``closure_needs``
    :class:`ClosureNeeds`: how closing reads and marks the survivor's needs. At most one feature
    keeps needs (casework); a second is an error.
``pack_rows``
    :class:`PackRows`: what a category of a referral pack or case export holds
    (``rows(case) -> [(label, value)]``). A category's rows follow the features' order. The
    categories are the confidentiality app's (``confidentiality.E003`` checks the names).
``closure_proposals``
    ``(case) -> {closure field: (value, words)}``: what the closure form starts with when nothing
    was entered yet ("feels safer", read from her own ratings), and a line in plain words saying
    what it was read from. The advocate can change it. A field proposed by two features takes
    the first in the features' order.
``followup_kinds``
    ``TextChoices`` classes of the follow-ups the feature creates; the inbox stores the value and
    shows the label. A value is declared by one feature only.
``credential_revokers``
    :class:`caseflow.lib.contributions.CredentialRevoker`: ended with the user's sessions.
``user_language``
    ``(user) -> language code | None``: the language written to a member of staff outside a
    request (e-mails). At most one feature says it (cases).
``handover``
    :class:`Handover`: ``(*, actor, case, previous, primary)``, called in the transaction that
    hands an open case from its primary advocate ``previous`` (``None`` if it had none) to
    ``primary`` (:mod:`caseflow.cases.reassign`): what the feature gave the previous advocate
    to do on the case passes to the new one.
``checkin_occasions``
    :class:`OccasionSource` per kind of date around which a check-in is proposed (a hard date
    the survivor named, a handover in an agreement). ``for_case(case, today)`` returns the
    case's next occasion of each record (one per record: a yearly date's next occurrence, the
    next handover) as :class:`Occasion`; ``coming(since, until)`` every open case's occasions
    whose ``day`` falls in ``[since, until)``, for the check-ins' sweep. The survivor's day is
    read in her safe-contact profile's zone. The check-ins app turns them into proposals in her
    safe window (:mod:`caseflow.checkins.proposals`); ``key`` names the record and the
    occurrence, so an occurrence is proposed once: its follow-up's source key is
    :data:`OCCASION_SOURCE_PREFIX` + ``key``, which the feature cancels when the record goes.
    Kinds unique.
``decisions``
    ``(user) -> caseflow.cases.decisions.Group``: one more kind of decision waiting for a
    supervisor, shown at the top of their home page after the case's own kinds, in the
    features' order (transfers in, from another agency). Metadata only (no names, nothing
    encrypted), one query whatever the number of items, items oldest first and at most
    ``decisions.SHOWN``; the group is returned even when empty, under a ``kind`` of its own.
``field_words``
    :class:`FieldWords`: the words for the names of the fields or questions that a feature's
    audit events of one area (the action's first part, ``"hud_answers"``) list under
    ``detail["changed"]``, so that the audit pages name them in the reader's language instead of
    showing the names caseflow stores.
``event_audiences``
    :class:`caseflow.lib.contributions.EventAudience`: ``(agency_id, kind) -> bool``, whether
    the agency has anyone subscribed to an event (:mod:`caseflow.outbox.events`). An event
    nobody listens to is not fanned out at all.

Narrative fields are not a member: they are declared on the model that holds them
(``narrative_fields`` / ``kept_encrypted_fields``, checked by ``confidentiality.E001``), where a
new encrypted field is written.

One rule for a repeat: registering the very same feature object again does nothing (Django runs
``ready()`` again when a test installs another app); anything else that takes a name, a kind or
an order already taken raises :class:`~django.core.exceptions.ImproperlyConfigured` at start-up.

The layers
----------

``cases`` may not import the apps above it, so the registry lives here and the apps above
register into it. The contributions read by layers *below* ``cases`` (follow-up kinds by the
inbox, credential revokers by accounts, the user's language by ``lib.i18n``) are handed down:
importing this module installs one reader in :mod:`caseflow.lib.contributions`, which those
layers ask. No lower layer imports ``cases``, and import-linter's contracts hold unchanged.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from django.core.exceptions import ImproperlyConfigured
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest

from caseflow.lib import contributions
from caseflow.lib.contributions import CredentialRevoker, EventAudience

if TYPE_CHECKING:
    from caseflow.accounts.models import User
    from caseflow.cases.calendar import CalendarSource
    from caseflow.cases.decisions import Group
    from caseflow.cases.models import Case
    from caseflow.cases.timeline import Source
    from caseflow.cases.today import QueueSource
    from caseflow.cases.trend import TrendLine, TrendSource

T = TypeVar("T")
PanelResult = tuple[str, dict[str, Any]] | None
PackRowsList = list[tuple[str, str]]


@dataclass(frozen=True, eq=False)
class Panel:
    render: Callable[[HttpRequest, Case], PanelResult]
    order: int
    #: ``(heading id, word)`` for the case page's contents list; ``None`` to stay out of it.
    contents: tuple[str, str] | None = None


class CancelOpenWork(Protocol):
    """Cancels a case's open work of one kind as it closes; returns how many items went."""

    def __call__(self, case: Case, *, actor: User | None) -> int: ...


@dataclass(frozen=True, eq=False)
class OpenWork:
    kind: str
    #: Plain words for the closure page: "Future check-ins".
    label: str
    list_open: Callable[[Case], list[str]]
    cancel: CancelOpenWork


@dataclass(frozen=True, eq=False)
class ClosureNeeds:
    """The needs still open, as (public id, words) for the closure form; the words for needs by
    id (the journey page); and marking needs met when the case closes."""

    open_choices: Callable[[Case], list[tuple[str, str]]]
    labels: Callable[[Case, list[str]], list[str]]
    mark_met: Callable[[Case, list[str], User], int]


@dataclass(frozen=True, eq=False)
class PackRows:
    #: A confidentiality ``Category`` value ("safety_plan", "court_orders", "evidence", ...).
    category: str
    rows: Callable[[Case], PackRowsList]


class Handover(Protocol):
    """Passes the feature's work on ``case`` from ``previous`` to ``primary`` (see above)."""

    def __call__(
        self, *, actor: User, case: Case, previous: User | None, primary: User
    ) -> None: ...


#: The source key of the follow-up that keeps an occasion proposed is this + ``Occasion.key``.
OCCASION_SOURCE_PREFIX = "proposal:"


@dataclass(frozen=True)
class Occasion:
    """One date around which a check-in is proposed (see ``checkin_occasions``)."""

    case_id: int
    #: The record and the occurrence ("hard_date:12:2027-03-14"): one proposal per key.
    key: str
    #: Plain words for the advocate on the case's own pages (may be case data: never sent).
    label: str
    #: The survivor's day the check-in is wanted on.
    day: dt.date
    #: The check-in falls in ``[not_before, not_after)`` (UTC instants; ``None``: open).
    not_before: dt.datetime | None = None
    not_after: dt.datetime | None = None


@dataclass(frozen=True, eq=False)
class OccasionSource:
    kind: str
    for_case: Callable[[Case, dt.date], list[Occasion]]
    coming: Callable[[dt.date, dt.date], Iterable[Occasion]]


@dataclass(frozen=True, eq=False)
class FieldWords:
    """The words for the field (or question) names an area's audit events list as changed."""

    area: str
    #: ``() -> {name: label}``, asked when an event is shown (labels are lazy).
    words: Callable[[], Mapping[str, Any]]


@dataclass(frozen=True, eq=False)
class CaseFeature:
    name: str
    order: int
    panels: tuple[Panel, ...] = ()
    case_facts: Callable[[], dict[str, Any]] | None = None
    case_related: tuple[str, ...] = ()
    timeline: tuple[Source, ...] = ()
    trend: tuple[TrendSource, ...] = ()
    trend_lines: tuple[TrendLine, ...] = ()
    queue: tuple[QueueSource, ...] = ()
    calendar: tuple[CalendarSource, ...] = ()
    next_due: tuple[Callable[[], QuerySet[Any]], ...] = ()
    open_work: tuple[OpenWork, ...] = ()
    closure_needs: ClosureNeeds | None = None
    pack_rows: tuple[PackRows, ...] = ()
    closure_proposals: tuple[Callable[[Case], dict[str, tuple[str, str]]], ...] = ()
    followup_kinds: tuple[type[models.TextChoices], ...] = ()
    credential_revokers: tuple[CredentialRevoker, ...] = ()
    user_language: Callable[[Any], str | None] | None = None
    event_audiences: tuple[EventAudience, ...] = ()
    decisions: tuple[Callable[[Any], Group], ...] = ()
    handover: tuple[Handover, ...] = ()
    checkin_occasions: tuple[OccasionSource, ...] = ()
    field_words: tuple[FieldWords, ...] = ()


#: The registered features, by ``order``. Replaced (never changed in place) on each
#: registration, so what is derived from it can be cached on it.
_FEATURES: tuple[CaseFeature, ...] = ()


def register_feature(feature: CaseFeature) -> None:
    """Add ``feature`` to every case (from its app's ``AppConfig.ready``)."""
    global _FEATURES
    if any(f is feature for f in _FEATURES):
        return
    candidate = tuple(sorted((*_FEATURES, feature), key=lambda f: f.order))
    problems = clashes(candidate)
    if problems:
        raise ImproperlyConfigured(f"case feature {feature.name!r}: " + "; ".join(problems))
    _FEATURES = candidate


def registered() -> tuple[CaseFeature, ...]:
    return _FEATURES


def clashes(features: Sequence[CaseFeature]) -> list[str]:
    """Every name, kind or order that two of ``features`` both take."""
    problems: list[str] = []

    def unique(what: str, keys: list[Any]) -> None:
        seen: set[Any] = set()
        for key in keys:
            if key in seen:
                problems.append(f"two {what} are both {key!r}")
            seen.add(key)

    unique("features' names", [f.name for f in features])
    unique("features' orders", [f.order for f in features])
    unique("case-page panels' orders", [p.order for f in features for p in f.panels])
    unique("timeline kinds", [s.kind for f in features for s in f.timeline])
    unique(
        "trend kinds",
        [s.kind for f in features for s in f.trend]
        + [s.kind for f in features for s in f.trend_lines],
    )
    unique("today-queue sources", [s.name for f in features for s in f.queue])
    unique("calendar sources", [s.name for f in features for s in f.calendar])
    unique("kinds of open work", [w.kind for f in features for w in f.open_work])
    unique("check-in occasions", [o.kind for f in features for o in f.checkin_occasions])
    unique(
        "follow-up kinds",
        [value for f in features for choices in f.followup_kinds for value in choices.values],
    )
    if sum(f.closure_needs is not None for f in features) > 1:
        problems.append("more than one feature keeps the needs closing reads")
    if sum(f.user_language is not None for f in features) > 1:
        problems.append("more than one feature says which language a user reads")
    return problems


def members(pick: Callable[[CaseFeature], Sequence[T]]) -> list[T]:
    """One member of every feature, in the features' order: ``members(lambda f: f.next_due)``."""
    return [item for feature in _FEATURES for item in pick(feature)]


def closure_proposals(case: Case) -> dict[str, tuple[str, str]]:
    """{closure field: (value, words)} every feature proposes for ``case``; the first wins."""
    proposed: dict[str, tuple[str, str]] = {}
    for propose in members(lambda f: f.closure_proposals):
        for name, value in propose(case).items():
            proposed.setdefault(name, value)
    return proposed


def closure_needs() -> ClosureNeeds | None:
    return next((f.closure_needs for f in _FEATURES if f.closure_needs is not None), None)


# --- What the layers below cases read (see "The layers" above) ---------------------------------


class _Contributions:
    def followup_kinds(self) -> Sequence[type[models.TextChoices]]:
        return members(lambda f: f.followup_kinds)

    def credential_revokers(self) -> Sequence[CredentialRevoker]:
        return members(lambda f: f.credential_revokers)

    def user_language(self, user: Any) -> str | None:
        resolver = next((f.user_language for f in _FEATURES if f.user_language), None)
        return resolver(user) if resolver is not None else None

    def anyone_listening(self, agency_id: int, kind: str) -> bool:
        return any(listening(agency_id, kind) for listening in members(lambda f: f.event_audiences))


contributions.install(_Contributions())
