"""Transfers between agencies: never without a valid release, accepted or refused in the
receiving agency, the new case opened with what the release covers, the sending case closed as
transferred; every step audited as a disclosure, with no values in the audit."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError

from caseflow import policy
from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case, CaseStatus, Closure, PartyRole, StandardClosureReason
from caseflow.confidentiality import services as confidentiality
from caseflow.confidentiality.models import Category, Disclosure, DisclosureKind
from caseflow.transfers import services
from caseflow.transfers.models import RefusalReason, Transfer, TransferState
from tests.confidentiality.helpers import fresh
from tests.conftest import canary
from tests.transfers.helpers import COVERED, receiving_supervisor, requested, transfer_release

pytestmark = pytest.mark.django_db


def test_a_request_under_a_valid_release_is_a_disclosure(cast):
    transfer = requested(cast)
    assert transfer.state == TransferState.REQUESTED
    disclosure = transfer.disclosure
    assert disclosure.kind == DisclosureKind.TRANSFER
    assert disclosure.categories == sorted(COVERED)
    event = AuditEvent.objects.get(action="disclosure.transfer")
    assert event.case_id == cast.case.pk
    assert canary(cast.case) not in str(event.detail)
    assert set(event.detail) == {
        "transfer",
        "disclosure",
        "release",
        "categories",
        "receiving_agency",
    }


def test_no_release_naming_the_agency_refuses_and_sends_nothing(cast):
    rel = transfer_release(cast, recipient="Somebody Else")
    with pytest.raises(services.TransferRefused):
        services.transfer_request(
            actor=cast.assigned,
            case=cast.case,
            receiving_agency=cast.other_agency_team.agency,
            release_id=rel.public_id,
            categories=COVERED,
        )
    assert not Transfer.objects.exists()
    assert not Disclosure.objects.exists()
    assert AuditEvent.objects.filter(action="disclosure.refused").count() == 1


def test_a_category_the_release_does_not_cover_is_refused(cast):
    rel = transfer_release(cast, categories=[Category.CONTACT])
    with pytest.raises(services.TransferRefused):
        services.transfer_request(
            actor=cast.assigned,
            case=cast.case,
            receiving_agency=cast.other_agency_team.agency,
            release_id=rel.public_id,
            categories=[Category.CONTACT, Category.RISK],
        )
    assert not Transfer.objects.exists()


def test_contact_details_must_go_to_open_a_case_there(cast):
    rel = transfer_release(cast)
    with pytest.raises(services.TransferRefused, match="contact details"):
        services.transfer_request(
            actor=cast.assigned,
            case=cast.case,
            receiving_agency=cast.other_agency_team.agency,
            release_id=rel.public_id,
            categories=[Category.RISK],
        )


def test_only_the_supervisor_or_primary_advocate_may_ask(cast):
    rel = transfer_release(cast)
    for actor in (cast.same_team, cast.other_agency, cast.auditor):
        with pytest.raises(PermissionDenied):
            services.transfer_request(
                actor=actor,
                case=cast.case,
                receiving_agency=cast.other_agency_team.agency,
                release_id=rel.public_id,
                categories=COVERED,
            )
    assert policy.may_transfer(cast.supervisor, cast.case)
    assert not policy.may_transfer(cast.supervisor, cast.restricted_case)


def test_one_waiting_transfer_per_case(cast):
    requested(cast)
    with pytest.raises(services.TransferRefused, match="already waiting"):
        requested(cast)


def test_accepting_opens_a_new_case_there_and_closes_the_sending_case(cast):
    receiver = receiving_supervisor(cast)
    sending_survivor = cast.case.parties.get(role=PartyRole.SURVIVOR)
    sending_survivor.case = cast.case
    sending_survivor.aliases = "Robin Earlier\nRobyn Example"
    sending_survivor.save()
    transfer = requested(cast)
    new_case = services.transfer_accept(
        actor=receiver, transfer=transfer, team=cast.other_agency_team
    )
    assert new_case.agency_id == cast.other_agency_team.agency_id
    assert new_case.pk != cast.case.pk
    assert new_case.key.pk  # its own key
    survivor = new_case.parties.get(role=PartyRole.SURVIVOR)
    survivor.case = new_case
    assert survivor.full_name == f"Survivor {canary(cast.case)}"
    assert survivor.phone == f"phone {canary(cast.case)}"
    assert survivor.aliases == "Robin Earlier\nRobyn Example"  # other names go with contact
    assert not new_case.parties.filter(role=PartyRole.OTHER_PARTY).exists()
    assert new_case.summary == f"summary {canary(cast.case)}"
    new_case.safe_contact.case = new_case
    assert new_case.safe_contact.code_word == f"code {canary(cast.case)}"
    assert policy.can_view_case(receiver, new_case)
    assert not policy.can_view_case(receiver, cast.case)
    transfer.refresh_from_db()
    assert transfer.state == TransferState.ACCEPTED
    assert transfer.new_case == new_case
    sending = fresh(cast.case)
    assert sending.status == CaseStatus.CLOSED
    closure = Closure.objects.get(case=sending)
    assert closure.reason.standard == StandardClosureReason.TRANSFERRED
    accepted = AuditEvent.objects.filter(action="transfer.accept")
    assert {e.case_id for e in accepted} == {sending.pk, new_case.pk}
    for event in AuditEvent.objects.filter(action__startswith="transfer"):
        assert canary(cast.case) not in str(event.detail)


def test_only_a_supervisor_of_the_receiving_agency_decides(cast):
    transfer = requested(cast)
    for actor in (cast.supervisor, cast.other_agency, cast.other_supervisor):
        with pytest.raises(PermissionDenied):
            services.transfer_accept(actor=actor, transfer=transfer, team=cast.team1)
    assert services.transfer_for(cast.supervisor, transfer.public_id) is None
    assert services.transfer_for(cast.other_agency, transfer.public_id) is None


def test_the_team_must_be_the_deciders_own(cast):
    receiver = receiving_supervisor(cast)
    transfer = requested(cast)
    with pytest.raises(services.TransferRefused, match="own teams"):
        services.transfer_accept(actor=receiver, transfer=transfer, team=cast.team1)
    assert fresh(cast.case).status != CaseStatus.CLOSED
    assert Case.objects.filter(agency=cast.other_agency_team.agency).count() == 1


def test_a_second_acceptance_is_refused(cast):
    receiver = receiving_supervisor(cast)
    transfer = requested(cast)
    stale = Transfer.objects.get(pk=transfer.pk)
    services.transfer_accept(actor=receiver, transfer=transfer, team=cast.other_agency_team)
    with pytest.raises(services.TransferRefused, match="already been answered"):
        services.transfer_accept(actor=receiver, transfer=stale, team=cast.other_agency_team)
    assert Case.objects.filter(agency=cast.other_agency_team.agency).count() == 2


def test_a_revoked_release_cannot_be_accepted(cast):
    receiver = receiving_supervisor(cast)
    transfer = requested(cast)
    rel = transfer.release
    rel.case = cast.case
    confidentiality.release_revoke(actor=cast.assigned, case=cast.case, release=rel, reason="x")
    with pytest.raises(services.TransferRefused, match="no longer covers"):
        services.transfer_accept(actor=receiver, transfer=transfer, team=cast.other_agency_team)
    assert fresh(cast.case).is_open
    assert AuditEvent.objects.filter(action="disclosure.refused").count() == 1


def test_refusal_keeps_its_reason_and_leaves_the_case_open(cast):
    receiver = receiving_supervisor(cast)
    transfer = requested(cast)
    with pytest.raises(services.TransferRefused):
        services.transfer_refuse(actor=receiver, transfer=transfer, reason=RefusalReason.OTHER)
    services.transfer_refuse(
        actor=receiver,
        transfer=transfer,
        reason=RefusalReason.OUT_OF_AREA,
        comment="We only cover the north.",
    )
    transfer = Transfer.objects.get(pk=transfer.pk)
    assert transfer.state == TransferState.REFUSED
    assert transfer.refusal_comment == "We only cover the north."
    assert fresh(cast.case).is_open
    event = AuditEvent.objects.get(action="transfer.refuse")
    assert "north" not in str(event.detail)
    assert services.transfer_view(actor=receiver, transfer=transfer) == []
    # A new transfer may be asked for once the last one was answered.
    requested(cast)


def test_one_waiting_transfer_is_a_database_rule(cast):
    transfer = requested(cast)
    with pytest.raises(IntegrityError):
        Transfer.objects.create(
            case=cast.case,
            receiving_agency=transfer.receiving_agency,
            release=transfer.release,
            disclosure=Disclosure.objects.create(
                case=cast.case,
                kind=DisclosureKind.TRANSFER,
                recipient="x",
                disclosed_on=transfer.disclosure.disclosed_on,
            ),
            categories=COVERED,
            state=TransferState.REQUESTED,
            requested_by=cast.assigned,
        )


def test_external_transfer_pack_is_recorded(cast):
    rel = transfer_release(cast, recipient="County Outreach")
    pack = services.transfer_external(
        actor=cast.assigned,
        case=cast.case,
        recipient="County Outreach",
        release_id=rel.public_id,
        categories=[Category.CONTACT],
    )
    assert pack.transfer.state == TransferState.SENT_EXTERNAL
    assert canary(cast.case).encode() in pack.export.data
    assert b"caseflow-transfer-pack/1" in pack.export.data
    assert AuditEvent.objects.filter(action="disclosure.transfer_pack").count() == 1
    assert fresh(cast.case).is_open


def test_transfers_in_wait_in_the_receiving_supervisors_decisions(cast):
    from caseflow.cases import decisions

    receiver = receiving_supervisor(cast)
    requested(cast)
    totals = {g.kind: g.total for g in decisions.decisions_waiting(receiver)}
    assert totals["transfers_in"] == 1
    assert {g.kind: g.total for g in decisions.decisions_waiting(cast.supervisor)}[
        "transfers_in"
    ] == 0


def test_the_receiving_supervisors_are_told_and_the_asker_hears_the_answer(cast):
    from caseflow.inbox.models import Notification

    receiver = receiving_supervisor(cast)
    transfer = requested(cast)
    told = Notification.objects.get(kind="transfer_in")
    assert told.recipient == receiver and told.read_at is None
    # Nothing of the sending agency's case: no reference, no case, no name.
    assert cast.case.reference not in told.text and told.case is None
    assert canary(cast.case) not in told.text + told.link + told.key
    assert transfer.public_id in told.link
    services.transfer_accept(actor=receiver, transfer=transfer, team=cast.other_agency_team)
    told.refresh_from_db()
    assert told.read_at is not None  # the decision made clears it
    answer = Notification.objects.get(kind="transfer_answer")
    assert answer.recipient == cast.assigned and answer.case == cast.case
    assert answer.text == (
        f"The other service took on case {cast.case.reference}: it is closed as transferred."
    )


def test_a_refusal_is_told_to_whoever_asked(cast):
    from caseflow.inbox.models import Notification

    receiver = receiving_supervisor(cast)
    transfer = requested(cast)
    services.transfer_refuse(actor=receiver, transfer=transfer, reason=RefusalReason.OUT_OF_AREA)
    answer = Notification.objects.get(kind="transfer_answer")
    assert answer.recipient == cast.assigned
    assert "refused the transfer" in answer.text
    assert Notification.objects.get(kind="transfer_in").read_at is not None
