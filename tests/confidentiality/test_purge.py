"""Retention, purge proposals, approvals, crypto-shredding and deletion certificates."""

from __future__ import annotations

import pytest
from cryptography.fernet import Fernet
from django.core.exceptions import PermissionDenied
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from caseflow import policy
from caseflow.audit.chain import FIELDS, GENESIS, event_hash
from caseflow.audit.models import AuditEvent
from caseflow.audit.sequencer import sequence_pending
from caseflow.cases.models import Case, CaseKey, CaseStatus, Party, PartyRole
from caseflow.confidentiality import services, tasks
from caseflow.confidentiality.models import (
    CasePurge,
    DeletionCertificate,
    LegalHold,
    ProposalStatus,
    PurgeProposal,
    PurgeScope,
    Release,
)
from caseflow.inbox.models import FollowUp
from caseflow.lib.encryption import DecryptionError, KeyDestroyed, unwrap_data_key
from tests.confidentiality.helpers import RECIPIENT, close, fresh, release
from tests.conftest import canary

pytestmark = pytest.mark.django_db


def _assert_chain_intact() -> None:
    sequence_pending()
    prev = GENESIS
    for row in AuditEvent.objects.order_by("pos").values(*FIELDS, "prev_hash", "hash"):
        assert row["prev_hash"] == prev
        assert row["hash"] == event_hash(prev, row), f"audit row {row['seq']} changed"
        prev = row["hash"]


def _proposal(case, scope=PurgeScope.WHOLE) -> PurgeProposal:
    return PurgeProposal.objects.get(case=case, scope=scope, status__in=["pending", "approved"])


def test_due_purges_are_proposed_once(cast, settings):
    settings.RETENTION_NARRATIVES_YEARS, settings.RETENTION_RECORD_YEARS = 3, 7
    close(cast.case, 8)
    close(cast.team2_case, 4)
    close(cast.restricted_case, 1)
    created = services.purge_propose_due()
    assert {(p.case_id, p.scope) for p in created} == {
        (cast.case.pk, PurgeScope.WHOLE),
        (cast.team2_case.pk, PurgeScope.NARRATIVES),
    }
    assert services.purge_propose_due() == []
    assert tasks.propose_purges() == 0


def test_agency_schedule_overrides_the_default(cast, settings):
    settings.RETENTION_NARRATIVES_YEARS, settings.RETENTION_RECORD_YEARS = 3, 7
    services.retention_save(actor=cast.agency_admin, narratives_years=1, record_years=2)
    close(cast.case, 2.5)
    close(cast.foreign_case, 2.5)  # another agency, on the defaults: not due yet
    created = services.purge_propose_due()
    assert [(p.case_id, p.scope) for p in created] == [(cast.case.pk, PurgeScope.WHOLE)]


def test_reopened_case_is_not_purged(cast):
    case = close(cast.case, 8)
    services.purge_propose_due()
    proposal = _proposal(case)
    Case.objects.filter(pk=case.pk).update(status=CaseStatus.ACTIVE, closed_at=None)
    with pytest.raises(services.PurgeRefused, match="reopened"):
        services.purge_approve(actor=cast.supervisor, proposal_id=proposal.pk)
    services.purge_propose_due()
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.CANCELLED


def test_whole_record_purge_needs_two_different_approvers(cast):
    case = close(cast.case, 8)
    services.purge_propose_due()
    proposal = _proposal(case)
    with pytest.raises(PermissionDenied):
        services.purge_approve(actor=cast.assigned, proposal_id=proposal.pk)
    with pytest.raises(PermissionDenied):
        services.purge_approve(actor=cast.auditor, proposal_id=proposal.pk)
    with pytest.raises(PermissionDenied):
        services.purge_approve(actor=cast.other_agency, proposal_id=proposal.pk)
    services.purge_approve(actor=cast.supervisor, proposal_id=proposal.pk)
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.PENDING
    with pytest.raises(services.PurgeRefused, match="different person"):
        services.purge_approve(actor=cast.supervisor, proposal_id=proposal.pk)
    with pytest.raises(services.PurgeRefused, match="approved purge"):
        services.purge_execute(actor=cast.supervisor, proposal_id=proposal.pk)
    assert CaseKey.objects.filter(case=case).exists()
    services.purge_approve(actor=cast.agency_admin, proposal_id=proposal.pk)
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.APPROVED


