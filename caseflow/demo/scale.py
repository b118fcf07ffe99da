"""Synthetic data at agency scale, for benchmarks (``manage.py seed_scale``).

Unlike the demo seed, nothing here goes through the services one record at a time: rows are
bulk-inserted. The invariants the application relies on still hold:

* every case has its own random data key (``CaseKey``), wrapped by the master keys, and its
  encrypted fields (and its parties') are encrypted with that key by the fields themselves;
* the audit trail is a valid hash chain, continued from the current end of the chain, computed
  with :func:`caseflow.audit.chain.event_hash` and inserted already placed (``COPY`` on
  PostgreSQL); the sequencer then adds their leaves to the Merkle tree.

Tiers follow the design brief (§8). ``scale`` multiplies every total (staff, cases, check-ins,
audit events); the per-advocate caseloads the dashboards are measured at (about 40 open cases,
one advocate with 300) are kept as they are whenever the number of cases allows it.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from django.contrib.auth.hashers import make_password
from django.db import connection, transaction
from django.utils import timezone

from caseflow.accounts.models import Agency, Membership, Role, Team, User
from caseflow.audit import sequencer
from caseflow.audit.chain import FIELDS, event_hash
from caseflow.audit.models import AuditEvent
from caseflow.cases.models import (
    BreakGlassGrant,
    Case,
    CaseAssignment,
    CaseKey,
    CaseStatus,
    Party,
    PartyRole,
    RiskLevel,
    SafeContactProfile,
    name_index_for,
)
from caseflow.cases.services import identity_index_for
from caseflow.lib.encryption import new_data_key, unwrap_data_key
from caseflow.lib.shard import carry_agencies


@dataclass(frozen=True)
class Tier:
    advocates: int
    supervisors: int
    cases: int
    checkins: int
    audit_events: int
    #: Open (referral or active) cases of the one overloaded advocate, and of every other one.
    overloaded_open: int = 300
    typical_open: int = 40
    #: Unassigned referrals waiting in each team's queue.
    unassigned_per_team: int = 20


TIERS: dict[str, Tier] = {
    "base": Tier(
        advocates=50, supervisors=5, cases=20_000, checkins=200_000, audit_events=1_000_000
    ),
    # The brief fixes cases, check-ins and audit events; staff grows with the cases so that a
    # typical caseload stays about 40.
    "stretch": Tier(
        advocates=250, supervisors=25, cases=100_000, checkins=1_000_000, audit_events=5_000_000
    ),
}


@dataclass(frozen=True)
class Plan:
    """The counts one run seeds."""

    tier: str
    scale: float
    advocates: int
    supervisors: int
    cases: int
    checkins: int
    audit_events: int
    overloaded_open: int
    typical_open: int
    unassigned_per_team: int

    @property
    def teams(self) -> int:
        return self.supervisors


def plan_for(tier: str, scale: float = 1.0) -> Plan:
    if tier not in TIERS:
        raise ValueError(f"unknown tier {tier!r}")
    if scale <= 0:
        raise ValueError("scale must be positive")
    t = TIERS[tier]
    advocates = max(2, round(t.advocates * scale))
    supervisors = max(1, round(t.supervisors * scale))
    cases = max(10, round(t.cases * scale))
    unassigned = min(t.unassigned_per_team, max(1, cases // (20 * supervisors)))
    # Open caseloads may take at most half the cases (the rest are closed or dormant).
    budget = cases // 2 - unassigned * supervisors
    overloaded = max(1, min(t.overloaded_open, budget // 2))
    typical = max(1, min(t.typical_open, (budget - overloaded) // (advocates - 1)))
    return Plan(
        tier=tier,
        scale=scale,
        advocates=advocates,
        supervisors=supervisors,
        cases=cases,
        checkins=round(t.checkins * scale),
        audit_events=round(t.audit_events * scale),
        overloaded_open=overloaded,
        typical_open=typical,
        unassigned_per_team=unassigned,
    )


@dataclass
class ScaleContext:
    """What the seeding steps (and :func:`seed_checkins`) get."""

    plan: Plan
    rng: random.Random
    now: dt.datetime
    agency: Agency
    teams: list[Team]
    supervisors: list[User]
    advocates: list[User]  # advocates[0] is the overloaded one
    others: list[User]  # the auditor, the agency admin, the operator
    #: (case id, team id, primary advocate id or None, is open) for every seeded case.
    cases: list[tuple[int, int, int | None, bool]] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)


def seed_checkins(context: ScaleContext, count: int) -> int:
    """Seed ``count`` check-ins spread over the seeded cases that have a primary advocate; return
    how many were written.

    Closed and dormant cases get their past check-ins (done, with an outcome); open cases also
    get scheduled ones over the next two weeks, at 10:30 UTC on weekdays (inside the seeded safe
    window). Each row's empty note is encrypted with its own case's data key.
    """
    from caseflow.checkins.models import CheckIn, CheckInOutcome, CheckInStatus

    owned = [(cid, adv, is_open) for cid, _team, adv, is_open in context.cases if adv]
    if not owned or count <= 0:
        return 0
    per_case, extra = divmod(count, len(owned))
    keys = dict(
        CaseKey.objects.filter(case_id__in=[c for c, _, _ in owned]).values_list(
            "case_id", "wrapped"
        )
    )
    rng = context.rng
    outcomes = [
        CheckInOutcome.REACHED,
        CheckInOutcome.REACHED,
        CheckInOutcome.NO_ANSWER,
        CheckInOutcome.NOT_SAFE,
    ]
    today = context.now.replace(hour=10, minute=30, second=0, microsecond=0)
    written = 0
    batch: list[CheckIn] = []
    for index, (case_id, advocate_id, is_open) in enumerate(owned):
        case = Case(pk=case_id)
        case.__dict__["_data_key"] = unwrap_data_key(keys[case_id])
        n = per_case + (1 if index < extra else 0)
        upcoming = min(2, n) if is_open else 0
        for j in range(n):
            if j < upcoming:
                due = today + dt.timedelta(days=1 + 3 * j)
                status, outcome, outcome_at = CheckInStatus.SCHEDULED, "", None
            else:
                due = today - dt.timedelta(days=7 * (j - upcoming + 1))
                status, outcome = CheckInStatus.DONE, rng.choice(outcomes)
                outcome_at = due
            while due.weekday() >= 5:
                due += dt.timedelta(days=1)
            batch.append(
                CheckIn(
                    case=case,
                    channel="phone",
                    due_at=due,
                    assignee_id=advocate_id,
                    status=status,
                    outcome=outcome,
                    outcome_at=outcome_at,
                    note="",
                    reminder_stage=3 if status == CheckInStatus.DONE else 0,
                    created_by_id=advocate_id,
                    created_at=context.now,
                )
            )
        if len(batch) >= BATCH:
            CheckIn.objects.bulk_create(carry_agencies(batch))
            written += len(batch)
            batch = []
    CheckIn.objects.bulk_create(carry_agencies(batch))
    return written + len(batch)


FIRST = ["Alex", "Sam", "Jordan", "Robin", "Casey", "Morgan", "Jamie", "Taylor", "Riley", "Quinn"]
# Surnames that say plainly the people are made up.
LAST = ["Example", "Sample", "Placeholder", "Fictional", "Specimen", "Madeup", "Notreal"]
BATCH = 2000
SAFE_RULES = {
    "channels": ["phone", "text"],
    "windows": [{"days": [0, 1, 2, 3, 4], "start": "10:00", "end": "12:00"}],
    "voicemail_safe": False,
}


def existing_cases() -> int:
    return Case.objects.count()


def seed(
    plan: Plan, *, rng_seed: int = 10, progress: Callable[[str], None] = print
) -> ScaleContext:
    """Seed one agency at the plan's scale, in one transaction."""
    rng = random.Random(rng_seed)
    with transaction.atomic():
        context = _seed_staff(plan, rng)
        _timed(context, "cases, keys and parties", progress, _seed_cases)
        _timed(context, "audit events", progress, _seed_audit)
        started = time.perf_counter()
        written = seed_checkins(context, plan.checkins)
        context.timings["check-ins"] = time.perf_counter() - started
        progress(f"check-ins: {written} in {context.timings['check-ins']:.1f}s")
    # Fresh planner statistics, as a database in use would have (bulk loads leave none).
    _timed(context, "planner statistics (ANALYZE)", progress, _analyze)
    return context


