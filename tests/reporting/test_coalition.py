"""A coalition's roll-up: each member agency's funder report as that agency gives it out
(suppressed on its own), added up cell by cell; a cell an agency hides adds nothing and the sum
says so. Seeded populations, every printed cell checked; no agency's small count can be found
from the totals; only the coalition's person runs it, in the background, and downloads it."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
import time_machine
from django.urls import reverse

from caseflow.accounts.models import Coalition
from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case, PartyRole
from caseflow.outbox.models import Intent
from caseflow.reporting import coalition as rolled
from caseflow.reporting import reports
from caseflow.reporting.models import PreparedReport, PreparedState
from caseflow.reporting.tasks import prepare_report
from tests import factories as f

pytestmark = pytest.mark.django_db

TODAY = dt.datetime(2026, 11, 20, 10, 0, tzinfo=dt.UTC)
#: The latest federal quarter that has ended by TODAY: July to September 2026.
QUARTER = reports.federal_quarter(dt.date(2026, 7, 1))


@pytest.fixture(autouse=True)
def pinned():
    with time_machine.travel(TODAY, tick=False) as traveller:
        yield traveller


def _serve(team, new: int, continuing: int, tag: str) -> None:
    """``new`` survivors referred in the quarter and ``continuing`` ones from before it."""
    for n in range(new + continuing):
        opened = (
            dt.datetime(2026, 8, 3, 10, tzinfo=dt.UTC)
            if n < new
            else dt.datetime(2025, 6, 2, 10, tzinfo=dt.UTC)
        )
        case = f.open_case(team, reference=f"{tag}-{n}", opened_at=opened)
        f.add_party(case, PartyRole.SURVIVOR, full_name=f"Person {tag} {n}")


def _section(report, title: str) -> dict[str, list[str]]:
    for section in report.sections:
        if section.title == title:
            return {label: [c.text for c in cells] for label, cells in report.table(section)}
    raise AssertionError(f"no section {title!r}")


NEW = "New, returning and continuing"


def test_each_agencys_published_counts_are_added_and_hidden_ones_left_out(cast):
    # Agency A: 6 new, 9 continuing (nothing small). Agency B: 2 new (hidden: under 5), 8
    # continuing, 10 in all. Agency C is on the host but not in the coalition.
    _serve(cast.team1, new=6, continuing=9, tag="A")
    _serve(cast.other_agency_team, new=2, continuing=8, tag="B")
    third = f.AgencyFactory(name="Agency C")
    _serve(f.TeamFactory(agency=third), new=20, continuing=20, tag="C")
    members = [cast.agency.pk, cast.other_agency_team.agency_id]
    a = reports.release("voca", members[0], QUARTER)
    b = reports.release("voca", members[1], QUARTER)
    assert _section(a, NEW) == {
        "New in this period": ["6"],
        "Came back or referred again in this period": ["0"],
        "Continuing from before": ["9"],
        "People served": ["15"],
    }
    b_new = _section(b, NEW)
    assert b_new["New in this period"] == ["*"] and b_new["People served"] == ["10"]

    up = rolled.rollup("voca", members, QUARTER)
    assert up.agencies == 2
    printed = _section(up, NEW)
    assert printed["New in this period"] == ["6+"]
    assert printed["People served"] == ["25"]
    assert printed["Came back or referred again in this period"] == ["0"]
    # B's continuing count is hidden too (else its new count would be 10 - 8 - 0).
    assert b_new["Continuing from before"] == ["*"]
    assert printed["Continuing from before"] == ["9+"]
    # Every other cell of every section: the sum of the two agencies' published figures, "+"
    # where one of them hid its count, "*" where both did.
    checked = 0
    for section in up.sections:
        for label, cells in up.table(section):
            for column, cell in zip(section.columns, cells, strict=True):
                published = [_published(r, section.title, label, column) for r in (a, b)]
                values = [v for v in published if isinstance(v, int)]
                hidden = published.count("*")
                want = "*" if hidden and not values else f"{sum(values)}{'+' if hidden else ''}"
                assert cell.text == want, (section.title, label, column)
                checked += 1
    assert checked == up.cells and checked > 30
    assert up.suppressed == a.suppressed + b.suppressed


def test_averages_and_medians_are_not_added_up(cast):
    """Each agency's HUD report has Q22b (its average and median days of participation); a
    coalition's roll-up adds counts only, so it has no Q22b."""
    _serve(cast.team1, new=6, continuing=9, tag="A")
    members = [cast.agency.pk, cast.other_agency_team.agency_id]
    year = reports.federal_year(2026)
    assert "Q22b" in [s.code for s in reports.release("hud", members[0], year).sections]
    up = rolled.rollup("hud", members, year)
    codes = [s.code for s in up.sections]
    assert "Q22a1" in codes and "Q22b" not in codes


def _published(report, title: str, label: str, column: str) -> int | str | None:
    """What ``report`` prints in a cell: its number, "*", or None where it has no such cell."""
    for section in report.sections:
        if section.title != title or column not in section.columns:
            continue
        for row_label, cells in report.table(section):
            if row_label == label:
                shown = cells[section.columns.index(column)]
                return "*" if shown.value is None else shown.value
    return None


