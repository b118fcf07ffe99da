"""Shelter and refuge writes: sites, rooms and beds (the agency admin's), stays on a case and
turn-aways. Every change checks policy itself, runs in a transaction and is audited.

A bed's nights are held by ``BedNight`` rows, unique per (bed, night) in the database (see
:class:`caseflow.shelter.models.Stay` for why). A booking writes its stay and its nights in one
transaction; when another booking took one of the nights first, the insert fails and the whole
booking is rolled back, and the caller gets :class:`BedTaken` to show on the form.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.accounts.zones import agency_today
from caseflow.audit.services import record
from caseflow.cases.models import Case, Party, PartyRole
from caseflow.shelter import selectors
from caseflow.shelter.models import Access, Bed, BedNight, Room, Site, Stay, TurnAway

log = logging.getLogger(__name__)

#: How far ahead a bed may be booked, and how far ahead an open stay (no end fixed) holds its
#: bed: the same horizon, so that no booking can reach past an open stay's held nights. A daily
#: beat task (and every booking of the bed) moves open stays' holds on.
HOLD_DAYS = 120


class BedTaken(ValidationError):
    """The bed is already booked for at least one of the nights asked for."""


def nights_between(first: dt.date, until: dt.date) -> list[dt.date]:
    """The nights from ``first`` up to, not including, ``until``."""
    return [first + dt.timedelta(days=i) for i in range((until - first).days)]


# --- Sites, rooms and beds ------------------------------------------------------------------


def _agency_admin(actor: User) -> int:
    if not policy.manages_shelter(actor):
        raise PermissionDenied
    agency_id = policy.agency_id_of(actor)
    if agency_id is None:
        raise PermissionDenied
    return agency_id


def _features(codes: list[str]) -> list[str]:
    unknown = set(codes) - set(Access.values)
    if unknown:
        raise ValidationError(_("Choose accessibility features from the list."))
    return [c for c in Access.values if c in codes]


@transaction.atomic
def site_save(
    *, actor: User, site: Site | None, name: str, address: str, active: bool = True
) -> Site:
    """Add a site (``site`` None) or change one of the actor's agency's sites."""
    agency_id = _agency_admin(actor)
    if site is not None and site.agency_id != agency_id:
        raise PermissionDenied
    name = name.strip()
    if not name:
        raise ValidationError(_("Give the site a name."))
    clash = Site.objects.filter(agency_id=agency_id, name=name)
    if site is not None:
        clash = clash.exclude(pk=site.pk)
    if clash.exists():
        raise ValidationError(_("Another site already has this name."))
    adding = site is None
    if site is None:
        site = Site(agency_id=agency_id)
    changed = [
        field
        for field, value in (("name", name), ("address", address.strip()), ("active", active))
        if adding or getattr(site, field) != value
    ]
    site.name, site.address, site.active = name, address.strip(), active
    site.save()
    record(
        "shelter.site_add" if adding else "shelter.site_change",
        actor=actor,
        obj=site,
        detail={"changed": changed},
    )
    return site


@transaction.atomic
def room_add(*, actor: User, site: Site, name: str, features: list[str]) -> Room:
    agency_id = _agency_admin(actor)
    if site.agency_id != agency_id:
        raise PermissionDenied
    name = name.strip()
    if not name:
        raise ValidationError(_("Give the room a name."))
    if site.rooms.filter(name=name).exists():
        raise ValidationError(_("This site already has a room with this name."))
    room = Room.objects.create(
        agency_id=agency_id, site=site, name=name, features=_features(features)
    )
    record("shelter.room_add", actor=actor, obj=room, detail={"site": site.public_id})
    return room


@transaction.atomic
def bed_add(*, actor: User, room: Room, label: str, features: list[str]) -> Bed:
    agency_id = _agency_admin(actor)
    if room.agency_id != agency_id:
        raise PermissionDenied
    label = label.strip()
    if not label:
        raise ValidationError(_("Give the bed a label."))
    if room.beds.filter(label=label).exists():
        raise ValidationError(_("This room already has a bed with this label."))
    bed = Bed.objects.create(
        agency_id=agency_id, room=room, label=label, features=_features(features)
    )
    record("shelter.bed_add", actor=actor, obj=bed, detail={"room": room.public_id})
    return bed


# --- Stays ------------------------------------------------------------------------------------


def survivor_of(case: Case) -> Party | None:
    found = case.parties.filter(role=PartyRole.SURVIVOR).order_by("pk").first()
    if found is not None:
        found.case = case
    return found


def _hold(stay: Stay, nights: list[dt.date]) -> None:
    """Write the nights ``stay`` holds (raises ``IntegrityError`` when one is taken)."""
    BedNight.objects.bulk_create(
        [
            BedNight(
                agency_id=stay.agency_id,
                case_id=stay.case_id,
                stay=stay,
                bed_id=stay.bed_id,
                night=night,
            )
            for night in nights
        ]
    )


def _held_until(stay: Stay, today: dt.date) -> dt.date:
    """The day after the last night ``stay`` should hold."""
    if stay.ends_on is not None:
        return stay.ends_on
    return max(today + dt.timedelta(days=HOLD_DAYS), stay.starts_on)


def _sync_holds(stay: Stay, today: dt.date) -> int:
    """Make the nights ``stay`` holds exactly those from its start to its end (or horizon).
    Returns how many were added."""
    until = _held_until(stay, today)
    stay.held_nights.filter(night__gte=until).delete()
    have = set(stay.held_nights.values_list("night", flat=True))
    missing = [n for n in nights_between(stay.starts_on, until) if n not in have]
    _hold(stay, missing)
    return len(missing)


def _extend_open_stays_on(bed: Bed, today: dt.date) -> None:
    """Move the holds of the bed's open stays on to today's horizon, before anything else is
    booked on the bed (so a new booking meets them)."""
    for stay in Stay.objects.filter(bed=bed, ends_on__isnull=True, ended_at__isnull=True):
        _sync_holds(stay, today)


def stay_book(
    *,
    actor: User,
    case: Case,
    bed: Bed,
    starts_on: dt.date,
    ends_on: dt.date | None = None,
    planned_end_on: dt.date | None = None,
    children: int = 0,
    notes: str = "",
) -> Stay:
    """Book ``bed`` for the case's survivor from ``starts_on`` to ``ends_on`` (open when None).

    Raises ``ValidationError`` for dates that do not make a stay, :class:`BedTaken` when any of
    the nights is booked already (nothing is written then), ``PermissionDenied`` for a case or a
    bed the actor may not use."""
    policy.require(actor, case, "edit")
    if (
        not selectors.bookable_beds(actor).filter(pk=bed.pk).exists()
        or bed.agency_id != case.agency_id
    ):
        raise PermissionDenied
    today = agency_today(case.agency)
    if ends_on is not None and ends_on <= starts_on:
        raise ValidationError(_("A stay ends at least one night after it starts."))
    if planned_end_on is not None and planned_end_on <= starts_on:
        raise ValidationError(_("The planned end is at least one night after the start."))
    horizon = today + dt.timedelta(days=HOLD_DAYS)
    if starts_on >= horizon or (ends_on is not None and ends_on > horizon):
        raise ValidationError(
            _("Beds can be booked up to %(days)d days ahead.") % {"days": HOLD_DAYS}
        )
    if children < 0:
        raise ValidationError(_("The number of children cannot be negative."))
    survivor = survivor_of(case)
    if survivor is None:
        raise ValidationError(_("Add the survivor to the case before booking a stay."))
    try:
        with transaction.atomic():
            _extend_open_stays_on(bed, today)
            stay = Stay(
                case=case,
                party=survivor,
                bed=bed,
                starts_on=starts_on,
                ends_on=ends_on,
                planned_end_on=planned_end_on,
                children=children,
                notes=notes,
                booked_by=actor,
            )
            stay.save()
            _hold(stay, nights_between(starts_on, _held_until(stay, today)))
            record(
                "shelter.stay_book",
                actor=actor,
                case=case,
                obj=stay,
                detail={"bed": bed.public_id, "open": ends_on is None},
            )
    except IntegrityError:
        raise BedTaken(
            _("This bed is already booked for some of these nights. Choose another bed or dates.")
        ) from None
    return stay


def stay_end(*, actor: User, stay: Stay, ends_on: dt.date) -> Stay:
    """Record that the survivor left on ``ends_on`` (her last night was the day before): the
    nights after it are freed."""
    case = stay.case
    policy.require(actor, case, "edit")
    if stay.ended_at is not None:
        raise ValidationError(_("This stay has already ended."))
    if ends_on <= stay.starts_on:
        raise ValidationError(_("A stay ends at least one night after it starts."))
    today = agency_today(case.agency)
    if ends_on > today + dt.timedelta(days=1):
        raise ValidationError(_("A stay cannot be ended on a day still to come."))
    try:
        with transaction.atomic():
            stay.ends_on = ends_on
            stay.ended_at = timezone.now()
            stay.ended_by = actor
            stay.save(update_fields=["ends_on", "ended_at", "ended_by"])
            _sync_holds(stay, today)
            record(
                "shelter.stay_end",
                actor=actor,
                case=case,
                obj=stay,
                detail={"nights": stay.nights_until(today)},
            )
    except IntegrityError:
        stay.refresh_from_db()
        raise BedTaken(_("The bed is booked for someone else on one of those nights.")) from None
    return stay


def holds_extend() -> dict[str, int]:
    """Move every open stay's held nights on to its agency's horizon (daily from beat; ids
    only, idempotent). A stay whose next night is taken is left as it is and counted."""
    moved = refused = 0
    for stay_id in Stay.objects.filter(ends_on__isnull=True, ended_at__isnull=True).values_list(
        "pk", flat=True
    ):
        stay = Stay.objects.select_related("case__agency").get(pk=stay_id)
        try:
            with transaction.atomic():
                moved += _sync_holds(stay, agency_today(stay.case.agency))
        except IntegrityError:
            refused += 1
            log.warning("shelter: could not hold the next nights of stay %s", stay_id)
    return {"nights_added": moved, "refused": refused}


# --- Turn-aways -------------------------------------------------------------------------------


@transaction.atomic
def turnaway_record(*, actor: User, on: dt.date, adults: int, children: int) -> TurnAway:
    """Count a household turned away for lack of space: a date and a size, nothing personal."""
    if not policy.books_shelter(actor):
        raise PermissionDenied
    agency_id = policy.agency_id_of(actor)
    if agency_id is None:
        raise PermissionDenied
    if adults < 1 or children < 0:
        raise ValidationError(_("A household has at least one adult."))
    row = TurnAway.objects.create(
        agency_id=agency_id, on=on, adults=adults, children=children, recorded_by=actor
    )
    record("shelter.turn_away", actor=actor, obj=row, detail={"people": adults + children})
    return row
