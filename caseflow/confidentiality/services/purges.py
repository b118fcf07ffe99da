"""Purges: approving a proposal and carrying it out (the whole record, or its narratives), with
the deletion certificate it leaves.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import models, transaction
from django.db.models import ProtectedError, RestrictedError
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.models import Case, CaseAssignment, CaseKey, CaseStatus, Party
from caseflow.confidentiality import narratives
from caseflow.confidentiality.models import (
    APPROVALS_NEEDED,
    CasePurge,
    DeletionCertificate,
    LegalHold,
    ProposalStatus,
    PurgeApproval,
    PurgeProposal,
    PurgeScope,
)
from caseflow.confidentiality.services.prepared_exports import prepared_exports_discard
from caseflow.lib.encryption import DataKey, Sealed
from caseflow.lib.i18n import gettext_lazy as _


class PurgeRefused(Exception):
    """The purge step cannot be taken; ``str(exc)`` says why, for the user."""


def _locked_proposal(actor: User, proposal_id: int) -> PurgeProposal:
    agency_id = policy.agency_id_of(actor)
    if agency_id is None:
        raise PermissionDenied
    proposal = (
        PurgeProposal.objects.select_for_update()
        .filter(pk=proposal_id, agency_id=agency_id)
        .first()
    )
    if proposal is None or not policy.may_decide_purges(actor, proposal.agency_id):
        raise PermissionDenied
    return proposal


@transaction.atomic
def purge_approve(*, actor: User, proposal_id: int) -> PurgeProposal:
    """One approval. A whole-record purge needs two different approvers, a partial one one."""
    if not policy.may_decide_purges(actor):
        raise PermissionDenied
    proposal = _locked_proposal(actor, proposal_id)
    case = Case.objects.get(pk=proposal.case_id)
    if proposal.status != ProposalStatus.PENDING:
        raise PurgeRefused(_("This proposal is no longer waiting for approval."))
    if case.status != CaseStatus.CLOSED:
        raise PurgeRefused(_("The case has been reopened: it cannot be purged."))
    _refuse_if_held(case)
    if PurgeApproval.objects.filter(proposal=proposal, approver=actor).exists():
        raise PurgeRefused(
            _(
                "You have already approved this purge: a different person must give the second "
                "approval."
            )
        )
    PurgeApproval.objects.create(proposal=proposal, approver=actor)
    approvals = PurgeApproval.objects.filter(proposal=proposal).count()
    if approvals >= APPROVALS_NEEDED[proposal.scope]:
        proposal.status = ProposalStatus.APPROVED
        proposal.decided_at = timezone.now()
        proposal.save(update_fields=["status", "decided_at"])
    record(
        "purge.approve",
        actor=actor,
        case=case,
        obj=proposal,
        detail={
            "proposal": proposal.pk,
            "scope": proposal.scope,
            "approvals": approvals,
            "needed": APPROVALS_NEEDED[proposal.scope],
        },
    )
    return proposal


def active_hold(case: Case) -> LegalHold | None:
    return LegalHold.objects.filter(case=case, lifted_at__isnull=True).first()


def _refuse_if_held(case: Case) -> None:
    if active_hold(case) is not None:
        raise PurgeRefused(
            f"Case {case.reference} is on legal hold: it cannot be purged until the hold is lifted."
        )


@transaction.atomic
def legal_hold_place(*, actor: User, proposal_id: int, reason: str) -> LegalHold:
    """Put the case of a purge proposal on legal hold, with the reason it must be kept."""
    if not policy.may_decide_purges(actor):
        raise PermissionDenied
    proposal = _locked_proposal(actor, proposal_id)
    case = Case.objects.select_for_update().get(pk=proposal.case_id)
    if active_hold(case) is not None:
        raise PurgeRefused(f"Case {case.reference} is already on legal hold.")
    hold = LegalHold(case=case, placed_by=actor, reason=reason)
    hold.save()
    record("legal_hold.place", actor=actor, case=case, obj=hold)
    return hold


@transaction.atomic
def legal_hold_lift(*, actor: User, hold_id: int) -> LegalHold:
    agency_id = policy.agency_id_of(actor)
    if not policy.may_decide_purges(actor) or agency_id is None:
        raise PermissionDenied
    hold = (
        LegalHold.objects.select_for_update()
        .filter(pk=hold_id, case__agency_id=agency_id, lifted_at__isnull=True)
        .select_related("case")
        .first()
    )
    if hold is None:
        raise PurgeRefused(_("This legal hold has been lifted already."))
    hold.lifted_by, hold.lifted_at = actor, timezone.now()
    hold.save(update_fields=["lifted_by", "lifted_at"])
    record("legal_hold.lift", actor=actor, case=hold.case, obj=hold)
    return hold


def case_counts(case: Case) -> dict[str, Any]:
    """Non-identifying counts of what the case holds, computed over every case-owned model."""
    counts: dict[str, Any] = {}
    for model in narratives.case_owned_models():
        n = model._default_manager.filter(case=case).count()
        if n:
            counts[model._meta.label] = n
    counts["parties_by_role"] = dict(
        Counter(Party.objects.filter(case=case).values_list("role", flat=True))
    )
    return counts


def _delete_case_owned(case: Case) -> dict[str, int]:
    """Delete every case-owned row of ``case``, in whatever order protected links allow."""
    deleted: Counter[str] = Counter()
    remaining = narratives.case_owned_models()
    while remaining:
        postponed = []
        for model in remaining:
            try:
                with transaction.atomic():
                    _count, per_model = model._default_manager.filter(case=case).delete()
            except (ProtectedError, RestrictedError):
                postponed.append(model)
                continue
            deleted.update({k: v for k, v in per_model.items() if v})
        if len(postponed) == len(remaining):
            raise PurgeRefused(_("Some records of this case are protected and cannot be purged."))
        remaining = postponed
    return dict(deleted)


def _shred(case: Case) -> dict[str, Any]:
    deleted = _delete_case_owned(case)
    assignments, _per_model = CaseAssignment.objects.filter(case=case).delete()
    case.restricted_users.clear()
    policy.forget_permissions(case)
    # Out of everyone's scope: a restricted case that lists nobody. What is left is a stub.
    Case.objects.filter(pk=case.pk).update(
        restricted=True,
        conflict_flag=False,
        primary_advocate=None,
        # The summary's ciphertext is replaced by one under a throwaway key, then the case key goes.
        summary=Sealed(DataKey.generate().encrypt(b"").decode()),
    )
    keys, _per_model = CaseKey.objects.filter(case=case).delete()
    if assignments:
        deleted["cases.CaseAssignment"] = assignments
    return {"deleted": deleted, "cleared": {}, "key_destroyed": bool(keys)}


def _empty_like(field: Any, value: Any) -> Any:
    """An empty value of the type the field holds: ``""``, ``{}``, ``[]``."""
    if isinstance(value, (str, dict, list)):
        return type(value)()
    return None if field.null else ""


def _clear_narratives(case: Case) -> dict[str, Any]:
    cleared: dict[str, list[str]] = {}
    evidence = narratives.evidence_models()
    for model, names in narratives.narrative_fields().items():
        if model in evidence:
            continue  # its rows are deleted below
        rows: list[Any] = (
            [case] if model is Case else list(model._default_manager.filter(case=case))
        )
        fields = []
        for name in names:
            field = model._meta.get_field(name)
            assert isinstance(field, models.Field)  # narratives are concrete fields
            fields.append(field)
        for row in rows:
            if row is not case:
                row.case = case
            sealed = {}
            for field in fields:
                setattr(row, field.attname, _empty_like(field, getattr(row, field.attname)))
                sealed[field.attname] = field.pre_save(row, False)
            # Written with update(): some rows (plan and agreement versions) refuse save().
            model._base_manager.filter(pk=row.pk).update(**sealed)
        if rows:
            cleared[model._meta.label] = list(names)
    deleted: Counter[str] = Counter()
    for model in evidence:
        _count, per_model = model._default_manager.filter(case=case).delete()
        deleted.update({k: v for k, v in per_model.items() if v})
    return {"deleted": dict(deleted), "cleared": cleared, "key_destroyed": False}


@transaction.atomic
def purge_execute(*, actor: User, proposal_id: int) -> DeletionCertificate:
    """Carry out an approved purge and issue its deletion certificate."""
    if not policy.may_decide_purges(actor):
        raise PermissionDenied
    proposal = _locked_proposal(actor, proposal_id)
    if proposal.status != ProposalStatus.APPROVED:
        raise PurgeRefused(_("Only an approved purge can be carried out."))
    approvers = list(
        PurgeApproval.objects.filter(proposal=proposal)
        .select_related("approver")
        .order_by("approved_at", "pk")
    )
    if len({a.approver_id for a in approvers}) < APPROVALS_NEEDED[proposal.scope]:
        raise PurgeRefused(_("This purge does not have the approvals it needs."))
    case = Case.objects.select_for_update().get(pk=proposal.case_id)
    if case.status != CaseStatus.CLOSED:
        raise PurgeRefused(_("The case has been reopened: it cannot be purged."))
    _refuse_if_held(case)
    now = timezone.now()
    # A prepared export is about to leave the agency: any purge deletes it and its file first.
    prepared_exports_discard(case)
    counts = case_counts(case)
    previous = CasePurge.objects.filter(case=case).first()
    if previous is not None and previous.is_whole:
        raise PurgeRefused(_("This case has already been purged."))
    if previous is not None:
        counts = previous.counts  # the counts from before the first purge stand
    purged = _shred(case) if proposal.scope == PurgeScope.WHOLE else _clear_narratives(case)
    CasePurge.objects.update_or_create(
        case=case, defaults={"scope": proposal.scope, "purged_at": now, "counts": counts}
    )
    certificate = DeletionCertificate.objects.create(
        proposal=proposal,
        agency_id=case.agency_id,
        case=case,
        case_reference=case.reference,
        scope=proposal.scope,
        purged_at=now,
        executed_by=actor,
        approver_ids=[a.approver_id for a in approvers],
        approver_names=[a.approver.get_username() for a in approvers],
        purged=purged,
    )
    proposal.status = ProposalStatus.EXECUTED
    proposal.save(update_fields=["status"])
    if proposal.scope == PurgeScope.WHOLE:
        PurgeProposal.objects.filter(
            case=case, status__in=(ProposalStatus.PENDING, ProposalStatus.APPROVED)
        ).update(status=ProposalStatus.CANCELLED, decided_at=now)
    record(
        "purge.execute",
        actor=actor,
        case=case,
        obj=certificate,
        detail={
            "proposal": proposal.pk,
            "certificate": certificate.pk,
            "scope": proposal.scope,
            "approvers": certificate.approver_ids,
            "deleted": purged["deleted"],
            "cleared": purged["cleared"],
            "key_destroyed": purged["key_destroyed"],
        },
    )
    return certificate
