"""Transfers: asking another agency on caseflow to take a case on, its answer there, and the
transfer pack for a service not on caseflow.

Never without a valid release naming the receiving service and every category that goes. Every
step is audited as a disclosure of the sending case (ids, categories and choices only); taking a
case on is audited on the new case too. Each operation checks policy itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_noop

from caseflow import policy
from caseflow.accounts.models import Agency, Role, Team, User
from caseflow.audit.services import record
from caseflow.cases import journey
from caseflow.cases import services as case_services
from caseflow.cases.fields import FieldConfig, agency_field_config
from caseflow.cases.models import Case, Party, PartyRole, SafeContactProfile
from caseflow.confidentiality import services as confidentiality
from caseflow.confidentiality.models import Category
from caseflow.confidentiality.pack import Rows, build_sections
from caseflow.inbox.services import notifications_resolve, notify
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.transfers.models import RefusalReason, Transfer, TransferState

NO_RELEASE = _(
    "Refused: the chosen release does not cover this transfer. It must be from the survivor "
    "(or a child's guardian), name the receiving service exactly and every category that goes, "
    "be signed, unexpired and not revoked. Nothing was sent."
)

#: The categories whose records are copied into the new case field by field; the rows of the
#: others are written into the new case's summary, under their heading.
COPIED = frozenset({Category.CONTACT, Category.ADDRESS, Category.CHILDREN, Category.NARRATIVES})


class TransferRefused(Exception):
    """The transfer cannot be made or decided; ``str(exc)`` says why, for the form."""


def _categories_problem(categories: list[str], *, on_caseflow: bool) -> str | None:
    if not categories:
        return str(_("Choose what goes with the transfer."))
    if set(categories) - set(Category.values):
        return str(_("Choose categories from the list."))
    if on_caseflow and Category.CONTACT not in categories:
        return str(
            _(
                "A transfer to a service on caseflow carries at least the survivor's contact "
                "details: the new case is opened in her name."
            )
        )
    return None


def receiving_agencies(case: Case):
    """The agencies on this host a case may be transferred to: every one but its own."""
    return Agency.objects.exclude(pk=case.agency_id).order_by("name")


def _waiting(case: Case) -> bool:
    return Transfer.objects.filter(case=case, state=TransferState.REQUESTED).exists()


def _authorised(*, actor: User, case: Case, release_id: str, recipient: str, categories: list[str]):
    """The release ``release_id`` of ``case``, checked to name ``recipient`` and cover every one
    of ``categories``, or ``TransferRefused`` in words. Called outside any transaction: a
    refusal is audited and stands."""
    try:
        return confidentiality.transfer_authorise(
            actor=actor,
            case=case,
            release_id=release_id,
            recipient=recipient,
            categories=categories,
        )
    except confidentiality.ReleaseRequired as exc:
        raise TransferRefused(str(NO_RELEASE)) from exc


def transfer_request(
    *,
    actor: User,
    case: Case,
    receiving_agency: Agency,
    release_id: str,
    categories: list[str],
) -> Transfer:
    """Ask ``receiving_agency`` (on this host) to take ``case`` on, sharing ``categories``
    under the case's release ``release_id``, which must name that agency. A supervisor of the
    receiving agency accepts or refuses it."""
    if not policy.may_transfer(actor, case):
        raise PermissionDenied
    categories = sorted(set(categories))
    problem = _categories_problem(categories, on_caseflow=True)
    if receiving_agency.pk == case.agency_id:
        problem = str(_("Choose another agency: this case is already in yours."))
    if problem is None and _waiting(case):
        problem = str(_("A transfer of this case is already waiting for an answer."))
    if problem:
        raise TransferRefused(problem)
    release = _authorised(
        actor=actor,
        case=case,
        release_id=release_id,
        recipient=receiving_agency.name,
        categories=categories,
    )
    with transaction.atomic():
        locked = Case.objects.select_for_update().get(pk=case.pk)
        if not locked.is_open or _waiting(case):
            raise TransferRefused(str(_("This case cannot be transferred now: reload the page.")))
        disclosure = confidentiality.transfer_disclose(
            actor=actor,
            case=case,
            release=release,
            recipient=receiving_agency.name,
            categories=categories,
        )
        transfer = Transfer.objects.create(
            case=case,
            receiving_agency=receiving_agency,
            release=release,
            disclosure=disclosure,
            categories=categories,
            state=TransferState.REQUESTED,
            requested_by=actor,
        )
        record(
            "disclosure.transfer",
            actor=actor,
            case=case,
            obj=transfer,
            detail={
                "transfer": transfer.pk,
                "disclosure": disclosure.pk,
                "release": release.pk,
                "categories": categories,
                "receiving_agency": receiving_agency.pk,
            },
        )
        _tell_receiving_supervisors(transfer)
    return transfer


def _key(transfer: Transfer) -> str:
    return f"transfer:{transfer.pk}"


def _tell_receiving_supervisors(transfer: Transfer) -> None:
    """The receiving agency's supervisors are told a transfer waits for their answer: no
    reference of the sending agency's case, no name; the link opens the request."""
    agency_id = transfer.receiving_agency_id
    if agency_id is None:  # a service not on caseflow: nobody here to tell
        return
    supervisors = User.objects.filter(
        is_active=True,
        membership__agency_id=agency_id,
        membership__role=Role.SUPERVISOR,
        membership__is_active=True,
    )
    notify(
        recipients=supervisors,
        kind="transfer_in",
        case=None,
        key=_key(transfer),
        message=gettext_noop(
            "Another service asks your agency to take a case on, with the survivor's consent: "
            "please answer."
        ),
        link=reverse("transfers:decide", args=[transfer.public_id]),
    )


