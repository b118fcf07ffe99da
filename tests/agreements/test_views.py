"""The agreement pages end to end: forms, breach checker, evidence, chronology, trend."""

from __future__ import annotations

import datetime as dt
import html
import io
import re

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from pypdf import PdfWriter

from caseflow.agreements.models import (
    AgreementVersion,
    Breach,
    ContactAgreement,
    ContactEvent,
    Evidence,
    ReviewState,
)
from caseflow.audit.models import AuditEvent
from tests.agreements.helpers import add_evidence, log_event, london, make_agreement, record_breach
from tests.casework.helpers import pdf

NOW = dt.datetime(2025, 3, 1, 12, 0, tzinfo=dt.UTC)


def form_data(**overrides):
    data = {
        "effective_from": "2025-01-06",
        "effective_to": "",
        "court": "Family Court at Example",
        "court_reference": "FC-123",
        "order_expires_on": "2026-01-06",
        "permitted_to_survivor": ["app"],
        "forbidden_to_survivor": ["phone", "in_person"],
        "permitted_from_survivor": ["app"],
        "permitted_topics": "Child logistics\nSchool",
        "time_windows": "Mon-Fri 18:00-19:00",
        "cap_limit": "3",
        "cap_per": "day",
        "cap_direction": "to_survivor",
        "routine_response_hours": "48",
        "urgent_response_hours": "2",
        "emergency_topics": "Medical emergency",
        "handover_place": "Library car park",
        "handover_days": ["4"],
        "handover_time": "17:00",
        "handover_tolerance": "15",
        "handover_supervised": "on",
        "handover_by": "Contact centre staff",
        "handover_no_direct_contact": "on",
        "child_contact_windows": "daily 18:00-18:30",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


@pytest.fixture
def advocate(cast, login):
    return login(cast.assigned)


@time_machine.travel(NOW, tick=False)
def test_advocate_creates_an_agreement_without_json(cast, advocate):
    response = advocate.post(reverse("agreements:new", args=[cast.case.public_id]), form_data())
    assert response.status_code == 302
    agreement = ContactAgreement.objects.get(case=cast.case)
    version = agreement.versions.get()
    version.case = cast.case
    assert version.number == 1
    assert version.terms["permitted_topics"] == ["child logistics", "school"]
    assert version.terms["time_windows"] == [
        {"days": [0, 1, 2, 3, 4], "start": "18:00:00", "end": "19:00:00"}
    ]
    assert version.terms["handover"]["weekdays"] == [4]
    assert version.protocol["handover_by"] == "Contact centre staff"
    assert AuditEvent.objects.filter(action="agreement.create", case_id=cast.case.pk).exists()
    detail = advocate.get(response["Location"])
    assert b"Library car park" in detail.content


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"effective_to": "2025-01-01"}, "effective_to", "before the start"),
        ({"forbidden_to_survivor": ["pigeon"]}, "forbidden_to_survivor", "valid choice"),
        ({"time_windows": "18:00-19:00"}, "time_windows", "no days given"),
        ({"time_windows": "Mon 18:00-18:00"}, "time_windows", "same time"),
        ({"child_contact_windows": "Funday 18:00-19:00"}, "child_contact_windows", "unknown day"),
        ({"handover_days": []}, "handover_days", "at least one handover day"),
        ({"permitted_to_survivor": ["app", "phone"]}, "forbidden_to_survivor", "both permitted"),
        ({"cap_limit": "-1"}, "cap_limit", "greater than or equal"),
    ],
)
def test_bad_terms_get_a_form_error_and_change_nothing(cast, advocate, overrides, field, message):
    response = advocate.post(
        reverse("agreements:new", args=[cast.case.public_id]), form_data(**overrides)
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors, errors
    assert message in " ".join(errors[field])
    assert not ContactAgreement.objects.exists()
    assert not AgreementVersion.objects.exists()


def test_edit_adds_a_version_and_a_stale_save_is_refused(cast, advocate):
    agreement = make_agreement(cast.case, cast.assigned)
    url = reverse("agreements:edit", args=[cast.case.public_id, agreement.public_id])
    page = advocate.get(url)
    lock = page.context["form"].initial["lock"]
    first = advocate.post(url, form_data(lock=lock, permitted_topics="School"))
    assert first.status_code == 302
    stale = advocate.post(url, form_data(lock=lock, permitted_topics="Health"))
    assert stale.status_code == 200
    assert "Someone else changed this agreement" in stale.content.decode()
    assert list(agreement.versions.values_list("number", flat=True)) == [1, 2]
    version = agreement.versions.get(number=2)
    version.case = cast.case
    assert version.terms["permitted_topics"] == ["school"]

    diff = advocate.get(
        reverse("agreements:versions", args=[cast.case.public_id, agreement.public_id])
    )
    body = diff.content.decode()
    assert "Version 1 compared with version 2" in body
    changed = [line for line in diff.context["diff"] if line.changed]
    assert "Permitted topics" in [line.label for line in changed]


def test_versions_are_immutable(cast):
    agreement = make_agreement(cast.case, cast.assigned)
    version = agreement.versions.get()
    version.note = "changed"
    with pytest.raises(Exception, match="never changed"):
        version.save()


@time_machine.travel(NOW, tick=False)
def test_logging_an_event_proposes_violations_and_the_advocate_edits_them(cast, advocate):
    agreement = make_agreement(cast.case, cast.assigned)
    url = reverse("agreements:event_new", args=[cast.case.public_id, agreement.public_id])
    # Tuesday 25 February 2025, 22:15 London time: outside Mon-Fri 18:00-19:00, by phone.
    response = advocate.post(
        url,
        {
            "occurred_at": "2025-02-25T22:15",
            "channel": "phone",
            "direction": "to_survivor",
            "kind": "call",
            "topic": "School",
            "description": "Shouted down the phone.",
        },
    )
    assert response.status_code == 302
    event = ContactEvent.objects.get()
    event.case = cast.case
    assert event.occurred_at == london(2025, 2, 25, 22, 15)
    assert [v["term"] for v in event.proposed] == ["forbidden_channels", "time_windows"]

    review = advocate.get(response["Location"])
    body = review.content.decode()
    # The checker's findings, written for the reader from the values kept with them.
    assert "Contact from the other parent by a channel the agreement forbids: Phone call." in body
    assert (
        "Call at 22:15 on Tuesday 25 Feb 2025 (Europe/London time), outside the agreed contact "
        "times (Monday, Tuesday, Wednesday, Thursday, Friday 18:00 to 19:00)."
    ) in html.unescape(body)
    assert review.context["form"].initial["terms_broken"] == ["forbidden_channels", "time_windows"]

    confirmed = advocate.post(
        response["Location"],
        {
            "terms_broken": ["forbidden_channels"],
            "severity": "high",
            "police_reported": "on",
            "police_reference": "PR-42",
            "description": "Phoned late at night.",
        },
    )
    assert confirmed.status_code == 302
    breach = Breach.objects.get()
    breach.case = cast.case
    assert breach.terms_broken == ["forbidden_channels"]
    assert breach.severity == "high"
    assert breach.police_reference == "PR-42"
    assert breach.description == "Phoned late at night."
    assert breach.occurred_at == event.occurred_at
    event.refresh_from_db()
    assert event.review == ReviewState.BREACH
    # A second confirmation changes nothing.
    again = advocate.post(
        response["Location"], {"terms_broken": ["time_windows"], "severity": "low"}
    )
    assert again.status_code == 302
    assert Breach.objects.count() == 1


@time_machine.travel(NOW, tick=False)
def test_a_compliant_event_is_recorded_as_no_breach(cast, advocate):
    agreement = make_agreement(cast.case, cast.assigned)
    event = log_event(agreement, cast.assigned, london(2025, 2, 25, 18, 30))
    assert event.proposed == []
    url = reverse(
        "agreements:review", args=[cast.case.public_id, agreement.public_id, event.public_id]
    )
    assert advocate.get(url).context["form"].initial["terms_broken"] == []
    assert advocate.post(url, {"csrf": "x"}).status_code == 302
    event.refresh_from_db()
    assert event.review == ReviewState.NO_BREACH
    assert not Breach.objects.exists()


def test_review_requires_severity_and_police_reference(cast, advocate):
    agreement = make_agreement(cast.case, cast.assigned)
    event = log_event(agreement, cast.assigned, london(2025, 2, 25, 22, 30), channel="phone")
    url = reverse(
        "agreements:review", args=[cast.case.public_id, agreement.public_id, event.public_id]
    )
    response = advocate.post(url, {"terms_broken": ["forbidden_channels"], "police_reported": "on"})
    assert response.status_code == 200
    assert set(response.context["form"].errors) == {"severity", "police_reference"}
    assert not Breach.objects.exists()


def _event_post(files, **extra):
    data = {
        "occurred_at": "2025-02-25T18:30",
        "channel": "app",
        "direction": "to_survivor",
        "kind": "message",
        "topic": "school",
        "evidence": files,
    }
    data.update(extra)
    return data


@time_machine.travel(NOW, tick=False)
@pytest.mark.parametrize(
    ("upload", "message"),
    [
        (SimpleUploadedFile("empty.pdf", b""), "empty"),
        (SimpleUploadedFile("big.pdf", b"%PDF-1.4" + b"x" * 200), "too large"),
        (SimpleUploadedFile("run.exe", b"MZ\x90\x00"), "not accepted"),
        (SimpleUploadedFile("fake.pdf", b"\x00\x01binary"), "does not match its name"),
        (SimpleUploadedFile("photo.png", b"%PDF-1.4 not a png"), "does not match its name"),
        (SimpleUploadedFile("cut.pdf", b"%PDF-1.4 no end marker"), "damaged or cut short"),
        (SimpleUploadedFile("notes.txt", b"\x00\x01binary"), "not plain text"),
    ],
)
def test_bad_evidence_gets_a_form_error_and_nothing_is_stored(
    cast, advocate, settings, evidence_root, upload, message
):
    settings.EVIDENCE_MAX_BYTES = 100
    agreement = make_agreement(cast.case, cast.assigned)
    url = reverse("agreements:event_new", args=[cast.case.public_id, agreement.public_id])
    response = advocate.post(url, _event_post([upload]))
    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors["evidence"])
    assert not ContactEvent.objects.exists()
    assert not Evidence.objects.exists()
    assert not evidence_root.exists() or not any(evidence_root.rglob("*.bin"))


