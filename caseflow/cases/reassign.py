"""Handing open cases to a new primary advocate, many at once, and the daily check that no open
case is left without one.

A supervisor picks cases of the teams they supervise (by advocate, risk or team) and a new
primary advocate. Each case is assigned as on its own assignment page (``services.case_assign``,
audited per case); the leaving advocate's open follow-ups on it pass to the new one, and every
feature's ``handover`` member passes on its own work (check-ins: the future check-ins, and a
first check-in proposed in the survivor's safe window). All or nothing: one case that cannot be
handed over hands none.

A member of staff who is the primary advocate of an open case cannot be deactivated
(``agency.services.staff_save``): :func:`open_primary_cases` says how many, and the message leads
to this page. The daily check (:func:`no_primary_sweep`) tells the team's supervisors of any
open case whose primary advocate is missing or no longer active; the same cases head
"Decisions waiting".
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import Role, Team, User
from caseflow.audit.services import record
from caseflow.cases import features, services
from caseflow.cases.models import OPEN_STATUSES, Case
from caseflow.inbox.kinds import NOTIFICATION_WORDS
from caseflow.inbox.models import FollowUp, FollowUpStatus
from caseflow.inbox.services import notify
from caseflow.lib.i18n import gettext_lazy as _

#: At most this many cases are handed over in one go (one transaction).
MOST_AT_ONCE = 200


def open_primary_cases(user: User) -> QuerySet[Case]:
    """The open cases (referral, active or dormant) whose primary advocate is ``user``."""
    return Case.objects.filter(primary_advocate=user).exclude(status="closed")


def reassignable_cases(
    actor: Any,
    *,
    advocate: User | None = None,
    team: Team | None = None,
    risk: str = "",
) -> QuerySet[Case]:
    """Cases not closed, of the teams ``actor`` supervises and may see, narrowed by primary
    advocate, team and risk level."""
    if policy.active_role(actor) != Role.SUPERVISOR:
        return Case.objects.none()
    cases = (
        policy.visible_cases(actor)
        .filter(team__in=policy.supervised_teams(actor))
        .exclude(status="closed")
    )
    if advocate is not None:
        cases = cases.filter(primary_advocate=advocate)
    if team is not None:
        cases = cases.filter(team=team)
    if risk:
        cases = cases.filter(risk_level=risk)
    return cases.select_related("team", "primary_advocate").order_by("reference", "pk")


@transaction.atomic
def cases_reassign(*, actor: User, cases: Iterable[Case], primary: User) -> int:
    """Make ``primary`` the primary advocate of every one of ``cases``; the previous primary
    advocate leaves the case, other advocates stay. Returns how many cases changed hands.

    Raises ``PermissionDenied`` for a case the actor may not assign and ``ValidationError`` for
    a new advocate who may not work a case (``services.case_assign`` checks both per case)."""
    cases = list(cases)
    if not cases:
        raise ValidationError(_("Choose at least one case."))
    if len(cases) > MOST_AT_ONCE:
        raise ValidationError(
            _("Hand over at most %(most)s cases at once.") % {"most": MOST_AT_ONCE}
        )
    handovers = features.members(lambda f: f.handover)
    changed = 0
    previous_ids: set[int] = set()
    for case in cases:
        if not policy.may(actor, case, "assign"):
            raise PermissionDenied
        previous = case.primary_advocate
        if previous is not None and previous.pk == primary.pk:
            continue
        # The other advocates stay, as long as they may still work cases (a deactivated one
        # left on the case goes with the handover).
        assignable = set(policy.assignable_users(case).values_list("pk", flat=True))
        others = [
            u
            for u in case.assignees.all()
            if u.pk in assignable
            and u.pk != primary.pk
            and (previous is None or u.pk != previous.pk)
        ]
        services.case_assign(actor=actor, case=case, primary=primary, others=others)
        if previous is not None:
            previous_ids.add(previous.pk)
            FollowUp.objects.filter(
                case=case, assignee=previous, status=FollowUpStatus.OPEN
            ).update(assignee=primary)
        for handover in handovers:
            handover(actor=actor, case=case, previous=previous, primary=primary)
        changed += 1
    record(
        "case.reassign_many",
        actor=actor,
        object_type="user",
        object_id=str(primary.pk),
        detail={"cases": changed, "primary": primary.pk, "previous": sorted(previous_ids)},
    )
    return changed


def without_active_primary() -> QuerySet[Case]:
    """Open cases whose primary advocate is missing, deactivated or no longer a member."""
    return Case.objects.filter(status__in=OPEN_STATUSES).filter(
        Q(primary_advocate__isnull=True)
        | Q(primary_advocate__is_active=False)
        | Q(primary_advocate__membership__is_active=False)
    )


NO_PRIMARY_KIND = "no_primary"


def no_primary_sweep() -> int:
    """Tell the supervisors of each open case without an active primary advocate, once a day
    per case (the notification's key holds the day). Returns how many were told."""
    today = timezone.now().date().isoformat()
    told = 0
    for case in without_active_primary().select_related("team"):
        supervisors = case.team.members.filter(
            is_active=True, membership__is_active=True, membership__role=Role.SUPERVISOR
        )
        told += len(
            notify(
                recipients=supervisors,
                kind=NO_PRIMARY_KIND,
                case=case,
                key=f"no_primary:{case.pk}:{today}",
                text=str(NOTIFICATION_WORDS[NO_PRIMARY_KIND]),
            )
        )
    return told
