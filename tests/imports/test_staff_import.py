from io import BytesIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from caseflow.accounts.models import Membership, Role, Team, User
from caseflow.audit.models import AuditEvent
from caseflow.imports import reader, staff
from caseflow.imports.models import BatchKind, BatchState, ImportBatch
from caseflow.outbox.models import Intent

HEAD = "name,email,role,teams,active\n"
GOOD = (
    HEAD + "Robin Example,robin@example.org,advocate,Team 1,yes\n"
    "Sam Sample,sam@example.org,Supervisor,Team 1;Night team,\n"
    "Kai Fictional,kai@example.org,agency_admin,,no\n"
)


def _upload(cast, text, name="staff.csv", encoding="utf-8"):
    data = text if isinstance(text, bytes) else text.encode(encoding)
    batch = staff.staff_upload(actor=cast.agency_admin, name=name, data=data)
    batch.refresh_from_db()
    return batch


def _commit(cast, batch):
    return staff.staff_commit(actor=cast.agency_admin, batch_id=batch.pk)


def _links_sent():
    return Intent.objects.filter(task="caseflow.accounts.tasks.send_account_link").count()


def test_template_is_read_back_as_one_good_row(cast):
    text = staff.template_csv()
    assert text.startswith(b"\xef\xbb\xbf")
    header = text.decode("utf-8-sig").splitlines()[0].split(",")
    assert header == list(staff.COLUMN_KEYS)
    Team.objects.create(agency=cast.agency, name="North team")
    batch = _upload(cast, text)
    assert batch.counts["errors"] == 0 and batch.counts["new"] == 1


def test_good_file_dry_run_writes_nothing_then_commit_adds_everyone(cast):
    users, teams, links = User.objects.count(), Team.objects.count(), _links_sent()
    batch = _upload(cast, GOOD)
    assert batch.kind == BatchKind.STAFF and batch.state == BatchState.CHECKED
    assert batch.counts == {
        "rows": 3,
        "valid": 3,
        "errors": 0,
        "new": 3,
        "update": 0,
        "unchanged": 0,
        "teams_new": 1,
    }
    assert staff.new_teams(batch, cast.agency_admin) == ["Night team"]
    assert (User.objects.count(), Team.objects.count()) == (users, teams)

    counts = _commit(cast, batch)
    assert counts["created"] == 3
    robin = User.objects.get(email="robin@example.org")
    assert robin.username == "robin"
    assert (robin.first_name, robin.last_name) == ("Robin", "Example")
    assert not robin.has_usable_password()
    assert robin.membership.agency_id == cast.agency.pk
    assert robin.membership.role == Role.ADVOCATE
    assert [t.name for t in robin.teams.all()] == ["Team 1"]
    sam = User.objects.get(email="sam@example.org")
    assert sam.membership.role == Role.SUPERVISOR
    assert sorted(t.name for t in sam.teams.all()) == ["Night team", "Team 1"]
    kai = User.objects.get(email="kai@example.org")
    assert kai.membership.role == Role.AGENCY_ADMIN and not kai.membership.is_active
    assert Team.objects.get(name="Night team").agency_id == cast.agency.pk
    # The normal "add staff" path: an enrolment link each, never a password.
    assert _links_sent() == links + 3
    batch.refresh_from_db()
    assert batch.state == BatchState.DONE and not batch.wrapped_key
    event = AuditEvent.objects.get(action="import.staff_commit")
    assert event.detail["created"] == 3
    assert "example" not in str(event.detail)
    assert AuditEvent.objects.filter(action="staff.create").count() == 3


def test_errors_by_row_and_column_in_words_and_nothing_written(cast):
    users = User.objects.count()
    text = (
        HEAD + "Robin Example,robin@example.org,advocate,Team 1,yes\n"
        "Sam Sample,not-an-address,advocate,Team 1,yes\n"
        "Kai Fictional,kai@example.org,wizard,Team 1,yes\n"
        ",jo@example.org,advocate,Team 1,perhaps\n"
        "Robin Again,ROBIN@example.org,advocate,Team 1,yes\n"
    )
    batch = _upload(cast, text)
    found = {(p["row"], p["column"]) for p in batch.problems}
    assert found == {(3, "email"), (4, "role"), (5, "name"), (5, "active"), (6, "email")}
    messages = " ".join(p["message"] for p in batch.problems)
    assert "Row 2 has the same e-mail" in messages
    assert "not a role caseflow knows" in messages
    assert "Write yes or no." in messages
    # The report keeps no value from the file.
    assert "example" not in str(batch.problems).lower()
    assert "wizard" not in str(batch.problems)
    assert batch.counts["errors"] == 4 and batch.counts["valid"] == 1
    with pytest.raises(staff.StaffBatchHasErrors):
        _commit(cast, batch)
    assert User.objects.count() == users


