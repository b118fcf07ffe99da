"""Read-side queries for confidentiality pages. Case-level ones take a case already resolved
through policy; agency-level ones are scoped to the user's own agency."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch
from django.http import HttpRequest

from caseflow.cases.models import Case, Party
from caseflow.confidentiality.models import (
    FIELD_PLACES,
    CompelledOrder,
    DeletionCertificate,
    Disclosure,
    FieldSetting,
    IntakeField,
    ProposalStatus,
    PurgeApproval,
    PurgeProposal,
    Release,
    RetentionSchedule,
)
from caseflow.confidentiality.services import schedule_for, user_agency_id


def _bind(rows, case: Case) -> list:
    rows = list(rows)
    for row in rows:
        row.case = case  # share the unwrapped data key
    return rows


def case_parties(case: Case) -> list[Party]:
    return _bind(case.parties.all(), case)


def case_releases(case: Case) -> list[Release]:
    releases = _bind(
        Release.objects.filter(case=case).select_related("consenting_party", "for_child"), case
    )
    for release in releases:
        release.consenting_party.case = case
    return releases


def case_release(case: Case, public_id: str) -> Release | None:
    release = Release.objects.filter(case=case, public_id=public_id).first()
    if release is not None:
        release.case = case
    return release


def case_disclosures(case: Case) -> list[Disclosure]:
    return _bind(Disclosure.objects.filter(case=case).select_related("order"), case)


def case_orders(case: Case) -> list[CompelledOrder]:
    return _bind(CompelledOrder.objects.filter(case=case), case)


def case_evidence(case: Case) -> list:
    """The case's evidence files (metadata; the bytes stay sealed), oldest first."""
    from caseflow.agreements.packs import evidence_files

    return evidence_files(case)


def purge_queue(user: Any) -> dict[str, Any]:
    """The agency's open purge proposals and recent certificates: metadata only."""
    agency_id = user_agency_id(user)
    proposals = (
        PurgeProposal.objects.filter(
            agency_id=agency_id, status__in=(ProposalStatus.PENDING, ProposalStatus.APPROVED)
        )
        .select_related("case")
        .only(
            "pk",
            "scope",
            "due_on",
            "status",
            "created_at",
            "case__reference",
            "case__closed_at",
            "case__opened_at",
        )
        .prefetch_related(
            Prefetch("approvals", queryset=PurgeApproval.objects.select_related("approver"))
        )
        .order_by("due_on", "pk")[:200]
    )
    certificates = (
        DeletionCertificate.objects.filter(agency_id=agency_id)
        .select_related("executed_by", "case__purge")
        .order_by("-purged_at", "-pk")[:50]
    )
    narratives_years, record_years = schedule_for(agency_id)
    return {
        "proposals": list(proposals),
        "certificates": list(certificates),
        "narratives_years": narratives_years,
        "record_years": record_years,
    }


def retention_initial(user: Any) -> dict[str, int]:
    narratives_years, record_years = schedule_for(user_agency_id(user))
    return {"narratives_years": narratives_years, "record_years": record_years}


def retention_exists(user: Any) -> bool:
    return RetentionSchedule.objects.filter(agency_id=user_agency_id(user)).exists()


def intake_field_config(user: Any) -> dict[str, dict[str, Any]]:
    """The user's agency's settings for optional intake fields: {name: {hidden, label}}."""
    return agency_field_config(user_agency_id(user))


def agency_field_config(agency_id: int | None) -> dict[str, dict[str, Any]]:
    """An agency's settings for its optional fields: {IntakeField name: {hidden, label}}."""
    if agency_id is None:
        return {}
    return {
        s.field: {"hidden": s.hidden, "label": s.label}
        for s in FieldSetting.objects.filter(agency_id=agency_id, field__in=IntakeField.values)
    }


_REQUEST_CACHE = "_caseflow_field_config"


@dataclass(frozen=True)
class FieldConfig:
    """One agency's optional-field settings, read where those fields are collected or shown.

    ``settings`` is keyed by ``IntakeField`` name (what ``intake_field_config`` returns); the
    other views key them by the attribute that stores the field (``FIELD_PLACES``).
    """

    settings: dict[str, dict[str, Any]]

    def for_case(self) -> dict[str, dict[str, Any]]:
        """{case attribute: {hidden, label}} for the configured case fields."""
        return self._place("case", None)

    def for_role(self, role: str) -> dict[str, dict[str, Any]]:
        """{party attribute: {hidden, label}} for the configured fields of a party in ``role``."""
        return self._place("party", role)

    def _place(self, kind: str, role: str | None) -> dict[str, dict[str, Any]]:
        return {
            attribute: self.settings[name]
            for name, (place, place_role, attribute) in FIELD_PLACES.items()
            if place == kind and place_role == role and name in self.settings
        }


def field_config(request: HttpRequest, case: Case | None = None) -> FieldConfig:
    """The field settings of ``case``'s agency (by default, of the user's own agency).

    Read once per request and agency, however many times a request asks.
    """
    agency_id = case.agency_id if case is not None else user_agency_id(request.user)
    cache = getattr(request, _REQUEST_CACHE, None)
    if cache is None:
        cache = {}
        setattr(request, _REQUEST_CACHE, cache)
    if agency_id not in cache:
        cache[agency_id] = FieldConfig(agency_field_config(agency_id))
    return cache[agency_id]
