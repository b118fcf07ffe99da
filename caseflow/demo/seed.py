"""Synthetic demo data: two agencies, their staff, and about sixty clearly fictional cases.

Every record is written through caseflow's own services, so the audit trail is populated the way
real use would populate it.
"""

from __future__ import annotations

import datetime as dt
import importlib
import importlib.util
import json
import random
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from caseflow.accounts.models import (
    Agency,
    Coalition,
    CoalitionSeat,
    Membership,
    Role,
    Team,
    User,
)
from caseflow.audit.heads import publish_head
from caseflow.cases import journey
from caseflow.cases import services as case_services
from caseflow.cases.demo import close_for_demo
from caseflow.cases.models import CaseStatus, Channel, Episode, PartyRole, RiskLevel
from caseflow.checkins import services as checkin_services
from caseflow.reporting import services as report_services
from caseflow.reporting.reports import periods

FIRST = [
    "Alex",
    "Sam",
    "Jordan",
    "Robin",
    "Casey",
    "Morgan",
    "Jamie",
    "Taylor",
    "Charlie",
    "Riley",
    "Avery",
    "Quinn",
    "Rowan",
    "Sky",
    "Harper",
    "Emery",
    "Frankie",
    "Jesse",
]
# Surnames that say plainly the people are made up.
LAST = [
    "Example",
    "Sample",
    "Placeholder",
    "Fictional",
    "Specimen",
    "Madeup",
    "Testcase",
    "Pretend",
    "Imaginary",
    "Notreal",
]


#: Modules with a ``seed_demo(context)`` function that add their feature's demo data.
SEED_HOOKS = [
    "caseflow.safety.demo",
    "caseflow.agreements.demo",
    "caseflow.casework.demo",
    "caseflow.checkins.demo",
    "caseflow.oversight.demo",
    "caseflow.confidentiality.demo",
    "caseflow.accounts.demo",
    "caseflow.agency.demo",
    "caseflow.cases.demo",
    "caseflow.partners.demo",
    "caseflow.calls.demo",
    "caseflow.shelter.demo",
    "caseflow.community.demo",
    "caseflow.court.demo",
    "caseflow.cycle.demo",
    "caseflow.wellbeing.demo",
    "caseflow.assistance.demo",
    "caseflow.servicelog.demo",
    "caseflow.reporting.demo",
    "caseflow.api.demo",
    "caseflow.imports.demo",
    "caseflow.transfers.demo",
]


@dataclass
class DemoContext:
    """What the feature seeders get: the demo cases and staff (index 0 of each team is its
    supervisor) and a seeded random generator."""

    rng: random.Random
    cases: list
    staff: dict[str, list[User]]
    now: dt.datetime
    logins: list = field(default_factory=list)


@dataclass
class DemoLogin:
    username: str
    password: str
    role: str
    agency: str
    team: str
    # Only for the one demo account that signs in with an authenticator app.
    totp_secret: str = ""
    recovery_codes: list = field(default_factory=list)


def _password() -> str:
    return "demo-" + secrets.token_urlsafe(9)


def _user(logins, agency, username, first, last, role, teams=()) -> User:
    password = _password()
    user = User.objects.create_user(
        username=username,
        password=password,
        first_name=first,
        last_name=last,
        email=f"{username}@demo.invalid",
    )
    Membership.objects.create(user=user, agency=agency, role=role)
    for team in teams:
        team.members.add(user)
    logins.append(
        DemoLogin(username, password, role, agency.name, ", ".join(t.name for t in teams))
    )
    return user


def _person(rng: random.Random) -> dict:
    born = dt.date(rng.randint(1965, 2003), rng.randint(1, 12), rng.randint(1, 28))
    return {
        "full_name": f"{rng.choice(FIRST)} {rng.choice(LAST)}",
        "date_of_birth": born,
        "phone": f"07700 900{rng.randint(100, 999)}",
        "email": "",
    }


