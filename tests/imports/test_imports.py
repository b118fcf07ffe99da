import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case, CaseKey, Party
from caseflow.casework.models import CaseNote
from caseflow.imports import reader, sample, services
from caseflow.imports.models import BatchState, ImportBatch, ImportRecord
from caseflow.imports.template import FIELD_KEYS, template_csv

NOW = dt.datetime(2026, 12, 2, 9, 0, tzinfo=dt.UTC)
TODAY = NOW.date()


@pytest.fixture(autouse=True)
def _frozen():
    with time_machine.travel(NOW, tick=False):
        yield


def _file(n=3, errors=0, **kw):
    return sample.sample_csv(
        n, team="Team 1", advocate="assigned", today=TODAY, errors=errors, **kw
    )


def _checked(cast, data, name="cases.csv"):
    batch = services.batch_upload(actor=cast.agency_admin, name=name, data=data)
    checked = services.batch_check(actor=cast.agency_admin, batch=batch, mapping=batch.mapping)
    batch.refresh_from_db()
    return batch, checked


def test_template_has_every_field():
    header = template_csv().decode("utf-8-sig").splitlines()[0].split(",")
    assert header == list(FIELD_KEYS)


def test_dry_run_checks_every_row_and_writes_nothing(cast):
    before = Case.objects.count()
    batch, checked = _checked(cast, _file(8, errors=4))
    assert Case.objects.count() == before
    assert batch.counts["rows"] == 8
    assert batch.counts["errors"] == 4
    assert batch.counts["valid"] == 4
    columns = {p["column"] for p in batch.problems}
    assert {"survivor_date_of_birth", "risk_level", "checkin_date", "note_1_text"} <= columns
    rows_with_errors = sorted({p["row"] for p in batch.problems})
    assert rows_with_errors == [2, 3, 4, 5]
    # The report holds no value from the file.
    assert "fictional" not in str(batch.problems).lower()
    assert "very worried" not in str(batch.problems)
    event = AuditEvent.objects.get(action="import.check")
    assert event.detail["errors"] == 4
    assert "fictional" not in str(event.detail).lower()


def test_commit_opens_each_case_with_its_own_key_and_history(cast):
    before = Case.objects.count()
    batch, _ = _checked(cast, _file(3))
    assert batch.counts["errors"] == 0
    services.batch_start(actor=cast.agency_admin, batch=batch)
    batch.refresh_from_db()
    assert batch.state == BatchState.DONE
    assert batch.counts["created"] == 3
    assert Case.objects.count() == before + 3
    records = list(ImportRecord.objects.filter(agency=cast.agency).select_related("case"))
    assert len(records) == 3
    keys = set(
        CaseKey.objects.filter(case__in=[r.case for r in records]).values_list("wrapped", flat=True)
    )
    assert len(keys) == 3
    for r in records:
        assert CaseNote.objects.filter(case=r.case).count() == 2
        assert r.case.primary_advocate == cast.assigned
        assert r.case.risk_level in ("standard", "medium", "high")
        assert r.case.safe_contact.code_word == "blue umbrella"
    survivor = Party.objects.filter(case=records[0].case, role="survivor").get()
    assert "(fictional)" in survivor.full_name
    event = AuditEvent.objects.get(action="import.commit")
    assert event.actor_id == cast.agency_admin.pk
    assert event.detail["created"] == 3
    assert "fictional" not in str(event.detail).lower()
    # The file is destroyed with its key.
    assert batch.wrapped_key == ""


def test_rerunning_a_corrected_file_updates_and_never_duplicates(cast):
    batch, _ = _checked(cast, _file(4, errors=2))
    assert batch.counts["errors"] == 2
    batch, _ = _checked(cast, _file(4))
    services.batch_start(actor=cast.agency_admin, batch=batch)
    cases = Case.objects.count()
    notes = CaseNote.objects.count()
    data = sample.rows(4, team="Team 1", advocate="assigned", today=TODAY)
    data[0]["summary"] = "Corrected summary (fictional)."
    data[0]["note_3_date"] = (TODAY - dt.timedelta(days=3)).isoformat()
    data[0]["note_3_text"] = "A later note."
    again, _ = _checked(cast, sample.to_csv(data))
    assert again.counts["update"] == 4 and again.counts["new"] == 0
    services.batch_start(actor=cast.agency_admin, batch=again)
    again.refresh_from_db()
    assert again.counts["updated"] == 4
    assert Case.objects.count() == cases
    assert CaseNote.objects.count() == notes + 1
    record = ImportRecord.objects.get(agency=cast.agency, source_id="OLD-00001")
    assert record.case.summary == "Corrected summary (fictional)."