@time_machine.travel(NOW, tick=False)
def test_handover_flags_on_a_message_are_refused(cast, advocate):
    agreement = make_agreement(cast.case, cast.assigned)
    url = reverse("agreements:event_new", args=[cast.case.public_id, agreement.public_id])
    response = advocate.post(url, _event_post([], handover_missed="on"))
    assert response.status_code == 200
    assert "handover" in " ".join(response.context["form"].errors["handover_missed"])
    assert not ContactEvent.objects.exists()


@time_machine.travel(NOW, tick=False)
def test_contact_evidence_over_the_case_quota_is_a_form_error_and_nothing_is_stored(
    cast, advocate, settings, evidence_root
):
    agreement = make_agreement(cast.case, cast.assigned)
    add_evidence(agreement, cast.assigned, data=b"%PDF-1.4 " + b"x" * 300)
    settings.EVIDENCE_CASE_QUOTA_BYTES = 400
    stored = sorted(evidence_root.rglob("*.bin"))
    url = reverse("agreements:event_new", args=[cast.case.public_id, agreement.public_id])
    upload = SimpleUploadedFile("letter.pdf", pdf())
    response = advocate.post(url, _event_post([upload]))
    assert response.status_code == 200
    assert "This case has room for" in " ".join(response.context["form"].errors["evidence"])
    assert ContactEvent.objects.count() == 1 and Evidence.objects.count() == 1
    assert sorted(evidence_root.rglob("*.bin")) == stored


