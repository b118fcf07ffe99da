"""What waits for a supervisor's decision, for the top of their home page: high-risk closures to
approve, emergency access to review, open cases without an active primary advocate and risk
levels lowered by hand below the latest assessment; then what the features add
(``CaseFeature.decisions``: transfers in from another agency).

Metadata only (case reference, kind, date and the link where the decision is made): no names and
nothing encrypted is loaded. One query per kind, whatever the number of items.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, OuterRef, Q, Subquery, Window
from django.urls import reverse

from caseflow import policy
from caseflow.cases import features
from caseflow.cases.models import (
    OPEN_STATUSES,
    BreakGlassGrant,
    Closure,
    ClosureState,
    RiskLevelChange,
)
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


def decisions_waiting(user: Any) -> list[Group]:
    """The groups of what waits for ``user``'s decision, in the order shown (empty groups
    included, so the page can say there is nothing of that kind)."""
    teams = policy.supervised_teams(user)
    team_cases = policy.visible_cases(user).filter(team__in=teams)
    total = Window(Count("pk"))

    closures = list(
        Closure.objects.filter(
            case__in=team_cases, state=ClosureState.AWAITING_APPROVAL, needs_approval=True
        )
        .exclude(requested_by=user)  # a second person approves
        .annotate(total=total)
        .select_related("case")
        .only("requested_at", "case__public_id", "case__reference")
        .order_by("requested_at", "pk")[:SHOWN]
    )
    grants = list(
        BreakGlassGrant.objects.filter(case__in=team_cases, reviewed_at__isnull=True)
        .annotate(total=total)
        .select_related("case")
        .only("granted_at", "case__public_id", "case__reference")
        .order_by("granted_at", "pk")[:SHOWN]
    )
    no_primary = list(
        team_cases.filter(status__in=OPEN_STATUSES)
        .filter(
            Q(primary_advocate__isnull=True)
            | Q(primary_advocate__is_active=False)
            | Q(primary_advocate__membership__is_active=False)
        )
        .annotate(total=total)
        .only("public_id", "reference", "opened_at")
        .order_by("opened_at", "pk")[:SHOWN]
    )
    latest = RiskLevelChange.objects.filter(case=OuterRef("pk")).order_by("-at", "-pk")
    lowered = list(
        team_cases.filter(status__in=OPEN_STATUSES)
        .annotate(
            lowered=Subquery(latest.values("below_assessment")[:1]),
            lowered_at=Subquery(latest.values("at")[:1]),
        )
        .filter(lowered=True)
        .annotate(total=total)
        .only("public_id", "reference")
        .order_by("lowered_at", "pk")[:SHOWN]
    )
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
