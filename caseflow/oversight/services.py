"""Oversight work over the audit trail: reviewing emergency access, recording its expiry, and
alerting supervisors to unusual access. Each writes its own audit event."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from caseflow.accounts.models import User
from caseflow.audit.models import AuditEvent
from caseflow.audit.services import record
from caseflow.inbox.services import followup_ensure, notifications_resolve, notify

# --- Break-glass review and expiry ---------------------------------------------------------------


class AlreadyReviewed(Exception):
    """Someone reviewed this emergency access already; a review is never overwritten."""


@transaction.atomic
def break_glass_review(*, actor: User, grant: Any, outcome: str, comment: str) -> Any:
    """Review one emergency access: justified, not justified or needing follow-up, with the
    reviewer's comment (encrypted with the case; asked for unless it was justified). Needing
    follow-up adds a follow-up on the case for the reviewer, the comment as its details; not
    justified is raised with the agency's admins."""
    from django.core.exceptions import PermissionDenied

    from caseflow import policy
    from caseflow.cases.models import BREAK_GLASS_COMMENT_NEEDED, BreakGlassGrant, BreakGlassOutcome

    if not policy.may_review_break_glass(actor, grant):
        raise PermissionDenied
    if outcome not in BreakGlassOutcome.values:
        raise ValueError(f"unknown review outcome {outcome!r}")
    comment = comment.strip()
    if outcome in BREAK_GLASS_COMMENT_NEEDED and not comment:
        raise ValueError(f"a review as {outcome!r} needs a comment")
    now = timezone.now()
    # A conditional update: of two reviewers saving at once, exactly one wins.
    updated = BreakGlassGrant.objects.filter(pk=grant.pk, reviewed_at__isnull=True).update(
        reviewed_by=actor, reviewed_at=now, review_outcome=outcome
    )
    if not updated:
        raise AlreadyReviewed
    grant.reviewed_by, grant.reviewed_at, grant.review_outcome = actor, now, outcome
    grant.review_comment = comment
    grant.save(update_fields=["review_comment"])
    record(
        "break_glass.review",
        actor=actor,
        case=grant.case,
        obj=grant,
        object_id=str(grant.pk),
        detail={
            "grant": grant.pk,
            "user": grant.user_id,
            "outcome": outcome,
            "fields": ["review_outcome", "review_comment"],
        },
    )
    notifications_resolve(key=f"break_glass:{grant.pk}")
    if outcome == BreakGlassOutcome.NOT_JUSTIFIED:
        _raise_with_admins(grant)
    elif outcome == BreakGlassOutcome.FOLLOW_UP:
        _follow_up_for_reviewer(grant, actor=actor, now=now)
    return grant


#: How long the reviewer has to follow up an emergency access.
FOLLOW_UP_DAYS = 2


def _follow_up_for_reviewer(grant: Any, *, actor: User, now: dt.datetime) -> None:
    """A follow-up on the case for the supervisor who asked for it (shown with their own follow-ups
    and on the case), the review comment as its details (encrypted with the case)."""
    from caseflow.cases.models import CaseFollowUpKind

    followup_ensure(
        case=grant.case,
        kind=CaseFollowUpKind.BREAK_GLASS_FOLLOW_UP,
        due_at=now + dt.timedelta(days=FOLLOW_UP_DAYS),
        source_key=f"break_glass:{grant.pk}:follow_up",
        assignee=actor,
        actor=actor,
        details=grant.review_comment,
    )


def _raise_with_admins(grant: Any) -> None:
    """An emergency access reviewed as not justified is raised with the agency's admins: a
    notification by kind (its words are shown in each admin's language), linking to the account
    of the member of staff who used it. No case reference, no names."""
    from django.urls import reverse

    from caseflow.accounts.models import Role
    from caseflow.inbox.kinds import notification_words

    admins = User.objects.filter(
        is_active=True,
        membership__agency_id=grant.agency_id,
        membership__role=Role.AGENCY_ADMIN,
        membership__is_active=True,
    )
    kind = "break_glass_not_justified"
    notify(
        recipients=admins,
        kind=kind,
        case=None,
        key=f"break_glass:{grant.pk}:not_justified",
        text=notification_words(kind, ""),
        link=reverse("agency:staff_edit", args=[grant.user_id]),
    )


#: Grants that expired longer ago than this are assumed recorded (the sweep runs every minute).
EXPIRY_LOOKBACK = dt.timedelta(days=30)
# Any constant: two sweeps running at once record each expiry once.
_EXPIRY_LOCK_KEY = 0x0CA5EF11


def _lock_expiry_sweep() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", [_EXPIRY_LOCK_KEY])
    # SQLite: every transaction begins IMMEDIATE; the writer is alone.


