"""Read-side queries for list pages: metadata only, scoped by policy, constant query counts."""

from __future__ import annotations

from django.db.models import Count, Q

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.cases.models import BreakGlassGrant, CaseStatus, RiskLevel

OPEN_STATUSES = (CaseStatus.REFERRAL, CaseStatus.ACTIVE)


def case_rows(queryset):
    """The columns list pages show: metadata only, nothing encrypted is loaded."""
    return (
        queryset.select_related("primary_advocate", "team")
        .only(
            "public_id",
            "reference",
            "status",
            "risk_level",
            "opened_at",
            "restricted",
            "team__name",
            "primary_advocate__first_name",
            "primary_advocate__last_name",
            "primary_advocate__username",
        )
        .order_by("-opened_at", "pk")
    )


def supervisor_overview(user: User) -> dict:
    teams = policy.supervised_teams(user)
    team_cases = policy.visible_cases(user).filter(team__in=teams)
    per_advocate = (
        User.objects.filter(teams__in=teams, membership__is_active=True, is_active=True)
        .distinct()
        .annotate(
            active_cases=Count(
                "case_assignments",
                filter=Q(case_assignments__case__in=team_cases.filter(status__in=OPEN_STATUSES)),
                distinct=True,
            ),
            high_risk=Count(
                "case_assignments",
                filter=Q(
                    case_assignments__case__in=team_cases.filter(
                        status__in=OPEN_STATUSES, risk_level=RiskLevel.HIGH
                    )
                ),
                distinct=True,
            ),
        )
        .select_related("membership")
        .order_by("first_name", "last_name", "username")
    )
    unassigned = list(
        case_rows(team_cases.filter(status=CaseStatus.REFERRAL, assignments__isnull=True))[:50]
    )
    grants = (
        BreakGlassGrant.objects.filter(case__in=team_cases, reviewed_at__isnull=True)
        .select_related("user", "case")
        .only(
            "granted_at",
            "expires_at",
            "user__username",
            "user__first_name",
            "user__last_name",
            "case__public_id",
            "case__reference",
        )
        .order_by("-granted_at")[:20]
    )
    return {
        "teams": list(teams),
        "per_advocate": list(per_advocate),
        "unassigned": unassigned,
        "break_glass": list(grants),
        "conflicts": list(
            case_rows(team_cases.filter(conflict_flag=True, status__in=OPEN_STATUSES))[:20]
        ),
    }