def _pdf_titled(title: str) -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(72, 72)
    writer.add_metadata({"/Title": title})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@time_machine.travel(NOW, tick=False)
def test_evidence_is_encrypted_at_rest_and_served_only_through_the_audited_view(
    cast, advocate, login, evidence_root
):
    agreement = make_agreement(cast.case, cast.assigned)
    content = _pdf_titled("screenshot of the messages CANARY")
    assert b"CANARY" in content
    url = reverse("agreements:event_new", args=[cast.case.public_id, agreement.public_id])
    response = advocate.post(url, _event_post([SimpleUploadedFile("messages.pdf", content)]))
    assert response.status_code == 302
    evidence = Evidence.objects.get()
    stored = list(evidence_root.rglob("*"))
    files = [p for p in stored if p.is_file()]
    assert len(files) == 1
    assert b"CANARY" not in files[0].read_bytes()
    assert "messages" not in files[0].name

    download = reverse("agreements:evidence", args=[cast.case.public_id, evidence.public_id])
    got = advocate.get(download)
    assert got.status_code == 200
    assert got.content == content
    assert got["Content-Type"] == "application/pdf"
    assert got["Content-Disposition"].startswith("attachment;")
    assert "no-store" in got["Cache-Control"]
    assert AuditEvent.objects.filter(
        action="agreement.evidence.export", case_id=cast.case.pk, object_id=evidence.public_id
    ).exists()

    # The same id under another case the user can see is not found.
    other = reverse(
        "agreements:evidence", args=[cast.restricted_case.public_id, evidence.public_id]
    )
    assert advocate.get(other).status_code == 404
    # Someone outside the case cannot get it at all.
    assert login(cast.other_team).get(download).status_code == 404


