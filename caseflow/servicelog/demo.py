"""Demo data for services counted in the funders' categories: over the last six months, each
agency's notes of contact with the survivor, its duty line's calls, its shelter stays and its
past court hearings are counted as services, in the category each would suggest and for the
minutes they took, so that the VOCA quarters and the FVPSA year show the categories with
numbers. One agency adds categories of its own (peer mentoring, a drop-in group) and counts some
of its in-person notes there. Everything goes through the service-log services."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Q
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import Role, User
from caseflow.casework.models import CaseNote, NoteKind
from caseflow.servicelog import selectors, services
from caseflow.servicelog.models import ServiceRecord

#: How far back services are counted.
DAYS = 183
#: Minutes a stay's arrival and a hearing's accompaniment take when nothing says otherwise.
STAY_MINUTES = 90
HEARING_MINUTES = 180
OWN_CATEGORIES = ("Peer mentoring", "Drop-in group")


def _model(field: str) -> Any:
    return ServiceRecord._meta.get_field(field).related_model


def _count(
    actor: User,
    kind: str,
    source: Any,
    agency_id: int,
    minutes: int,
    day: dt.date,
    category: str = "",
) -> bool:
    category = category or selectors.suggested_category(agency_id, kind, source)
    if not category:
        return False
    services.service_record(
        actor=actor,
        source_kind=kind,
        source=source,
        category=category,
        minutes=max(1, min(minutes, 24 * 60)),
        given_on=day,
    )
    return True


def seed_demo(context) -> None:
    now = context.now
    today = timezone.localdate(now)
    since = now - dt.timedelta(days=DAYS)
    cases = [c for c in context.cases if c.primary_advocate_id]
    workers = {c.pk: c.primary_advocate for c in cases}
    agencies = sorted({c.agency_id for c in cases})
    own: dict[int, list[str]] = {}
    if agencies:
        admin = User.objects.filter(
            membership__agency_id=agencies[0], membership__role=Role.AGENCY_ADMIN
        ).first()
        if admin is not None:
            own[agencies[0]] = [
                f"own:{services.service_category_add(actor=admin, label=label).public_id}"
                for label in OWN_CATEGORIES
            ]
    notes = (
        CaseNote.objects.filter(case_id__in=workers, occurred_at__gte=since, occurred_at__lte=now)
        .exclude(kind=NoteKind.INTERNAL)
        .select_related("case")
        .order_by("occurred_at", "pk")
    )
    for n, note in enumerate(notes):
        actor = workers[note.case_id]
        if not policy.may(actor, note.case, "edit"):
            continue
        mine = own.get(note.case.agency_id)
        category = mine[n % 2] if mine and note.kind == NoteKind.IN_PERSON and n % 3 == 0 else ""
        _count(
            actor,
            "note",
            note,
            note.case.agency_id,
            note.duration_minutes or 30,
            timezone.localdate(note.occurred_at),
            category,
        )
    calls = (
        _model("call")
        ._default_manager.filter(Q(case__isnull=True) | Q(case_id__in=workers))
        .filter(agency_id__in=agencies, taken_at__gte=since, taken_at__lte=now)
        .select_related("case", "logged_by")
        .order_by("taken_at", "pk")
    )
    for call in calls:
        actor = workers.get(call.case_id) if call.case_id else call.logged_by
        if actor is None or (call.case_id and not policy.may(actor, call.case, "edit")):
            continue
        _count(
            actor,
            "call",
            call,
            call.agency_id,
            call.duration_minutes or 15,
            timezone.localdate(call.taken_at),
        )
    stays = (
        _model("stay")
        ._default_manager.filter(
            case_id__in=workers, starts_on__gte=since.date(), starts_on__lte=today
        )
        .select_related("case")
        .order_by("starts_on", "pk")
    )
    for stay in stays:
        actor = workers[stay.case_id]
        if policy.may(actor, stay.case, "edit"):
            _count(actor, "stay", stay, stay.case.agency_id, STAY_MINUTES, stay.starts_on)
    hearings = (
        _model("hearing")
        ._default_manager.filter(case_id__in=workers, starts_at__gte=since, starts_at__lte=now)
        .select_related("case")
        .order_by("starts_at", "pk")
    )
    for hearing in hearings:
        actor = workers[hearing.case_id]
        if policy.may(actor, hearing.case, "edit"):
            _count(
                actor,
                "hearing",
                hearing,
                hearing.case.agency_id,
                HEARING_MINUTES,
                timezone.localdate(hearing.starts_at),
            )