def _tell_requester(transfer: Transfer, *, accepted: bool) -> None:
    """The answer is a decision made: the receiving supervisors' notices clear themselves,
    and whoever asked is told, on the sending case."""
    notifications_resolve(key=_key(transfer))
    notify(
        recipients=[transfer.requested_by],
        kind="transfer_answer",
        case=transfer.case,
        key=f"{_key(transfer)}:answered",
        message=(
            gettext_noop(
                "The other service took on case %(reference)s: it is closed as transferred."
            )
            if accepted
            else gettext_noop(
                "The other service refused the transfer of case %(reference)s: their reason "
                "is on the case."
            )
        ),
        values={"reference": transfer.case.reference},
    )


@dataclass
class TransferPack:
    transfer: Transfer
    export: confidentiality.Export


def transfer_external(
    *,
    actor: User,
    case: Case,
    recipient: str,
    release_id: str,
    categories: list[str],
) -> TransferPack:
    """The transfer pack for ``recipient``, a service not on caseflow: the case export's
    sections for ``categories`` under the release ``release_id`` naming it, and the transfer
    recorded as sent. The case stays open: the advocate closes it, with the reason
    "Transferred to another service", once the service has taken her on."""
    if not policy.may_transfer(actor, case):
        raise PermissionDenied
    categories = sorted(set(categories))
    recipient = recipient.strip()
    problem = _categories_problem(categories, on_caseflow=False)
    if problem:
        raise TransferRefused(problem)
    release = _authorised(
        actor=actor, case=case, release_id=release_id, recipient=recipient, categories=categories
    )
    with transaction.atomic():
        disclosure = confidentiality.transfer_disclose(
            actor=actor, case=case, release=release, recipient=recipient, categories=categories
        )
        transfer = Transfer.objects.create(
            case=case,
            external_name=recipient,
            release=release,
            disclosure=disclosure,
            categories=categories,
            state=TransferState.SENT_EXTERNAL,
            requested_by=actor,
            decided_at=timezone.now(),
        )
        record(
            "disclosure.transfer_pack",
            actor=actor,
            case=case,
            obj=transfer,
            detail={
                "transfer": transfer.pk,
                "disclosure": disclosure.pk,
                "release": release.pk,
                "categories": categories,
            },
        )
        export = confidentiality.transfer_pack(case, disclosure)
    return TransferPack(transfer, export)


# --- In the receiving agency ---------------------------------------------------------------------