def _analyze(context: ScaleContext) -> int:
    with connection.cursor() as cur:
        cur.execute("ANALYZE")
    return 0


def _timed(context: ScaleContext, label: str, progress, step) -> None:
    started = time.perf_counter()
    count = step(context)
    context.timings[label] = time.perf_counter() - started
    rows = f"{count} rows " if count else ""
    progress(f"{label}: {rows}in {context.timings[label]:.1f}s")


def _seed_staff(plan: Plan, rng: random.Random) -> ScaleContext:
    n = Agency.objects.filter(slug__startswith="scale").count()
    slug = "scale" if n == 0 else f"scale{n + 1}"
    agency = Agency.objects.create(name=f"Scale agency {n + 1} (synthetic)", slug=slug)
    teams = Team.objects.bulk_create(
        [Team(agency=agency, name=f"Team {i + 1}") for i in range(plan.teams)]
    )
    unusable = make_password(None)  # benchmarks log in with force_login

    def user(username: str, **kw) -> User:
        return User(
            username=f"{slug}-{username}",
            first_name=rng.choice(FIRST),
            last_name=rng.choice(LAST),
            email=f"{slug}-{username}@scale.invalid",
            password=unusable,
            **kw,
        )

    supervisors = [user(f"sup{i:03d}") for i in range(plan.supervisors)]
    advocates = [user(f"adv{i:03d}") for i in range(plan.advocates)]
    others = [
        user("auditor"),
        user("admin"),
        user("operator", is_staff=True, is_superuser=True),
    ]
    User.objects.bulk_create(supervisors + advocates + others)
    roles = [(u, Role.SUPERVISOR) for u in supervisors] + [(u, Role.ADVOCATE) for u in advocates]
    roles += [(others[0], Role.AUDITOR), (others[1], Role.AGENCY_ADMIN)]
    Membership.objects.bulk_create(
        [Membership(user=u, agency=agency, role=role) for u, role in roles]
    )
    members = [Team.members.through(team=teams[i], user=s) for i, s in enumerate(supervisors)]
    members += [
        Team.members.through(team=teams[i % len(teams)], user=a) for i, a in enumerate(advocates)
    ]
    Team.members.through.objects.bulk_create(members)
    return ScaleContext(
        plan=plan,
        rng=rng,
        now=timezone.now(),
        agency=agency,
        teams=teams,
        supervisors=supervisors,
        advocates=advocates,
        others=others,
    )