def test_a_commit_that_raises_half_way_leaves_nothing(cast):
    batch, _ = _checked(cast, _file(5))
    before = (Case.objects.count(), Party.objects.count(), CaseNote.objects.count())

    def stop(done):
        if done == 3:
            raise RuntimeError("worker stopped")

    with pytest.raises(RuntimeError):
        services.batch_commit(actor=cast.agency_admin, batch_id=batch.pk, on_row=stop)
    assert (Case.objects.count(), Party.objects.count(), CaseNote.objects.count()) == before
    assert ImportRecord.objects.count() == 0
    batch.refresh_from_db()
    assert batch.state == BatchState.CHECKED
    counts = services.batch_commit(actor=cast.agency_admin, batch_id=batch.pk)
    assert counts["created"] == 5
    assert ImportRecord.objects.count() == 5


def test_duplicates_within_the_file_are_reported(cast):
    data = sample.rows(3, team="Team 1", advocate="assigned", today=TODAY)
    data[2]["source_id"] = data[0]["source_id"]
    batch, _ = _checked(cast, sample.to_csv(data))
    assert [p["row"] for p in batch.problems] == [4]


def test_conflict_and_earlier_case_are_flagged_not_merged(cast):
    data = sample.rows(2, team="Team 1", advocate="assigned", today=TODAY)
    # The other party of row 2 is the client of the cast's existing case; row 1 is that client.
    survivor = cast.case.parties.get(role="survivor")
    data[0]["survivor_full_name"] = survivor.full_name
    data[0]["survivor_date_of_birth"] = ""
    data[1]["other_full_name"] = survivor.full_name
    data[1]["other_date_of_birth"] = ""
    batch, _ = _checked(cast, sample.to_csv(data))
    kinds = {(f["row"], f["kind"]) for f in batch.flags}
    assert (2, "earlier_case") in kinds
    assert (3, "conflict") in kinds
    before = Case.objects.count()
    services.batch_start(actor=cast.agency_admin, batch=batch)
    assert Case.objects.count() == before + 2
    record = ImportRecord.objects.get(source_id=data[1]["source_id"])
    assert record.case.conflict_flag


def test_large_batches_go_to_the_background_through_the_outbox(
    cast, settings, django_capture_on_commit_callbacks
):
    from caseflow.outbox.models import Intent

    settings.IMPORT_BACKGROUND_ROWS = 2
    batch, _ = _checked(cast, _file(3))
    with django_capture_on_commit_callbacks() as callbacks:
        queued = services.batch_start(actor=cast.agency_admin, batch=batch)
    assert queued and callbacks
    intent = Intent.objects.get(task="caseflow.imports.tasks.import_commit")
    assert intent.kwargs == {"batch_id": batch.pk}
    from caseflow.imports.tasks import import_commit

    import_commit.run(batch_id=batch.pk)
    batch.refresh_from_db()
    assert batch.state == BatchState.DONE
    assert services.progress(batch) == 100


@pytest.mark.parametrize(
    "name,data,message",
    [
        ("a.csv", b"", "empty"),
        ("a.pdf", b"x", ".csv or .xlsx"),
        ("a.xlsx", b"PK\x03\x04truncated", "damaged"),
        ("a.csv", b'source_id,team\n"OLD-1,Team 1\n', "well-formed"),
        ("a.csv", b"\x00\x01\x02" * 10, "not a CSV"),
    ],
)
def test_files_that_cannot_be_read_are_refused_in_words(cast, name, data, message):
    with pytest.raises(reader.FileRefused) as exc:
        services.batch_upload(actor=cast.agency_admin, name=name, data=data)
    assert message in str(exc.value)
    assert ImportBatch.objects.count() == 0