def incoming(user: Any):
    """The transfers to ``user``'s agency (its supervisors only): waiting ones first, oldest
    first, then the latest decided. Metadata only: nothing of the sending case is loaded."""
    agency_id = policy.transfer_deciding_agency(user)
    if agency_id is None:
        return Transfer.objects.none()
    return (
        Transfer.objects.filter(receiving_agency_id=agency_id)
        .select_related("agency", "new_case")
        .only(
            "public_id",
            "categories",
            "state",
            "requested_at",
            "decided_at",
            "refusal_reason",
            "agency__name",
            "new_case__public_id",
            "new_case__reference",
        )
    )


def transfer_for(user: Any, public_id: str) -> Transfer | None:
    """The transfer ``public_id`` to ``user``'s agency, if ``user`` decides its transfers."""
    agency_id = policy.transfer_deciding_agency(user)
    if agency_id is None:
        return None
    return (
        Transfer.objects.filter(public_id=str(public_id), receiving_agency_id=agency_id)
        .select_related("case", "agency", "receiving_agency", "new_case", "release")
        .first()
    )


def transfer_view(*, actor: User, transfer: Transfer) -> list[tuple[str, Rows]]:
    """What the waiting transfer discloses, for the receiving supervisor to decide on (audited
    as a read of the sending case). Nothing once it is decided."""
    if not policy.may_decide_transfer(actor, transfer):
        raise PermissionDenied
    if transfer.state != TransferState.REQUESTED:
        return []
    record(
        "transfer.view",
        actor=actor,
        case=transfer.case,
        obj=transfer,
        detail={"transfer": transfer.pk, "categories": transfer.categories},
    )
    return build_sections(transfer.case, list(transfer.categories))


def _decidable(actor: User, transfer: Transfer) -> Transfer:
    """The transfer, locked, if ``actor`` may still decide it."""
    locked = Transfer.objects.select_for_update().select_related("case").get(pk=transfer.pk)
    if not policy.may_decide_transfer(actor, locked):
        raise PermissionDenied
    if locked.state != TransferState.REQUESTED:
        raise TransferRefused(str(_("This transfer has already been answered.")))
    return locked


def _still_covered(actor: User, transfer: Transfer) -> None:
    """The release still covers the transfer (revoked or expired since: no acceptance)."""
    problem = confidentiality.release_problem(
        transfer.case, transfer.release, transfer.recipient, transfer.categories
    )
    if problem is not None:
        record(
            "disclosure.refused",
            actor=actor,
            case=transfer.case,
            obj=transfer.case,
            detail={
                "kind": "transfer",
                "categories": transfer.categories,
                "reason": problem,
                "release": transfer.release_id,
            },
        )
        raise TransferRefused(
            str(
                _(
                    "The survivor's consent no longer covers this transfer (the release was "
                    "revoked or has expired): it cannot be accepted. Refuse it, and the other "
                    "service can ask again under a new release."
                )
            )
        )


def transfer_accept(*, actor: User, transfer: Transfer, team: Team) -> Case:
    """Take the transferred case on in ``team``: a new case in the receiving agency, opened as
    intake opens one (its own key, the actor as primary advocate), with the covered record
    copied, the link back kept on the transfer; the sending case closes with the reason
    "Transferred to another service". All in one transaction."""
    if not policy.may_decide_transfer(actor, transfer):
        raise PermissionDenied
    if transfer.state == TransferState.REQUESTED:
        _still_covered(actor, transfer)  # a refusal audited outside the transaction stands
    with transaction.atomic():
        locked = _decidable(actor, transfer)
        if team not in policy.intake_teams(actor):
            raise TransferRefused(str(_("Choose one of your own teams.")))
        _still_covered(actor, locked)
        sending = locked.case
        if not sending.is_open:
            raise TransferRefused(
                str(_("The sending service has closed this case: it can no longer be accepted."))
            )
        new_case = _open_copy(actor=actor, team=team, sending=sending, transfer=locked)
        locked.state = TransferState.ACCEPTED
        locked.new_case = new_case
        locked.decided_by = actor
        locked.decided_at = timezone.now()
        locked.save(update_fields=["state", "new_case", "decided_by", "decided_at"])
        try:
            journey.close_on_transfer(actor=actor, case=sending)
        except ValidationError as exc:
            raise TransferRefused(" ".join(exc.messages)) from exc
        detail = {"transfer": locked.pk, "categories": locked.categories}
        record("transfer.accept", actor=actor, case=sending, obj=locked, detail=detail)
        record("transfer.accept", actor=actor, case=new_case, obj=new_case, detail=detail)
        _tell_requester(locked, accepted=True)
    transfer.state = locked.state
    transfer.new_case = new_case
    return new_case


