"""Reads for the shelter pages and the funders' figures. Scoped by the caller's agency (from
policy); nothing here widens who sees what."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Q, Sum
from django.http import Http404

from caseflow import policy
from caseflow.cases.models import Case
from caseflow.shelter.models import Bed, BedNight, Room, Site, Stay, TurnAway

#: The board shows tonight and the next 14 nights.
BOARD_NIGHTS = 15


def sites_of(user) -> list[Site]:
    """The sites of ``user``'s agency, with rooms and beds (one query each)."""
    agency_id = policy.agency_id_of(user)
    if agency_id is None:
        return []
    return list(
        Site.objects.filter(agency_id=agency_id).prefetch_related("rooms__beds").order_by("name")
    )


def site_get(user, public_id: str) -> Site:
    found = Site.objects.filter(Q(agency_id=policy.agency_id_of(user)), public_id=public_id).first()
    if found is None:
        raise Http404
    return found


def bookable_beds(user):
    """The beds ``user`` may book: in use, at an open site of their agency, for caseworkers."""
    if not policy.books_shelter(user):
        return Bed.objects.none()
    return Bed.objects.filter(
        Q(agency_id=policy.agency_id_of(user)), in_use=True, room__site__active=True
    )


def room_get(user, public_id: str) -> Room:
    found = Room.objects.filter(Q(agency_id=policy.agency_id_of(user)), public_id=public_id).first()
    if found is None:
        raise Http404
    return found


def room_choices(user) -> list[tuple[str, str]]:
    return [
        (room.public_id, f"{room.site.name} · {room.name}")
        for room in Room.objects.filter(Q(agency_id=policy.agency_id_of(user)))
        .select_related("site")
        .order_by("site__name", "name")
    ]


@dataclass
class BedRow:
    bed: Bed
    features: list[str]
    taken: list[bool]

    @property
    def free_tonight(self) -> bool:
        return not self.taken[0]


@dataclass
class RoomRow:
    room: Room
    beds: list[BedRow] = field(default_factory=list)


@dataclass
class SiteRow:
    site: Site
    rooms: list[RoomRow] = field(default_factory=list)


def board(beds, today: dt.date, needs: list[str]) -> tuple[list[dt.date], list[SiteRow]]:
    """Sites → rooms → beds (those meeting every need), each bed with whether it is taken on
    each of the board's nights. A constant number of queries."""
    nights = [today + dt.timedelta(days=i) for i in range(BOARD_NIGHTS)]
    beds = list(
        beds.select_related("room__site").order_by("room__site__name", "room__name", "label")
    )
    taken = set(
        BedNight.objects.filter(
            bed__in=[b.pk for b in beds], night__gte=nights[0], night__lte=nights[-1]
        ).values_list("bed_id", "night")
    )
    sites: dict[int, SiteRow] = {}
    rooms: dict[int, RoomRow] = {}
    for bed in beds:
        features = bed.all_features()
        if not set(needs) <= set(features):
            continue
        site_row = sites.setdefault(bed.room.site_id, SiteRow(bed.room.site))
        if bed.room_id not in rooms:
            rooms[bed.room_id] = RoomRow(bed.room)
            site_row.rooms.append(rooms[bed.room_id])
        rooms[bed.room_id].beds.append(
            BedRow(bed, features, [(bed.pk, n) in taken for n in nights])
        )
    return nights, list(sites.values())


def case_stays(case: Case) -> list[Stay]:
    rows = list(
        Stay.objects.filter(case=case)
        .select_related("bed__room__site")
        .order_by("-starts_on", "-pk")
    )
    for row in rows:
        row.case = case
    return rows


def stay_get(case: Case, public_id: str) -> Stay:
    found = (
        Stay.objects.filter(case=case, public_id=public_id)
        .select_related("bed__room__site")
        .first()
    )
    if found is None:
        raise Http404
    found.case = case
    return found


# --- Figures for funders ------------------------------------------------------------------------


@dataclass(frozen=True)
class ShelterFigures:
    shelter_nights: int
    beds: int
    adults_sheltered: int
    children_sheltered: int
    turn_aways: int
    people_turned_away: int

    @property
    def people_sheltered(self) -> int:
        return self.adults_sheltered + self.children_sheltered


def shelter_figures(agency_id: int, start: dt.date, end: dt.date, today: dt.date) -> ShelterFigures:
    """An agency's shelter figures for ``start``–``end`` (both included), as of ``today``.

    * shelter nights: nights a bed was slept in (a night still to come is not counted);
    * beds: the beds in use at its open sites (the bed count);
    * people sheltered: each survivor with a night in the period, once, and the children who
      stayed with her (the most she had with her on any of her stays in the period);
    * turn-aways: households turned away for lack of space, and how many people they were.

    Counts only: no row of anyone's data leaves here.
    """
    last = min(end, today - dt.timedelta(days=1))
    nights = BedNight.objects.filter(agency_id=agency_id, night__gte=start, night__lte=last)
    per_person = (
        Stay.objects.filter(pk__in=nights.values("stay_id"))
        .values("party_id")
        .annotate(children=Max("children"))
    )
    turned = TurnAway.objects.filter(agency_id=agency_id, on__gte=start, on__lte=end).aggregate(
        households=Count("pk"), adults=Sum("adults"), children=Sum("children")
    )
    beds = Bed.objects.filter(agency_id=agency_id, in_use=True, room__site__active=True).count()
    people = list(per_person)
    return ShelterFigures(
        shelter_nights=nights.count(),
        beds=beds,
        adults_sheltered=len(people),
        children_sheltered=sum(p["children"] for p in people),
        turn_aways=turned["households"],
        people_turned_away=(turned["adults"] or 0) + (turned["children"] or 0),
    )


def open_stays_on(case: Case) -> bool:
    return Stay.objects.filter(Q(case=case) & Q(ended_at__isnull=True)).exists()


def last_nights(case_ids: Any, last: dt.date) -> dict[int, dt.date]:
    """Each case's last night in a shelter bed up to ``last`` (included), of the cases
    ``case_ids`` (ids or a subquery of them); a case with no such night is not in it. Dates
    only: no one's data leaves here."""
    rows = (
        BedNight.objects.filter(case_id__in=case_ids, night__lte=last)
        .values("case_id")
        .annotate(last=Max("night"))
        .values_list("case_id", "last")
    )
    return dict(rows)