def _case_specs(context: ScaleContext) -> Iterator[tuple[Team, User | None, str]]:
    """(team, primary advocate, status) for every case, open caseloads first."""
    plan, rng, teams = context.plan, context.rng, context.teams
    team_of = {a.pk: teams[i % len(teams)] for i, a in enumerate(context.advocates)}
    emitted = 0
    for i, advocate in enumerate(context.advocates):
        for _ in range(plan.overloaded_open if i == 0 else plan.typical_open):
            status = CaseStatus.REFERRAL if rng.random() < 0.15 else CaseStatus.ACTIVE
            yield team_of[advocate.pk], advocate, status
            emitted += 1
    for team in teams:
        for _ in range(plan.unassigned_per_team):
            yield team, None, CaseStatus.REFERRAL
            emitted += 1
    for i in range(plan.cases - emitted):
        advocate = context.advocates[i % len(context.advocates)]
        status = CaseStatus.CLOSED if rng.random() < 0.6 else CaseStatus.DORMANT
        yield team_of[advocate.pk], advocate, status


def _person(rng: random.Random) -> tuple[str, str]:
    born = dt.date(rng.randint(1960, 2004), rng.randint(1, 12), rng.randint(1, 28))
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}", born.isoformat()


def _seed_cases(context: ScaleContext) -> int:
    rng, now, agency = context.rng, context.now, context.agency
    risks = [RiskLevel.STANDARD] * 5 + [RiskLevel.MEDIUM] * 3 + [RiskLevel.HIGH] * 2
    risks += [RiskLevel.UNKNOWN]
    prefix = agency.slug.upper()
    written = 0
    specs = list(_case_specs(context))
    for start in range(0, len(specs), BATCH):
        cases, wrapped = [], []
        for offset, (team, advocate, status) in enumerate(specs[start : start + BATCH]):
            sealed_key, key = new_data_key()  # one data key per case, wrapped by a master key
            wrapped.append(sealed_key)
            opened = now - dt.timedelta(days=rng.uniform(1, 3 * 365))
            index = start + offset
            case = Case(
                agency=agency,
                team=team,
                reference=f"{prefix}-{index + 1:06d}",
                status=status,
                risk_level=RiskLevel.UNKNOWN if advocate is None else rng.choice(risks),
                primary_advocate=advocate,
                restricted=advocate is not None and index % 97 == 5,
                conflict_flag=index % 211 == 7,
                summary="Synthetic case for benchmarks; no real person is described.",
                opened_at=opened,
                closed_at=(
                    opened + dt.timedelta(days=rng.randint(10, 300))
                    if status == CaseStatus.CLOSED
                    else None
                ),
            )
            case.__dict__["_data_key"] = key
            cases.append(case)
        Case.objects.bulk_create(cases)
        CaseKey.objects.bulk_create(
            [
                CaseKey(case_id=c.pk, agency_id=c.agency_id, wrapped=w)
                for c, w in zip(cases, wrapped, strict=True)
            ]
        )
        assigned = [c for c in cases if c.primary_advocate_id]
        CaseAssignment.objects.bulk_create(
            [
                CaseAssignment(case=c, user_id=c.primary_advocate_id or 0, agency_id=c.agency_id)
                for c in assigned
            ]
        )
        Case.restricted_users.through.objects.bulk_create(
            [
                Case.restricted_users.through(case_id=c.pk, user_id=c.primary_advocate_id)
                for c in assigned
                if c.restricted
            ]
        )
        parties, profiles = [], []
        for i, case in enumerate(cases):
            name, born = _person(rng)
            parties.append(
                Party(
                    case=case,
                    role=PartyRole.SURVIVOR,
                    full_name=name,
                    date_of_birth=born,
                    phone=f"07700 900{rng.randint(100, 999)}",
                    identity_index=identity_index_for(name, born),
                    name_index=name_index_for(name),
                )
            )
            if i % 10 < 7:
                other, other_born = _person(rng)
                parties.append(
                    Party(
                        case=case,
                        role=PartyRole.OTHER_PARTY,
                        full_name=other,
                        date_of_birth=other_born,
                        identity_index=identity_index_for(other, other_born),
                        name_index=name_index_for(other),
                    )
                )
            if case.is_open:
                profiles.append(
                    SafeContactProfile(
                        case=case,
                        rules=SAFE_RULES,
                        safe_phone=f"07700 900{rng.randint(100, 999)}",
                        code_word="Is the parcel here?",
                    )
                )
        Party.objects.bulk_create(carry_agencies(parties))
        SafeContactProfile.objects.bulk_create(carry_agencies(profiles))
        written += len(cases) + len(cases) + len(assigned) + len(parties) + len(profiles)
        context.cases.extend((c.pk, c.team_id, c.primary_advocate_id, c.is_open) for c in cases)
    written += _seed_break_glass(context)
    return written