def _survivor_config(case: Case) -> dict[str, dict]:
    return FieldConfig(agency_field_config(case.agency_id)).for_role(PartyRole.SURVIVOR)


def _open_copy(*, actor: User, team: Team, sending: Case, transfer: Transfer) -> Case:
    covered = set(transfer.categories)
    parties = list(sending.parties.all())
    for party in parties:
        party.case = sending  # share the unwrapped data key
    survivor_party = next((p for p in parties if p.role == PartyRole.SURVIVOR), None)
    if survivor_party is None:
        raise TransferRefused(str(_("The sending case has nobody recorded as the survivor.")))
    hidden = {name for name, s in _survivor_config(sending).items() if s.get("hidden")}
    survivor: dict[str, Any] = {"full_name": survivor_party.full_name}
    if Category.CONTACT in covered:
        for name in ("known_as", "aliases", "pronouns", "phone", "email"):
            value = getattr(survivor_party, name)
            if value and name not in hidden:
                survivor[name] = value
    if Category.ADDRESS in covered and survivor_party.address:
        survivor["address"] = survivor_party.address
    if Category.NARRATIVES in covered and survivor_party.notes:
        survivor["notes"] = survivor_party.notes
    summary_parts = []
    if Category.NARRATIVES in covered and sending.summary:
        summary_parts.append(sending.summary)
    others = [c for c in transfer.categories if c not in COPIED and c != Category.RISK]
    for label, rows in build_sections(sending, others):
        lines = "\n".join(f"{item}: {value}" for item, value in rows)
        summary_parts.append(f"{label}\n{lines}")
    new_case = journey.case_open(
        actor=actor,
        team=team,
        survivor=survivor,
        other_party=None,
        risk_level=sending.risk_level if Category.RISK in covered else "unknown",
        summary="\n\n".join(summary_parts),
    )
    if Category.CHILDREN in covered:
        for child in (p for p in parties if p.role == PartyRole.CHILD):
            case_services.party_write(
                actor=actor,
                case=new_case,
                party=Party(role=PartyRole.CHILD),
                data={"full_name": child.full_name, "date_of_birth": child.date_of_birth},
            )
    if Category.CONTACT in covered:
        profile = SafeContactProfile.objects.filter(case=sending).first()
        if profile is not None:
            from caseflow.checkins.services import safe_contact_save

            profile.case = sending
            safe_contact_save(
                actor=actor,
                case=new_case,
                expected_version=None,
                timezone_name=profile.timezone,
                rules=profile.rules,
                details={
                    "safe_phone": profile.safe_phone,
                    "safe_email": profile.safe_email,
                    "third_party": profile.third_party,
                    "code_word": profile.code_word,
                },
            )
    return new_case


@transaction.atomic
def transfer_refuse(*, actor: User, transfer: Transfer, reason: str, comment: str = "") -> None:
    """Refuse the transfer with a reason (a comment too for "another reason"). The sending case
    is untouched; its team sees the answer on the case."""
    if reason not in RefusalReason.values:
        raise TransferRefused(str(_("Choose the reason for refusing.")))
    if reason == RefusalReason.OTHER and not comment.strip():
        raise TransferRefused(str(_("Say why the transfer is refused.")))
    locked = _decidable(actor, transfer)
    locked.state = TransferState.REFUSED
    locked.refusal_reason = reason
    locked.refusal_comment = comment.strip()
    locked.decided_by = actor
    locked.decided_at = timezone.now()
    locked.save(
        update_fields=["state", "refusal_reason", "refusal_comment", "decided_by", "decided_at"]
    )
    record(
        "transfer.refuse",
        actor=actor,
        case=locked.case,
        obj=locked,
        detail={"transfer": locked.pk, "reason": reason, "fields": ["refusal_comment"]},
    )
    _tell_requester(locked, accepted=False)
    transfer.state = locked.state
