"""Counting a service, and keeping the agency's catalogue: each write checks policy itself,
runs in a transaction and is audited (ids and codes only: nothing personal in the trail)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import Agency, User
from caseflow.audit.services import record
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.servicelog.models import (
    EARLIEST,
    MAX_MINUTES,
    SOURCE_FIELDS,
    AgencyCategory,
    Scheme,
    ServiceRecord,
    ServiceSettings,
    StandardCategory,
    scheme_of,
)
from caseflow.servicelog.selectors import agency_schemes, visible_call


def minutes_problem(minutes: int | None) -> str:
    if minutes is None or minutes < 1:
        return str(_("A service takes at least a minute."))
    if minutes > MAX_MINUTES:
        return str(_("A service recorded here takes at most a day (1440 minutes)."))
    return ""


def given_on_problem(given_on: dt.date | None, today: dt.date | None = None) -> str:
    today = today or timezone.localdate()
    if given_on is None:
        return str(_("Give the date the service was given."))
    if given_on > today:
        return str(_("A service is counted once given: that date is in the future."))
    if given_on < EARLIEST:
        return str(_("That date is before 2000: check the year."))
    return ""


def _require_source(actor: User, kind: str, source: Any) -> Any:
    """The case the service is given on, after checking ``actor`` may record it there."""
    case = source.case
    if kind == "call" and case is None:
        # A call on no case: those who may read it (its logger, the agency's supervisors).
        if visible_call(actor, source.public_id) is None:
            raise PermissionDenied
        return None
    policy.require(actor, case, "edit")
    return case


@transaction.atomic
def service_record(
    *,
    actor: User,
    source_kind: str,
    source: Any,
    category: str,
    minutes: int,
    given_on: dt.date,
) -> ServiceRecord:
    """Count a service given from ``source`` (a note, call, stay or hearing, ``source_kind``)
    in ``category``: a standard code of a scheme the agency counts by, or the public id of one
    of the agency's own active categories."""
    if source_kind not in SOURCE_FIELDS:
        raise ValueError(f"not a source of services: {source_kind!r}")
    case = _require_source(actor, source_kind, source)
    if source_kind == "note" and source.kind == "internal":
        raise ValidationError(_("An internal note is not a service given."))
    agency_id = source.case.agency_id if case is not None else source.agency_id
    standard, own = resolve_category(agency_id, category)
    problems = {}
    if minutes_problem(minutes):
        problems["minutes"] = minutes_problem(minutes)
    if given_on_problem(given_on):
        problems["given_on"] = given_on_problem(given_on)
    if problems:
        raise ValidationError(problems)
    field = SOURCE_FIELDS[source_kind]  # type: ignore[index]
    already = ServiceRecord.objects.filter(**{field: source}, category=standard)
    if own is not None:
        already = ServiceRecord.objects.filter(**{field: source}, agency_category=own)
    if already.exists():
        raise ValidationError({"category": _("This is already counted in that category.")})
    service = ServiceRecord(
        agency_id=agency_id,
        case=case,
        category=standard,
        agency_category=own,
        minutes=minutes,
        given_on=given_on,
        given_by=actor,
        **{field: source},
    )
    service.save()
    record(
        "service_count.record",
        actor=actor,
        case=case,
        obj=service,
        agency_id=agency_id,
        detail={"source": source_kind, "category": standard or "agency", "minutes": minutes},
    )
    return service


def resolve_category(agency_id: int, value: str) -> tuple[str, AgencyCategory | None]:
    """``(standard code, None)`` or ``("", agency category)`` for a chosen value; a value
    outside what the agency offers is a form error."""
    if value in StandardCategory.values:
        if scheme_of(value) in agency_schemes(agency_id):
            return value, None
    elif value.startswith("own:"):
        own = AgencyCategory.objects.filter(
            agency_id=agency_id, public_id=value[4:], active=True
        ).first()
        if own is not None:
            return "", own
    raise ValidationError({"category": _("Choose a category from the list.")})


# --- The agency's catalogue ---------------------------------------------------------------------


def _require_admin(actor: User) -> Agency:
    agency_id = policy.agency_id_of(actor)
    if agency_id is None or not policy.is_agency_admin(actor):
        raise PermissionDenied
    return Agency.objects.get(pk=agency_id)


@transaction.atomic
def service_schemes_save(*, actor: User, schemes: list[str]) -> ServiceSettings:
    agency = _require_admin(actor)
    chosen = [s for s in Scheme.values if s in schemes]
    if not chosen:
        raise ValidationError({"schemes": _("Choose at least one scheme.")})
    settings, _created = ServiceSettings.objects.select_for_update().get_or_create(agency=agency)
    settings.schemes = chosen
    settings.updated_at = timezone.now()
    settings.save()
    record("service_count.schemes", actor=actor, agency_id=agency.pk, detail={"schemes": chosen})
    return settings


@transaction.atomic
def service_category_add(*, actor: User, label: str) -> AgencyCategory:
    agency = _require_admin(actor)
    label = " ".join(label.split())
    if not label:
        raise ValidationError({"label": _("Give the category a name.")})
    if AgencyCategory.objects.filter(agency=agency, label__iexact=label).exists():
        raise ValidationError({"label": _("The agency has a category of that name already.")})
    category = AgencyCategory.objects.create(agency=agency, label=label)
    record("service_count.category_add", actor=actor, agency_id=agency.pk, obj=category)
    return category


@transaction.atomic
def service_category_set_active(*, actor: User, category_id: str, active: bool) -> AgencyCategory:
    agency = _require_admin(actor)
    category = AgencyCategory.objects.filter(agency=agency, public_id=category_id).first()
    if category is None:
        raise ValidationError(_("No such category."))
    category.active = active
    category.save(update_fields=["active"])
    record(
        "service_count.category_active",
        actor=actor,
        agency_id=agency.pk,
        obj=category,
        detail={"active": active},
    )
    return category