def test_partial_purge_needs_one_approver_and_keeps_counts(cast):
    case = close(cast.case, 4)
    release(cast, case)
    services.purge_propose_due()
    proposal = _proposal(case, PurgeScope.NARRATIVES)
    services.purge_approve(actor=cast.supervisor, proposal_id=proposal.pk)
    certificate = services.purge_execute(actor=cast.supervisor, proposal_id=proposal.pk)
    case = fresh(case)
    assert case.summary == ""
    parties = list(Party.objects.filter(case=case))
    assert len(parties) == 2
    assert all(p.notes == "" for p in parties)
    assert any(canary(case) in p.full_name for p in parties)  # identity stays: partial purge
    assert Release.objects.filter(case=case).count() == 1
    stub = CasePurge.objects.get(case=case)
    assert stub.scope == PurgeScope.NARRATIVES
    assert stub.counts["cases.Party"] == 2
    assert certificate.purged["cleared"]["cases.Case"] == ["summary"]
    assert certificate.purged["key_destroyed"] is False
    assert AuditEvent.objects.filter(action="purge.execute", case_id=case.pk).exists()


def _purge_whole(cast, case) -> DeletionCertificate:
    services.purge_propose_due()
    proposal = _proposal(case)
    services.purge_approve(actor=cast.supervisor, proposal_id=proposal.pk)
    services.purge_approve(actor=cast.agency_admin, proposal_id=proposal.pk)
    return services.purge_execute(actor=cast.agency_admin, proposal_id=proposal.pk)


def test_whole_record_purge_leaves_a_stub_a_certificate_and_the_audit_chain(cast):
    case = close(cast.case, 8)
    release(cast, case)
    # A disclosure made under the release: it protects the release, the purge still goes through.
    services.referral_pack_export(
        actor=cast.assigned,
        case=case,
        recipient=RECIPIENT,
        categories=["contact"],
        fmt="html",
    )
    before = list(AuditEvent.objects.filter(case_id=case.pk).values_list("seq", "hash"))
    certificate = _purge_whole(cast, case)

    stub = fresh(case)
    assert stub.reference == "CASE-1"
    assert stub.opened_at and stub.closed_at
    assert not CaseKey.objects.filter(case=case).exists()
    assert not Party.objects.filter(case=case).exists()
    assert not Release.objects.filter(case=case).exists()
    assert not FollowUp.objects.filter(case=case).exists()
    with pytest.raises(KeyDestroyed):
        stub.data_key()
    # Nobody can open the stub; list pages show only what it keeps.
    for user in (cast.assigned, cast.supervisor):
        assert not policy.can_view_case(user, stub)
    counts = CasePurge.objects.get(case=case).counts
    assert counts["cases.Party"] == 2
    assert counts["parties_by_role"] == {PartyRole.SURVIVOR: 1, PartyRole.OTHER_PARTY: 1}
    assert counts["confidentiality.Release"] == 1
    assert counts["confidentiality.Disclosure"] == 1
    # The certificate: what, when, on whose approval.
    assert certificate.approver_ids == [cast.supervisor.pk, cast.agency_admin.pk]
    assert certificate.purged["key_destroyed"] is True
    assert certificate.purged["deleted"]["cases.Party"] == 2
    assert certificate.case_reference == "CASE-1"
    # The audit chain before the purge is untouched; the purge itself is recorded.
    after = list(AuditEvent.objects.filter(case_id=case.pk).values_list("seq", "hash"))
    assert after[: len(before)] == before
    event = AuditEvent.objects.get(action="purge.execute")
    assert event.detail["certificate"] == certificate.pk
    _assert_chain_intact()
    # Other cases are untouched.
    other = Party.objects.filter(case=cast.team2_case).first()
    assert canary(cast.team2_case) in other.full_name
    # A purged case cannot be purged again.
    assert services.purge_propose_due() == []


def test_purge_then_decrypt_from_a_pre_purge_database_copy_fails(cast, settings):
    """Crypto-shredding against backups: purge, rotate the master key, rewrap, retire the old."""
    case = close(cast.case, 8)
    # The 'pre-purge copy': the rows a backup would hold.
    snapshot_key = CaseKey.objects.get(case=case).wrapped
    snapshot_names = [
        p.__dict__["full_name"].token for p in Party.objects.filter(case=case).order_by("pk")
    ]
    # Before the purge the copy is readable with the master keys in force.
    names = [unwrap_data_key(snapshot_key).decrypt(t.encode()).decode() for t in snapshot_names]
    assert any(canary(case) in n for n in names)

    _purge_whole(cast, case)

    old_keys = list(settings.FIELD_ENCRYPTION_KEYS)
    new_key = Fernet.generate_key().decode()
    settings.FIELD_ENCRYPTION_KEYS = [new_key, *old_keys]
    call_command("rotate_keys", batch_size=2)
    settings.FIELD_ENCRYPTION_KEYS = [new_key]  # the old master key is retired

    with pytest.raises(DecryptionError):
        unwrap_data_key(snapshot_key)
    # So the copy's ciphertext cannot be read (with the new master there is no key for it).
    assert not CaseKey.objects.filter(case=case).exists()
    # Every case that was not purged still decrypts, through its rewrapped key.
    for other in (cast.restricted_case, cast.team2_case, cast.foreign_case):
        party = Party.objects.filter(case_id=other.pk).first()
        assert canary(other) in party.full_name


