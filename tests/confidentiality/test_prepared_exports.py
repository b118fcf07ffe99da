"""Large evidence packs and case exports prepared in the background: over the threshold the file
is built by a worker (through the outbox, ids only), kept sealed as a file under a random name and
handed over on its own page; only its asker, still able to edit the case, sees or downloads it;
the release is checked again at the download and the disclosure recorded once; it expires, dies
with the case in a purge, and a worker lost half-way leaves nothing that can be served."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import os
import zipfile
from pathlib import Path

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import CaseAssignment
from caseflow.confidentiality import services
from caseflow.confidentiality.models import (
    Category,
    Disclosure,
    DisclosureKind,
    PreparedExport,
    PurgeProposal,
    PurgeScope,
)
from caseflow.confidentiality.services import prepared_exports
from caseflow.confidentiality.tasks import prepare_export, purge_prepared_exports
from caseflow.lib import sealedfiles
from caseflow.lib.encryption import DecryptionError
from caseflow.lib.prepared import PreparedState
from caseflow.outbox.models import Intent
from tests.agreements.helpers import add_evidence, london, make_agreement, record_breach
from tests.confidentiality.helpers import RECIPIENT, close, release
from tests.conftest import canary

pytestmark = pytest.mark.django_db

#: Every date here is pinned: releases and expiry depend on today.
TODAY = dt.datetime(2026, 11, 20, 10, 0, tzinfo=dt.UTC)

PDF = b"%PDF-1.4 evidence bytes SECRETPDF \x00\x01\x02 end %%EOF"


@pytest.fixture(autouse=True)
def pinned():
    with time_machine.travel(TODAY, tick=False) as traveller:
        yield traveller


@pytest.fixture
def evidence(cast):
    agreement = make_agreement(cast.case, cast.assigned)
    record_breach(agreement, cast.assigned, london(2025, 2, 4, 22, 0))
    first = add_evidence(agreement, cast.assigned, data=PDF, name=f"{canary(cast.case)}.pdf")
    return [first]


@pytest.fixture
def large(settings):
    settings.EXPORT_BACKGROUND_BYTES = 10
    settings.EXPORT_BACKGROUND_ROWS = 0


@pytest.fixture
def small(settings):
    settings.EXPORT_BACKGROUND_BYTES = 10**9
    settings.EXPORT_BACKGROUND_ROWS = 10**6


def _evidence_url(cast) -> str:
    return reverse("confidentiality:evidence_pack", args=[cast.case.public_id])


def _ask_pack(client, cast, rel, files, commit) -> tuple:
    data = {
        "release": rel.public_id,
        "recipient": RECIPIENT,
        "include_breaches": "on",
        "include_contact_log": "on",
        "evidence": [e.public_id for e in files],
    }
    with commit() as callbacks:
        response = client.post(_evidence_url(cast), data)
    return response, callbacks


def _url(name: str, prepared: PreparedExport) -> str:
    return reverse(f"confidentiality:{name}", args=[prepared.case.public_id, prepared.public_id])


def _run() -> None:
    """The worker's turn: the task as the outbox sends it (its intent's id with the export's)."""
    intent = _intents().filter(completed_at__isnull=True).latest("pk")
    prepare_export(**intent.kwargs, intent_id=intent.pk)


def _intents():
    return Intent.objects.filter(task=prepared_exports.TASK)


def _prepared(cast) -> PreparedExport:
    prepared = PreparedExport.objects.get()
    prepared.case = cast.case
    return prepared


def _stored_files() -> list[Path]:
    from django.conf import settings

    root = Path(settings.MEDIA_ROOT)
    return [p for p in root.rglob("*") if p.is_file()]


def test_a_small_evidence_pack_is_made_at_once(cast, login, evidence, small):
    rel = release(cast, categories=[Category.EVIDENCE])
    response = login(cast.assigned).post(
        _evidence_url(cast),
        {"release": rel.public_id, "recipient": RECIPIENT, "evidence": [evidence[0].public_id]},
    )
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert not PreparedExport.objects.exists() and not _intents().exists()


