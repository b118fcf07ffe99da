"""Look-ups inside a case the views resolved through policy: nothing here widens who sees what."""

from __future__ import annotations

import datetime as dt

from django.http import Http404

from caseflow.agreements.models import ContactEvent
from caseflow.cases.models import Case
from caseflow.casework.models import Incident
from caseflow.cycle.models import Mark


def incident_get(case: Case, incident_id: str) -> Incident:
    found = Incident.objects.filter(case=case, public_id=incident_id).first()
    if found is None:
        raise Http404
    found.case = case
    return found


def contact_event_get(case: Case, event_id: str) -> ContactEvent:
    found = (
        ContactEvent.objects.filter(case=case, public_id=event_id)
        .select_related("agreement")
        .first()
    )
    if found is None:
        raise Http404
    found.case = case
    return found


def marks_after(case: Case, *, incident: Incident | None = None, event=None) -> list[Mark]:
    """The marks that follow one incident or one contact event, oldest first."""
    rows = Mark.objects.filter(case=case).select_related("agency_kind")
    if incident is not None:
        rows = rows.filter(incident=incident)
    else:
        rows = rows.filter(contact_event=event)
    found = list(rows.order_by("at", "pk"))
    for mark in found:
        mark.case = case
    return found


def mark_trend(case: Case, since: dt.datetime) -> list[tuple[dt.datetime, str]]:
    """The case's marks from ``since`` for the journey's trend picture: a standard kind is its
    own category, the agency's own kinds one category together."""
    return [
        (at, kind or "agency")
        for at, kind in Mark.objects.filter(case=case, at__gte=since).values_list("at", "kind")
    ]


def incident_moments(case: Case, since: dt.datetime) -> list[dt.datetime]:
    return list(
        Incident.objects.filter(case=case, occurred_at__gte=since).values_list(
            "occurred_at", flat=True
        )
    )


def mark_moments(case: Case, since: dt.datetime) -> list[tuple[dt.datetime, str]]:
    """``(moment, kind key)`` of the case's marks from ``since`` (see the catalogue's keys)."""
    return [
        (at, kind or f"agency:{agency_kind_id}")
        for at, kind, agency_kind_id in Mark.objects.filter(case=case, at__gte=since).values_list(
            "at", "kind", "agency_kind_id"
        )
    ]