def test_a_missing_column_is_named(cast):
    batch = _upload(cast, "name,role\nRobin Example,advocate\n")
    assert [(p["row"], p["column"]) for p in batch.problems] == [(1, "email")]


@pytest.mark.parametrize(
    "encoding,name", [("utf-8-sig", "Zoë Müller"), ("cp1252", "Zoë Müller"), ("utf-8", "Zoë")]
)
def test_bom_and_windows_1252(cast, encoding, name):
    batch = _upload(cast, HEAD + f"{name},zoe@example.org,advocate,Team 1,yes\n", encoding=encoding)
    assert batch.counts["errors"] == 0, batch.problems
    _commit(cast, batch)
    zoe = User.objects.get(email="zoe@example.org")
    assert zoe.get_full_name() == name


def test_formula_cells_refused_in_csv_and_xlsx(cast):
    batch = _upload(cast, HEAD + 'Robin Example,robin@example.org,=HYPERLINK("x"),Team 1,yes\n')
    assert [(p["row"], p["column"]) for p in batch.problems][0] == (2, "role")
    assert "formula" in batch.problems[0]["message"]

    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["name", "email", "role", "teams", "active"])
    sheet.append(["Robin Example", "robin@example.org", "advocate", "Team 1", "yes"])
    sheet.append(["Sam Sample", "sam@example.org", "advocate", "=A2", "yes"])
    out = BytesIO()
    book.save(out)
    batch = _upload(cast, out.getvalue(), name="staff.xlsx")
    assert [(p["row"], p["column"]) for p in batch.problems] == [(3, "teams")]


def test_rerun_updates_by_email_never_duplicates(cast):
    _commit(cast, _upload(cast, GOOD))
    users, links = User.objects.count(), _links_sent()
    again = _upload(cast, GOOD)
    assert again.counts["unchanged"] == 3 and again.counts["new"] == 0
    assert again.counts["teams_new"] == 0
    _commit(cast, again)
    assert User.objects.count() == users
    assert _links_sent() == links
    changed = GOOD.replace("advocate,Team 1,yes", "supervisor,Night team,yes")
    third = _upload(cast, changed)
    assert third.counts["update"] == 1 and third.counts["unchanged"] == 2
    _commit(cast, third)
    robin = User.objects.get(email="robin@example.org")
    assert robin.membership.role == Role.SUPERVISOR
    assert [t.name for t in robin.teams.all()] == ["Night team"]
    assert User.objects.count() == users


def test_an_existing_colleague_is_updated_not_added(cast):
    text = HEAD + f"Same Team,{cast.same_team.email},supervisor,Team 1,yes\n"
    batch = _upload(cast, text)
    assert batch.counts["update"] == 1, batch.problems
    _commit(cast, batch)
    assert Membership.objects.get(user=cast.same_team).role == Role.SUPERVISOR


def test_email_of_another_agency_refused_without_naming_it(cast):
    other = cast.other_agency
    other_agency_name = other.membership.agency.name
    batch = _upload(cast, HEAD + f"Robin Example,{other.email.upper()},advocate,Team 1,yes\n")
    assert [(p["row"], p["column"]) for p in batch.problems] == [(2, "email")]
    assert other_agency_name not in batch.problems[0]["message"]
    assert "cannot be used" in batch.problems[0]["message"]


def test_the_admin_cannot_demote_themselves_by_file(cast):
    admin = cast.agency_admin
    batch = _upload(cast, HEAD + f"Agency Admin,{admin.email},advocate,,yes\n")
    assert [(p["row"], p["column"]) for p in batch.problems] == [(2, "role")]


@pytest.mark.parametrize("words", ["Agency admin", "AGENCY-ADMIN", "Administrador de la agencia"])
def test_role_words_and_codes(cast, words):
    from django.utils import translation

    from caseflow.accounts.models import Role as R

    with translation.override("es"):
        spanish = str(R.AGENCY_ADMIN.label).lower()
    text = words if words != "Administrador de la agencia" else spanish
    batch = _upload(cast, HEAD + f"Robin Example,robin@example.org,{text},,yes\n")
    assert batch.counts["errors"] == 0, batch.problems


def test_role_words_include_the_agency_title_and_every_language(cast):
    codes = staff.role_codes(cast.agency.pk)
    assert codes["advocate"] == Role.ADVOCATE
    assert codes["supervisor"] == Role.SUPERVISOR
    assert codes["agency admin"] == Role.AGENCY_ADMIN