def _seed_break_glass(context: ScaleContext) -> int:
    """Two emergency accesses per team, one of them still awaiting review."""
    grants = []
    by_team: dict[int, list[int]] = {}
    for case_id, team_id, advocate_id, is_open in context.cases:
        if is_open and advocate_id:
            by_team.setdefault(team_id, []).append(case_id)
    cases = {c.pk: c for c in Case.objects.filter(pk__in=[ids[0] for ids in by_team.values()])}
    for n, (_, ids) in enumerate(sorted(by_team.items())):
        case = cases[ids[0]]
        user = context.advocates[(n + 1) % len(context.advocates)]
        for k in range(2):
            granted = context.now - dt.timedelta(days=3 + k * 10)
            grants.append(
                BreakGlassGrant(
                    case=case,
                    user=user,
                    reason="Synthetic emergency access for benchmarks.",
                    granted_at=granted,
                    expires_at=granted + dt.timedelta(hours=1),
                    reviewed_by=context.supervisors[0] if k else None,
                    reviewed_at=granted + dt.timedelta(days=1) if k else None,
                )
            )
    BreakGlassGrant.objects.bulk_create(carry_agencies(grants))
    return len(grants)


#: The chained fields (seq first), with the position and the two hashes the chain adds.
AUDIT_COLUMNS = ("seq", "pos", *FIELDS[1:], "prev_hash", "hash")