def test_rewrap_is_idempotent_and_resumable(cast, settings, capsys):
    old_keys = list(settings.FIELD_ENCRYPTION_KEYS)
    settings.FIELD_ENCRYPTION_KEYS = [Fernet.generate_key().decode(), *old_keys]
    keys = list(CaseKey.objects.order_by("pk").values_list("pk", flat=True))
    call_command("rotate_keys", after=keys[1])
    assert f"{len(keys) - 2} data keys rewrapped, 0 already" in capsys.readouterr().out
    call_command("rotate_keys")
    assert f"2 data keys rewrapped, {len(keys) - 2} already" in capsys.readouterr().out
    call_command("rotate_keys")
    assert "0 data keys rewrapped" in capsys.readouterr().out
    settings.FIELD_ENCRYPTION_KEYS = settings.FIELD_ENCRYPTION_KEYS[:1]
    assert canary(cast.case) in Party.objects.filter(case_id=cast.case.pk).first().full_name


def test_rewrap_refuses_clearly_when_a_key_cannot_be_unwrapped(cast, settings):
    settings.FIELD_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    with pytest.raises(CommandError, match="cannot be unwrapped"):
        call_command("rotate_keys")


def test_purge_pages(cast, login):
    case = close(cast.case, 8)
    services.purge_propose_due()
    proposal = _proposal(case)
    client = login(cast.supervisor)
    page = client.get(reverse("confidentiality:purges")).content.decode()
    assert "CASE-1" in page and "0 of 2" in page
    assert canary(case) not in page
    approve = reverse("confidentiality:purge_approve")
    assert client.post(approve, {"proposal": proposal.pk}).status_code == 302
    again = client.post(approve, {"proposal": proposal.pk}, follow=True).content.decode()
    assert "a different person must give the second approval" in again
    client = login(cast.agency_admin)
    client.post(approve, {"proposal": proposal.pk})
    execute = reverse("confidentiality:purge_execute")
    # The first press only shows what the purge will destroy, in words, and asks again.
    confirm = client.post(execute, {"proposal": proposal.pk})
    body = confirm.content.decode()
    assert confirm.status_code == 200 and "This cannot be undone." in body
    assert "Yes, purge CASE-1 now" in body and "people" in body and "cases.Party" not in body
    assert canary(case) not in body
    assert CaseKey.objects.filter(case=case).exists()
    response = client.post(execute, {"proposal": proposal.pk, "confirm": "yes"}, follow=True)
    body = response.content.decode()
    assert "Purge carried out" in body
    assert "encryption key was destroyed" in body
    # The certificate says what went in words, never model names.
    certificate = body.split("Deletion certificate for case", 1)[1]
    assert "cases." not in certificate and "people" in certificate
    # A proposal of another agency is not theirs to approve.
    other = close(cast.foreign_case, 8)
    services.purge_propose_due()
    foreign = _proposal(other)
    assert client.post(approve, {"proposal": foreign.pk}).status_code == 403
    # Garbage in the form: a message, not an error page.
    assert client.post(approve, {"proposal": "x"}).status_code == 302


def test_retention_form(cast, login):
    client = login(cast.agency_admin)
    url = reverse("confidentiality:retention")
    bad = client.post(url, {"narratives_years": 5, "record_years": 2})
    assert "cannot go before its narratives" in bad.content.decode()
    assert client.post(url, {"narratives_years": 2, "record_years": 6}).status_code == 302
    assert services.schedule_for(cast.agency.pk) == (2, 6)


def test_purge_queue_page_has_constant_queries(cast, login):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests import factories as f

    client = login(cast.supervisor)
    url = reverse("confidentiality:purges")

    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        return len(ctx.captured_queries)

    close(cast.case, 8)
    services.purge_propose_due()
    services.purge_approve(actor=cast.supervisor, proposal_id=_proposal(cast.case).pk)
    queries()  # warm: first-request work (session, caches) is not the page's
    few = queries()
    for _ in range(5):
        close(f.open_case(cast.team1, [cast.assigned]), 8)
    services.purge_propose_due()
    for proposal in PurgeProposal.objects.filter(status="pending"):
        services.purge_approve(actor=cast.agency_admin, proposal_id=proposal.pk)
    assert PurgeProposal.objects.count() == 6
    assert queries() == few