def break_glass_expire_sweep(*, now: dt.datetime | None = None) -> int:
    """Record ``break_glass.expire`` once for each grant whose time is up. Returns how many.

    A sweep rather than a lazy check on the next request: the expiry happens whether or not
    anyone asks for the case again, and the access check stays a read-only query shared by
    every page. Idempotent: each grant is checked again under the chain lock before recording,
    so overlapping sweeps record it once.
    """
    from caseflow.cases.models import BreakGlassGrant

    now = now or timezone.now()
    due = list(
        BreakGlassGrant.objects.filter(expires_at__lte=now, expires_at__gt=now - EXPIRY_LOOKBACK)
        .select_related("case")
        .only("pk", "user_id", "expires_at", "case__id", "case__agency_id")
        .order_by("expires_at", "pk")
    )
    if not due:
        return 0
    recorded = set(
        AuditEvent.objects.filter(
            action="break_glass.expire", object_id__in=[str(g.pk) for g in due]
        ).values_list("object_id", flat=True)
    )
    count = 0
    for grant in due:
        if str(grant.pk) in recorded:
            continue
        with transaction.atomic():
            _lock_expiry_sweep()
            if AuditEvent.objects.filter(
                action="break_glass.expire", object_id=str(grant.pk)
            ).exists():
                continue
            record(
                "break_glass.expire",
                case=grant.case,
                object_type="breakglassgrant",
                object_id=str(grant.pk),
                detail={
                    "grant": grant.pk,
                    "user": grant.user_id,
                    "expired_at": grant.expires_at.astimezone(dt.UTC).isoformat(),
                },
            )
            count += 1
    return count


# --- Unusual access -----------------------------------------------------------------------------


def _caseloads(user_ids: set[int]) -> dict[int, set[int]]:
    """Each user's own caseload: cases assigned to them, and for supervisors their teams' cases."""
    from caseflow.accounts.models import Role, Team
    from caseflow.cases.models import Case, CaseAssignment

    loads: dict[int, set[int]] = {pk: set() for pk in user_ids}
    for user_id, case_id in CaseAssignment.objects.filter(user_id__in=user_ids).values_list(
        "user_id", "case_id"
    ):
        loads[user_id].add(case_id)
    supervising = Team.members.through.objects.filter(
        user_id__in=user_ids, user__membership__role=Role.SUPERVISOR
    ).values_list("user_id", "team_id")
    for user_id, team_id in supervising:
        loads[user_id].update(Case.objects.filter(team_id=team_id).values_list("pk", flat=True))
    return loads


def unusual_access_sweep(*, now: dt.datetime | None = None) -> list[int]:
    """Tell the supervisors of each member of staff who opened more than
    ``AUDIT_UNUSUAL_ACCESS_PER_HOUR`` distinct cases outside their caseload in the last hour.

    Once per user per clock hour (the notification key carries the hour). Run by beat every few
    minutes rather than on each read, so reading a case costs no more than its audit event.
    Returns the ids of the users reported.
    """
    from django.conf import settings
    from django.urls import reverse

    from caseflow.accounts.models import Role, User
    from caseflow.inbox.models import Notification
    from caseflow.inbox.services import notify

    now = now or timezone.now()
    limit = settings.AUDIT_UNUSUAL_ACCESS_PER_HOUR
    opened: dict[int, set[int]] = {}
    pairs = (
        AuditEvent.objects.reads()
        .filter(
            at__gt=now - dt.timedelta(hours=1),
            at__lte=now,
            case_id__isnull=False,
            actor_id__isnull=False,
        )
        .values_list("actor_id", "case_id")
        .distinct()
    )
    for actor_id, case_id in pairs:
        opened.setdefault(actor_id, set()).add(case_id)
    suspects = {pk for pk, cases in opened.items() if len(cases) > limit}
    if not suspects:
        return []
    loads = _caseloads(suspects)
    reported = []
    hour = now.astimezone(dt.UTC).strftime("%Y-%m-%dT%H")
    for user_id in sorted(suspects):
        outside = len(opened[user_id] - loads[user_id])
        if outside <= limit:
            continue
        user = User.objects.select_related("membership").filter(pk=user_id).first()
        if user is None or user.membership_or_none is None:
            continue
        supervisors = (
            User.objects.filter(
                teams__in=user.teams.all(),
                is_active=True,
                membership__role=Role.SUPERVISOR,
                membership__is_active=True,
            )
            .exclude(pk=user_id)
            .distinct()
        )
        with transaction.atomic():
            notes = notify(
                recipients=supervisors,
                kind="unusual_access",
                case=None,
                key=f"unusual_access:{user_id}:{hour}",
                message=gettext_noop(
                    "Unusual access: a member of your team opened %(count)s cases outside "
                    "their caseload within an hour. Please review their activity."
                ),
                values={"count": outside},
            )
            if not notes:
                continue
            Notification.objects.filter(pk__in=[n.pk for n in notes]).update(
                link=reverse("audit:user", args=[user_id])
            )
            record(
                "alert.unusual_access",
                object_type="user",
                object_id=str(user_id),
                agency_id=user.membership.agency_id,
                detail={"cases_outside_caseload": outside, "limit": limit, "hour": hour},
            )
        reported.append(user_id)
    return reported
