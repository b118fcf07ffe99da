"""Cover: while an advocate is away, a colleague sees and works their cases, and it ends by itself.

A supervisor sets it for a member of a team they supervise, from a first day to a last day in the
agency's time zone; the colleague covering must work in one of the supervisor's teams too. The
access itself is :mod:`caseflow.policy`'s (``covered_for``): cases the absent advocate is
assigned to, restricted ones excepted, and every event of a request that reached a case only
through cover carries ``as_cover`` in the audit trail.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from caseflow import policy
from caseflow.accounts import zones
from caseflow.accounts.models import Role, User
from caseflow.audit.services import record
from caseflow.cases.models import Cover
from caseflow.lib.i18n import gettext_lazy as _

#: The longest cover set in one go; a longer absence is a reassignment.
LONGEST = dt.timedelta(days=92)


def covers_to_show(actor: Any) -> QuerySet[Cover]:
    """Covers now and to come for the people of the actor's teams."""
    return (
        Cover.objects.filter(
            absent__in=policy.supervised_caseworkers(actor),
            ended_at__isnull=True,
            ends_at__gt=timezone.now(),
        )
        .select_related("absent", "covering")
        .order_by("starts_at", "pk")
    )


def _bounds(agency: Any, first_day: dt.date, last_day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """From the start of ``first_day`` to the end of ``last_day``, in the agency's zone."""
    zone = zones.agency_zone(agency)
    start = dt.datetime.combine(first_day, dt.time(0), tzinfo=zone)
    end = dt.datetime.combine(last_day + dt.timedelta(days=1), dt.time(0), tzinfo=zone)
    return start.astimezone(dt.UTC), end.astimezone(dt.UTC)


@transaction.atomic
def cover_set(
    *, actor: User, absent: User, covering: User, first_day: dt.date, last_day: dt.date
) -> Cover:
    """``covering`` covers ``absent`` from ``first_day`` to ``last_day`` (both included).
    Raises ``PermissionDenied`` outside the actor's teams and ``ValidationError`` for dates or
    people that cannot be."""
    if policy.active_role(actor) != Role.SUPERVISOR:
        raise PermissionDenied
    people = set(policy.supervised_caseworkers(actor).values_list("pk", flat=True))
    if absent.pk not in people or covering.pk not in people:
        raise PermissionDenied
    if absent.pk == covering.pk:
        raise ValidationError(_("Choose a colleague other than the person who is away."))
    today = timezone.localdate(timezone.now(), zones.agency_zone(actor.membership.agency))
    if last_day < first_day:
        raise ValidationError(_("The last day cannot be before the first day."))
    if first_day < today:
        raise ValidationError(_("Cover starts today at the earliest."))
    start, end = _bounds(actor.membership.agency, first_day, last_day)
    if end - start > LONGEST:
        raise ValidationError(
            _(
                "Cover lasts three months at the most. For a longer absence, hand the cases "
                "over from Reassign cases."
            )
        )
    cover = Cover.objects.create(
        agency_id=actor.membership.agency_id,
        absent=absent,
        covering=covering,
        starts_at=start,
        ends_at=end,
        set_by=actor,
    )
    record(
        "cover.set",
        actor=actor,
        obj=cover,
        detail={
            "absent": absent.pk,
            "covering": covering.pk,
            "first_day": first_day.isoformat(),
            "last_day": last_day.isoformat(),
        },
    )
    return cover


@transaction.atomic
def cover_end(*, actor: User, cover: Cover) -> Cover:
    """End a cover now (the absent colleague is back early)."""
    if cover.absent_id not in set(
        policy.supervised_caseworkers(actor).values_list("pk", flat=True)
    ):
        raise PermissionDenied
    locked = Cover.objects.select_for_update().get(pk=cover.pk)
    if locked.ended_at is None and locked.ends_at > timezone.now():
        locked.ended_at = timezone.now()
        locked.save(update_fields=["ended_at"])
        record("cover.end", actor=actor, obj=locked, detail={"absent": locked.absent_id})
    return locked
