"""What the pages list and what the funders' reports count."""

from __future__ import annotations

import datetime as dt
from collections import Counter

from django.db.models import Count, Sum

from caseflow import policy
from caseflow.community.models import EducationSession, OutcomeSurvey


def recent_sessions(agency_id: int, since: dt.date, limit: int = 50) -> list[EducationSession]:
    return list(
        EducationSession.objects.filter(agency_id=agency_id, held_on__gte=since)
        .select_related("recorded_by")
        .order_by("-held_on", "-pk")[:limit]
    )


def removable_session(user, public_id: str) -> EducationSession | None:
    return EducationSession.objects.filter(
        policy.community_records_removable_filter(user), public_id=public_id
    ).first()


def removable_session_ids(user, sessions: list[EducationSession]) -> set[int]:
    return set(
        EducationSession.objects.filter(
            policy.community_records_removable_filter(user), pk__in=[s.pk for s in sessions]
        ).values_list("pk", flat=True)
    )


def sessions_by_audience(
    agency_id: int, start: dt.date, end: dt.date
) -> tuple[Counter[str], Counter[str]]:
    """The sessions held from ``start`` to ``end`` (both included), and the people who came to
    them, each by audience."""
    sessions: Counter[str] = Counter()
    people: Counter[str] = Counter()
    for row in (
        EducationSession.objects.filter(agency_id=agency_id, held_on__gte=start, held_on__lte=end)
        .values("audience")
        .annotate(n=Count("pk"), people=Sum("participants"))
    ):
        sessions[row["audience"]] = row["n"]
        people[row["audience"]] = row["people"] or 0
    return sessions, people


def survey_answers(
    agency_id: int, start: dt.date, end: dt.date
) -> dict[str, Counter[tuple[str, str]]]:
    """For each statement (``safety``, ``resources``), the surveys returned from ``start`` to
    ``end`` by (answer, service)."""
    out: dict[str, Counter[tuple[str, str]]] = {"safety": Counter(), "resources": Counter()}
    for row in (
        OutcomeSurvey.objects.filter(
            agency_id=agency_id, returned_on__gte=start, returned_on__lte=end
        )
        .values("service", "safety", "resources")
        .annotate(n=Count("pk"))
    ):
        out["safety"][(row["safety"], row["service"])] += row["n"]
        out["resources"][(row["resources"], row["service"])] += row["n"]
    return out


def surveys_by_service(agency_id: int, start: dt.date, end: dt.date) -> Counter[str]:
    return Counter(
        dict(
            OutcomeSurvey.objects.filter(
                agency_id=agency_id, returned_on__gte=start, returned_on__lte=end
            )
            .values_list("service")
            .annotate(n=Count("pk"))
            .values_list("service", "n")
        )
    )