def test_a_large_evidence_pack_is_prepared_by_a_worker_and_handed_over_once(
    cast, login, evidence, large, django_capture_on_commit_callbacks
):
    rel = release(cast, categories=[Category.EVIDENCE])
    client = login(cast.assigned)
    response, callbacks = _ask_pack(client, cast, rel, evidence, django_capture_on_commit_callbacks)
    prepared = _prepared(cast)
    assert response.status_code == 302 and response["Location"] == _url("prepared_export", prepared)
    assert len(callbacks) == 1  # the outbox hands the task to the broker once committed
    # Ids only in the task's arguments; nothing left the agency yet.
    intent = _intents().get()
    assert intent.task == "caseflow.confidentiality.tasks.prepare_export"
    assert intent.kwargs == {"export_id": prepared.pk}
    assert not Disclosure.objects.exists()
    assert prepared.state == PreparedState.WAITING and prepared.file_name == ""
    assert prepared.expires_at == TODAY + dt.timedelta(hours=24)
    asked = AuditEvent.objects.get(action="disclosure.export_prepare")
    assert RECIPIENT not in json.dumps(asked.detail)
    waiting = client.get(_url("prepared_export", prepared)).content.decode()
    assert 'id="prepared-bar"' in waiting and 'hx-trigger="every 2s"' in waiting
    assert "Download the file" not in waiting
    # Asked again while it is under way: the same one, no second job.
    again, _ = _ask_pack(client, cast, rel, evidence, django_capture_on_commit_callbacks)
    assert again["Location"] == _url("prepared_export", prepared)
    assert PreparedExport.objects.count() == 1 and _intents().count() == 1

    _run()
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.READY and prepared.attempts == 1
    assert _intents().get().completed_at is not None
    # Sealed, under a random name that says nothing.
    (stored,) = _stored_files()
    assert stored.name == Path(prepared.file_name).name and stored.suffix == ".bin"
    sealed = stored.read_bytes()
    assert b"SECRETPDF" not in sealed and canary(cast.case).encode() not in sealed
    assert not Disclosure.objects.exists()  # built, not handed over
    ready = client.get(_url("prepared_export_progress", prepared)).content.decode()
    assert "Download the file" in ready and "hx-get" not in ready

    first = client.get(_url("prepared_export_download", prepared))
    second = client.get(_url("prepared_export_download", prepared))
    disclosure = Disclosure.objects.get()  # recorded once, at the first hand-over
    assert disclosure.kind == DisclosureKind.EVIDENCE_PACK and disclosure.release == rel
    assert first["Content-Disposition"] == (
        f'attachment; filename="evidence-pack-{cast.case.public_id[:8]}-{disclosure.pk}.zip"'
    )
    assert first["Cache-Control"].startswith("no-store")
    archive = zipfile.ZipFile(io.BytesIO(first.content))
    manifest = json.loads(archive.read("manifest.json"))
    assert manifest["disclosure"] == disclosure.pk and manifest["release"] == rel.public_id
    assert sorted(f["part"] for f in manifest["files"]) == ["breaches", "contact_log", "evidence"]
    for entry in manifest["files"]:
        assert hashlib.sha256(archive.read(entry["name"])).hexdigest() == entry["sha256"]
    (pdf,) = [f for f in manifest["files"] if f["part"] == "evidence"]
    assert archive.read(pdf["name"]) == PDF
    assert zipfile.ZipFile(io.BytesIO(second.content)).read(pdf["name"]) == PDF
    made = AuditEvent.objects.get(action="disclosure.evidence_pack")
    assert made.detail["disclosure"] == disclosure.pk
    assert made.detail["evidence"] == [evidence[0].pk]
    downloads = AuditEvent.objects.filter(action="disclosure.prepared_download")
    assert [e.detail["disclosure"] for e in downloads] == [disclosure.pk, disclosure.pk]


def test_a_large_case_export_is_the_export_made_at_once(
    cast, login, evidence, settings, django_capture_on_commit_callbacks
):
    rel = release(cast, categories=[Category.CONTACT, Category.EVIDENCE])
    client = login(cast.assigned)
    url = reverse("confidentiality:case_export", args=[cast.case.public_id])
    data = {"release": rel.public_id, "recipient": RECIPIENT}
    settings.EXPORT_BACKGROUND_ROWS = 10**6
    at_once = json.loads(client.post(url, data).content)
    settings.EXPORT_BACKGROUND_ROWS = 1  # one contact and one breach
    with django_capture_on_commit_callbacks():
        asked = client.post(url, data)
    prepared = _prepared(cast)
    assert asked["Location"] == _url("prepared_export", prepared)
    assert prepared.total == 3  # two categories, then the seal
    _run()
    response = client.get(_url("prepared_export_download", prepared))
    document = json.loads(response.content)
    disclosure = Disclosure.objects.filter(kind=DisclosureKind.CASE_EXPORT).latest("pk")
    assert document["disclosure"] == disclosure.pk != at_once["disclosure"]
    assert document["sections"] == at_once["sections"]
    assert document["categories"] == at_once["categories"] == ["contact", "evidence"]
    assert Disclosure.objects.filter(kind=DisclosureKind.CASE_EXPORT).count() == 2


