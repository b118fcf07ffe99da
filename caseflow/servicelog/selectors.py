"""Reads for the service log: the catalogue an agency offers, the record a service is counted
from (through policy, looked up inside its case), and the counts the funder reports read.

The note, call, stay and hearing models are reached through this app's foreign keys (by name),
never imported: this app stands beside calls, shelter and court."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

from django.db.models import Count, Model
from django.http import Http404

from caseflow import policy
from caseflow.cases.models import Case
from caseflow.casework.models import CaseNote, NoteKind
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.servicelog.models import (
    AgencyCategory,
    Area,
    Scheme,
    ServiceRecord,
    ServiceSettings,
    StandardCategory,
    area_of,
    scheme_of,
    standard_categories,
)


def _model(field: str) -> type[Model]:
    return ServiceRecord._meta.get_field(field).related_model  # type: ignore[return-value]


def agency_schemes(agency_id: int | None) -> list[str]:
    """The schemes the agency counts by: both until its admin chooses."""
    if agency_id is None:
        return []
    row = ServiceSettings.objects.filter(agency_id=agency_id).first()
    if row is None or not row.schemes:
        return list(Scheme.values)
    return [s for s in Scheme.values if s in row.schemes]


def agency_categories(agency_id: int | None) -> list[AgencyCategory]:
    if agency_id is None:
        return []
    return list(AgencyCategory.objects.filter(agency_id=agency_id))


def category_choices(agency_id: int | None) -> list[tuple[Any, Any]]:
    """The form's choices, grouped: each area of the agency's schemes, then the agency's own
    active categories (``own:<public id>``)."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for code, label in standard_categories(agency_schemes(agency_id)):
        groups.setdefault(area_of(code), []).append((code, label))
    areas = dict(Area.choices)
    choices: list[tuple[Any, Any]] = [("", _("Choose…"))]
    choices += [(str(areas[area]), items) for area, items in groups.items()]
    own = [(f"own:{c.public_id}", c.label) for c in agency_categories(agency_id) if c.active]
    if own:
        choices.append((str(_("The agency's own categories")), own))
    return choices


# --- What a service is counted from ----------------------------------------------------------

#: The category offered first for each source.
DEFAULT_CATEGORY = {
    "call": StandardCategory.VOCA_C2,
    "stay": StandardCategory.VOCA_D1,
    "hearing": StandardCategory.VOCA_E9,
}
#: For a hearing, by its kind (the rest: court advocacy and accompaniment).
HEARING_CATEGORY = {
    "protection_order": StandardCategory.VOCA_E4,
    "child_arrangements": StandardCategory.VOCA_E5,
}
#: For a note, by its kind (the rest: emotional support).
NOTE_CATEGORY = {
    NoteKind.COURT: (StandardCategory.INSIGHTS_COURT, StandardCategory.VOCA_E9),
    NoteKind.AGENCY: (StandardCategory.INSIGHTS_LIAISON, StandardCategory.VOCA_A4),
}


def suggested_category(agency_id: int | None, kind: str, source: Any) -> str:
    """A sensible first choice: a call is hotline counselling, a stay emergency shelter, a
    hearing court accompaniment, a court note support at court; the first of these the
    agency's schemes offer."""
    schemes = agency_schemes(agency_id)
    if kind == "note":
        insights, voca = NOTE_CATEGORY.get(
            source.kind, (StandardCategory.INSIGHTS_EMOTIONAL, StandardCategory.VOCA_C1)
        )
        candidates = [insights, voca]
    else:
        code = DEFAULT_CATEGORY[kind]
        if kind == "hearing":
            code = HEARING_CATEGORY.get(source.kind, code)
        insights_twin = {
            "call": StandardCategory.INSIGHTS_EMOTIONAL,
            "stay": StandardCategory.INSIGHTS_HOUSING,
            "hearing": StandardCategory.INSIGHTS_COURT,
        }[kind]
        candidates = [code, insights_twin]
    return next((c for c in candidates if scheme_of(c) in schemes), "")


def suggested_minutes(kind: str, source: Any) -> int | None:
    if kind in ("note", "call"):
        return source.duration_minutes or None
    return None


def visible_call(user: Any, public_id: str) -> Any:
    """The call behind ``public_id`` if ``user`` may read it (policy's own condition), else
    ``None``."""
    return (
        _model("call")
        ._default_manager.filter(policy.visible_calls_filter(user), public_id=public_id)
        .select_related("case")
        .first()
    )


def call_for(user: Any, public_id: str) -> Any:
    call = visible_call(user, public_id)
    if call is None:
        raise Http404(_("No such call"))
    return call


def in_case(case: Case, kind: str, public_id: str) -> Any:
    """The note, stay or hearing ``public_id`` of ``case`` (a case already resolved through
    policy), or 404."""
    model: Any = CaseNote if kind == "note" else _model(kind)
    found = model._default_manager.filter(case=case, public_id=public_id).first()
    if found is None:
        raise Http404(_("Not found"))
    return found


def counted_from(kind: str, source: Any) -> list[ServiceRecord]:
    """The services already counted from ``source``."""
    return list(
        ServiceRecord.objects.filter(**{kind: source})
        .select_related("agency_category")
        .order_by("given_on", "pk")
    )


# --- Counts for the funder reports ---------------------------------------------------------------


def report_categories(agency_id: int) -> list[tuple[str, str]]:
    """The rows a report counts by, the same for every period read at one time (so a year's
    cells tie to its quarters'): the standard categories of the agency's schemes, any other
    standard category it ever counted in, and all its own categories (retired ones too)."""
    schemes = agency_schemes(agency_id)
    used = set(
        ServiceRecord.objects.filter(agency_id=agency_id)
        .exclude(category="")
        .values_list("category", flat=True)
        .distinct()
    )
    rows = [
        (code, str(label))
        for code, label in StandardCategory.choices
        if scheme_of(code) in schemes or code in used
    ]
    rows += [(f"own:{c.public_id}", c.label) for c in agency_categories(agency_id)]
    return rows


def counts_by_category(agency_id: int, start: dt.date, end: dt.date) -> Counter[str]:
    """Services given from ``start`` to ``end`` (inclusive), by row key of
    :func:`report_categories`."""
    counts: Counter[str] = Counter()
    rows = (
        ServiceRecord.objects.filter(agency_id=agency_id, given_on__gte=start, given_on__lte=end)
        .values("category", "agency_category__public_id")
        .annotate(n=Count("pk"))
        .order_by()
    )
    for row in rows:
        own = row["agency_category__public_id"]
        counts[f"own:{own}" if own else row["category"]] += row["n"]
    return counts
