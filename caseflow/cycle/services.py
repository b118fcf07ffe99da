"""Marking what the other party did after harm, and the agency's own kinds. Each write checks
policy itself, runs in a transaction and is audited; her words are encrypted with the case key."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.agreements.models import ContactEvent
from caseflow.audit.services import record
from caseflow.cases.models import Case
from caseflow.casework.models import Incident
from caseflow.cycle import catalogue
from caseflow.cycle.models import AgencyKind, Mark
from caseflow.lib.i18n import gettext_lazy as _

WORDS_MAX = 2000
#: A clock a little ahead of the server's is not a mark in the future.
SLACK = dt.timedelta(minutes=5)


def at_problem(at: dt.datetime, after: dt.datetime, now: dt.datetime | None = None) -> str:
    """Why ``at`` cannot be the time of a mark following harm at ``after`` ("" when it can)."""
    now = now or timezone.now()
    if at < after:
        return str(_("This is before what it follows: choose a time on or after it."))
    if at > now + SLACK:
        return str(_("This is in the future: choose when it happened."))
    return ""


@transaction.atomic
def mark_record(
    *,
    actor: User,
    case: Case,
    at: dt.datetime,
    kind: str,
    words: str = "",
    incident: Incident | None = None,
    contact_event: ContactEvent | None = None,
) -> Mark:
    """Record what the other party did after ``incident`` or ``contact_event`` (exactly one, of
    ``case``): ``kind`` is a key the case's agency offers (:mod:`caseflow.cycle.catalogue`)."""
    policy.require(actor, case, "edit")
    if (incident is None) == (contact_event is None):
        raise ValueError("a mark follows exactly one incident or contact")
    follows = incident if incident is not None else contact_event
    assert follows is not None
    if follows.case_id != case.pk:
        raise PermissionDenied
    problem = at_problem(at, follows.occurred_at)
    if problem:
        raise ValidationError({"at": problem})
    resolved = catalogue.resolve(case.agency_id, kind)
    if resolved is None:
        raise ValidationError({"kind": _("Choose what the other party did from the list.")})
    standard, own = resolved
    words = words.strip()
    if len(words) > WORDS_MAX:
        raise ValidationError({"words": _("Keep her words to 2000 characters.")})
    mark = Mark(
        case=case,
        incident=incident,
        contact_event=contact_event,
        at=at,
        kind=standard,
        agency_kind=own,
        words=words,
        recorded_by=actor,
    )
    mark.save()
    record(
        "cycle_mark.create",
        actor=actor,
        case=case,
        obj=mark,
        detail={
            "kind": mark.kind_key,
            "follows": "incident" if incident is not None else "contact",
            "words": bool(words),
        },
    )
    return mark


def _agency_admin_agency(actor: User) -> int:
    if not policy.is_agency_admin(actor):
        raise PermissionDenied
    agency_id = policy.agency_id_of(actor)
    if agency_id is None:
        raise PermissionDenied
    return agency_id


def agency_kind_add(*, actor: User, label: str) -> AgencyKind:
    """Add a kind of the agency's own beside the standard ones."""
    agency_id = _agency_admin_agency(actor)
    label = " ".join(label.split())
    if not label:
        raise ValidationError({"label": _("Write the kind in a few words.")})
    try:
        with transaction.atomic():
            kind = AgencyKind.objects.create(agency_id=agency_id, label=label)
            record("cycle_kind.save", actor=actor, detail={"kind": kind.pk, "active": True})
    except IntegrityError:
        raise ValidationError({"label": _("Your agency already has this kind.")}) from None
    return kind


@transaction.atomic
def agency_kind_toggle(*, actor: User, kind_id: int) -> AgencyKind | None:
    """Retire one of the agency's own kinds, or offer it again (``None``: not the agency's)."""
    agency_id = _agency_admin_agency(actor)
    kind = AgencyKind.objects.select_for_update().filter(agency_id=agency_id, pk=kind_id).first()
    if kind is None:
        return None
    kind.active = not kind.active
    kind.save(update_fields=["active"])
    record("cycle_kind.save", actor=actor, detail={"kind": kind.pk, "active": kind.active})
    return kind