def _ready(cast, client, evidence, commit) -> PreparedExport:
    rel = release(cast, categories=[Category.EVIDENCE])
    _ask_pack(client, cast, rel, evidence, commit)
    _run()
    prepared = _prepared(cast)
    assert prepared.state == PreparedState.READY
    return prepared


def test_only_the_asker_sees_or_fetches_it(
    cast, login, evidence, large, django_capture_on_commit_callbacks
):
    prepared = _ready(cast, login(cast.assigned), evidence, django_capture_on_commit_callbacks)
    # The case's supervisor may edit the case, and still gets 404: it is not theirs.
    other = login(cast.supervisor)
    for name in ("prepared_export", "prepared_export_progress", "prepared_export_download"):
        assert other.get(_url(name, prepared)).status_code == 404
    assert other.post(_url("prepared_export_retry", prepared)).status_code == 404
    # Each refusal is recorded as a denied access, as a case out of scope.
    denied = AuditEvent.objects.filter(action="access.denied", actor_id=cast.supervisor.pk)
    assert [e.detail["status"] for e in denied] == [404] * 4
    # Out of scope: 404 as any case page; anonymous: to the sign-in.
    assert login(cast.other_team).get(_url("prepared_export", prepared)).status_code == 404
    assert Client().get(_url("prepared_export_download", prepared)).status_code == 302
    assert not Disclosure.objects.exists()


def test_an_emergency_reader_of_the_case_is_refused(
    cast, login, evidence, large, django_capture_on_commit_callbacks
):
    """In scope through emergency access, which reads but does not edit: 403, as the export
    pages themselves."""
    from caseflow.cases.services import break_glass_open

    prepared = _ready(cast, login(cast.assigned), evidence, django_capture_on_commit_callbacks)
    break_glass_open(actor=cast.same_team, reference=cast.case.reference, reason="duty line")
    reader = login(cast.same_team)
    for name in ("prepared_export", "prepared_export_progress", "prepared_export_download"):
        assert reader.get(_url(name, prepared)).status_code == 403
    assert reader.post(_url("prepared_export_retry", prepared)).status_code == 403
    assert not Disclosure.objects.exists()


def test_wrong_methods_are_refused(
    cast, login, evidence, large, django_capture_on_commit_callbacks
):
    client = login(cast.assigned)
    prepared = _ready(cast, client, evidence, django_capture_on_commit_callbacks)
    for name in ("prepared_export", "prepared_export_progress", "prepared_export_download"):
        assert client.post(_url(name, prepared)).status_code == 405
    assert client.get(_url("prepared_export_retry", prepared)).status_code == 405


def test_the_asker_who_lost_the_case_cannot_fetch_it(
    cast, login, evidence, large, django_capture_on_commit_callbacks
):
    client = login(cast.assigned)
    prepared = _ready(cast, client, evidence, django_capture_on_commit_callbacks)
    CaseAssignment.objects.filter(case=cast.case, user=cast.assigned).delete()
    cast.case.__class__.objects.filter(pk=cast.case.pk).update(primary_advocate=None)
    assert client.get(_url("prepared_export_download", prepared)).status_code == 404
    assert not Disclosure.objects.exists()


@pytest.mark.parametrize("how", ["revoked", "expired"])
def test_a_release_no_longer_valid_at_the_download_stops_the_hand_over(
    how, cast, login, evidence, large, pinned, django_capture_on_commit_callbacks
):
    client = login(cast.assigned)
    prepared = _ready(cast, client, evidence, django_capture_on_commit_callbacks)
    if how == "revoked":
        services.release_revoke(
            actor=cast.assigned, case=cast.case, release=prepared.release, reason="Stop."
        )
    else:
        pinned.move_to(TODAY + dt.timedelta(days=100))  # the release ran for 90 days
        PreparedExport.objects.update(expires_at=TODAY + dt.timedelta(days=200))
        client = login(cast.assigned)  # a new day, a new session
    with django_capture_on_commit_callbacks(execute=True):
        response = client.get(_url("prepared_export_download", prepared))
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "confidentiality:evidence_pack", args=[cast.case.public_id]
    )
    assert not Disclosure.objects.exists()
    assert AuditEvent.objects.filter(action="disclosure.refused").count() == 1
    assert not AuditEvent.objects.filter(action="disclosure.prepared_download").exists()
    # It can never be handed over: the export and its file are gone.
    assert not PreparedExport.objects.exists() and _stored_files() == []


