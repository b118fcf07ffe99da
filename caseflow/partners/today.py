"""Risk meeting actions past their due date, on their owner's today queue (see
:mod:`caseflow.cases.today`). An advocate sees the actions they own; a supervisor every overdue
action on their teams' cases."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from caseflow import policy
from caseflow.cases.models import OPEN_STATUSES as OPEN
from caseflow.cases.today import (
    PER_SOURCE,
    Action,
    QueueItem,
    QueueSource,
    Scope,
    local_date_start,
    staff_day,
)
from caseflow.partners.models import ActionStatus, MeetingAction


def action_items(scope: Scope) -> list[QueueItem]:
    today = staff_day(scope)
    actions = MeetingAction.objects.filter(
        status=ActionStatus.OPEN, owner__isnull=False, due_on__lte=today
    )
    if scope.own_only:
        # The owner need not work the case: every case they may see, within policy.
        actions = actions.filter(
            owner=scope.user, case__in=policy.visible_cases(scope.user).filter(status__in=OPEN)
        )
    else:
        actions = actions.filter(case__in=scope.cases)
    rows = (
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
