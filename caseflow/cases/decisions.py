"""What waits for a supervisor's decision, for the top of their home page: high-risk closures to
approve, emergency access to review, open cases without an active primary advocate and risk
levels lowered by hand below the latest assessment; then what the features add
(``CaseFeature.decisions``: transfers in from another agency).

Metadata only (case reference, kind, date and the link where the decision is made): no names and
nothing encrypted is loaded. One query per kind, whatever the number of items.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery, Window
from django.urls import reverse

from caseflow import policy
from caseflow.accounts.models import Team
from caseflow.cases import features
from caseflow.cases.models import (
    OPEN_STATUSES,
    BreakGlassGrant,
    Case,
    Closure,
    ClosureState,
    RiskLevelChange,
)
from caseflow.lib.compiled import CompiledQuery
from caseflow.lib.i18n import gettext_lazy as _

#: Items listed per kind (the count says how many there are in all).
SHOWN = 10


@dataclass(frozen=True)
class Item:
    reference: str
    at: Any
    link: str


@dataclass
class Group:
    kind: str
    title: Any
    action: Any
    total: int = 0
    items: list[Item] = field(default_factory=list)
    #: Where all of this kind are dealt with together, and the link's words (optional).
    more_link: str = ""
    more_words: Any = ""


def _take(rows: list[Any]) -> int:
    return rows[0].total if rows else 0


def _closures(team_cases: QuerySet[Case], user: Any) -> QuerySet[Closure]:
    return (
        Closure.objects.filter(
            case__in=team_cases, state=ClosureState.AWAITING_APPROVAL, needs_approval=True
        )
        .exclude(requested_by=user)  # a second person approves
        .annotate(total=Window(Count("pk")))
        .select_related("case")
        .only("requested_at", "case__public_id", "case__reference")
        .order_by("requested_at", "pk")[:SHOWN]
    )


def _grants(team_cases: QuerySet[Case], user: Any) -> QuerySet[BreakGlassGrant]:
    return (
        BreakGlassGrant.objects.filter(case__in=team_cases, reviewed_at__isnull=True)
        .annotate(total=Window(Count("pk")))
        .select_related("case")
        .only("granted_at", "case__public_id", "case__reference")
        .order_by("granted_at", "pk")[:SHOWN]
    )


def _no_primary(team_cases: QuerySet[Case], user: Any) -> QuerySet[Case]:
    return (
        team_cases.filter(status__in=OPEN_STATUSES)
        .filter(
            Q(primary_advocate__isnull=True)
            | Q(primary_advocate__is_active=False)
            | Q(primary_advocate__membership__is_active=False)
        )
        .annotate(total=Window(Count("pk")))
        .only("public_id", "reference", "opened_at")
        .order_by("opened_at", "pk")[:SHOWN]
    )


def _lowered(team_cases: QuerySet[Case], user: Any) -> QuerySet[Case]:
    latest = RiskLevelChange.objects.filter(case=OuterRef("pk")).order_by("-at", "-pk")
    return (
        team_cases.filter(status__in=OPEN_STATUSES)
        .annotate(
            lowered=Subquery(latest.values("below_assessment")[:1]),
            lowered_at=Subquery(latest.values("at")[:1]),
        )
        .filter(lowered=True)
        .annotate(total=Window(Count("pk")))
        .only("public_id", "reference")
        .order_by("lowered_at", "pk")[:SHOWN]
    )


_KINDS = (
    (Closure, _closures),
    (BreakGlassGrant, _grants),
    (Case, _no_primary),
    (Case, _lowered),
)


def _of_ids(read: Any, *, user: int, agency: int, now: dt.datetime) -> QuerySet[Any]:
    """``read`` of the cases of the teams the supervisor of id ``user`` belongs to, in their
    scope at ``now`` (``policy.visible_cases_values``)."""
    scope = policy.visible_cases_of(True, user=user, agency=agency, now=now)
    return read(scope.filter(team__in=Team.objects.filter(members=user)), user)


#: A supervisor's four kinds, read with SQL compiled once per process.
_COMPILED = [
    CompiledQuery(model, functools.partial(_of_ids, read), user="int", agency="int", now="datetime")
    for model, read in _KINDS
]


def _rows(user: Any) -> list[list[Any]]:
    """The rows of each of :data:`_KINDS` for ``user``: compiled for a supervisor of an agency,
    built for anyone else."""
    found = policy.visible_cases_values(user)
    if found is not None and found[0] and found[1]["agency"] is not None:
        return [compiled.rows(**found[1]) for compiled in _COMPILED]
    return _built_rows(user)


def _built_rows(user: Any) -> list[list[Any]]:
    team_cases = policy.visible_cases(user).filter(team__in=policy.supervised_teams(user))
    return [list(read(team_cases, user)) for _model, read in _KINDS]


def decisions_waiting(user: Any) -> list[Group]:
    """The groups of what waits for ``user``'s decision, in the order shown (empty groups
    included, so the page can say there is nothing of that kind)."""
    closures, grants, no_primary, lowered = _rows(user)
    return [
        Group(
            "closures",
            _("High-risk closures waiting for your approval"),
            _("Decide"),
            _take(closures),
            [
                Item(
                    c.case.reference,
                    c.requested_at,
                    reverse("cases:closure", args=[c.case.public_id]),
                )
                for c in closures
            ],
        ),
        Group(
            "emergency",
            _("Emergency access waiting for review"),
            _("Review"),
            _take(grants),
            [
                Item(
                    g.case.reference,
                    g.granted_at,
                    reverse("audit:break_glass_review", args=[g.pk]),
                )
                for g in grants
            ],
        ),
        Group(
            "no_primary",
            _("Open cases without an active primary advocate"),
            _("Assign"),
            _take(no_primary),
            [
                Item(c.reference, c.opened_at, reverse("cases:assign", args=[c.public_id]))
                for c in no_primary
            ],
            reverse("cases:reassign"),
            _("Hand several cases over at once"),
        ),
        Group(
            "lowered",
            _("Risk levels lowered by hand below the latest assessment"),
            _("Look at the risk level"),
            _take(lowered),
            [
                Item(c.reference, c.lowered_at, reverse("cases:risk", args=[c.public_id]))
                for c in lowered
            ],
        ),
        *(group(user) for group in features.members(lambda f: f.decisions)),
    ]


def waiting_count(groups: list[Group]) -> int:
    return sum(g.total for g in groups)