def test_oversized_file_refused(cast, settings):
    settings.IMPORT_MAX_BYTES = 100
    with pytest.raises(reader.FileRefused):
        services.batch_upload(actor=cast.agency_admin, name="a.csv", data=_file(3))


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252"])
def test_encodings_and_blank_lines(cast, encoding):
    data = sample.rows(2, team="Team 1", advocate="assigned", today=TODAY)
    data[0]["survivor_full_name"] = "Zoë Müller (fictional)"
    text = sample.to_csv(data).decode("utf-8").replace("\r\n", "\n")
    lines = text.split("\n")
    text = "\n".join([lines[0], "", lines[1], ",,,", lines[2], ""])
    batch, _ = _checked(cast, text.encode(encoding))
    assert batch.counts["rows"] == 2 and batch.counts["errors"] == 0
    services.batch_start(actor=cast.agency_admin, batch=batch)
    record = ImportRecord.objects.get(source_id="OLD-00001")
    assert record.case.parties.get(role="survivor").full_name == "Zoë Müller (fictional)"


def test_xlsx_dates_and_formulas(cast):
    from io import BytesIO

    from openpyxl import Workbook

    data = sample.rows(2, team="Team 1", advocate="assigned", today=TODAY)
    book = Workbook()
    sheet = book.active
    sheet.append(list(FIELD_KEYS))
    for row in data:
        values = [row[k] for k in FIELD_KEYS]
        values[FIELD_KEYS.index("survivor_date_of_birth")] = dt.datetime(1985, 3, 4)
        sheet.append(values)
    sheet.cell(row=3, column=FIELD_KEYS.index("summary") + 1).value = '=HYPERLINK("http://x")'
    out = BytesIO()
    book.save(out)
    batch, _ = _checked(cast, out.getvalue(), name="cases.xlsx")
    assert batch.counts["rows"] == 2
    assert [(p["row"], p["column"]) for p in batch.problems] == [(3, "summary")]
    assert "formula" in batch.problems[0]["message"]


def test_only_the_agency_admin_imports(cast):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        services.batch_upload(actor=cast.supervisor, name="a.csv", data=_file(1))


def test_pages_walk_from_upload_to_import(cast, login):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = login(cast.agency_admin)
    assert client.get(reverse("imports:upload")).status_code == 200
    response = client.post(
        reverse("imports:upload"), {"file": SimpleUploadedFile("c.csv", _file(2, errors=1))}
    )
    batch = ImportBatch.objects.get()
    assert response.status_code == 302
    page = client.get(reverse("imports:batch", args=[batch.public_id]))
    assert page.status_code == 200
    response = client.post(reverse("imports:batch", args=[batch.public_id]), batch.mapping)
    assert response.status_code == 302
    page = client.get(reverse("imports:batch", args=[batch.public_id])).content.decode()
    assert "Rows to correct" in page
    assert "A date of birth cannot be in the future." in page
    response = client.post(reverse("imports:commit", args=[batch.public_id]))
    assert response.status_code == 302
    assert ImportRecord.objects.count() == 0
    bad = client.post(reverse("imports:upload"), {"file": SimpleUploadedFile("c.csv", b"")})
    assert bad.status_code == 200


def test_views_refuse_wrong_method_other_agency_and_other_roles(cast, login):
    batch = services.batch_upload(actor=cast.agency_admin, name="c.csv", data=_file(1))
    url = reverse("imports:batch", args=[batch.public_id])
    assert login(cast.agency_admin).put(url).status_code == 405
    assert login(cast.supervisor).get(url).status_code == 403
    assert login(None).get(url).status_code == 302
    other = services.batch_upload(actor=cast.agency_admin, name="c.csv", data=_file(1))
    ImportBatch.objects.filter(pk=other.pk).update(agency=cast.other_agency.membership.agency)
    assert (
        login(cast.agency_admin).get(reverse("imports:batch", args=[other.public_id])).status_code
        == 404
    )


def test_the_commit_checks_each_row_against_the_rows_written_before_it(cast):
    data = sample.rows(2, team="Team 1", advocate="assigned", today=TODAY)
    # Row 3's survivor is row 2's other party: nothing in the agency matches her before the file
    # is written, so the dry run cannot see it; the commit, writing row 2 first, does.
    data[1]["survivor_full_name"] = data[0]["other_full_name"]
    data[1]["survivor_date_of_birth"] = data[0]["other_date_of_birth"]
    batch, _ = _checked(cast, sample.to_csv(data))
    assert (3, "conflict") not in {(f["row"], f["kind"]) for f in batch.flags}
    services.batch_start(actor=cast.agency_admin, batch=batch)
    batch.refresh_from_db()
    assert batch.state == BatchState.DONE
    assert (3, "conflict") in {(f["row"], f["kind"]) for f in batch.flags}
    assert batch.counts["flagged"] >= 1
    assert ImportRecord.objects.get(source_id=data[1]["source_id"]).case.conflict_flag