@transaction.atomic
def seed(rng_seed: int = 7) -> list[DemoLogin]:
    rng = random.Random(rng_seed)
    logins: list[DemoLogin] = []
    # Riverside works in the UK, Hillview in the US: each agency's staff read their own time.
    riverside = Agency.objects.create(
        name="Riverside Advocacy Service (demo)", slug="riverside", time_zone="Europe/London"
    )
    north = Team.objects.create(agency=riverside, name="North team")
    south = Team.objects.create(agency=riverside, name="South team")
    staff = {
        "north": [
            _user(
                logins, riverside, "nadia.supervisor", "Nadia", "Example", Role.SUPERVISOR, [north]
            ),
            _user(logins, riverside, "aisha.advocate", "Aisha", "Sample", Role.ADVOCATE, [north]),
            _user(logins, riverside, "ben.advocate", "Ben", "Placeholder", Role.ADVOCATE, [north]),
            _user(logins, riverside, "cleo.advocate", "Cleo", "Fictional", Role.ADVOCATE, [north]),
        ],
        "south": [
            _user(logins, riverside, "sam.supervisor", "Sam", "Specimen", Role.SUPERVISOR, [south]),
            _user(logins, riverside, "dev.advocate", "Dev", "Madeup", Role.ADVOCATE, [south]),
            _user(logins, riverside, "erin.advocate", "Erin", "Pretend", Role.ADVOCATE, [south]),
        ],
    }
    _user(logins, riverside, "oli.auditor", "Oli", "Imaginary", Role.AUDITOR)
    _user(logins, riverside, "ada.admin", "Ada", "Notreal", Role.AGENCY_ADMIN)

    hillview = Agency.objects.create(
        name="Hillview Outreach (demo)", slug="hillview", time_zone="America/Chicago"
    )
    hill_team = Team.objects.create(agency=hillview, name="Outreach team")
    hill = [
        _user(logins, hillview, "hana.supervisor", "Hana", "Example", Role.SUPERVISOR, [hill_team]),
        _user(logins, hillview, "ivan.advocate", "Ivan", "Sample", Role.ADVOCATE, [hill_team]),
        _user(logins, hillview, "jo.advocate", "Jo", "Testcase", Role.ADVOCATE, [hill_team]),
    ]
    _user(logins, hillview, "kit.admin", "Kit", "Notreal", Role.AGENCY_ADMIN)

    now = timezone.now()
    plan = [(north, staff["north"], 24), (south, staff["south"], 20), (hill_team, hill, 16)]
    cases = []
    for team, people, count in plan:
        supervisor, advocates = people[0], people[1:]
        for i in range(count):
            advocate = advocates[i % len(advocates)]
            survivor = _person(rng)
            other = _person(rng)
            case = journey.case_open(
                actor=advocate,
                team=team,
                survivor=survivor,
                other_party=other,
                risk_level=rng.choice(RiskLevel.values),
                summary="Fictional demo referral. No real person is described here.",
            )
            case.opened_at = now - dt.timedelta(days=rng.randint(1, 400))
            case.save(update_fields=["opened_at"])
            # Its first episode of support began with it.
            Episode.objects.filter(case=case, number=1).update(opened_at=case.opened_at)
            if i % 5 != 4:
                checkin_services.safe_contact_save(
                    actor=advocate,
                    case=case,
                    expected_version=None,
                    timezone_name=team.agency.time_zone,
                    rules={
                        "channels": [Channel.PHONE, Channel.TEXT] if i % 2 else [Channel.TEXT],
                        "windows": [
                            {"days": [0, 1, 2, 3, 4], "start": "10:00", "end": "12:00"},
                            {"days": [5], "start": "14:00", "end": "16:00"},
                        ],
                        "voicemail_safe": bool(i % 3 == 0),
                    },
                    details={
                        "safe_phone": survivor["phone"],
                        "safe_email": "",
                        "third_party": "",
                        "code_word": "Is the parcel here?",
                    },
                )
            status_roll = i % 8
            if status_roll in (1, 2, 3, 4):
                journey.case_set_status(actor=advocate, case=case, status=CaseStatus.ACTIVE)
            elif status_roll == 5:
                journey.case_set_status(actor=advocate, case=case, status=CaseStatus.ACTIVE)
                journey.case_set_status(actor=advocate, case=case, status=CaseStatus.DORMANT)
            elif status_roll == 6:
                # Closed through the closure: a reason, the exit check and outcomes.
                close_for_demo(advocate=advocate, supervisor=supervisor, case=case, rng=rng)
            if i == 3:
                case_services.case_restrict(
                    actor=supervisor, case=case, restricted=True, users=[advocate]
                )
            cases.append((team, case, survivor))

    # Two unassigned referrals per Riverside team for the supervisors' queue.
    for team, people in ((north, staff["north"]), (south, staff["south"])):
        for _ in range(2):
            case = journey.case_open(
                actor=people[0],
                team=team,
                survivor=_person(rng),
                other_party=None,
                risk_level=RiskLevel.UNKNOWN,
                summary="Fictional referral awaiting allocation.",
            )
            case.assignments.all().delete()
            case.primary_advocate = None
            case.save(update_fields=["primary_advocate"])

    # A possible conflict: a new client names an existing client as the other party.
    _, first_case, first_survivor = cases[0]
    # She has been known by another surname: a search in her advocate's cases finds her by it.
    case_services.party_save(
        actor=staff["north"][1],
        case=first_case,
        party=first_case.parties.get(role=PartyRole.SURVIVOR),
        data={"aliases": f"{first_survivor['full_name'].split()[0]} Formername"},
    )
    journey.case_open(
        actor=staff["north"][2],
        team=north,
        survivor=_person(rng),
        other_party={
            "full_name": first_survivor["full_name"],
            "date_of_birth": first_survivor["date_of_birth"],
        },
        risk_level=RiskLevel.MEDIUM,
        summary="Fictional referral that trips the conflict check.",
    )

    # A colleague opens a South case through emergency access.
    south_case = next(c for t, c, _ in cases if t == south and not c.restricted)
    case_services.break_glass_open(
        actor=staff["north"][1],
        reference=south_case.reference,
        reason="Client phoned the duty line; her advocate is on leave today.",
    )
    context = DemoContext(
        rng=rng,
        cases=[case for _, case, _ in cases],
        staff={"north": staff["north"], "south": staff["south"], "hillview": hill},
        now=now,
        logins=logins,
    )
    for path in SEED_HOOKS:
        if importlib.util.find_spec(path) is not None:
            importlib.import_module(path).seed_demo(context)
    _coalition(logins, [riverside, hillview], now)
    # The seeded events are chained and a signed tree head shipped (beat carries on from here).
    publish_head()
    return logins


def _coalition(logins: list[DemoLogin], agencies: list[Agency], now: dt.datetime) -> None:
    """A coalition of both demo agencies, with a person who runs its roll-ups (in no agency of
    her own) and has asked for the latest VOCA quarter, which the demo's worker prepares."""
    coalition = Coalition.objects.create(name="Two Rivers Coalition (demo)")
    coalition.members.add(*agencies)
    password = _password()
    person = User.objects.create_user(
        username="una.coalition",
        password=password,
        first_name="Una",
        last_name="Invented",
        email="una.coalition@demo.invalid",
    )
    CoalitionSeat.objects.create(user=person, coalition=coalition, demo_account=True)
    logins.append(DemoLogin("una.coalition", password, "coalition", coalition.name, ""))
    first = report_services.coalition_first_day(coalition)
    latest = periods("federal_quarter", timezone.localdate(now), first)
    if latest:
        report_services.prepared_start(actor=person, slug="voca", period=latest[0])


def write_logins(logins: list[DemoLogin], path: Path | None = None) -> Path:
    path = path or (settings.VAR_DIR / "demo-users.json")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([login.__dict__ for login in logins], indent=2))
    path.chmod(0o600)
    return path
