"""Evidence files: what is accepted (by content), what is refused with a form error naming the
limit, the case's quota, no orphan files, and the audited views that show or download a file."""

from __future__ import annotations

import struct

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases import evidence as files
from caseflow.casework import services
from caseflow.casework.models import CaseNote, Evidence, Incident
from tests.casework.helpers import checked, make_incident, make_note, pdf, png, wav

pytestmark = pytest.mark.django_db


def _iso(brand: bytes, compatible: bytes) -> bytes:
    body = b"ftyp" + brand + b"\x00\x00\x00\x00" + compatible
    return struct.pack(">I", len(body) + 4) + body + b"\x00" * 64


def _riff(form: bytes) -> bytes:
    body = form + b"VP8 " + b"\x00" * 32
    return b"RIFF" + struct.pack("<I", len(body)) + body


SAMPLES = {
    "photo.jpg": (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + b"\x00" * 64 + b"\xff\xd9", "image/jpeg"),
    "screen.png": (png(), "image/png"),
    "anim.gif": (b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", "image/gif"),
    "screen.webp": (_riff(b"WEBP"), "image/webp"),
    "IMG_0001.HEIC": (_iso(b"heic", b"mif1heic"), "image/heic"),
    "letter.pdf": (pdf(), "application/pdf"),
    "voice.m4a": (_iso(b"M4A ", b"M4A mp42isom"), "audio/mp4"),
    "voice.mp3": (b"ID3\x03\x00\x00\x00\x00\x00\x00" + b"\x00" * 64, "audio/mpeg"),
    "voice.ogg": (b"OggS\x00\x02" + b"\x00" * 64, "audio/ogg"),
    "voice.wav": (wav(), "audio/x-wav"),
    "clip.mp4": (_iso(b"isom", b"isomiso2mp41"), "video/mp4"),
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_accepted_type_is_recognised_by_its_content(name):
    data, content_type = SAMPLES[name]
    assert files.check_file(name, data).content_type == content_type


@pytest.mark.parametrize(
    ("name", "data", "words"),
    [
        ("empty.png", b"", "empty.png is empty."),
        ("screen.jpg", png(), "screen.jpg is not a JPEG photo"),
        ("notes.pdf", b"hello, this is not a PDF", "notes.pdf is not a PDF"),
        ("cut.png", png()[:-12], "cut.png is damaged or cut short"),
        ("cut.wav", wav()[:-100], "cut.wav is damaged or cut short"),
        ("page.html", b"<html></html>", "this type of file is not accepted"),
        ("drawing.svg", b"<svg></svg>", "this type of file is not accepted"),
    ],
)
def test_a_bad_file_is_refused_in_words(name, data, words):
    with pytest.raises(files.EvidenceRefused) as refused:
        files.check_file(name, data)
    assert words in str(refused.value)


def test_each_kind_has_its_own_size_limit(settings):
    settings.EVIDENCE_LIMITS = {**settings.EVIDENCE_LIMITS, "image": 100, "audio": 10_000_000}
    with pytest.raises(files.EvidenceRefused) as refused:
        files.check_file("screen.png", png(40, 40, noise=True))
    assert "the limit for photos is 0 MB" in str(refused.value)
    assert files.check_file("voice.wav", wav()).family == "audio"


def _incident_form(**extra):
    data = {
        "kinds": ["physical"],
        "occurred_on": "2025-03-02",
        "occurred_time": "21:15",
        "date_confirmed": "2025-03-02T21:15",
        "person": "other_party",
        "what_happened": "Pushed her.",
        "police": "unknown",
    }
    data.update(extra)
    return data


def _stored_files(settings) -> list:
    return [p for p in settings.EVIDENCE_ROOT.rglob("*") if p.is_file()]


@pytest.mark.parametrize(
    ("upload", "words"),
    [
        (SimpleUploadedFile("empty.jpg", b""), "is empty"),
        (SimpleUploadedFile("big.png", png(60, 60, noise=True)), "the limit for photos is"),
        (SimpleUploadedFile("photo.jpg", png()), "is not a JPEG photo"),
        (SimpleUploadedFile("voice.m4a", b"\x00" * 200), "is not an M4A recording"),
        (SimpleUploadedFile("run.exe", b"MZ\x90\x00"), "not accepted"),
    ],
)
def test_a_bad_file_is_a_form_error_and_nothing_is_saved(cast, login, settings, upload, words):
    settings.EVIDENCE_LIMITS = {**settings.EVIDENCE_LIMITS, "image": 2000}
    good = SimpleUploadedFile("voice.wav", wav())
    response = login(cast.assigned).post(
        reverse("casework:incident_new", args=[cast.case.public_id]),
        _incident_form(evidence=[good, upload]),
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert words in body and "Nothing was saved" in body
    assert not Incident.objects.exists() and not Evidence.objects.exists()
    assert _stored_files(settings) == []


def test_over_the_case_quota_is_a_form_error_and_nothing_is_saved(cast, login, settings):
    make_incident(cast.case, cast.assigned, evidence=[checked("a.pdf", pdf())])
    settings.EVIDENCE_CASE_QUOTA_BYTES = len(pdf()) + 100
    response = login(cast.assigned).post(
        reverse("casework:note_new", args=[cast.case.public_id]),
        {
            "kind": "call",
            "direction": "incoming",
            "occurred_at": "2025-03-02T10:00",
            "date_confirmed": "2025-03-02T10:00",
            "text": "Sent a voice note.",
            "evidence": [SimpleUploadedFile("voice.wav", wav())],
        },
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "This case has room for 0 MB more evidence" in body
    assert not CaseNote.objects.exists()
    assert Evidence.objects.count() == 1 and len(_stored_files(settings)) == 1


def test_agreement_evidence_counts_towards_the_quota(cast, settings):
    from tests.agreements.helpers import add_evidence, make_agreement

    add_evidence(make_agreement(cast.case, cast.assigned), cast.assigned, data=b"x" * 500)
    assert files.case_usage(cast.case) == 500
    settings.EVIDENCE_CASE_QUOTA_BYTES = 600
    with pytest.raises(files.EvidenceRefused):
        make_note(cast.case, cast.assigned, evidence=[checked("voice.wav", wav())])


def test_a_failed_save_leaves_no_file_behind(cast, settings, monkeypatch):
    def refuse(*args, **kwargs):
        raise RuntimeError("the audit trail cannot be written")

    monkeypatch.setattr(services, "record", refuse)
    with pytest.raises(RuntimeError):
        make_note(
            cast.case,
            cast.assigned,
            evidence=[checked("a.png", png()), checked("voice.wav", wav())],
        )
    assert _stored_files(settings) == []
    assert not Evidence.objects.exists()


def test_files_are_stored_encrypted_under_random_names(cast, settings):
    data = png()
    incident = make_incident(cast.case, cast.assigned, evidence=[checked("screen.png", data)])
    (path,) = _stored_files(settings)
    stored = path.read_bytes()
    # Not the image's bytes (its signature, which base64 cannot hold, is gone), and only the
    # case's key gives them back.
    assert data[:8] not in stored and "screen" not in path.name
    assert cast.case.data_key().decrypt(stored) == data
    evidence = incident.evidence.get()
    evidence.case = cast.case
    assert evidence.filename == "screen.png" and evidence.size == len(data)


def test_a_file_is_shown_in_the_page_and_downloaded_each_audited(cast, login):
    incident = make_incident(
        cast.case,
        cast.assigned,
        evidence=[checked("voice.wav", wav()), checked("screen.png", png())],
    )
    recording, picture = incident.evidence.order_by("pk")
    client = login(cast.assigned)
    page = client.get(reverse("casework:incident", args=[cast.case.public_id, incident.public_id]))
    body = page.content.decode()
    shown = reverse("casework:evidence_file", args=[cast.case.public_id, recording.public_id])
    # A recording is fetched (and its read recorded) only when someone plays it.
    assert f'<audio controls preload="none" src="{shown}"' in body
    assert "<img" in body and "media-src 'self'" in page["Content-Security-Policy"]

    response = client.get(shown)
    assert response.status_code == 200
    assert response["Content-Type"] == "audio/wav"
    assert "no-store" in response["Cache-Control"]
    assert response["Content-Disposition"].startswith("inline;")
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response.content == wav()
    viewed = AuditEvent.objects.filter(action="evidence.view", object_id=recording.public_id)
    assert viewed.count() == 1
    assert viewed.get().detail == {"note": None, "incident": incident.public_id}

    download = client.get(
        reverse("casework:evidence_download", args=[cast.case.public_id, picture.public_id])
    )
    assert download.status_code == 200
    assert download["Content-Disposition"].startswith("attachment;")
    assert download["Content-Type"] == "image/png" and download.content == png()
    assert AuditEvent.objects.filter(
        action="evidence.download", object_id=picture.public_id
    ).exists()
    assert not AuditEvent.objects.filter(action="case.view", object_id=picture.public_id).exists()


def test_a_file_of_another_case_is_not_found(cast, login):
    incident = make_incident(cast.team2_case, cast.other_team, evidence=[checked("a.pdf", pdf())])
    evidence = incident.evidence.get()
    client = login(cast.assigned)
    url = reverse("casework:evidence_file", args=[cast.case.public_id, evidence.public_id])
    assert client.get(url).status_code == 404
    assert not AuditEvent.objects.filter(action="evidence.view").exists()


def test_evidence_that_arrives_later_is_added_to_the_incident(cast, login, settings):
    incident = make_incident(cast.case, cast.assigned)
    client = login(cast.assigned)
    url = reverse("casework:incident_evidence", args=[cast.case.public_id, incident.public_id])
    assert client.get(url).status_code == 200
    refused = client.post(url, {"evidence": [SimpleUploadedFile("photo.jpg", png())]})
    assert refused.status_code == 200 and "is not a JPEG photo" in refused.content.decode()
    assert client.post(url, {}).status_code == 200
    response = client.post(url, {"evidence": [SimpleUploadedFile("photo.png", png())]})
    assert response.status_code == 302
    evidence = incident.evidence.get()
    assert evidence.content_type == "image/png"
    event = AuditEvent.objects.get(action="incident.evidence.add")
    assert event.detail == {"evidence": [evidence.public_id]}
    assert len(_stored_files(settings)) == 1


@pytest.mark.parametrize(("backend", "room"), [("FullDisk", 0), ("FullDisk", 1), ("ReadOnly", 0)])
def test_failing_storage_is_a_form_error_and_keeps_nothing(cast, login, settings, backend, room):
    from tests.agreements import test_evidence_storage_faults as faults

    settings.STORAGES = {
        **settings.STORAGES,
        "evidence": {
            "BACKEND": f"{faults.__name__}.{backend}",
            "OPTIONS": {"location": str(settings.EVIDENCE_ROOT)},
        },
    }
    faults.FullDisk.room = room  # with room for one, the second fails: the first goes too
    response = login(cast.assigned).post(
        reverse("casework:incident_new", args=[cast.case.public_id]),
        _incident_form(
            evidence=[SimpleUploadedFile("gate.png", png()), SimpleUploadedFile("v.wav", wav())]
        ),
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "evidence storage is full or unavailable" in body and "Nothing was saved" in body
    assert "Pushed her." in body  # what was typed is not lost
    assert "Errno" not in body
    assert not Incident.objects.exists() and not Evidence.objects.exists()
    assert _stored_files(settings) == []