def test_the_worker_refuses_under_a_release_revoked_before_it_ran(
    cast, login, evidence, large, django_capture_on_commit_callbacks
):
    rel = release(cast, categories=[Category.EVIDENCE])
    _ask_pack(login(cast.assigned), cast, rel, evidence, django_capture_on_commit_callbacks)
    services.release_revoke(actor=cast.assigned, case=cast.case, release=rel, reason="Stop.")
    _run()
    prepared = _prepared(cast)
    assert prepared.state == PreparedState.FAILED and prepared.last_error == "ReleaseRequired"
    assert prepared.file_name == "" and _stored_files() == []
    assert _intents().get().completed_at is not None
    # Trying again checks the release again: refused, audited, nothing started.
    client = login(cast.assigned)
    with django_capture_on_commit_callbacks():
        response = client.post(_url("prepared_export_retry", prepared))
    assert response.status_code == 302
    assert _intents().count() == 1
    assert AuditEvent.objects.filter(action="disclosure.refused").exists()


def test_a_lost_worker_s_export_can_be_started_again(
    cast, login, evidence, large, pinned, django_capture_on_commit_callbacks
):
    client = login(cast.assigned)
    rel = release(cast, categories=[Category.EVIDENCE])
    _ask_pack(client, cast, rel, evidence, django_capture_on_commit_callbacks)
    prepared = _prepared(cast)
    assert services.prepared_export_claim(export_id=prepared.pk)
    not_yet = client.post(_url("prepared_export_retry", prepared))
    assert not_yet.status_code == 302 and _intents().count() == 1
    pinned.move_to(TODAY + dt.timedelta(hours=1))  # past EXPORT_STALE_SECONDS
    client = login(cast.assigned)  # signed in again after an idle hour
    assert "Try again" in client.get(_url("prepared_export", prepared)).content.decode()
    with django_capture_on_commit_callbacks():
        client.post(_url("prepared_export_retry", prepared))
    assert _intents().count() == 2
    _run()
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.READY and prepared.attempts == 2


def test_a_failure_half_way_leaves_no_result(
    cast, login, evidence, large, monkeypatch, django_capture_on_commit_callbacks
):
    """The build raises after the file is written (as a worker lost before its commit): no row
    names a file, and the one written is deleted; the task runs again from the start."""
    rel = release(cast, categories=[Category.EVIDENCE])
    _ask_pack(login(cast.assigned), cast, rel, evidence, django_capture_on_commit_callbacks)
    prepared = _prepared(cast)
    real_save = PreparedExport.save

    def lost(self, *args, **kwargs):
        if kwargs.get("update_fields"):
            raise RuntimeError("worker lost")
        return real_save(self, *args, **kwargs)

    monkeypatch.setattr(PreparedExport, "save", lost)
    with pytest.raises(RuntimeError):
        services.prepared_export_build(export_id=prepared.pk)
    monkeypatch.undo()
    prepared.refresh_from_db()
    assert prepared.state != PreparedState.READY and prepared.file_name == ""
    assert _stored_files() == []
    services.prepared_export_build(export_id=prepared.pk)
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.READY and len(_stored_files()) == 1


