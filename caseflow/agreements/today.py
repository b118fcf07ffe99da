"""Contacts waiting for review, in the today queue (see :mod:`caseflow.cases.today`)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse

from caseflow.agreements.models import ContactEvent, ReviewState
from caseflow.cases.today import (
    PER_SOURCE,
    Action,
    ListedQuery,
    QueueItem,
    QueueSource,
    Scope,
)
from caseflow.lib.i18n import gettext_lazy as _

#: A logged contact is reviewed (breach or not) within a day of being logged.
REVIEW_WITHIN = dt.timedelta(days=1)


def _reviews(*, cases: QuerySet[Any], logged_before: dt.datetime) -> QuerySet[ContactEvent]:
    return (
        ContactEvent.objects.filter(
            case__in=cases, review=ReviewState.PENDING, created_at__lt=logged_before
        )
        .select_related("case", "agreement", "logged_by")
        .only(
            "pk",
            "public_id",
            "created_at",
            "case__public_id",
            "case__reference",
            "agreement__public_id",
            "logged_by__username",
            "logged_by__first_name",
            "logged_by__last_name",
        )
        .order_by("created_at", "pk")[:PER_SOURCE]
    )


_REVIEWS = ListedQuery(ContactEvent, _reviews, logged_before="datetime")


def review_items(scope: Scope) -> list[QueueItem]:
    events = _REVIEWS.rows(scope, logged_before=scope.day_end - REVIEW_WITHIN)
    return [
        QueueItem(
            due_at=e.created_at + REVIEW_WITHIN,
            kind=_("Contact to review"),
            title=_("Decide whether the logged contact broke the agreement"),
            case_reference=e.case.reference,
            case_public_id=e.case.public_id,
            case_id=e.case_id,
            action=Action(
                "Review",
                reverse(
                    "agreements:review",
                    args=[e.case.public_id, e.agreement.public_id, e.public_id],
                ),
            ),
            owner=e.logged_by.get_full_name() or e.logged_by.username,
            owner_id=e.logged_by.pk,
        )
        for e in events
    ]


#: This part's sources of the today queue (its feature brings them).
SOURCES = (QueueSource("contact_reviews", review_items, order=30),)