def test_other_cases_evidence_ids_are_not_found(cast, login):
    foreign = make_agreement(cast.team2_case, cast.other_team)
    evidence = add_evidence(foreign, cast.other_team)
    client = login(cast.assigned)
    url = reverse("agreements:evidence", args=[cast.case.public_id, evidence.public_id])
    assert client.get(url).status_code == 404


def test_chronology_fingerprint_is_stable_for_the_same_content(cast, advocate, login):
    agreement = make_agreement(cast.case, cast.assigned)
    with time_machine.travel(NOW, tick=False):
        record_breach(agreement, cast.assigned, london(2025, 2, 25, 22, 0), severity="low")
    url = reverse("agreements:chronology", args=[cast.case.public_id, agreement.public_id])

    def fingerprint(at):
        with time_machine.travel(at, tick=False):
            # A fresh sign-in at that moment: the session limits count from it.
            response = login(cast.assigned).get(url)
        assert response.status_code == 200
        body = response.content.decode()
        assert "chronology.css" in body
        assert at.strftime("%Y-%m-%d %H:%M:%S") in body
        return re.search(r"<code>([0-9a-f]{64})</code>", body).group(1)

    first = fingerprint(dt.datetime(2025, 3, 2, 9, 0, tzinfo=dt.UTC))
    second = fingerprint(dt.datetime(2025, 3, 9, 17, 30, tzinfo=dt.UTC))
    assert first == second
    with time_machine.travel(NOW, tick=False):
        record_breach(agreement, cast.assigned, london(2025, 2, 26, 23, 0), severity="low")
    third = fingerprint(dt.datetime(2025, 3, 10, 9, 0, tzinfo=dt.UTC))
    assert third != first
    exports = AuditEvent.objects.filter(action="agreement.chronology.export", case_id=cast.case.pk)
    assert exports.count() == 3
    assert exports.last().detail == {"format": "html", "sha256": third, "audience": "internal"}

    csv = login(cast.assigned).get(
        reverse("agreements:chronology_csv", args=[cast.case.public_id, agreement.public_id])
    )
    assert csv["Content-Disposition"].startswith("attachment;")
    text = csv.content.decode()
    assert third in text
    assert "Called repeatedly." in text


def test_print_stylesheet_numbers_pages():
    from pathlib import Path

    css = (Path(__file__).resolve().parents[2] / "static/agreements/chronology.css").read_text()
    assert "counter(page)" in css and "counter(pages)" in css


@time_machine.travel(NOW, tick=False)
def test_case_page_shows_the_weekly_trend_as_svg_with_a_text_alternative(cast, advocate):
    agreement = make_agreement(cast.case, cast.assigned)
    log_event(agreement, cast.assigned, london(2025, 2, 3, 18, 30))
    log_event(agreement, cast.assigned, london(2025, 2, 4, 18, 30))
    record_breach(agreement, cast.assigned, london(2025, 2, 12, 22, 0))
    response = advocate.get(reverse("cases:detail", args=[cast.case.public_id]))
    body = response.content.decode()
    assert "<svg" in body and "<desc" in body
    assert "3 contact events and 1 breach over" in body
    assert 'class="visually-hidden"' in body and "Week beginning" in body
    assert "style=" not in body
    table = re.findall(r"<tr><th scope=\"row\">([^<]+)</th><td>(\d+)</td><td>(\d+)</td></tr>", body)
    assert ("3 Feb 2025", "2", "0") in table
    assert ("10 Feb 2025", "1", "1") in table


def test_stale_status_change_is_refused(cast, advocate):
    agreement = make_agreement(cast.case, cast.assigned)
    url = reverse("agreements:status", args=[cast.case.public_id, agreement.public_id])
    assert advocate.post(url, {"status": "active", "lock": agreement.lock}).status_code == 302
    response = advocate.post(url, {"status": "ended", "lock": agreement.lock}, follow=True)
    assert "Someone else changed this agreement" in response.content.decode()
    agreement.refresh_from_db()
    assert agreement.status == "active"


def test_activating_an_agreement_supersedes_the_active_one(cast, advocate):
    first = make_agreement(cast.case, cast.assigned)
    second = make_agreement(cast.case, cast.assigned, start=dt.date(2025, 6, 2))
    for agreement in (first, second):
        agreement.refresh_from_db()
        url = reverse("agreements:status", args=[cast.case.public_id, agreement.public_id])
        advocate.post(url, {"status": "active", "lock": agreement.lock})
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == ("superseded", "active")
    edit = reverse("agreements:edit", args=[cast.case.public_id, first.public_id])
    assert advocate.get(edit).status_code == 403


