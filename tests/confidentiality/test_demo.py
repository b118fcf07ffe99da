"""The demo shows confidentiality in use: a new user finds it populated."""

from __future__ import annotations

import pytest

from caseflow.cases.models import FieldSetting
from caseflow.confidentiality.models import (
    CompelledOrder,
    ConfidentialityFollowUpKind,
    Disclosure,
    DisclosureKind,
    ProposalStatus,
    PurgeProposal,
    Release,
    RetentionSchedule,
)
from caseflow.demo.seed import seed
from caseflow.inbox.models import FollowUp
from caseflow.partners.models import ServiceReferral
from caseflow.transfers.models import Transfer

pytestmark = pytest.mark.django_db


@pytest.mark.demo
def test_demo_seeds_confidentiality_data():
    seed()
    assert Release.objects.filter(revoked_at__isnull=False).count() == 1
    # Besides the two the partners demo gives for its housing referrals.
    referrals = ServiceReferral.objects.exclude(release=None).values("release_id")
    # And the two the transfers demo gives for its transfers to Hillview.
    transfers = Transfer.objects.values("release_id")
    assert (
        Release.objects.filter(revoked_at__isnull=True)
        .exclude(pk__in=referrals)
        .exclude(pk__in=transfers)
        .count()
        == 3
    )
    assert FollowUp.objects.filter(kind=ConfidentialityFollowUpKind.RELEASE_EXPIRY).count() == 1
    assert CompelledOrder.objects.count() == 1
    assert FollowUp.objects.filter(kind=ConfidentialityFollowUpKind.LEGAL_REVIEW).exists()
    # A referral pack, the compelled disclosure and the survivor's own copy of her record.
    assert Disclosure.objects.exclude(kind=DisclosureKind.TRANSFER).count() == 3
    assert RetentionSchedule.objects.count() == 1
    pending = PurgeProposal.objects.filter(status=ProposalStatus.PENDING)
    assert pending.filter(scope="whole").count() == 1
    assert pending.get(scope="whole").approvals.count() == 1
    # One agency collects less and names fields its own way, on its forms and case pages.
    hiding = set(FieldSetting.objects.filter(hidden=True).values_list("agency_id", flat=True))
    assert hiding
    relabelled = FieldSetting.objects.filter(agency_id__in=hiding, hidden=False).exclude(label="")
    assert relabelled.exists()


@pytest.mark.demo
def test_demo_has_a_release_to_try_the_evidence_pack_and_case_export():
    seed()
    from caseflow.agreements.models import Breach
    from caseflow.confidentiality import services
    from caseflow.confidentiality.demo import EXPORT_RECIPIENT
    from caseflow.confidentiality.models import Category

    covering = [
        r
        for r in Release.objects.filter(revoked_at__isnull=True)
        if Category.EVIDENCE in r.categories and Category.COURT_ORDERS in r.categories
    ]
    assert len(covering) == 1
    case = covering[0].case
    assert Breach.objects.filter(case=case).exists()
    assert services.release_covering(case, EXPORT_RECIPIENT, services.CHRONOLOGY_CATEGORIES)
    # An evidence file to put in the pack: stored encrypted, it reads back as the PNG it was.
    from caseflow.agreements.models import Evidence
    from caseflow.agreements.services import evidence_read

    evidence = Evidence.objects.filter(case=case).first()
    assert evidence is not None and evidence.content_type == "image/png"
    assert evidence_read(case, evidence).startswith(b"\x89PNG\r\n\x1a\n")
    assert not case.restricted
    # Its advocate asked for a case export to be prepared in the background: waiting for the
    # demo's worker, nothing disclosed yet.
    from caseflow.confidentiality.models import PreparedExport
    from caseflow.outbox.models import Intent

    prepared = PreparedExport.objects.get()
    assert prepared.case_id == case.pk and prepared.requested_by_id == case.primary_advocate_id
    assert prepared.kind == DisclosureKind.CASE_EXPORT and prepared.release == covering[0]
    task = "caseflow.confidentiality.tasks.prepare_export"
    assert Intent.objects.get(task=task).kwargs == {"export_id": prepared.pk}
    assert not Disclosure.objects.filter(kind=DisclosureKind.CASE_EXPORT).exists()


@pytest.mark.demo
def test_demo_has_her_own_copy_given_with_more_records_left_to_choose():
    seed()
    from caseflow.agreements.models import ContactEvent
    from caseflow.audit.models import AuditEvent
    from caseflow.casework.models import Incident
    from caseflow.confidentiality.models import DisclosureKind

    given = Disclosure.objects.get(kind=DisclosureKind.OWN_COPY)
    assert given.release_id is None
    assert given.categories == ["evidence", "narratives"]
    event = AuditEvent.objects.get(action="disclosure.own_copy")
    assert event.detail["incidents"] == 2 and event.detail["contacts"] >= 1
    assert Incident.objects.filter(case=given.case).count() > 2
    assert ContactEvent.objects.filter(case=given.case).count() > event.detail["contacts"]
