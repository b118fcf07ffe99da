"""The foundation's pages against the stock Django admin on the same rows, and the floor."""

from __future__ import annotations

from django.urls import reverse

from bench.harness import (
    BenchContext,
    Peer,
    Row,
    client_for,
    compare,
    count_queries,
    get,
    scale_cast,
)
from caseflow.cases.models import Case, CaseStatus

OPEN = f"{CaseStatus.REFERRAL},{CaseStatus.ACTIVE}"
ADMIN_CHANGELIST = "/bench/admin/cases/case/"


def _advocate_dashboard(ctx: BenchContext, which: str) -> list[Row]:
    cast = scale_cast()
    advocate = getattr(cast, which)
    n = cast.open_cases(advocate)
    operator = client_for(cast.operator)
    rows = compare(
        ctx,
        f"advocate dashboard ({n} open cases)",
        get(client_for(advocate), reverse("dashboard")),
        [
            Peer(
                "admin changelist, filtered",
                get(
                    operator,
                    f"{ADMIN_CHANGELIST}?primary_advocate__id__exact={advocate.pk}"
                    f"&status__in={OPEN}",
                ),
                max_ratio=0.15,
            ),
            Peer(
                "floor: ORM query + minimal template",
                get(client_for(advocate), "/bench/floor/dashboard/"),
                max_ratio=3.0,
            ),
        ],
    )
    rows[0].notes.append(f"the admin shows 100 rows a page; the dashboard shows all {n}")
    return rows


def advocate_dashboard_typical(ctx: BenchContext) -> list[Row]:
    return _advocate_dashboard(ctx, "typical")


def advocate_dashboard_overloaded(ctx: BenchContext) -> list[Row]:
    rows = _advocate_dashboard(ctx, "overloaded")
    cast = scale_cast()
    typical = count_queries(get(client_for(cast.typical), reverse("dashboard")))
    n, big = cast.open_cases(cast.typical), rows[0].caseflow_queries
    same = "the same" if typical == big else "NOT the same"
    rows[0].notes.append(
        f"SQL queries at {n} and at {cast.open_cases(cast.overloaded)} cases: "
        f"{typical} and {big}, {same}"
    )
    return rows


def supervisor_team_view(ctx: BenchContext) -> list[Row]:
    cast = scale_cast()
    team = cast.supervisor.teams.get()
    return compare(
        ctx,
        f"supervisor team view ({team.cases.count()} team cases)",
        get(client_for(cast.supervisor), reverse("dashboard")),
        [
            Peer(
                "admin changelist of the team's cases",
                get(client_for(cast.operator), f"{ADMIN_CHANGELIST}?team__id__exact={team.pk}"),
            )
        ],
    )


def case_page(ctx: BenchContext) -> list[Row]:
    cast = scale_cast()
    case = (
        Case.objects.filter(
            assignments__user=cast.typical,
            status=CaseStatus.ACTIVE,
            restricted=False,
        )
        .order_by("-opened_at")
        .first()
    )
    return compare(
        ctx,
        "case page (with its audit write)",
        get(client_for(cast.typical), reverse("cases:detail", args=[case.public_id])),
        [
            Peer(
                "admin change form",
                get(client_for(cast.operator), f"{ADMIN_CHANGELIST}{case.pk}/change/"),
                max_ratio=0.5,
            )
        ],
    )


BENCHMARKS = [
    advocate_dashboard_typical,
    advocate_dashboard_overloaded,
    supervisor_team_view,
    case_page,
]
