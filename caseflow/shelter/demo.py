"""Demo data for shelter and refuge: Riverside keeps two fictional sites (a refuge and a
smaller safe house), with rooms and beds and their accessibility features; survivors of open
cases stay there now, others stayed over the past months and have left; a few households were
turned away for lack of space. Everything goes through the shelter services."""

from __future__ import annotations

import datetime as dt

from caseflow import policy
from caseflow.accounts.zones import agency_today
from caseflow.cases.models import CaseStatus, PartyRole
from caseflow.shelter import services
from caseflow.shelter.models import Access

SITES: tuple[tuple[str, str, tuple[tuple[str, list[Access]], ...]], ...] = (
    (
        "Oak House (fictional)",
        "1 Example Lane, Riverside (fictional)",
        (
            ("Garden room", [Access.STEP_FREE, Access.GROUND_FLOOR, Access.WHEELCHAIR_BATHROOM]),
            ("Room 2", [Access.HEARING_LOOP, Access.VISUAL_ALARM]),
            ("Room 3", []),
        ),
    ),
    (
        "Willow Safe House (fictional)",
        "99 Sample Street, Riverside (fictional)",
        (
            ("Family room", [Access.GROUND_FLOOR]),
            ("Attic room", []),
        ),
    ),
)


def seed_demo(context) -> None:
    riverside = context.staff["north"][0].membership.agency
    admin = next(
        u for u in riverside.memberships.select_related("user") if u.role == "agency_admin"
    ).user
    beds = []
    for name, address, rooms in SITES:
        site = services.site_save(actor=admin, site=None, name=name, address=address)
        for room_name, features in rooms:
            room = services.room_add(
                actor=admin, site=site, name=room_name, features=[str(f) for f in features]
            )
            for label in ("Bed 1", "Bed 2"):
                extra = [Access.COT] if room_name == "Family room" and label == "Bed 1" else []
                beds.append(
                    services.bed_add(
                        actor=admin, room=room, label=label, features=[str(f) for f in extra]
                    )
                )
    today = agency_today(riverside)
    cases = [
        c
        for c in context.cases
        if c.agency_id == riverside.pk
        and c.status != CaseStatus.CLOSED
        and not c.restricted
        and c.primary_advocate_id
        and c.parties.filter(role=PartyRole.SURVIVOR).exists()
    ]
    # Past stays, one to a bed, over the last year (so the last finished quarter and federal
    # year, whatever the day, have shelter nights); then the current ones.
    for i, case in enumerate(cases[: len(beds) * 2]):
        bed = beds[i % len(beds)]
        actor = next((u for u in case.assignees.all() if policy.may(u, case, "edit")), None)
        if actor is None:
            continue
        if i < len(beds):
            starts = today - dt.timedelta(days=365 - 30 * i)
            ends = starts + dt.timedelta(days=14 + (i * 5) % 30)
            stay = services.stay_book(
                actor=actor,
                case=case,
                bed=bed,
                starts_on=starts,
                ends_on=ends,
                children=i % 3,
                notes="Moved on to a housing association flat (fictional).",
            )
            services.stay_end(actor=actor, stay=stay, ends_on=ends)
        elif i % 3:  # two beds in three are taken now
            services.stay_book(
                actor=actor,
                case=case,
                bed=bed,
                starts_on=today - dt.timedelta(days=3 + i),
                ends_on=None,
                planned_end_on=today + dt.timedelta(days=30 + i),
                children=(i + 1) % 3,
                notes="Settling in; school place being arranged (fictional).",
            )
    advocate = context.staff["north"][0]
    for days_ago, adults, children in (
        (2, 1, 2),
        (9, 1, 0),
        (23, 1, 3),
        (41, 2, 1),
        (67, 1, 1),
        (98, 1, 2),
        (121, 1, 0),
        (143, 2, 2),
        (166, 1, 1),
        (179, 1, 3),
        (230, 1, 0),
        (290, 2, 1),
        (350, 1, 2),
        (420, 1, 0),
        (490, 1, 1),
        (560, 2, 0),
        (640, 1, 2),
        (720, 1, 0),
    ):
        services.turnaway_record(
            actor=advocate,
            on=today - dt.timedelta(days=days_ago),
            adults=adults,
            children=children,
        )
