"""The example feature: a panel, a timeline source and a queue source, built from rows caseflow
already keeps (the case itself), so the app needs no model and no migration."""

from __future__ import annotations

from django.urls import reverse

from caseflow.cases.features import CaseFeature, Panel
from caseflow.cases.models import Case
from caseflow.cases.timeline import Entry, Query, Source, key_of, newest
from caseflow.cases.today import PER_SOURCE, Action, QueueItem, QueueSource, Scope

KIND = "example_opened"


def case_panel(request, case: Case):
    return "feature_app/panel.html", {"case": case}


def opened_entries(case: Case, query: Query) -> list[Entry]:
    rows = newest(Case.objects.filter(pk=case.pk), query, KIND, "opened_at")
    return [
        Entry(at=row.opened_at, kind=KIND, key=key_of(row.pk), title="Example: the case opened")
        for row in rows
    ]


def review_items(scope: Scope) -> list[QueueItem]:
    return [
        QueueItem(
            due_at=scope.day_start,
            kind="Example review",
            title="Read the example panel",
            case_reference=case.reference,
            case_public_id=case.public_id,
            case_id=case.pk,
            action=Action("Open the case", reverse("cases:detail", args=[case.public_id])),
            all_day=True,
        )
        for case in scope.cases.order_by("pk")[:PER_SOURCE]
    ]


FEATURE = CaseFeature(
    name="feature_app",
    order=1000,
    panels=(Panel(case_panel, order=1000),),
    timeline=(Source(KIND, "Example records", opened_entries, order=1000),),
    queue=(QueueSource("example_reviews", review_items, order=1000),),
)