def test_no_agencys_small_count_can_be_found_from_the_roll_up(cast):
    """Agency B's count of new people, 1 to 4 with the same total, gives the same roll-up to the
    character, though the counts before suppression differ."""
    _serve(cast.team1, new=6, continuing=9, tag="A")
    members = [cast.agency.pk, cast.other_agency_team.agency_id]
    printed, truths = set(), set()
    for small in range(1, 5):
        _serve(cast.other_agency_team, new=small, continuing=10 - small, tag=f"B{small}")
        up = rolled.rollup("voca", members, QUARTER)
        printed.add(tuple(tuple(row) for row in up.csv_rows()))
        truth = reports.build("voca", members[1], QUARTER)
        truths.add(truth.grid.values[truth.grid.keys["new:new"]])
        Case.objects.filter(reference__startswith=f"B{small}-").delete()
    assert truths == {1, 2, 3, 4}
    assert len(printed) == 1


def _login_coalition(cast, login):
    return login(cast.coalition)


def test_the_coalitions_person_prepares_a_roll_up_and_downloads_it_alone(
    cast, login, django_capture_on_commit_callbacks
):
    _serve(cast.team1, new=6, continuing=9, tag="A")
    _serve(cast.other_agency_team, new=7, continuing=8, tag="B")
    client = _login_coalition(cast, login)
    home = client.get(reverse("dashboard")).content.decode()
    assert reverse("reporting:coalition") in home
    listing = client.get(reverse("reporting:coalition")).content.decode()
    assert "Agency A" in listing and "Agency B" in listing
    page = client.get(reverse("reporting:coalition_report", args=["voca"]))
    assert page.status_code == 200
    # A period the report is not given out for is a message on the form, nothing started.
    bad = client.post(
        reverse("reporting:coalition_report", args=["voca"]), {"period": "2026-08-01"}
    )
    assert bad.status_code == 200 and "Choose one of the periods" in bad.content.decode()
    assert not PreparedReport.objects.exists()
    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(
            reverse("reporting:coalition_report", args=["voca"]),
            {"period": QUARTER.start.isoformat()},
        )
    prepared = PreparedReport.objects.get()
    assert response["Location"] == reverse("reporting:prepared", args=[prepared.public_id])
    assert len(callbacks) == 1
    assert prepared.coalition == Coalition.objects.get() and prepared.agency is None
    # Two agencies, each report's steps.
    assert prepared.total == 2 * 12
    intent = Intent.objects.get()
    assert intent.kwargs == {"report_id": prepared.pk}
    prepare_report(**intent.kwargs, intent_id=intent.pk)
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.READY
    # Each member agency's trail says its report was rolled up, with counts only.
    events = AuditEvent.objects.filter(action="report.coalition").order_by("agency_id")
    assert [e.agency_id for e in events] == sorted(
        [cast.agency.pk, cast.other_agency_team.agency_id]
    )
    assert all(e.actor_role == "coalition" and e.detail["agencies"] == 2 for e in events)
    ready = client.get(reverse("reporting:prepared", args=[prepared.public_id])).content.decode()
    assert "Download this CSV" in ready
    download = client.get(reverse("reporting:prepared_download", args=[prepared.public_id]))
    assert download.status_code == 200
    rows = list(csv.reader(io.StringIO(download.content.decode())))
    assert ["Member agencies added up", "2"] in rows
    assert ["People served", "30"] in rows and ["New in this period", "13"] in rows
    # Nobody else fetches it: not the agencies' own reporters, nor another coalition's person.
    other = f.coalition_person([cast.agency], name="Another coalition", username="elsewhere")
    for user in (cast.supervisor, cast.agency_admin, other):
        theirs = login(user).get(reverse("reporting:prepared_download", args=[prepared.public_id]))
        assert theirs.status_code == 404


def test_a_seat_switched_off_ends_the_session_and_the_roll_ups(cast, login):
    client = _login_coalition(cast, login)
    assert client.get(reverse("reporting:coalition")).status_code == 200
    seat = cast.coalition.coalition_seat
    seat.is_active = False
    seat.save()
    response = client.get(reverse("reporting:coalition"))
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]


def test_a_seat_beside_a_membership_gives_no_roll_up(cast, login):
    from caseflow.accounts.models import CoalitionSeat

    coalition = Coalition.objects.get()
    CoalitionSeat.objects.create(user=cast.supervisor, coalition=coalition)
    assert login(cast.supervisor).get(reverse("reporting:coalition")).status_code == 403


def test_a_roll_up_whose_asker_lost_the_seat_is_failed_with_nothing_kept(
    cast, django_capture_on_commit_callbacks
):
    from caseflow.reporting import services

    _serve(cast.team1, new=6, continuing=9, tag="A")
    with django_capture_on_commit_callbacks():
        prepared = services.prepared_start(actor=cast.coalition, slug="voca", period=QUARTER)
    seat = cast.coalition.coalition_seat
    seat.is_active = False
    seat.save()
    cast.coalition.refresh_from_db()
    intent = Intent.objects.get()
    prepare_report(**intent.kwargs, intent_id=intent.pk)
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.FAILED and prepared.result is None
    assert not AuditEvent.objects.filter(action="report.coalition").exists()
