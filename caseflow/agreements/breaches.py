"""Who can breach a contact agreement: the one rule every part of caseflow asks.

Only the other party's contact can be a breach. The survivor's own contact outside the agreed
terms is recorded neutrally ("Outside the agreed terms — from the survivor"), for safety
planning: it is never reviewed as a breach, never escalates, and never appears in the breach
register, a breach count, a trend chart, a chronology or an export as a breach. The agency must
never produce evidence against its own client.

Every consumer of breaches goes through this module: :func:`counted_breaches` (the register,
counts, escalation, chronology, packs, charts), :func:`breach_events` (contact events that are
breaches), :func:`can_breach` and :func:`review_for_survivor` (the services), and
:func:`breach_counts` (counts for a set of cases). ``tests/agreements/test_fair_register.py``
fails when code elsewhere queries ``Breach`` directly.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count, QuerySet

from caseflow.agreements import terms
from caseflow.agreements.models import Breach, ContactEvent, ReviewState

#: The direction of the other party's contact: the only contact that can be a breach.
OTHER_PARTY = terms.Direction.TO_SURVIVOR.value
SURVIVOR = terms.Direction.FROM_SURVIVOR.value


def can_breach(direction: str) -> bool:
    """Whether contact in ``direction`` can ever be recorded as a breach."""
    return str(direction) == OTHER_PARTY


def review_for_survivor(violations: Iterable[object]) -> str:
    """The neutral review state of the survivor's own contact: outside the agreed terms when the
    checker found any term not kept, within them otherwise. Never pending, never a breach."""
    return ReviewState.SURVIVOR_OUTSIDE if list(violations) else ReviewState.SURVIVOR_WITHIN


def is_breach(event: ContactEvent) -> bool:
    """Whether a contact event shows as a breach (the other party's, confirmed)."""
    return can_breach(event.direction) and event.review == ReviewState.BREACH


def counted_breaches(queryset: QuerySet[Breach] | None = None) -> QuerySet[Breach]:
    """The breaches that count (the other party's), from ``queryset`` or all of them."""
    rows = Breach.objects.all() if queryset is None else queryset
    return rows.filter(event__direction=OTHER_PARTY)


def breach_events(queryset: QuerySet[ContactEvent] | None = None) -> QuerySet[ContactEvent]:
    """Contact events recorded as the other party's breaches."""
    rows = ContactEvent.objects.all() if queryset is None else queryset
    return rows.filter(direction=OTHER_PARTY, review=ReviewState.BREACH)


def breach_counts(case_ids: Iterable[int]) -> dict[int, int]:
    """How many breaches count on each case (cases without any are left out)."""
    rows = (
        counted_breaches()
        .filter(case_id__in=list(case_ids))
        .values("case_id")
        .annotate(n=Count("pk"))
        .order_by()
    )
    return {row["case_id"]: row["n"] for row in rows}