def test_propose_purges_command(cast, capsys):
    close(cast.case, 8)
    call_command("propose_purges")
    assert "proposed 1 purge(s)" in capsys.readouterr().out
    call_command("propose_purges")
    assert "proposed 0 purge(s)" in capsys.readouterr().out


def test_a_purged_case_cannot_be_opened_and_leaves_the_lists(cast, login):
    case = close(cast.case, 8)
    _purge_whole(cast, case)
    for user in (cast.assigned, cast.supervisor):
        client = login(user)
        assert client.get(reverse("cases:detail", args=[case.public_id])).status_code == 404
        listing = client.get(reverse("cases:list")).content.decode()
        assert "CASE-1" not in listing


def _plant_every_narrative(cast, case: Case) -> None:
    """A row of every model with narratives, each narrative holding the case's canary."""
    import datetime as dt

    from django.utils import timezone

    from caseflow.cases.models import BreakGlassGrant
    from caseflow.checkins.models import CheckIn
    from caseflow.safety.models import RiskAssessment, RiskInstrument, SafetyPlan, SafetyPlanVersion
    from tests.agreements.helpers import london, make_agreement, record_breach

    mark = canary(case)
    now = timezone.now()
    CheckIn.objects.create(
        case=case, channel="phone", due_at=now, assignee=cast.assigned, note=f"note {mark}"
    )
    FollowUp.objects.create(case=case, kind="general", due_at=now, details=f"details {mark}")
    BreakGlassGrant.objects.create(
        case=case,
        user=cast.same_team,
        reason=f"reason {mark}",
        expires_at=now + dt.timedelta(hours=1),
        review_comment=f"review {mark}",
    )
    plan = SafetyPlan.objects.create(case=case, version=1)
    SafetyPlanVersion.objects.create(
        case=case, plan=plan, number=1, author=cast.assigned, content={"escape": f"plan {mark}"}
    )
    instrument = RiskInstrument.objects.create(slug="t", version=1, name="T", definition={})
    RiskAssessment.objects.create(
        case=case,
        instrument=instrument,
        answers={"q1": "yes"},
        score=3,
        band="medium",
        override_band="high",
        override_reason=f"override {mark}",
        assessor=cast.assigned,
    )
    agreement = make_agreement(case, cast.assigned)
    agreement.case, agreement.court, agreement.court_reference = case, "Family Court", "FC1"
    agreement.save(update_fields=["court", "court_reference"])
    breach = record_breach(
        agreement, cast.assigned, london(2025, 2, 3, 18, 30), description=f"event {mark}"
    )
    breach.case, breach.description = case, f"breach {mark}"
    breach.violations = [*breach.violations, {"description": f"violation {mark}"}]
    breach.save(update_fields=["description", "violations"])
    from caseflow.casework.models import NoteAmendment
    from tests.casework.helpers import make_incident, make_note

    note = make_note(case, cast.assigned, text=f"note {mark}")
    NoteAmendment.objects.create(
        case=case,
        note=note,
        changes=[["Note", f"note {mark}", "changed"]],
        reason=f"reason {mark}",
        author=cast.supervisor,
    )
    make_incident(
        case,
        cast.assigned,
        what_happened=f"happened {mark}",
        injuries=f"bruise {mark}",
        place=f"place {mark}",
        witnesses=f"neighbour {mark}",
        police="yes",
        police_reference="REF-1",
    )


def _encrypted_values(case: Case) -> dict[tuple[str, int, str], object]:
    from caseflow.confidentiality import narratives

    values = {}
    for model in narratives.classified_models():
        rows = [fresh(case)] if model is Case else model._default_manager.filter(case=case)
        for row in rows:
            if model is not Case:
                row.case = case
            for name in narratives.encrypted_field_names(model):
                values[(model._meta.label, row.pk, name)] = getattr(row, name)
    return values


