"""Risk meetings, referrals to other services, demographics: services, pages, queue, sweep."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from caseflow.audit.models import AuditEvent
from caseflow.cases import today as today_queue
from caseflow.cases.models import FieldSetting, PartyRole, RiskLevel
from caseflow.cases.timeline import Query, page
from caseflow.confidentiality.models import Release
from caseflow.confidentiality.services.releases import recipient_index
from caseflow.inbox.models import FollowUp, FollowUpStatus
from caseflow.partners import services
from caseflow.partners.models import (
    DECLINED,
    Demographics,
    MeetingReferral,
    ReferralState,
    ServiceReferral,
)

pytestmark = pytest.mark.django_db


def _release(case, recipient, categories=("risk", "contact")):
    survivor = case.parties.get(role=PartyRole.SURVIVOR)
    release = Release(
        case=case,
        consenting_party=survivor,
        recipient=recipient,
        recipient_index=recipient_index(recipient),
        purpose="test",
        categories=list(categories),
        signed_on=timezone.localdate() - dt.timedelta(days=3),
        expires_on=timezone.localdate() + dt.timedelta(days=90),
    )
    release.save()
    return release


def _refer(cast, **kw):
    args = dict(
        actor=cast.assigned,
        case=cast.case,
        route="judgement",
        reason="Escalating threats",
        basis="release",
        release=_release(cast.case, "MARAC"),
        categories=["risk"],
        referred_on=timezone.localdate(),
        meeting_on=None,
    )
    args.update(kw)
    return services.meeting_refer(**args)


def test_referral_under_a_release_is_audited_as_a_disclosure(cast):
    referral = _refer(cast)
    assert referral.meeting_name == "MARAC" and not referral.repeat
    event = AuditEvent.objects.get(action="disclosure.risk_meeting")
    assert event.detail["basis"] == "release" and event.detail["categories"] == ["risk"]


def test_a_release_for_someone_else_does_not_allow_it(cast):
    with pytest.raises(ValidationError):
        _refer(cast, release=_release(cast.case, "Housing Org"))
    assert not MeetingReferral.objects.exists()
    assert AuditEvent.objects.filter(action="disclosure.refused").exists()


def test_lawful_basis_only_once_the_admin_has_recorded_it(cast):
    with pytest.raises(ValidationError):
        _refer(cast, basis="lawful_basis", release=None)
    services.settings_save(
        actor=cast.agency_admin,
        meeting_name="High-risk team",
        lawful_basis="Vital interests: serious risk of harm.",
    )
    referral = _refer(cast, basis="lawful_basis", release=None)
    assert referral.meeting_name == "High-risk team"
    assert referral.lawful_basis.startswith("Vital interests")


def test_assessment_route_needs_a_high_band(cast):
    with pytest.raises(ValidationError):
        _refer(cast, route="assessment")
    cast.case.risk_level = RiskLevel.HIGH
    cast.case.save(update_fields=["risk_level"])
    assert _refer(cast, route="assessment").route == "assessment"


def test_heard_within_twelve_months_is_a_repeat(cast):
    first = _refer(cast, referred_on=timezone.localdate() - dt.timedelta(days=200))
    services.meeting_update(
        actor=cast.assigned,
        referral=first,
        meeting_on=timezone.localdate() - dt.timedelta(days=190),
        outcome="Police to flag the address.",
    )
    second = _refer(cast)
    assert second.repeat
    entries = page(cast.case, Query(kinds=frozenset({"risk_meeting"}))).entries
    assert [e.body for e in entries] == ["Police to flag the address."]


def test_an_overdue_action_is_on_its_owner_queue_only(cast):
    referral = _refer(cast)
    services.action_add(
        actor=cast.assigned,
        referral=referral,
        text="Safety visit",
        owner=cast.assigned,
        owner_agency="",
        due_on=timezone.localdate() - dt.timedelta(days=2),
    )
    services.action_add(
        actor=cast.assigned,
        referral=referral,
        text="Health visitor check",
        owner=None,
        owner_agency="Health visiting team",
        due_on=timezone.localdate() - dt.timedelta(days=2),
    )
    from caseflow import policy

    with pytest.raises(ValidationError):  # someone who does not work the case
        services.action_add(
            actor=cast.assigned,
            referral=referral,
            text="Anything",
            owner=cast.same_team,
            owner_agency="",
            due_on=timezone.localdate(),
        )
    owner_scope = today_queue.scope_for(
        cast.assigned, policy.visible_cases(cast.assigned), own_only=True
    )
    overdue = today_queue.queue(owner_scope).overdue
    mine = [i for i in overdue if i.kind == "Risk meeting action"]
    assert [i.case_reference for i in mine] == ["CASE-1"]
    other_scope = today_queue.scope_for(
        cast.same_team, policy.visible_cases(cast.same_team), own_only=True
    )
    assert not [
        i for i in today_queue.queue(other_scope).overdue if i.kind == "Risk meeting action"
    ]


def test_service_referral_needs_a_release_naming_the_organisation(cast):
    kw = dict(
        actor=cast.assigned,
        case=cast.case,
        direction="out",
        service_type="housing",
        organisation="Safe Homes",
        details="",
        sent_on=timezone.localdate() - dt.timedelta(days=10),
        respond_by=timezone.localdate() - dt.timedelta(days=3),
        needs=[],
    )
    with pytest.raises(ValidationError):
        services.referral_create(release=None, **kw)
    referral = services.referral_create(release=_release(cast.case, "Safe Homes"), **kw)
    assert services.referral_followups_sweep() == {"referral_response": 1}
    assert services.referral_followups_sweep() == {"referral_response": 0}
    followup = FollowUp.objects.get(source_key=f"referral:{referral.pk}:reply")
    assert followup.status == FollowUpStatus.OPEN
    services.referral_set_state(
        actor=cast.assigned,
        referral=referral,
        state=ReferralState.ACCEPTED,
        on=timezone.localdate(),
        expected_version=referral.version,
    )
    followup.refresh_from_db()
    assert followup.status == FollowUpStatus.DONE
    with pytest.raises(ValidationError):
        services.referral_set_state(
            actor=cast.assigned,
            referral=ServiceReferral.objects.get(),
            state=ReferralState.SENT,
            on=timezone.localdate(),
            expected_version=2,
        )


def test_referral_pages(cast, login):
    client = login(cast.assigned)
    _release(cast.case, "Safe Homes")
    release = Release.objects.get(recipient_index=recipient_index("Safe Homes"))
    url = reverse("partners:referral_new", args=[cast.case.public_id])
    data = {
        "direction": "out",
        "service_type": "housing",
        "organisation": "Safe Homes",
        "release": release.public_id,
        "sent_on": timezone.localdate().isoformat(),
        "respond_by": "",
    }
    response = client.post(url, data)
    referral = ServiceReferral.objects.get()
    assert response.status_code == 302
    page = reverse("partners:referral", args=[cast.case.public_id, referral.public_id])
    response = client.post(
        page, {"state": "accepted", "on": timezone.localdate().isoformat(), "version": 1}
    )
    assert response.status_code == 302
    body = client.get(page).content.decode()
    assert "Accepted" in body
    # Bad input: the form says why, nothing is lost.
    response = client.post(url, {**data, "organisation": "Somewhere else"})
    assert response.status_code == 200 and "consent to share" in response.content.decode()


def test_demographics_are_encrypted_and_follow_field_settings(cast, login):
    FieldSetting.objects.create(agency=cast.agency, field="demographic_immigration", hidden=True)
    FieldSetting.objects.create(
        agency=cast.agency, field="demographic_language", label="Preferred language"
    )
    client = login(cast.assigned)
    url = reverse("partners:demographics", args=[cast.case.public_id])
    body = client.get(url).content.decode()
    assert "Preferred language" in body and "Immigration status" not in body
    response = client.post(url, {"age_band": "25_34", "gender_identity": DECLINED, "version": 0})
    assert response.status_code == 302
    row = Demographics.objects.get()
    assert row.age_band == "25_34" and row.gender_identity == DECLINED
    assert row.immigration == "not_asked"
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT age_band FROM partners_demographics")
        (stored,) = cursor.fetchone()
    assert "25_34" not in stored


def test_only_the_agency_admin_names_the_meeting(cast, login):
    url = reverse("partners:settings")
    assert login(cast.supervisor).get(url).status_code == 403
    client = login(cast.agency_admin)
    response = client.post(url, {"meeting_name": "MARAC North", "lawful_basis": ""})
    assert response.status_code == 302
    assert services.partner_settings(cast.agency.pk).meeting_name == "MARAC North"
