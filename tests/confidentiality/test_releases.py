"""The consent (release) ledger and the referral pack that may only leave under a release."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import PartyRole
from caseflow.confidentiality import services, tasks
from caseflow.confidentiality.models import (
    Category,
    ConfidentialityFollowUpKind,
    Disclosure,
    Release,
)
from caseflow.inbox.models import FollowUp, FollowUpStatus
from tests import factories as f
from tests.confidentiality.helpers import RECIPIENT, party, release
from tests.conftest import canary

pytestmark = pytest.mark.django_db


def _form(cast, case, **over):
    today = timezone.localdate()
    data = {
        "consenting_party": party(case).public_id,
        "for_child": "",
        "recipient": RECIPIENT,
        "purpose": "Housing referral",
        "categories": ["contact", "address"],
        "signed_on": (today - dt.timedelta(days=1)).isoformat(),
        "expires_on": (today + dt.timedelta(days=100)).isoformat(),
    }
    data.update(over)
    return data


def test_release_recorded_through_the_form_and_audited(cast, login):
    client = login(cast.assigned)
    url = reverse("confidentiality:release_new", args=[cast.case.public_id])
    response = client.post(url, _form(cast, cast.case))
    assert response.status_code == 302
    rel = Release.objects.get(case=cast.case)
    rel.case = cast.case
    assert rel.recipient == RECIPIENT
    assert rel.categories == ["address", "contact"]
    event = AuditEvent.objects.filter(action="release.create").last()
    assert event.detail["release"] == rel.pk
    assert RECIPIENT not in str(event.detail)
    # The case page shows it.
    page = client.get(reverse("cases:detail", args=[cast.case.public_id])).content.decode()
    assert RECIPIENT in page


def test_release_from_the_other_party_is_refused(cast, login):
    client = login(cast.assigned)
    other = party(cast.case, PartyRole.OTHER_PARTY)
    url = reverse("confidentiality:release_new", args=[cast.case.public_id])
    response = client.post(url, _form(cast, cast.case, consenting_party=other.public_id))
    assert response.status_code == 200
    assert "other party cannot give consent" in response.content.decode()
    assert not Release.objects.exists()
    with pytest.raises(services.ReleaseRefused):
        services.release_record(
            actor=cast.assigned,
            case=cast.case,
            consenting_party=other,
            recipient=RECIPIENT,
            purpose="x",
            categories=["contact"],
            signed_on=timezone.localdate(),
            expires_on=timezone.localdate() + dt.timedelta(days=5),
        )
    assert not Release.objects.exists()


def test_the_other_party_recorded_again_as_another_role_cannot_consent(cast):
    other = party(cast.case, PartyRole.OTHER_PARTY)
    other.date_of_birth = "1980-02-02"
    other.save()
    from caseflow.cases.services import identity_index_for

    index = identity_index_for(other.full_name, "1980-02-02")
    type(other).objects.filter(pk=other.pk).update(identity_index=index)
    twin = f.add_party(cast.case, PartyRole.SURVIVOR, full_name=other.full_name)
    type(twin).objects.filter(pk=twin.pk).update(identity_index=index)
    twin.identity_index = index
    assert "also recorded as the case's other party" in services.consent_problem(cast.case, twin)


def test_guardian_consents_for_a_child_but_a_child_cannot_consent(cast, login):
    child = f.add_party(cast.case, PartyRole.CHILD, full_name="Child Example")
    client = login(cast.assigned)
    url = reverse("confidentiality:release_new", args=[cast.case.public_id])
    refused = client.post(url, _form(cast, cast.case, consenting_party=child.public_id))
    assert refused.status_code == 200
    assert not Release.objects.exists()
    ok = client.post(url, _form(cast, cast.case, for_child=child.public_id))
    assert ok.status_code == 302
    assert Release.objects.get().for_child_id == child.pk


@pytest.mark.parametrize(
    ("over", "message"),
    [
        ({"expires_on": "2020-01-01"}, "The expiry date must be after the date"),
        ({"expires_on": ""}, "every consent is time-limited"),
        ({"categories": []}, "Choose at least one category"),
        ({"categories": ["full_name"]}, "Select a valid choice"),
        ({"signed_on": "not a date"}, "Enter a valid date"),
        ({"consenting_party": "nobody-with-this-id"}, "Select a valid choice"),
        ({"recipient": "x" * 201}, "at most 200 characters"),
    ],
)
def test_bad_release_input_gets_a_clear_form_error(cast, login, over, message):
    client = login(cast.assigned)
    url = reverse("confidentiality:release_new", args=[cast.case.public_id])
    response = client.post(url, _form(cast, cast.case, **over))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Release.objects.exists()


def test_release_may_run_at_most_twelve_months(cast, login):
    client = login(cast.assigned)
    url = reverse("confidentiality:release_new", args=[cast.case.public_id])
    signed = timezone.localdate() - dt.timedelta(days=1)
    too_long = signed.replace(year=signed.year + 1) + dt.timedelta(days=1)
    response = client.post(
        url,
        _form(cast, cast.case, signed_on=signed.isoformat(), expires_on=too_long.isoformat()),
    )
    assert "at most 12 months" in response.content.decode()
    assert not Release.objects.exists()


def test_a_party_of_another_case_cannot_consent(cast):
    foreign = party(cast.team2_case)
    assert services.consent_problem(cast.case, foreign) == "Choose a person recorded on this case."


def test_release_covering(cast):
    rel = release(cast)
    now = timezone.now()
    assert services.release_covering(cast.case, RECIPIENT, ["contact"], now) == rel
    # Recipient names match after normalisation, not otherwise.
    assert services.release_covering(cast.case, "riverside  HOUSING trust", ["contact"], now)
    assert services.release_covering(cast.case, "Another Org", ["contact"], now) is None
    # Every category must be covered.
    assert services.release_covering(cast.case, RECIPIENT, ["contact", "risk"], now) is None
    # Another case's release never covers this one.
    assert services.release_covering(cast.team2_case, RECIPIENT, ["contact"], now) is None
    # Expired.
    later = now + dt.timedelta(days=91)
    assert services.release_covering(cast.case, RECIPIENT, ["contact"], later) is None
    # Revoked.
    services.release_revoke(actor=cast.assigned, case=cast.case, release=rel, reason="withdrawn")
    assert services.release_covering(cast.case, RECIPIENT, ["contact"], now) is None


def _pack(client, cast, case=None, **over):
    case = case or cast.case
    data = {"recipient": RECIPIENT, "categories": ["contact"], "fmt": "html"}
    data.update(over)
    return client.post(reverse("confidentiality:referral_pack", args=[case.public_id]), data)


def test_export_without_a_release_is_refused_and_audited(cast, login):
    client = login(cast.assigned)
    response = _pack(client, cast)
    body = response.content.decode()
    assert response.status_code == 200
    assert "Refused: no valid consent covers" in body
    assert canary(cast.case) not in body  # nothing of the case was produced
    assert not Disclosure.objects.exists()
    event = AuditEvent.objects.filter(action="disclosure.refused").last()
    assert event.case_id == cast.case.pk
    assert event.detail["categories"] == ["contact"]


def test_export_with_a_release_is_allowed_and_audited(cast, login):
    rel = release(cast)
    client = login(cast.assigned)
    response = _pack(client, cast, categories=["contact", "address"])
    body = response.content.decode()
    assert response.status_code == 200
    assert f"Survivor {canary(cast.case)}" in body
    disclosure = Disclosure.objects.get()
    assert disclosure.release_id == rel.pk
    assert disclosure.categories == ["address", "contact"]
    event = AuditEvent.objects.filter(action="disclosure.referral_pack").last()
    assert event.detail["release"] == rel.pk
    assert event.detail["categories"] == ["address", "contact"]
    assert canary(cast.case) not in str(event.detail)


def test_export_as_csv(cast, login):
    release(cast)
    response = _pack(login(cast.assigned), cast, fmt="csv")
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    assert f"Survivor {canary(cast.case)}" in response.content.decode()


def test_export_of_categories_beyond_the_release_is_refused(cast, login):
    release(cast, categories=[Category.CONTACT])
    response = _pack(login(cast.assigned), cast, categories=["contact", "narratives"])
    assert "Refused" in response.content.decode()
    assert not Disclosure.objects.exists()


def test_export_under_an_expired_release_is_refused(cast, login):
    release(cast)
    client = login(cast.assigned)
    with time_machine.travel(timezone.now() + dt.timedelta(days=120), tick=False):
        client = login(cast.assigned)
        response = _pack(client, cast)
    assert "Refused" in response.content.decode()
    assert not Disclosure.objects.exists()


def test_export_under_a_revoked_release_is_refused(cast, login):
    rel = release(cast)
    client = login(cast.assigned)
    revoke = reverse("confidentiality:release_revoke", args=[cast.case.public_id, rel.public_id])
    assert client.post(revoke, {"reason": "Survivor withdrew consent"}).status_code == 302
    response = _pack(client, cast)
    assert "Refused" in response.content.decode()
    assert not Disclosure.objects.exists()
    # Revoking twice is refused with a message, not an error page.
    again = client.post(revoke, {"reason": "again"})
    assert "already revoked" in again.content.decode()


def test_release_of_another_case_cannot_be_revoked_through_this_one(cast, login):
    rel = release(cast, cast.restricted_case)
    client = login(cast.assigned)
    url = reverse("confidentiality:release_revoke", args=[cast.case.public_id, rel.public_id])
    assert client.get(url).status_code == 404


def test_expiring_releases_become_follow_ups_once(cast, settings):
    settings.RELEASE_EXPIRY_WARNING_DAYS = 14
    today = timezone.localdate()
    soon = release(cast, expires_on=today + dt.timedelta(days=10))
    release(cast, cast.team2_case, expires_on=today + dt.timedelta(days=60))
    # Recording a release that already expires soon created its follow-up.
    followups = FollowUp.objects.filter(kind=ConfidentialityFollowUpKind.RELEASE_EXPIRY)
    assert followups.count() == 1
    assert services.release_expiry_sweep() == 0  # idempotent
    with time_machine.travel(timezone.now() + dt.timedelta(days=50), tick=False):
        assert tasks.sweep_release_expiry() == 1  # the other one is now within 14 days
        assert tasks.sweep_release_expiry() == 0
    assert followups.count() == 2
    assert followups.filter(case=cast.case).get().source_key.startswith(f"release:{soon.pk}:")
    # Revoking cancels the open reminder.
    services.release_revoke(actor=cast.assigned, case=cast.case, release=soon, reason="withdrawn")
    assert followups.get(case=cast.case).status == FollowUpStatus.CANCELLED


def test_break_glass_reader_cannot_record_a_release(cast, login):
    from caseflow.cases.services import break_glass_open

    break_glass_open(actor=cast.same_team, reference=cast.case.reference, reason="duty line")
    client = login(cast.same_team)
    url = reverse("confidentiality:release_new", args=[cast.case.public_id])
    assert client.get(url).status_code == 403


def test_csv_pack_cells_cannot_run_as_formulas(cast, login):
    survivor = party(cast.case)
    survivor.phone = "=HYPERLINK(1)"
    survivor.save()
    release(cast)
    text = _pack(login(cast.assigned), cast, fmt="csv").content.decode()
    assert "'=HYPERLINK(1)" in text
