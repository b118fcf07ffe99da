"""Read-side queries for confidentiality pages. Case-level ones take a case already resolved
through policy; agency-level ones are scoped to the user's own agency."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.formats import date_format

from caseflow import policy
from caseflow.agreements.labels import CHANNEL_LABELS, KIND_LABELS
from caseflow.cases.models import Case, Party
from caseflow.casework.models import IncidentKind
from caseflow.confidentiality.models import (
    CompelledOrder,
    DeletionCertificate,
    Disclosure,
    LegalHold,
    ProposalStatus,
    PurgeApproval,
    PurgeProposal,
    Release,
)
from caseflow.confidentiality.services import active_hold, case_counts, schedule_for
from caseflow.confidentiality.services.own_copy import (
    FROM_WHOM,
    case_contacts,
    case_incidents,
    contact_local,
)


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
    agency_id = policy.agency_id_of(user)
    if agency_id is None:
        raise PermissionDenied
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
            Prefetch("approvals", queryset=PurgeApproval.objects.select_related("approver")),
            Prefetch(
                "case__legal_holds",
                queryset=LegalHold.objects.filter(lifted_at__isnull=True)
                .select_related("placed_by")
                .only("pk", "case_id", "placed_at", "placed_by__username"),
                to_attr="active_holds",
            ),
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
    agency_id = policy.agency_id_of(user)
    if agency_id is None:
        raise PermissionDenied
    narratives_years, record_years = schedule_for(agency_id)
    return {"narratives_years": narratives_years, "record_years": record_years}


def purge_preview(user: Any, proposal_id: int) -> dict[str, Any] | None:
    """What a purge will do, for the confirmation page: the case's facts and counts in words,
    the approvals, and a legal hold if there is one. Metadata only."""
    agency_id = policy.agency_id_of(user)
    if agency_id is None:
        return None
    proposal = (
        PurgeProposal.objects.filter(pk=proposal_id, agency_id=agency_id)
        .select_related("case", "case__team")
        .prefetch_related(
            Prefetch("approvals", queryset=PurgeApproval.objects.select_related("approver"))
        )
        .first()
    )
    if proposal is None:
        return None
    counts = case_counts(proposal.case)
    counts.pop("parties_by_role", None)
    return {
        "proposal": proposal,
        "case": proposal.case,
        "counts": counts,
        "hold": active_hold(proposal.case),
    }


def _preview(text: str, limit: int = 80) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def own_copy_choices(case: Case) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The incidents and contacts the survivor may choose for her own copy, oldest first, each
    named by its date, its kind and the start of her words (for the advocate reading the list
    through with her)."""
    kinds = dict(IncidentKind.choices)
    incidents = []
    for incident in case_incidents(case):
        day = date_format(timezone.localtime(incident.occurred_at), "DATE_FORMAT")
        what = ", ".join(str(kinds[k]) for k in incident.kinds if k in kinds)
        words = _preview(incident.what_happened)
        incidents.append(
            (incident.public_id, " · ".join(part for part in (day, what, words) if part))
        )
    contacts = []
    for event in case_contacts(case):
        when = date_format(contact_local(event), "DATETIME_FORMAT")
        how = ", ".join(
            str(label)
            for label in (
                KIND_LABELS.get(event.kind, ""),
                CHANNEL_LABELS.get(event.channel, ""),
                FROM_WHOM.get(event.direction, ""),
            )
            if label
        )
        words = _preview(event.description or event.topic)
        contacts.append((event.public_id, " · ".join(part for part in (when, how, words) if part)))
    return incidents, contacts