def test_partial_purge_clears_every_narrative_and_keeps_the_rest(cast):
    from caseflow.confidentiality import narratives

    case = cast.case
    _plant_every_narrative(cast, case)
    evidence = {m._meta.label for m in narratives.evidence_models()}
    owned = [m for m in narratives.case_owned_models() if m._meta.label not in evidence]
    rows_before = {m._meta.label: m._default_manager.filter(case=case).count() for m in owned}
    before = _encrypted_values(case)
    narrative = {
        (m._meta.label, name)
        for m, names in narratives.narrative_fields().items()
        for name in names
    }
    planted = {
        (label, name) for (label, _, name), value in before.items() if canary(case) in str(value)
    }
    # Each of these is declared a narrative and holds text to clear.
    assert {
        ("checkins.CheckIn", "note"),
        ("agreements.ContactEvent", "description"),
        ("agreements.Breach", "description"),
        ("agreements.Breach", "violations"),
        ("safety.RiskAssessment", "override_reason"),
        ("safety.SafetyPlanVersion", "content"),
        ("inbox.FollowUp", "details"),
        ("cases.BreakGlassGrant", "reason"),
        ("cases.Case", "summary"),
        ("casework.CaseNote", "text"),
        ("casework.Incident", "what_happened"),
        ("casework.Incident", "injuries"),
        ("casework.Incident", "place"),
        ("casework.Incident", "witnesses"),
    } <= planted & narrative
    assert ("casework.NoteAmendment", "reason") in planted

    close(case, 4)
    services.purge_propose_due()
    proposal = _proposal(case, PurgeScope.NARRATIVES)
    services.purge_approve(actor=cast.supervisor, proposal_id=proposal.pk)
    certificate = services.purge_execute(actor=cast.supervisor, proposal_id=proposal.pk)

    after = _encrypted_values(case)
    for (label, pk, name), value in before.items():
        if label in evidence:
            assert (label, pk, name) not in after  # the row went
        elif (label, name) in narrative:
            old, new = value, after[(label, pk, name)]
            assert not new, f"{label}.{name} of row {pk} was not cleared"
            assert type(new) is type(old), f"{label}.{name} cleared to {new!r}, was {old!r}"
        else:
            assert after[(label, pk, name)] == value, f"{label}.{name} was not kept"
    assert canary(case) not in repr({k: v for k, v in after.items() if (k[0], k[2]) in narrative})
    assert {m._meta.label: m._default_manager.filter(case=case).count() for m in owned} == (
        rows_before
    )
    cleared = certificate.purged["cleared"]
    assert cleared["checkins.CheckIn"] == ["note"]
    assert cleared["safety.SafetyPlanVersion"] == ["content"]
    assert cleared["agreements.Breach"] == ["violations", "description"]


def test_a_legal_hold_blocks_approval_and_purge_until_lifted(cast, login):
    case = close(cast.case, 8)
    services.purge_propose_due()
    proposal = _proposal(case)
    client = login(cast.supervisor)
    hold_url = reverse("confidentiality:legal_hold_place")
    short = client.post(hold_url, {"proposal": proposal.pk, "reason": "court"}, follow=True)
    assert "at least 10 characters" in short.content.decode()
    client.post(hold_url, {"proposal": proposal.pk, "reason": "Family proceedings ongoing."})
    hold = LegalHold.objects.get(case=case, lifted_at__isnull=True)
    hold.case = case
    assert hold.reason == "Family proceedings ongoing."
    page = client.get(reverse("confidentiality:purges")).content.decode()
    assert "On legal hold" in page and "Family proceedings" not in page
    with pytest.raises(services.PurgeRefused, match="legal hold"):
        services.purge_approve(actor=cast.supervisor, proposal_id=proposal.pk)
    # Approved before the hold: still not carried out.
    LegalHold.objects.filter(pk=hold.pk).update(lifted_at=timezone.now())
    services.purge_approve(actor=cast.supervisor, proposal_id=proposal.pk)
    services.purge_approve(actor=cast.agency_admin, proposal_id=proposal.pk)
    services.legal_hold_place(
        actor=cast.supervisor, proposal_id=proposal.pk, reason="Court asked for it."
    )
    with pytest.raises(services.PurgeRefused, match="legal hold"):
        services.purge_execute(actor=cast.agency_admin, proposal_id=proposal.pk)
    assert CaseKey.objects.filter(case=case).exists()
    held = LegalHold.objects.get(case=case, lifted_at__isnull=True)
    lift = client.post(reverse("confidentiality:legal_hold_lift"), {"hold": held.pk}, follow=True)
    assert "is lifted" in lift.content.decode()
    services.purge_execute(actor=cast.agency_admin, proposal_id=proposal.pk)
    assert not CaseKey.objects.filter(case=case).exists()
    assert AuditEvent.objects.filter(action="legal_hold.place").count() == 2
    assert AuditEvent.objects.filter(action="legal_hold.lift").count() == 1