def test_break_glass_reads_but_cannot_write(cast, login):
    from caseflow.cases import services as case_services

    agreement = make_agreement(cast.case, cast.assigned)
    case_services.break_glass_open(
        actor=cast.same_team, reference=cast.case.reference, reason="Duty line call"
    )
    client = login(cast.same_team)
    detail = reverse("agreements:detail", args=[cast.case.public_id, agreement.public_id])
    page = client.get(detail)
    assert page.status_code == 200
    assert "Log a contact" not in page.content.decode()
    new_event = reverse("agreements:event_new", args=[cast.case.public_id, agreement.public_id])
    assert client.get(new_event).status_code == 403
    assert client.post(new_event, {"channel": "app"}).status_code == 403
    assert not ContactEvent.objects.exists()


def test_detail_page_queries_do_not_grow_with_the_log(
    cast, advocate, django_assert_max_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    agreement = make_agreement(cast.case, cast.assigned)
    url = reverse("agreements:detail", args=[cast.case.public_id, agreement.public_id])
    with time_machine.travel(NOW, tick=False):
        add_evidence(agreement, cast.assigned)
        record_breach(agreement, cast.assigned, london(2025, 2, 4, 22, 0))
    with CaptureQueriesContext(connection) as few:
        advocate.get(url)
    with time_machine.travel(NOW, tick=False):
        for day in range(5, 20):
            add_evidence(agreement, cast.assigned)
            record_breach(agreement, cast.assigned, london(2025, 2, day, 22, 0))
    with django_assert_max_num_queries(len(few.captured_queries)):
        body = advocate.get(url).content.decode()
    assert "note.pdf" in body


def test_children_of_another_case_are_refused(cast, advocate):
    from caseflow.cases.models import PartyRole
    from tests import factories as f

    own = f.add_party(cast.case, PartyRole.CHILD, full_name="Own Child")
    foreign = f.add_party(cast.team2_case, PartyRole.CHILD, full_name="Other Child")
    url = reverse("agreements:new", args=[cast.case.public_id])
    refused = advocate.post(url, form_data(children=[foreign.public_id]))
    assert refused.status_code == 200
    assert "children" in refused.context["form"].errors
    assert not ContactAgreement.objects.exists()
    accepted = advocate.post(url, form_data(children=[own.public_id]))
    assert accepted.status_code == 302
    assert list(ContactAgreement.objects.get().children.all()) == [own]


def test_the_event_form_suggests_the_agreed_topics(cast, advocate):
    agreement = make_agreement(cast.case, cast.assigned)
    url = reverse("agreements:event_new", args=[cast.case.public_id, agreement.public_id])
    body = advocate.get(url).content.decode()
    assert 'list="agreement-topics"' in body
    assert '<option value="medical emergency">' in body


@time_machine.travel(NOW, tick=False)
def test_a_contact_can_carry_a_voice_note_and_a_photo(cast, advocate):
    from tests.casework.helpers import png, wav

    agreement = make_agreement(cast.case, cast.assigned)
    url = reverse("agreements:event_new", args=[cast.case.public_id, agreement.public_id])
    uploads = [SimpleUploadedFile("voicemail.wav", wav()), SimpleUploadedFile("door.png", png())]
    response = advocate.post(url, _event_post(uploads))
    assert response.status_code == 302
    assert sorted(Evidence.objects.values_list("content_type", flat=True)) == [
        "audio/x-wav",
        "image/png",
    ]


@time_machine.travel(NOW, tick=False)
def test_contact_evidence_is_shown_by_the_browser_and_the_look_is_audited(cast, login):
    from caseflow.audit.models import AuditEvent

    agreement = make_agreement(cast.case, cast.assigned)
    evidence = add_evidence(agreement, cast.assigned)
    client = login(cast.assigned)
    page = client.get(
        reverse("agreements:detail", args=[cast.case.public_id, agreement.public_id])
    ).content.decode()
    shown = reverse("agreements:evidence_view", args=[cast.case.public_id, evidence.public_id])
    assert shown in page
    response = client.get(shown)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("inline;")
    assert "no-store" in response["Cache-Control"]
    assert AuditEvent.objects.filter(action="evidence.view", object_id=evidence.public_id).exists()
    assert not AuditEvent.objects.filter(action="agreement.evidence.export").exists()
