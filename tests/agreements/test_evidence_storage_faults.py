"""Evidence storage failing while an advocate logs a contact with its evidence (the disk full
part-way through a file, or the storage read-only): a form error in plain words, no contact
event and no evidence saved, no file left behind. Through the page, as the advocate sends it."""

from __future__ import annotations

import errno
import os

import pytest
import time_machine
from django.core.files.storage import FileSystemStorage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from caseflow.agreements.models import ContactEvent, Evidence
from caseflow.audit.models import AuditEvent
from tests.agreements.helpers import make_agreement
from tests.agreements.test_views import NOW, _event_post
from tests.casework.helpers import pdf, png

pytestmark = pytest.mark.django_db


class FullDisk(FileSystemStorage):
    """Writes the first half of each file after the first ``room`` files, then runs out of
    space, as a full disk does."""

    room = 0

    def _save(self, name, content):
        if FullDisk.room > 0:
            FullDisk.room -= 1
            return super()._save(name, content)
        path = self.path(name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = content.read()
        with open(path, "wb") as part:
            part.write(data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")


class ReadOnly(FileSystemStorage):
    def _save(self, name, content):
        raise OSError(errno.EROFS, "Read-only file system")


def _files(root) -> list:
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


@time_machine.travel(NOW, tick=False)
@pytest.mark.parametrize(("backend", "room"), [("FullDisk", 0), ("FullDisk", 1), ("ReadOnly", 0)])
def test_failing_evidence_storage_is_a_form_error_and_keeps_nothing(
    cast, login, settings, evidence_root, backend, room
):
    settings.STORAGES = {
        **settings.STORAGES,
        "evidence": {
            "BACKEND": f"{__name__}.{backend}",
            "OPTIONS": {"location": str(evidence_root)},
        },
    }
    FullDisk.room = room  # with room for one, the second file fails: the first is removed too
    agreement = make_agreement(cast.case, cast.assigned)
    url = reverse("agreements:event_new", args=[cast.case.public_id, agreement.public_id])
    files = [
        SimpleUploadedFile("screenshot.png", png()),
        SimpleUploadedFile("letter.pdf", pdf()),
    ]
    response = login(cast.assigned).post(
        url, _event_post(files, description="He messaged about the school run.")
    )

    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors["evidence"])
    assert "could not store the files" in errors and "was not saved" in errors
    body = response.content.decode()
    assert "He messaged about the school run." in body  # what was typed is not lost
    assert "ENOSPC" not in body and "Errno" not in body
    assert not ContactEvent.objects.exists()
    assert not Evidence.objects.exists()
    assert not AuditEvent.objects.filter(action="agreement.event.create").exists()
    assert _files(evidence_root) == []
