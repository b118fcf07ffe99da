"""Evidence packs, case exports and referral-pack categories: nothing identifying leaves the
agency without a valid, unexpired, unrevoked release naming the recipient and the categories."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import zipfile

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import PartyRole
from caseflow.confidentiality import services
from caseflow.confidentiality.models import Category, Disclosure, DisclosureKind, Release
from caseflow.confidentiality.pack import build_sections, providers
from caseflow.safety.services import plan_save
from tests.agreements.helpers import add_evidence, london, make_agreement, record_breach
from tests.confidentiality.helpers import RECIPIENT, party, release
from tests.conftest import canary

pytestmark = pytest.mark.django_db

PDF = b"%PDF-1.4 evidence bytes \x00\x01\x02 end"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
PLAN_SECRET = "Leave through the garden gate PLANSECRET"
ORDER_COURT = "Northtown Family Court ORDERCOURT"
ORDER_REF = "NFC-2026-ORDERREF"
AGREEMENT_REF = "FAM-AGREEMENTREF"
BREACH_TEXT = "Called repeatedly."


def _plan(cast, case=None):
    case = case or cast.case
    plan_save(
        actor=cast.assigned,
        case=case,
        expected_version=0,
        content={
            "leaving": PLAN_SECRET,
            "protective_orders": [
                {"court": ORDER_COURT, "reference": ORDER_REF, "expires": "2027-01-31"}
            ],
        },
    )


def _agreement(cast):
    agreement = make_agreement(cast.case, cast.assigned)
    agreement.court = "County Court"
    agreement.court_reference = AGREEMENT_REF
    agreement.save()
    return agreement


@pytest.fixture
def evidence(cast):
    """An agreement with a breach and two evidence files on the case."""
    agreement = _agreement(cast)
    record_breach(agreement, cast.assigned, london(2025, 2, 4, 22, 0))
    first = add_evidence(agreement, cast.assigned, data=PDF, name=f"{canary(cast.case)}.pdf")
    event = first.event
    from caseflow.agreements.services import _evidence_store

    second = _evidence_store(
        actor=cast.assigned,
        event=event,
        item={"name": "photo of Jane.png", "content_type": "image/png", "data": PNG},
    )
    return {"agreement": agreement, "files": [first, second]}


# --- Providers: every category has one definition of what it holds ---------------------------


def test_every_category_has_a_provider():
    found = providers()
    assert set(found) == set(Category.values)
    assert all(found[c] for c in Category.values)


def _pack_text(case, categories) -> str:
    return str(build_sections(case, categories))


def test_safety_plan_category_holds_the_current_plan_without_the_orders(cast):
    _plan(cast)
    text = _pack_text(cast.case, [Category.SAFETY_PLAN])
    assert PLAN_SECRET in text
    assert ORDER_COURT not in text and ORDER_REF not in text
    assert PLAN_SECRET not in _pack_text(cast.case, [Category.CONTACT, Category.COURT_ORDERS])


def test_court_orders_category_holds_plan_orders_and_agreement_orders(cast):
    _plan(cast)
    _agreement(cast)
    text = _pack_text(cast.case, [Category.COURT_ORDERS])
    assert ORDER_COURT in text and ORDER_REF in text and AGREEMENT_REF in text
    assert PLAN_SECRET not in text
    others = [c for c in Category.values if c != Category.COURT_ORDERS]
    text = _pack_text(cast.case, others)
    assert ORDER_REF not in text and AGREEMENT_REF not in text


def test_a_category_with_nothing_recorded_says_so(cast):
    assert "None recorded" in _pack_text(cast.case, [Category.COURT_ORDERS])
    assert "No plan recorded" in _pack_text(cast.case, [Category.SAFETY_PLAN])


def test_evidence_category_holds_the_contact_log_and_breaches(cast, evidence):
    text = _pack_text(cast.case, [Category.EVIDENCE])
    assert BREACH_TEXT in text
    assert evidence["files"][0].sha256 in text
    # The file names (which may identify people) are not part of any pack.
    assert canary(cast.case) not in text
    assert BREACH_TEXT not in _pack_text(cast.case, [Category.NARRATIVES, Category.COURT_ORDERS])


def test_referral_pack_shows_plan_and_orders_only_when_covered(cast, login):
    _plan(cast)
    client = login(cast.assigned)
    url = reverse("confidentiality:referral_pack", args=[cast.case.public_id])
    release(cast, categories=[Category.SAFETY_PLAN])
    body = client.post(
        url, {"recipient": RECIPIENT, "categories": ["safety_plan"], "fmt": "html"}
    ).content.decode()
    assert PLAN_SECRET in body and ORDER_REF not in body
    refused = client.post(
        url, {"recipient": RECIPIENT, "categories": ["court_orders"], "fmt": "html"}
    ).content.decode()
    assert "Refused" in refused and ORDER_REF not in refused
    release(cast, categories=[Category.COURT_ORDERS])
    body = client.post(
        url, {"recipient": RECIPIENT, "categories": ["court_orders"], "fmt": "html"}
    ).content.decode()
    assert ORDER_REF in body and PLAN_SECRET not in body


# --- Evidence pack -------------------------------------------------------------------------------


def _evidence_post(client, cast, rel, case=None, **over):
    case = case or cast.case
    data = {
        "release": rel.public_id if rel is not None else "",
        "recipient": RECIPIENT,
        "include_breaches": "on",
        "include_contact_log": "on",
        "evidence": [e.public_id for e in over.pop("files", [])],
    }
    data.update(over)
    return client.post(reverse("confidentiality:evidence_pack", args=[case.public_id]), data)


def _refusals(reason: str | None = None):
    events = AuditEvent.objects.filter(action="disclosure.refused")
    if reason:
        events = [e for e in events if e.detail["reason"] == reason]
    return list(events)


def _assert_refused(response, reason: str):
    body = response.content.decode()
    assert response.status_code == 200
    assert "Refused: the chosen consent does not cover this export" in body
    assert response["Content-Type"].startswith("text/html")
    assert not Disclosure.objects.filter(
        kind__in=[DisclosureKind.EVIDENCE_PACK, DisclosureKind.CASE_EXPORT]
    ).exists()
    event = _refusals(reason)[-1]
    assert set(event.detail) == {"kind", "categories", "reason", "release"}
    assert RECIPIENT not in json.dumps(event.detail)


def test_evidence_pack_without_a_release_is_refused(cast, login, evidence):
    client = login(cast.assigned)
    response = _evidence_post(client, cast, None, release="nosuchrelease", files=evidence["files"])
    _assert_refused(response, "unknown_release")
    assert canary(cast.case) not in response.content.decode().split("<form")[0]


def test_evidence_pack_with_a_covering_release_is_a_zip_with_a_true_manifest(cast, login, evidence):
    rel = release(cast, categories=[Category.EVIDENCE])
    client = login(cast.assigned)
    response = _evidence_post(client, cast, rel, files=evidence["files"])
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    disposition = response["Content-Disposition"]
    disclosure = Disclosure.objects.get(kind=DisclosureKind.EVIDENCE_PACK)
    assert disposition == (
        f'attachment; filename="evidence-pack-{cast.case.public_id[:8]}-{disclosure.pk}.zip"'
    )
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = archive.namelist()
    manifest = json.loads(archive.read("manifest.json"))
    assert manifest["release"] == rel.public_id
    assert manifest["categories"] == ["evidence"]
    listed = {f["name"]: f for f in manifest["files"]}
    assert set(listed) | {"manifest.json"} == set(names)
    for name, entry in listed.items():
        data = archive.read(name)
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
        assert len(data) == entry["size"]
    # The decrypted evidence bytes are exactly what was uploaded, under random names.
    files = [entry for entry in manifest["files"] if entry["part"] == "evidence"]
    assert sorted(archive.read(e["name"]) for e in files) == sorted([PDF, PNG])
    for name in names:
        assert canary(cast.case) not in name and "Jane" not in name and "note" not in name
    breaches = json.loads(archive.read("breaches.json"))
    assert breaches[0]["description"] == BREACH_TEXT
    assert json.loads(archive.read("contact-log.json"))
    # Audited: the release, the categories, ids; no free text.
    assert disclosure.release_id == rel.pk
    event = AuditEvent.objects.filter(action="disclosure.evidence_pack").get()
    assert event.detail["release"] == rel.pk
    assert event.detail["categories"] == ["evidence"]
    assert sorted(event.detail["evidence"]) == sorted(e.pk for e in evidence["files"])
    assert RECIPIENT not in json.dumps(event.detail)
    assert canary(cast.case) not in json.dumps(event.detail)


def test_evidence_pack_of_chosen_parts_only(cast, login, evidence):
    rel = release(cast, categories=[Category.EVIDENCE])
    client = login(cast.assigned)
    response = _evidence_post(
        client, cast, rel, include_contact_log="", include_breaches="", files=evidence["files"][:1]
    )
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert "breaches.json" not in archive.namelist()
    assert "contact-log.json" not in archive.namelist()
    files = json.loads(archive.read("manifest.json"))["files"]
    assert [archive.read(f["name"]) for f in files] == [PDF]


def test_evidence_pack_needs_something_chosen(cast, login, evidence):
    rel = release(cast, categories=[Category.EVIDENCE])
    response = _evidence_post(
        login(cast.assigned), cast, rel, include_contact_log="", include_breaches=""
    )
    assert "Choose what to include" in response.content.decode()
    assert not Disclosure.objects.exists()


def test_evidence_of_another_case_cannot_be_chosen(cast, login, evidence):
    other = make_agreement(cast.team2_case, cast.other_team)
    foreign = add_evidence(other, cast.other_team)
    rel = release(cast, categories=[Category.EVIDENCE])
    response = _evidence_post(login(cast.assigned), cast, rel, files=[foreign])
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Disclosure.objects.exists()


def test_evidence_pack_under_a_release_not_covering_evidence_is_refused(cast, login, evidence):
    rel = release(cast, categories=[Category.CONTACT, Category.NARRATIVES])
    response = _evidence_post(login(cast.assigned), cast, rel, files=evidence["files"])
    _assert_refused(response, "category_not_covered")


def test_evidence_pack_for_another_recipient_is_refused(cast, login, evidence):
    rel = release(cast, categories=[Category.EVIDENCE])
    response = _evidence_post(
        login(cast.assigned), cast, rel, recipient="Another Org", files=evidence["files"]
    )
    _assert_refused(response, "recipient_not_covered")


def test_evidence_pack_under_an_expired_release_is_refused(cast, login, evidence):
    rel = release(cast, categories=[Category.EVIDENCE])
    with time_machine.travel(timezone.now() + dt.timedelta(days=120), tick=False):
        client = login(cast.assigned)
        response = _evidence_post(client, cast, rel, files=evidence["files"])
    _assert_refused(response, "expired")


def test_evidence_pack_under_a_revoked_release_is_refused(cast, login, evidence):
    rel = release(cast, categories=[Category.EVIDENCE])
    services.release_revoke(actor=cast.assigned, case=cast.case, release=rel, reason="withdrawn")
    response = _evidence_post(login(cast.assigned), cast, rel, files=evidence["files"])
    _assert_refused(response, "revoked")


def _other_party_release(case, categories):
    """A release row naming the other party, written around the form and the service."""
    other = party(case, PartyRole.OTHER_PARTY)
    today = timezone.localdate()
    rel = Release(
        case=case,
        consenting_party=other,
        recipient=RECIPIENT,
        recipient_index=services.recipient_index(RECIPIENT),
        purpose="x",
        categories=categories,
        signed_on=today - dt.timedelta(days=1),
        expires_on=today + dt.timedelta(days=30),
    )
    rel.save()
    return rel


def test_a_release_from_the_other_party_is_never_used(cast, login, evidence):
    rel = _other_party_release(cast.case, ["contact", "evidence"])
    client = login(cast.assigned)
    _assert_refused(_evidence_post(client, cast, rel, files=evidence["files"]), "consent_not_valid")
    url = reverse("confidentiality:case_export", args=[cast.case.public_id])
    response = client.post(url, {"release": rel.public_id, "recipient": RECIPIENT})
    _assert_refused(response, "consent_not_valid")
    # Nor by the referral pack.
    assert services.release_covering(cast.case, RECIPIENT, ["contact"]) is None
    pack = client.post(
        reverse("confidentiality:referral_pack", args=[cast.case.public_id]),
        {"recipient": RECIPIENT, "categories": ["contact"], "fmt": "html"},
    )
    assert "Refused" in pack.content.decode()
    assert not Disclosure.objects.exists()


def test_a_release_of_another_case_is_refused(cast, login, evidence):
    foreign = release(cast, cast.team2_case, categories=[Category.EVIDENCE, Category.CONTACT])
    client = login(cast.assigned)
    _assert_refused(
        _evidence_post(client, cast, foreign, files=evidence["files"]), "unknown_release"
    )
    url = reverse("confidentiality:case_export", args=[cast.case.public_id])
    _assert_refused(
        client.post(url, {"release": foreign.public_id, "recipient": RECIPIENT}),
        "unknown_release",
    )
    assert canary(cast.team2_case) not in str(AuditEvent.objects.values_list("detail"))


def test_the_export_pages_list_the_case_releases_and_are_audited_reads(cast, login, evidence):
    rel = release(cast, categories=[Category.EVIDENCE])
    foreign = release(cast, cast.team2_case)
    client = login(cast.assigned)
    for name in ("evidence_pack", "case_export"):
        before = AuditEvent.objects.filter(action="case.view").count()
        response = client.get(reverse(f"confidentiality:{name}", args=[cast.case.public_id]))
        body = response.content.decode()
        assert rel.public_id in body and foreign.public_id not in body
        assert AuditEvent.objects.filter(action="case.view").count() == before + 1
        assert AuditEvent.objects.filter(action="case.view").last().detail == {"page": name}


def test_break_glass_reader_cannot_export(cast, login):
    from caseflow.cases.services import break_glass_open

    break_glass_open(actor=cast.same_team, reference=cast.case.reference, reason="duty line")
    client = login(cast.same_team)
    for name in ("evidence_pack", "case_export"):
        url = reverse(f"confidentiality:{name}", args=[cast.case.public_id])
        assert client.get(url).status_code == 403
        assert client.post(url, {}).status_code == 403


# --- Whole-case export ---------------------------------------------------------------------------


def _case_export(client, cast, rel, **over):
    data = {"release": rel.public_id, "recipient": RECIPIENT}
    data.update(over)
    return client.post(reverse("confidentiality:case_export", args=[cast.case.public_id]), data)


def test_case_export_holds_exactly_the_release_categories(cast, login, evidence):
    _plan(cast)
    rel = release(cast, categories=[Category.CONTACT, Category.SAFETY_PLAN, Category.EVIDENCE])
    response = _case_export(login(cast.assigned), cast, rel)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    disclosure = Disclosure.objects.get(kind=DisclosureKind.CASE_EXPORT)
    assert response["Content-Disposition"] == (
        f'attachment; filename="case-export-{cast.case.public_id[:8]}-{disclosure.pk}.json"'
    )
    document = json.loads(response.content)
    assert [s["category"] for s in document["sections"]] == ["contact", "evidence", "safety_plan"]
    text = response.content.decode()
    assert f"Survivor {canary(cast.case)}" in text
    assert PLAN_SECRET in text and BREACH_TEXT in text
    # Not covered, not there: narratives (the summary), court orders.
    assert f"summary {canary(cast.case)}" not in text
    assert ORDER_REF not in text and AGREEMENT_REF not in text
    # The sections are the referral pack's.
    expected = build_sections(cast.case, ["contact"])[0][1]
    assert [(i["item"], i["value"]) for i in document["sections"][0]["items"]] == [
        (label, str(value)) for label, value in expected
    ]
    event = AuditEvent.objects.filter(action="disclosure.case_export").get()
    assert event.detail == {
        "disclosure": disclosure.pk,
        "release": rel.pk,
        "categories": ["contact", "evidence", "safety_plan"],
    }
    assert disclosure.release_id == rel.pk


def test_case_export_of_chosen_categories(cast, login):
    rel = release(cast, categories=[Category.CONTACT, Category.ADDRESS])
    response = _case_export(login(cast.assigned), cast, rel, categories=["address"])
    document = json.loads(response.content)
    assert [s["category"] for s in document["sections"]] == ["address"]


def test_case_export_beyond_the_release_is_refused(cast, login):
    rel = release(cast, categories=[Category.CONTACT])
    response = _case_export(login(cast.assigned), cast, rel, categories=["contact", "narratives"])
    _assert_refused(response, "category_not_covered")
    assert canary(cast.case) not in response.content.decode().split("<form")[0]


def test_case_export_for_another_recipient_is_refused(cast, login):
    rel = release(cast)
    _assert_refused(
        _case_export(login(cast.assigned), cast, rel, recipient="Other Org"),
        "recipient_not_covered",
    )


def test_case_export_under_expired_or_revoked_releases_is_refused(cast, login):
    rel = release(cast)
    with time_machine.travel(timezone.now() + dt.timedelta(days=120), tick=False):
        _assert_refused(_case_export(login(cast.assigned), cast, rel), "expired")
    services.release_revoke(actor=cast.assigned, case=cast.case, release=rel, reason="withdrawn")
    _assert_refused(_case_export(login(cast.assigned), cast, rel), "revoked")


@pytest.mark.parametrize("over", [{"release": ""}, {"recipient": "  "}, {"categories": ["x"]}])
def test_bad_export_input_gets_a_form_error(cast, login, over):
    rel = release(cast)
    response = _case_export(login(cast.assigned), cast, rel, **over)
    assert response.status_code == 200
    assert "errorlist" in response.content.decode() or "invalid-feedback" in (
        response.content.decode()
    )
    assert not Disclosure.objects.exists()
    assert not _refusals()


def test_a_missing_or_altered_evidence_file_is_a_form_error_and_nothing_leaves(
    cast, login, evidence
):
    from caseflow.agreements.services import evidence_storage

    rel = release(cast, categories=[Category.EVIDENCE])
    first = evidence["files"][0]
    storage = evidence_storage()
    storage.delete(first.storage_name)
    response = _evidence_post(login(cast.assigned), cast, rel, files=[first])
    assert response.status_code == 200
    assert "could not be read" in response.content.decode()
    assert not Disclosure.objects.exists()
    assert not AuditEvent.objects.filter(action="disclosure.evidence_pack").exists()
