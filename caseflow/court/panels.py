"""The case page's section for court: hearings coming up, and past hearings with their outcome."""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.http import HttpRequest
from django.utils import timezone

from caseflow import policy
from caseflow.cases.features import PanelResult
from caseflow.cases.models import Case
from caseflow.cases.panels import may_have
from caseflow.court.models import Hearing

SHOWN = 5


def case_facts() -> dict:
    return {"has_hearings": Exists(Hearing.objects.filter(case=OuterRef("pk")))}


def case_panel(request: HttpRequest, case: Case) -> PanelResult:
    upcoming: list[Hearing] = []
    past: list[Hearing] = []
    if may_have(case, "has_hearings"):
        now = timezone.now()
        # Metadata only: the court's name stays sealed on the case page.
        rows = Hearing.objects.filter(case=case).only(
            "public_id", "kind", "starts_at", "outcome", "case_id"
        )
        upcoming = list(rows.filter(starts_at__gt=now).order_by("starts_at", "pk")[:SHOWN])
        past = list(rows.filter(starts_at__lte=now).order_by("-starts_at", "-pk")[:SHOWN])
    return (
        "court/panel.html",
        {
            "case": case,
            "upcoming": upcoming,
            "past": past,
            "can_edit": policy.may(request.user, case, "edit"),
        },
    )
