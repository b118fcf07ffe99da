"""Read-side queries for casework. The case always comes from policy first; every look-up here is
scoped to that case, so an id from another case is simply not found (404)."""

from __future__ import annotations

import datetime as dt

from django.db.models import Prefetch
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext

from caseflow.cases.models import Case
from caseflow.casework.models import CaseNote, Evidence, Incident, NoteAmendment

PANEL_SIZE = 5


def _own(rows, case: Case):
    for row in rows:
        row.case = case
    return rows


def note_get(case: Case, note_id: str) -> CaseNote:
    note = (
        CaseNote.objects.filter(case=case, public_id=note_id)
        .select_related("author", "incident", "break_glass", "need", "goal")
        .prefetch_related(
            Prefetch("amendments", queryset=NoteAmendment.objects.select_related("author")),
            "evidence",
        )
        .first()
    )
    if note is None:
        raise Http404
    note.case = case
    _own(note.amendments.all(), case)
    _own(note.evidence.all(), case)
    if note.incident is not None:
        note.incident.case = case
    for linked in (note.need, note.goal):
        if linked is not None:
            linked.case = case
    return note


def incident_get(case: Case, incident_id: str) -> Incident:
    incident = (
        Incident.objects.filter(case=case, public_id=incident_id)
        .select_related("recorded_by")
        .prefetch_related(
            "evidence",
            Prefetch(
                "notes",
                queryset=CaseNote.objects.only("public_id", "kind", "occurred_at", "incident_id"),
            ),
        )
        .first()
    )
    if incident is None:
        raise Http404
    incident.case = case
    _own(incident.evidence.all(), case)
    return incident


def evidence_get(case: Case, evidence_id: str) -> Evidence:
    evidence = (
        Evidence.objects.filter(case=case, public_id=evidence_id)
        .select_related("note", "incident")
        .first()
    )
    if evidence is None:
        raise Http404
    evidence.case = case
    return evidence


def incident_choices(case: Case) -> list[tuple[str, str]]:
    """The case's incidents for a note's link, newest first (no encrypted field is read)."""
    rows = Incident.objects.filter(case=case).only("public_id", "occurred_at", "kinds")[:200]
    return [
        (
            i.public_id,
            f"{timezone.localtime(i.occurred_at):%d %b %Y}: "
            + (", ".join(str(k) for k in i.kind_labels) or gettext("Incident")),
        )
        for i in rows
    ]


def _checkins():
    """The check-in model, reached through the note's link to it (not imported: see models)."""
    return CaseNote._meta.get_field("checkin").related_model


def checkin_choices(case: Case) -> list[tuple[str, str]]:
    """The case's check-ins for a note's link: the latest 30, newest first, in words."""
    model = _checkins()
    rows = model._default_manager.filter(case=case).order_by("-due_at", "-pk")[:30]
    return [
        (
            str(c.pk),
            f"{timezone.localtime(c.due_at):%d %b %Y %H:%M}, {c.get_status_display().lower()}"
            + (f": {c.get_outcome_display().lower()}" if c.outcome else ""),
        )
        for c in rows
    ]


def checkin_of(case: Case, pk: str):
    if not pk or not str(pk).isdigit():
        return None
    return _checkins()._default_manager.filter(case=case, pk=int(pk)).first()


def recent_notes(case: Case) -> list[CaseNote]:
    """The case's latest notes for its page (no encrypted field is read)."""
    return list(
        CaseNote.objects.filter(case=case)
        .select_related("author")
        .only(
            "public_id",
            "kind",
            "with_survivor",
            "with_other_agency",
            "with_colleague",
            "direction",
            "occurred_at",
            "duration_minutes",
            "break_glass_id",
            "case_id",
            "author__username",
            "author__first_name",
            "author__last_name",
        )[:PANEL_SIZE]
    )


def recent_incidents(case: Case) -> list[Incident]:
    return list(
        Incident.objects.filter(case=case).only(
            "public_id", "kinds", "occurred_at", "approximate", "serious", "police", "case_id"
        )[:PANEL_SIZE]
    )


def incident_trend(case: Case, since: dt.datetime) -> list[tuple[dt.datetime, str]]:
    """The case's incidents from ``since``, for the journey's trend picture."""
    return [
        (moment, "incident")
        for moment in Incident.objects.filter(case=case, occurred_at__gte=since).values_list(
            "occurred_at", flat=True
        )
    ]
