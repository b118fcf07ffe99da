"""What an upload is checked for beyond its type: a PDF that would act on its own (a script run
on opening, a form that submits elsewhere) is refused and, if kept from before, never shown
outside a sandbox; refusals are in the reader's language, with sizes in the unit of the limit;
direction controls never reach a shown file name."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfWriter
from pypdf.generic import (
    ArrayObject,
    DictionaryObject,
    FloatObject,
    NameObject,
    NumberObject,
    TextStringObject,
)

from caseflow.audit.models import AuditEvent
from caseflow.cases import evidence as files
from tests.casework.helpers import make_incident, pdf

MIB = 1024 * 1024


def _pdf(change=None) -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(200, 200)
    if change is not None:
        change(writer)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _script_on_opening(writer: PdfWriter) -> None:
    action = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Action"),
            NameObject("/S"): NameObject("/JavaScript"),
            NameObject("/JS"): TextStringObject("app.alert('hello')"),
        }
    )
    writer._root_object[NameObject("/OpenAction")] = writer._add_object(action)


def _submit_link(writer: PdfWriter) -> None:
    action = DictionaryObject(
        {
            NameObject("/S"): NameObject("/SubmitForm"),
            NameObject("/F"): TextStringObject("https://elsewhere.example/collect"),
        }
    )
    link = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Annot"),
            NameObject("/Subtype"): NameObject("/Link"),
            NameObject("/Rect"): ArrayObject([FloatObject(v) for v in (10, 10, 100, 40)]),
            NameObject("/A"): action,
        }
    )
    page = writer.pages[0]
    page[NameObject("/Annots")] = ArrayObject([writer._add_object(link)])


def _open_at_first_page(writer: PdfWriter) -> None:
    # What many office programs write: open at page 1, fitted. Nothing acts.
    page = writer.pages[0].indirect_reference
    writer._root_object[NameObject("/OpenAction")] = ArrayObject(
        [page, NameObject("/XYZ"), NumberObject(0), NumberObject(200), NumberObject(0)]
    )


def _locked(writer: PdfWriter) -> None:
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="AES-128")


def test_a_pdf_that_runs_a_script_on_opening_is_refused():
    data = _pdf(_script_on_opening)
    assert b"/JavaScript" in data
    with pytest.raises(files.EvidenceRefused) as refused:
        files.check_file("statement.pdf", data)
    message = str(refused.value)
    assert message.startswith("statement.pdf was not accepted: it carries")
    assert "a script" in message and "an action that runs by itself" in message


def test_a_pdf_with_a_link_that_submits_a_form_elsewhere_is_refused():
    data = _pdf(_submit_link)
    with pytest.raises(files.EvidenceRefused) as refused:
        files.check_file("form.pdf", data)
    assert "a form that sends what is typed to somewhere else" in str(refused.value)


@pytest.mark.parametrize("change", [None, _open_at_first_page], ids=["plain", "open-at-page"])
def test_a_plain_pdf_is_accepted(change):
    data = _pdf(change)
    assert files.pdf_active_content(data) == []
    assert files.check_file("letter.pdf", data).content_type == "application/pdf"


def test_a_pdf_locked_with_a_password_cannot_be_checked_so_is_refused():
    with pytest.raises(files.EvidenceRefused) as refused:
        files.check_file("locked.pdf", _pdf(_locked))
    assert "locked with a password" in str(refused.value)


@pytest.mark.django_db
def test_a_pdf_kept_from_before_that_acts_is_shown_only_in_a_sandbox(cast, login):
    active = files.CheckedFile("old.pdf", "application/pdf", "pdf", _pdf(_script_on_opening))
    plain = files.CheckedFile("new.pdf", "application/pdf", "pdf", pdf())
    incident = make_incident(cast.case, cast.assigned, evidence=[active, plain])
    old, new = incident.evidence.order_by("pk")
    client = login(cast.assigned)
    policies = {}
    for item in (old, new):
        url = reverse("casework:evidence_file", args=[cast.case.public_id, item.public_id])
        response = client.get(url)
        assert response.status_code == 200
        policies[item.filename] = response["Content-Security-Policy"]
    assert policies["old.pdf"].endswith("; sandbox")
    assert "sandbox" not in policies["new.pdf"]
    # Downloading stays possible, and is recorded.
    download = client.get(
        reverse("casework:evidence_download", args=[cast.case.public_id, old.public_id])
    )
    assert download.status_code == 200 and download["Content-Disposition"].startswith("attachment")
    assert AuditEvent.objects.filter(action="evidence.download", object_id=old.public_id).exists()


def test_a_file_just_over_the_limit_is_shown_over_it_in_the_same_unit(settings):
    settings.EVIDENCE_LIMITS = {**settings.EVIDENCE_LIMITS, "pdf": 10 * MIB}
    just_over = b"%PDF-1.4\n" + b"0" * (10 * MIB)
    with pytest.raises(files.EvidenceRefused) as refused:
        files.check_file("scan.pdf", just_over)
    assert "scan.pdf is too large (10.1 MB); the limit for pdfs is 10 MB." in str(refused.value)
    with pytest.raises(files.EvidenceRefused) as refused:
        files.check_file("scan.pdf", b"%PDF-1.4\n" + b"0" * int(10.15 * MIB))
    assert "(10.2 MB); the limit for pdfs is 10 MB" in str(refused.value)
    assert files.megabytes(10 * MIB) == "10 MB" and files.megabytes(int(2.5 * MIB)) == "2.5 MB"


def test_refusals_are_in_the_readers_language(settings):
    settings.EVIDENCE_LIMITS = {**settings.EVIDENCE_LIMITS, "pdf": 10 * MIB}
    with translation.override("es"):
        with pytest.raises(files.EvidenceRefused) as empty:
            files.check_file("carta.pdf", b"")
        with pytest.raises(files.EvidenceRefused) as large:
            files.check_file("carta.pdf", b"%PDF-1.4\n" + b"0" * (10 * MIB))
        with pytest.raises(files.EvidenceRefused) as active:
            files.check_file("carta.pdf", _pdf(_script_on_opening))
        with pytest.raises(files.EvidenceRefused) as unknown:
            files.check_file("carta.docx", b"PK\x03\x04")
    assert str(empty.value) == "carta.pdf está vacío."
    assert "(10,1 MB)" in str(large.value) and "10 MB" in str(large.value)
    assert "demasiado grande" in str(large.value)
    assert "no se aceptó" in str(active.value) and "un script" in str(active.value)
    assert "no se acepta este tipo de archivo" in str(unknown.value)


@pytest.mark.parametrize(
    "control",
    [
        "\u202e",
        "\u202a",
        "\u202b",
        "\u202c",
        "\u202d",
        "\u2066",
        "\u2067",
        "\u2068",
        "\u2069",
        "\u200e",
        "\u200f",
        "\u061c",
    ],
)
def test_direction_controls_are_taken_out_of_a_shown_name(control):
    # "photo<RLO>gpj.exe" would read as "photoexe.jpg".
    assert files.shown_name(f"photo{control}gpj.png") == "photogpj.png"
    checked = files.check_file(f"C:\\fakepath\\sub/ph{control}oto.pdf", pdf())
    assert checked.name == "photo.pdf"
