"""Risk meeting actions past their due date, on their owner's today queue (see
:mod:`caseflow.cases.today`). An advocate sees the actions they own; a supervisor every overdue
action on their teams' cases."""

from __future__ import annotations

import datetime as dt
import functools

from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from caseflow import policy
from caseflow.cases.models import OPEN_STATUSES as OPEN
from caseflow.cases.models import Case
from caseflow.cases.today import (
    PER_SOURCE,
    Action,
    ListedQuery,
    QueueItem,
    QueueSource,
    Scope,
    local_date_start,
    staff_day,
)
from caseflow.lib.compiled import CompiledQuery
from caseflow.partners.models import ActionStatus, MeetingAction


def _listed(actions: QuerySet[MeetingAction]) -> QuerySet[MeetingAction]:
    return (
        actions.select_related("case", "owner", "referral")
        .only(
            "pk",
            "due_on",
            "case__id",
            "case__public_id",
            "case__reference",
            "referral__public_id",
            "referral__meeting_name",
            "owner__username",
            "owner__first_name",
            "owner__last_name",
        )
        .order_by("due_on", "pk")[:PER_SOURCE]
    )


def _due(today: dt.date) -> QuerySet[MeetingAction]:
    return MeetingAction.objects.filter(
        status=ActionStatus.OPEN, owner__isnull=False, due_on__lte=today
    )


def _own(
    supervisor: bool, *, user: int, agency: int, now: dt.datetime, today: dt.date
) -> QuerySet[MeetingAction]:
    """The user's own actions due by ``today``: the owner need not work the case, every case
    they may see, within policy, at ``now``."""
    visible = policy.visible_cases_of(supervisor, user=user, agency=agency, now=now)
    return _listed(_due(today).filter(owner=user, case__in=visible.filter(status__in=OPEN)))


#: :func:`_own` compiled once per process, for an advocate (False) and a supervisor (True).
_OWN = {
    supervisor: CompiledQuery(
        MeetingAction,
        functools.partial(_own, supervisor),
        user="int",
        agency="int",
        now="datetime",
        today="date",
    )
    for supervisor in (False, True)
}


def _team(*, cases: QuerySet[Case], today: dt.date) -> QuerySet[MeetingAction]:
    return _listed(_due(today).filter(case__in=cases))


_TEAM = ListedQuery(MeetingAction, _team, today="date")


def action_items(scope: Scope) -> list[QueueItem]:
    today = staff_day(scope)
    if scope.own_only:
        found = policy.visible_cases_values(scope.user)
        if found is None:
            return []  # no case to see, so no action on one
        supervisor, values = found
        rows = _OWN[supervisor].rows(**values, today=today)
    else:
        rows = _TEAM.rows(scope, today=today)
    items = []
    for action in rows:
        case = action.case
        owner = action.owner
        assert owner is not None
        items.append(
            QueueItem(
                due_at=local_date_start(action.due_on),
                kind=_("Risk meeting action"),
                title=_("An action agreed at %(meeting)s")
                % {"meeting": action.referral.meeting_name},
                case_reference=case.reference,
                case_public_id=case.public_id,
                case_id=case.pk,
                action=Action(
                    _("Open the meeting"),
                    reverse("partners:meeting", args=[case.public_id, action.referral.public_id]),
                ),
                owner=owner.get_full_name() or owner.username,
                owner_id=owner.pk,
                all_day=True,
            )
        )
    return items


#: This part's sources of the today queue (its feature brings them).
SOURCES = (QueueSource("meeting_actions", action_items, order=35),)