def test_files_that_cannot_be_read_are_refused(cast):
    with pytest.raises(reader.FileRefused):
        staff.staff_upload(actor=cast.agency_admin, name="a.csv", data=b"")
    with pytest.raises(reader.FileRefused):
        staff.staff_upload(actor=cast.agency_admin, name="a.pdf", data=b"x")
    assert ImportBatch.objects.count() == 0


def test_only_the_agency_admin(cast):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        staff.staff_upload(actor=cast.supervisor, name="a.csv", data=GOOD.encode())


def test_pages_upload_error_fix_commit(cast, login):
    client = login(cast.agency_admin)
    assert "Import staff" in client.get(reverse("agency:staff_list")).content.decode()
    assert client.get(reverse("imports:staff_upload")).status_code == 200
    template = client.get(reverse("imports:staff_template"))
    assert template["Content-Disposition"].endswith('caseflow-staff-template.csv"')
    bad = GOOD.replace("robin@example.org", "robin-at-example")
    response = client.post(
        reverse("imports:staff_upload"), {"file": SimpleUploadedFile("s.csv", bad.encode())}
    )
    batch = ImportBatch.objects.get(kind=BatchKind.STAFF)
    assert response.status_code == 302
    page = client.get(reverse("imports:staff_batch", args=[batch.public_id])).content.decode()
    assert "Rows to correct" in page and "Enter a valid email address." in page
    assert "Import these staff" not in page
    refused = client.post(reverse("imports:staff_commit", args=[batch.public_id]))
    assert refused.status_code == 302 and not User.objects.filter(email="sam@example.org").exists()

    client.post(
        reverse("imports:staff_upload"), {"file": SimpleUploadedFile("s.csv", GOOD.encode())}
    )
    batch = ImportBatch.objects.filter(kind=BatchKind.STAFF).order_by("-pk").first()
    page = client.get(reverse("imports:staff_batch", args=[batch.public_id])).content.decode()
    assert "Night team" in page and "Import these staff" in page
    response = client.post(reverse("imports:staff_commit", args=[batch.public_id]))
    assert response.status_code == 302 and response["Location"] == reverse("agency:staff_list")
    assert "robin" in client.get(reverse("agency:staff_list")).content.decode()
    empty = client.post(reverse("imports:staff_upload"), {"file": SimpleUploadedFile("s.csv", b"")})
    assert empty.status_code == 200


def test_caseload_and_staff_pages_keep_to_their_own_kind(cast, login):
    batch = _upload(cast, GOOD)
    client = login(cast.agency_admin)
    assert client.get(reverse("imports:batch", args=[batch.public_id])).status_code == 404
    ImportBatch.objects.filter(pk=batch.pk).update(agency=cast.other_agency.membership.agency)
    assert client.get(reverse("imports:staff_batch", args=[batch.public_id])).status_code == 404


def test_blank_cells_leave_someone_already_here_as_they_are(cast):
    person = cast.deactivated
    batch = _upload(cast, f"name,email,role\nDe Activated,{person.email},advocate\n")
    assert batch.counts["errors"] == 0, batch.problems
    _commit(cast, batch)
    person.refresh_from_db()
    assert not person.is_active and not person.membership.is_active
    assert [t.name for t in person.teams.all()] == ["Team 1"]


def test_someone_with_open_cases_is_not_switched_off_by_file(cast):
    person = cast.assigned
    batch = _upload(cast, HEAD + f"Assigned Person,{person.email},advocate,Team 1,no\n")
    assert [(p["row"], p["column"]) for p in batch.problems] == [(2, "active")]
    assert "primary advocate" in batch.problems[0]["message"]


def test_the_sample_file_shows_new_people_a_new_team_someone_already_here_and_one_error(
    cast, login
):
    cast.assigned.email = "assigned@agency-a.example.org"
    cast.assigned.save(update_fields=["email"])
    client = login(cast.agency_admin)
    page = client.get(reverse("imports:staff_upload")).content.decode()
    assert reverse("imports:staff_sample") in page
    response = client.get(reverse("imports:staff_sample"))
    assert response["Content-Disposition"].endswith('caseflow-staff-sample.csv"')
    users = User.objects.count()

    batch = _upload(cast, response.content)
    counts = batch.counts
    assert (counts["rows"], counts["errors"], counts["new"], counts["teams_new"]) == (5, 1, 3, 1)
    assert counts["update"] + counts["unchanged"] == 1
    assert staff.new_teams(batch, cast.agency_admin) == ["Night line"]
    problems = staff._check(batch, cast.agency_admin).problems
    assert {(p.row, p.column) for p in problems} == {(6, "role")}
    assert User.objects.count() == users  # the check writes nothing
    assert b"assigned@agency-a.example.org" in response.content


def test_the_staff_sample_is_the_agency_admins_only(cast, login):
    assert login(cast.supervisor).get(reverse("imports:staff_sample")).status_code == 403
