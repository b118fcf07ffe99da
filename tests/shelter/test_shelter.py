"""Shelter: nights, bookings held by the database, ending stays, the board, turn-aways and the
funders' figures."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, connections
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import PartyRole
from caseflow.shelter import selectors, services
from caseflow.shelter.models import Access, Bed, BedNight, Room, Site, Stay, TurnAway
from tests import factories as f
from tests.conftest import Cast

UTC = dt.UTC
# 17:00 UTC on 2 Dec 2026: the afternoon of 2 Dec in London and New York alike.
NOW = dt.datetime(2026, 12, 2, 17, 0, tzinfo=UTC)
TODAY = dt.date(2026, 12, 2)


def d(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def make_bed(agency, site_name="Oak House", room="Room 1", label="Bed A", **kw) -> Bed:
    site, _ = Site.objects.get_or_create(
        agency=agency, name=site_name, defaults={"address": "12 Fictional Road"}
    )
    room_row, _ = Room.objects.get_or_create(agency=agency, site=site, name=room)
    return Bed.objects.create(agency=agency, room=room_row, label=label, **kw)


def book(cast: Cast, bed: Bed, starts: str, ends: str | None = None, case=None, **kw) -> Stay:
    return services.stay_book(
        actor=cast.assigned,
        case=case or cast.case,
        bed=bed,
        starts_on=d(starts),
        ends_on=d(ends) if ends else None,
        **kw,
    )


# --- Nights --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("starts", "ends", "nights"),
    [
        ("2026-03-07", "2026-03-10", 3),  # across the US spring change (8 March)
        ("2026-03-28", "2026-03-31", 3),  # across the UK spring change (29 March)
        ("2026-10-31", "2026-11-03", 3),  # across the US autumn change (1 November)
        ("2026-01-30", "2026-03-02", 31),  # across the end of a short February
        ("2028-02-28", "2028-03-01", 2),  # across a leap day
        ("2026-12-30", "2027-01-02", 3),  # across the year's end
    ],
)
def test_nights_are_calendar_nights_across_clock_changes_and_month_ends(starts, ends, nights):
    stay = Stay(starts_on=d(starts), ends_on=d(ends))
    assert stay.nights_until(d("2030-01-01")) == nights
    held = services.nights_between(d(starts), d(ends))
    assert len(held) == nights
    assert held[0] == d(starts) and held[-1] == d(ends) - dt.timedelta(days=1)


def test_an_open_stay_counts_the_nights_to_today():
    stay = Stay(starts_on=d("2026-02-27"), ends_on=None)
    assert stay.nights_until(d("2026-03-02")) == 3
    assert stay.nights_until(d("2026-02-27")) == 0


# --- Booking -------------------------------------------------------------------------------------


@time_machine.travel(NOW, tick=False)
def test_a_booking_holds_each_of_its_nights_and_is_audited(cast: Cast):
    bed = make_bed(cast.agency)
    stay = book(cast, bed, "2026-12-02", "2026-12-05", children=2, notes="Arrives by taxi")
    assert sorted(BedNight.objects.filter(stay=stay).values_list("night", flat=True)) == [
        d("2026-12-02"),
        d("2026-12-03"),
        d("2026-12-04"),
    ]
    assert stay.party.role == PartyRole.SURVIVOR
    assert stay.agency_id == cast.case.agency_id
    assert AuditEvent.objects.filter(action="shelter.stay_book", case_id=cast.case.pk).exists()
    raw = Stay.objects.filter(pk=stay.pk).values_list("notes", flat=True).get()
    assert "taxi" not in raw.token


@time_machine.travel(NOW, tick=False)
def test_a_bed_cannot_be_booked_twice_for_a_night_and_nothing_is_half_written(cast: Cast):
    bed = make_bed(cast.agency)
    book(cast, bed, "2026-12-02", "2026-12-05")
    other_case = f.open_case(cast.team1, assignees=[cast.assigned])
    f.add_party(other_case, PartyRole.SURVIVOR, full_name="Second Survivor")
    with pytest.raises(services.BedTaken):
        book(cast, bed, "2026-12-04", "2026-12-08", case=other_case)
    assert Stay.objects.filter(case=other_case).count() == 0
    assert BedNight.objects.filter(case=other_case).count() == 0
    # The night she leaves is free for the next person.
    later = book(cast, bed, "2026-12-05", "2026-12-07", case=other_case)
    assert later.nights_until(TODAY) == 2


@time_machine.travel(NOW, tick=False)
def test_a_stay_ending_before_it_starts_is_refused(cast: Cast):
    bed = make_bed(cast.agency)
    with pytest.raises(ValidationError):
        book(cast, bed, "2026-12-05", "2026-12-05")
    with pytest.raises(ValidationError):
        book(cast, bed, "2026-12-05", "2026-12-01")
    assert Stay.objects.count() == 0


@time_machine.travel(NOW, tick=False)
def test_a_bed_of_another_agency_or_out_of_use_cannot_be_booked(cast: Cast):
    foreign_bed = make_bed(cast.foreign_case.agency, site_name="Elsewhere")
    with pytest.raises(PermissionDenied):
        book(cast, foreign_bed, "2026-12-02", "2026-12-03")
    resting = make_bed(cast.agency, label="Bed B", in_use=False)
    with pytest.raises(PermissionDenied):
        book(cast, resting, "2026-12-02", "2026-12-03")
    assert Stay.objects.count() == 0


@time_machine.travel(NOW, tick=False)
def test_only_the_case_s_caseworkers_book_on_it(cast: Cast):
    bed = make_bed(cast.agency)
    with pytest.raises(PermissionDenied):
        services.stay_book(
            actor=cast.same_team, case=cast.case, bed=bed, starts_on=TODAY, ends_on=None
        )
    assert Stay.objects.count() == 0


@time_machine.travel(NOW, tick=False)
def test_an_open_stay_holds_its_bed_to_the_horizon_and_blocks_later_bookings(cast: Cast):
    bed = make_bed(cast.agency)
    stay = book(cast, bed, "2026-12-01")
    horizon = TODAY + dt.timedelta(days=services.HOLD_DAYS)
    nights = BedNight.objects.filter(stay=stay)
    assert nights.count() == (horizon - d("2026-12-01")).days
    other_case = f.open_case(cast.team1, assignees=[cast.assigned])
    f.add_party(other_case, PartyRole.SURVIVOR, full_name="Second Survivor")
    last_bookable = horizon - dt.timedelta(days=1)
    with pytest.raises(services.BedTaken):
        book(cast, bed, last_bookable.isoformat(), horizon.isoformat(), case=other_case)
    with pytest.raises(ValidationError):
        book(cast, bed, horizon.isoformat(), case=other_case)
    assert Stay.objects.filter(case=other_case).count() == 0


def test_open_stays_move_their_hold_on_each_day(cast: Cast):
    bed = make_bed(cast.agency)
    with time_machine.travel(NOW, tick=False):
        stay = book(cast, bed, "2026-12-02")
    before = BedNight.objects.filter(stay=stay).count()
    with time_machine.travel(NOW + dt.timedelta(days=3), tick=False):
        assert services.holds_extend() == {"nights_added": 3, "refused": 0}
        assert services.holds_extend() == {"nights_added": 0, "refused": 0}
    assert BedNight.objects.filter(stay=stay).count() == before + 3


@time_machine.travel(NOW, tick=False)
def test_an_open_stay_cannot_start_under_a_booking_already_made(cast: Cast):
    bed = make_bed(cast.agency)
    book(cast, bed, "2027-01-10", "2027-01-12")
    other_case = f.open_case(cast.team1, assignees=[cast.assigned])
    f.add_party(other_case, PartyRole.SURVIVOR, full_name="Second Survivor")
    with pytest.raises(services.BedTaken):
        book(cast, bed, "2026-12-20", case=other_case)
    assert Stay.objects.filter(case=other_case).count() == 0


@time_machine.travel(NOW, tick=False)
def test_ending_a_stay_frees_the_nights_after_it(cast: Cast):
    bed = make_bed(cast.agency)
    stay = book(cast, bed, "2026-11-20")
    services.stay_end(actor=cast.assigned, stay=stay, ends_on=TODAY)
    stay.refresh_from_db()
    assert stay.ends_on == TODAY and stay.ended_at is not None
    assert stay.nights_until(TODAY) == 12
    assert BedNight.objects.filter(stay=stay).count() == 12
    assert not BedNight.objects.filter(bed=bed, night__gte=TODAY).exists()
    assert AuditEvent.objects.filter(action="shelter.stay_end").count() == 1
    with pytest.raises(ValidationError):
        services.stay_end(actor=cast.assigned, stay=stay, ends_on=TODAY)


@time_machine.travel(NOW, tick=False)
def test_a_stay_cannot_end_before_it_starts_or_in_days_to_come(cast: Cast):
    bed = make_bed(cast.agency)
    stay = book(cast, bed, "2026-11-20")
    for when in (d("2026-11-20"), d("2026-11-19"), TODAY + dt.timedelta(days=5)):
        with pytest.raises(ValidationError):
            services.stay_end(actor=cast.assigned, stay=stay, ends_on=when)
    stay.refresh_from_db()
    assert stay.ends_on is None


# --- Sites ---------------------------------------------------------------------------------------


def test_the_site_address_is_encrypted_and_sites_belong_to_the_agency_admin(cast: Cast):
    site = services.site_save(
        actor=cast.agency_admin, site=None, name="Oak House", address="12 Fictional Road"
    )
    raw = Site.objects.filter(pk=site.pk).values_list("address", flat=True).get()
    assert "Fictional" not in raw.token
    assert Site.objects.get(pk=site.pk).address == "12 Fictional Road"
    room = services.room_add(
        actor=cast.agency_admin, site=site, name="Garden room", features=["step_free"]
    )
    bed = services.bed_add(actor=cast.agency_admin, room=room, label="Bed 1", features=["cot"])
    assert bed.all_features() == [Access.STEP_FREE, Access.COT]
    for who in (cast.supervisor, cast.assigned, cast.auditor, cast.other_agency):
        with pytest.raises(PermissionDenied):
            services.site_save(actor=who, site=None, name="Elm House", address="")
    with pytest.raises(ValidationError):
        services.site_save(actor=cast.agency_admin, site=None, name="Oak House", address="")


def test_turn_aways_hold_no_one_and_need_an_adult(cast: Cast):
    row = services.turnaway_record(actor=cast.assigned, on=TODAY, adults=1, children=2)
    assert {f.name for f in TurnAway._meta.get_fields()} == {
        "id", "agency", "public_id", "on", "adults", "children", "recorded_by", "created_at",
    }  # fmt: skip
    assert row.agency_id == cast.agency.pk
    with pytest.raises(ValidationError):
        services.turnaway_record(actor=cast.assigned, on=TODAY, adults=0, children=2)
    with pytest.raises(PermissionDenied):
        services.turnaway_record(actor=cast.auditor, on=TODAY, adults=1, children=0)


# --- The funders' figures ------------------------------------------------------------------------


def test_the_figures_count_a_seeded_population(cast: Cast):
    bed_a = make_bed(cast.agency, label="A")
    bed_b = make_bed(cast.agency, label="B")
    make_bed(cast.agency, label="C")
    make_bed(cast.agency, label="Resting", in_use=False)
    make_bed(cast.foreign_case.agency, site_name="Elsewhere")
    second = f.open_case(cast.team1, assignees=[cast.assigned])
    f.add_party(second, PartyRole.SURVIVOR, full_name="Second Survivor")
    with time_machine.travel(dt.datetime(2026, 9, 1, 12, tzinfo=UTC), tick=False):
        # 25 Sep – 5 Oct: 6 nights in September, 4 in October; two children.
        book(cast, bed_a, "2026-09-25", "2026-10-05", children=2)
        # 1 Oct onward, open; one child. Then again, in another bed, with two.
        open_stay = book(cast, bed_b, "2026-10-01", children=1, case=second)
    with time_machine.travel(dt.datetime(2026, 10, 20, 12, tzinfo=UTC), tick=False):
        services.stay_end(actor=cast.assigned, stay=open_stay, ends_on=d("2026-10-20"))
        book(cast, bed_a, "2026-10-25", "2026-10-28", children=2, case=second)
        for on, adults, children in (
            ("2026-10-03", 1, 2),
            ("2026-10-30", 2, 0),
            ("2026-09-30", 1, 0),
        ):
            services.turnaway_record(
                actor=cast.assigned, on=d(on), adults=adults, children=children
            )
        services.turnaway_record(actor=cast.other_agency, on=d("2026-10-04"), adults=1, children=0)
    october = selectors.shelter_figures(
        cast.agency.pk, d("2026-10-01"), d("2026-10-31"), today=d("2026-11-01")
    )
    assert october.shelter_nights == 4 + 19 + 3
    assert october.beds == 3
    assert october.adults_sheltered == 2
    assert october.children_sheltered == 2 + 2
    assert october.people_sheltered == 6
    assert october.turn_aways == 2
    assert october.people_turned_away == 5
    # Asked on 27 October, the nights still to come are not counted.
    so_far = selectors.shelter_figures(
        cast.agency.pk, d("2026-10-01"), d("2026-10-31"), today=d("2026-10-27")
    )
    assert so_far.shelter_nights == 4 + 19 + 2
    september = selectors.shelter_figures(
        cast.agency.pk, d("2026-09-01"), d("2026-09-30"), today=d("2026-11-01")
    )
    assert (september.shelter_nights, september.adults_sheltered, september.children_sheltered) == (
        6, 1, 2,
    )  # fmt: skip
    assert (september.turn_aways, september.people_turned_away) == (1, 1)


# --- Pages ---------------------------------------------------------------------------------------


@time_machine.travel(NOW, tick=False)
def test_the_board_shows_beds_by_need_and_the_booking_page_books(cast: Cast, login):
    plain = make_bed(cast.agency, label="Plain")
    make_bed(cast.agency, room="Garden", label="Step-free", features=["step_free"])
    client = login(cast.assigned)
    page = client.get(reverse("shelter:board"))
    assert page.status_code == 200
    assert "Plain" in page.content.decode() and "Step-free" in page.content.decode()
    assert "12 Fictional Road" not in page.content.decode()
    filtered = client.get(reverse("shelter:board"), {"need": "step_free"}).content.decode()
    assert "Step-free" in filtered and "Plain" not in filtered
    response = client.post(
        reverse("shelter:book"),
        {
            "case": cast.case.public_id,
            "bed": plain.public_id,
            "starts_on": "2026-12-02",
            "ends_on": "",
            "children": "1",
            "notes": "",
        },
    )
    stay = Stay.objects.get(case=cast.case)
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "shelter:stay", args=[cast.case.public_id, stay.public_id]
    )
    detail = client.get(response["Location"]).content.decode()
    assert "12 Fictional Road" in detail


@time_machine.travel(NOW, tick=False)
def test_booking_errors_are_shown_on_the_form(cast: Cast, login):
    bed = make_bed(cast.agency)
    foreign_bed = make_bed(cast.foreign_case.agency, site_name="Elsewhere")
    book(cast, bed, "2026-12-02", "2026-12-06")
    client = login(cast.assigned)
    second = f.open_case(cast.team1, assignees=[cast.assigned])
    f.add_party(second, PartyRole.SURVIVOR, full_name="Second Survivor")
    base = {"case": second.public_id, "children": "0", "notes": ""}
    taken = {"bed": bed.public_id, "starts_on": "2026-12-04", "ends_on": "2026-12-08"}
    backwards = {"bed": bed.public_id, "starts_on": "2026-12-10", "ends_on": "2026-12-09"}
    foreign = {"bed": foreign_bed.public_id, "starts_on": "2026-12-10", "ends_on": "2026-12-12"}
    cases = [
        (taken, "already booked"),
        (backwards, "at least one night after"),
        (foreign, "not at a site you can book"),
    ]
    for data, words in cases:
        response = client.post(reverse("shelter:book"), {**base, **data})
        assert response.status_code == 200
        assert words in response.content.decode()
    assert Stay.objects.filter(case=second).count() == 0


@time_machine.travel(NOW, tick=False)
def test_ending_a_stay_on_its_page(cast: Cast, login):
    bed = make_bed(cast.agency)
    stay = book(cast, bed, "2026-11-28")
    client = login(cast.assigned)
    url = reverse("shelter:stay_end", args=[cast.case.public_id, stay.public_id])
    bad = client.post(url, {"ends_on": "2026-11-27"})
    assert bad.status_code == 200 and "at least one night after" in bad.content.decode()
    response = client.post(url, {"ends_on": "2026-12-02"})
    assert response.status_code == 302
    stay.refresh_from_db()
    assert stay.nights_until(TODAY) == 4
    assert client.get(url.replace("end/", "")).status_code == 200
    # Someone out of the case's scope, or in it without the right, cannot end it.
    assert login(cast.other_team).get(url).status_code == 404
    assert login(cast.same_team).post(url, {"ends_on": "2026-12-02"}).status_code == 404
    assert login(cast.auditor).get(url).status_code == 404
    assert login(None).get(url).status_code == 302


@time_machine.travel(NOW, tick=False)
def test_the_case_page_and_timeline_show_the_stay(cast: Cast, login):
    bed = make_bed(cast.agency)
    book(cast, bed, "2026-11-28", "2026-12-01", notes="Came with two bags")
    client = login(cast.assigned)
    page = client.get(reverse("cases:detail", args=[cast.case.public_id])).content.decode()
    assert "Oak House" in page and "3 nights" in page
    timeline = client.get(reverse("cases:timeline", args=[cast.case.public_id])).content.decode()
    assert "Shelter stay booked" in timeline


def test_the_shelter_pages_refuse_the_wrong_method_and_the_wrong_role(cast: Cast, login):
    assert login(cast.assigned).post(reverse("shelter:board")).status_code == 405
    assert login(cast.agency_admin).get(reverse("shelter:board")).status_code == 403
    assert login(cast.assigned).get(reverse("shelter:sites")).status_code == 403
    assert login(cast.supervisor).get(reverse("shelter:site_edit")).status_code == 403
    assert login(None).get(reverse("shelter:book")).status_code == 302


def test_the_agency_admin_adds_a_site_a_room_and_a_bed(cast: Cast, login):
    client = login(cast.agency_admin)
    response = client.post(
        reverse("shelter:site_edit"),
        {"name": "Oak House", "address": "12 Fictional Road", "active": "on"},
    )
    assert response.status_code == 302
    site = Site.objects.get(agency=cast.agency)
    response = client.post(
        reverse("shelter:room_new"),
        {"site": site.public_id, "name": "Garden room", "features": ["ground_floor"]},
    )
    assert response.status_code == 302
    room = Room.objects.get(site=site)
    response = client.post(
        reverse("shelter:bed_new"), {"room": room.public_id, "label": "Bed 1", "features": ["cot"]}
    )
    assert response.status_code == 302
    assert Bed.objects.get(room=room).features == ["cot"]
    listing = client.get(reverse("shelter:sites")).content.decode()
    assert "12 Fictional Road" in listing and "Garden room" in listing
    # Another agency's site cannot be chosen.
    foreign = Site.objects.create(agency=cast.foreign_case.agency, name="Elsewhere")
    response = client.post(reverse("shelter:room_new"), {"site": foreign.public_id, "name": "X"})
    assert response.status_code == 200 and "Choose one of your sites" in response.content.decode()
    assert client.get(reverse("shelter:site_edit"), {"site": foreign.public_id}).status_code == 404


# --- Two bookings racing for one bed (PostgreSQL) ------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_bookings_racing_for_one_bed_one_wins(cast: Cast, allow_audit_flush, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises writers; the race is run on PostgreSQL")
    bed = make_bed(cast.agency)
    second = f.open_case(cast.team1, assignees=[cast.assigned])
    f.add_party(second, PartyRole.SURVIVOR, full_name="Second Survivor")
    barrier = threading.Barrier(2)
    real_hold = services._hold

    def hold_together(stay, nights):
        # Both stays are written (not yet committed) before either holds its nights.
        barrier.wait(timeout=10)
        real_hold(stay, nights)

    monkeypatch.setattr(services, "_hold", hold_together)
    results: list[str] = []

    def attempt(case_pk):
        from django.db import transaction

        from caseflow.cases.models import Case

        try:
            with time_machine.travel(NOW, tick=False), transaction.atomic():
                services.stay_book(
                    actor=cast.assigned,
                    case=Case.objects.get(pk=case_pk),
                    bed=Bed.objects.get(pk=bed.pk),
                    starts_on=TODAY,
                    ends_on=TODAY + dt.timedelta(days=3),
                )
            results.append("booked")
        except services.BedTaken:
            results.append("taken")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=attempt, args=(pk,)) for pk in (cast.case.pk, second.pk)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(results) == ["booked", "taken"]
    assert Stay.objects.count() == 1
    winner = Stay.objects.get()
    assert BedNight.objects.count() == 3
    assert set(BedNight.objects.values_list("stay_id", flat=True)) == {winner.pk}
    assert AuditEvent.objects.filter(action="shelter.stay_book").count() == 1


def test_beat_moves_open_stays_on_through_the_named_task(cast: Cast, settings):
    from caseflow.celery import app
    from caseflow.shelter.tasks import holds_extend_task

    name = settings.CELERY_BEAT_SCHEDULE["shelter-holds-extend"]["task"]
    assert name in app.tasks
    bed = make_bed(cast.agency)
    with time_machine.travel(NOW, tick=False):
        book(cast, bed, "2026-12-02")
    with time_machine.travel(NOW + dt.timedelta(days=1), tick=False):
        assert holds_extend_task() == {"nights_added": 1, "refused": 0}