def test_a_half_written_file_is_never_under_its_name(monkeypatch):
    """The bytes go to a temporary name and are renamed once whole: a failure before the rename
    leaves nothing, under either name."""

    def cut(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", cut)
    with pytest.raises(OSError):
        sealedfiles.write("exports", b"x" * 1000)
    monkeypatch.undo()
    assert _stored_files() == []
    name = sealedfiles.write("exports", b"whole")
    assert sealedfiles.read(name) == b"whole"
    assert [p.name for p in _stored_files()] == [Path(name).name]


def test_expiry_deletes_the_export_its_file_and_what_a_lost_worker_left(
    cast, login, evidence, large, pinned, django_capture_on_commit_callbacks
):
    client = login(cast.assigned)
    prepared = _ready(cast, client, evidence, django_capture_on_commit_callbacks)
    # A temporary file a worker killed mid-write left, and a whole one no row names.
    root = Path(sealedfiles.default_storage.path("exports"))
    (root / "abandoned.bin.part").write_bytes(b"half")
    (root / "orphan.bin").write_bytes(b"whole")
    assert len(_stored_files()) == 3
    assert purge_prepared_exports() == 0
    assert len(_stored_files()) == 3  # nothing is old enough yet
    pinned.move_to(TODAY + dt.timedelta(hours=24, seconds=1))
    for path in _stored_files():
        os.utime(path, (TODAY.timestamp(), TODAY.timestamp()))
    client = login(cast.assigned)
    assert client.get(_url("prepared_export", prepared)).status_code == 404
    assert purge_prepared_exports() == 1
    assert not PreparedExport.objects.exists() and _stored_files() == []


@pytest.mark.parametrize("scope", [PurgeScope.WHOLE, PurgeScope.NARRATIVES])
def test_a_purge_deletes_it_and_a_copy_cannot_be_opened_without_the_case_key(
    scope, cast, login, evidence, large, settings, django_capture_on_commit_callbacks
):
    settings.RETENTION_NARRATIVES_YEARS, settings.RETENTION_RECORD_YEARS = 3, 7
    prepared = _ready(cast, login(cast.assigned), evidence, django_capture_on_commit_callbacks)
    (stored,) = _stored_files()
    backup = stored.read_bytes()
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT sealing_key FROM {PreparedExport._meta.db_table} WHERE id = %s",
            [prepared.pk],
        )
        (sealed_key,) = cursor.fetchone()
    # The export's key is kept under the case key, never in the clear.
    assert prepared.sealer().decrypt(backup).startswith(b"PK")
    assert prepared.sealing_key not in sealed_key
    case = close(cast.case, years_ago=8 if scope == PurgeScope.WHOLE else 4)
    services.purge_propose_due()
    proposal = PurgeProposal.objects.get(case=case, scope=scope)
    services.purge_approve(actor=cast.supervisor, proposal_id=proposal.pk)
    if scope == PurgeScope.WHOLE:
        services.purge_approve(actor=cast.agency_admin, proposal_id=proposal.pk)
    with django_capture_on_commit_callbacks(execute=True):
        certificate = services.purge_execute(actor=cast.agency_admin, proposal_id=proposal.pk)
    # Any purge deletes it and its file; the certificate's counts do not list it.
    assert not PreparedExport.objects.exists() and _stored_files() == []
    assert "confidentiality.PreparedExport" not in certificate.purged["deleted"]
    if scope == PurgeScope.WHOLE:
        # A backup of the file and of the row: the case key is gone, so the export's is too.
        case.__dict__.pop("_data_key", None)
        with pytest.raises(DecryptionError):
            case.data_key().decrypt(sealed_key.encode())


def test_the_threshold_counts_the_chosen_files_and_the_case_s_rows(cast, evidence, settings):
    files = [evidence[0].public_id]
    settings.EXPORT_BACKGROUND_BYTES = len(PDF)
    assert not services.export_is_large(
        case=cast.case, kind=DisclosureKind.EVIDENCE_PACK, evidence_ids=files
    )
    settings.EXPORT_BACKGROUND_BYTES = len(PDF) - 1
    assert services.export_is_large(
        case=cast.case, kind=DisclosureKind.EVIDENCE_PACK, evidence_ids=files
    )
    assert not services.export_is_large(
        case=cast.case, kind=DisclosureKind.EVIDENCE_PACK, evidence_ids=[]
    )
    settings.EXPORT_BACKGROUND_ROWS = 3  # two contacts (the breach's, the file's) and a breach
    assert not services.export_is_large(case=cast.case, kind=DisclosureKind.CASE_EXPORT)
    settings.EXPORT_BACKGROUND_ROWS = 2
    assert services.export_is_large(case=cast.case, kind=DisclosureKind.CASE_EXPORT)
    assert prepared_exports.FOLDER == "exports"


def test_the_export_page_lists_the_files_prepared_for_its_reader_only(
    cast, login, evidence, large, django_capture_on_commit_callbacks
):
    client = login(cast.assigned)
    prepared = _ready(cast, client, evidence, django_capture_on_commit_callbacks)
    mine = client.get(_evidence_url(cast)).content.decode()
    assert "Large files prepared for you" in mine
    assert _url("prepared_export", prepared) in mine and "Ready to download" in mine
    theirs = login(cast.supervisor).get(_evidence_url(cast)).content.decode()
    assert "Large files prepared for you" not in theirs
    assert prepared.public_id not in theirs
    case_export = client.get(
        reverse("confidentiality:case_export", args=[cast.case.public_id])
    ).content.decode()
    assert prepared.public_id not in case_export  # an evidence pack, not a case export