def _audit_rows(context: ScaleContext, count: int, head: tuple[int, int, str]) -> Iterator[tuple]:
    """``count`` chained audit rows after ``head``, oldest first, spread over the past year.

    Everything read from the database is read here, before the rows are generated: on
    PostgreSQL the rows are consumed inside a COPY, which holds the connection."""
    agency_id = context.agency.pk
    by_advocate: dict[int, list[int]] = {}
    for case_id, _, advocate_id, _ in context.cases:
        if advocate_id:
            by_advocate.setdefault(advocate_id, []).append(case_id)
    actors = [(a.pk, "advocate", by_advocate.get(a.pk, [])) for a in context.advocates]
    all_cases = [c[0] for c in context.cases]
    actors += [(s.pk, "supervisor", all_cases) for s in context.supervisors]
    public_ids = dict(Case.objects.filter(agency_id=agency_id).values_list("pk", "public_id"))
    return _chain(context, count, head, actors, public_ids)


def _chain(context, count, head, actors, public_ids) -> Iterator[tuple]:
    rng, agency_id = context.rng, context.agency.pk
    seq, pos, prev = head
    start = context.now - dt.timedelta(days=365)
    step = dt.timedelta(days=365) / max(count, 1)
    for i in range(count):
        seq, pos = seq + 1, pos + 1
        actor_id, role, pool = actors[rng.randrange(len(actors))]
        roll = rng.random()
        case_id = rng.choice(pool) if pool else None
        if roll < 0.7 and case_id:
            action, detail = "case.view", {}
        elif roll < 0.8 and case_id:
            action, detail = "case.update", {"fields": ["risk_level"]}
        elif roll < 0.9:
            action, case_id = "dashboard.view", None
            detail = {"cases": rng.sample(pool, min(5, len(pool)))}
        elif roll < 0.95:
            action, case_id = "case.list", None
            detail = {"cases": rng.sample(pool, min(5, len(pool)))}
        else:
            action, case_id, detail = "login", None, {}
        row = {
            "seq": seq,
            "at": start + step * i,
            "actor_id": actor_id,
            "actor_role": role,
            "agency_id": agency_id,
            "case_id": case_id,
            "action": action,
            "object_type": "case" if case_id else "",
            "object_id": public_ids[case_id] if case_id else "",
            "request_id": secrets.token_hex(8),
            "ip": f"10.0.{rng.randrange(256)}.{rng.randrange(1, 255)}",
            "detail": detail,
        }
        digest = event_hash(prev, row)
        row["pos"] = pos
        yield tuple(row[c] for c in AUDIT_COLUMNS[:-2]) + (prev, digest)
        prev = digest


def _seed_audit(context: ScaleContext) -> int:
    count = context.plan.audit_events
    # The seeded events are written already chained, after everything sequenced so far; the
    # sequencer then adds their leaves to the tree.
    sequencer.sequence_pending()
    last_seq = AuditEvent.objects.order_by("-seq").values_list("seq", flat=True).first() or 0
    pos, prev = sequencer.chain_end()
    rows = _audit_rows(context, count, (last_seq, pos, prev))
    table = AuditEvent._meta.db_table
    columns = ", ".join(connection.ops.quote_name(c) for c in AUDIT_COLUMNS)
    if connection.vendor == "postgresql":
        connection.ensure_connection()
        copy_sql = f"COPY {table} ({columns}) FROM STDIN"
        with connection.connection.cursor() as raw, raw.copy(copy_sql) as copy:
            for row in rows:
                copy.write_row(row[:12] + (json.dumps(row[12]),) + row[13:])
        with connection.cursor() as cur:
            # Numbers were given here, not by the column's identity: move it past them.
            cur.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'seq'), MAX(seq)) FROM {table}"  # noqa: S608
            )
        sequencer.sequence_pending(batch=20_000)
        return count
    placeholders = ", ".join(["%s"] * len(AUDIT_COLUMNS))
    sql = f"INSERT INTO {table} ({columns}) VALUES ({placeholders})"  # noqa: S608
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cur:
        batch = []
        for row in rows:
            batch.append(row[:2] + (adapt(row[2]),) + row[3:12] + (json.dumps(row[12]),) + row[13:])
            if len(batch) == 10_000:
                cur.executemany(sql, batch)
                batch = []
        if batch:
            cur.executemany(sql, batch)
    sequencer.sequence_pending(batch=20_000)
    return count
