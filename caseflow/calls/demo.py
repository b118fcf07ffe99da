"""Demo data for the duty line: about three months of calls at both demo agencies, more in the
evenings and at weekends, a good share of them anonymous; a few named callers became new cases
and a few calls were put on the survivors' existing cases. Every name is made up. Everything goes
through the calls services, so the audit trail reads as it would in use."""

from __future__ import annotations

import datetime as dt

from caseflow.calls import services
from caseflow.calls.models import Call, CallerKind, CallNeed, CallResponse, SafetyConcern
from caseflow.cases.models import CaseStatus

#: Calls go back this many days (two years: the latest finished federal year may have begun
#: 24 months ago): every day for the last RECENT, fewer before, fewer still before OLDER.
DAYS = 760
RECENT = 88
OLDER = 190
#: The seed's clock is read once at its start; the service reads the real one. A call this close
#: to the oldest a call may be logged is dated back after logging, so a slow seed never crosses it.
SEEDING = dt.timedelta(days=1)

NOTES = (
    "Wanted to know what the service offers before deciding anything (fictional).",
    "Talked through options for tonight; a friend can take the children (fictional).",
    "Worried about messages arriving at all hours; went through phone safety (fictional).",
    "Calling from work, where it is safe to talk; asked about refuge space (fictional).",
    "A health visitor asking how to refer a family she is worried about (fictional).",
    "Sister calling for advice on how to support her (fictional).",
)

NEW_CASE_CALLERS = (
    ("Maren Holloway", "07700 900311"),
    ("Idris Calloway", "07700 900352"),
    ("Tove Lindqvist-Park", "07700 900377"),
)


def _kind(n: int) -> str:
    # About four in ten calls are anonymous; most named callers are survivors themselves.
    return (
        CallerKind.ANONYMOUS,
        CallerKind.SURVIVOR,
        CallerKind.ANONYMOUS,
        CallerKind.SURVIVOR,
        CallerKind.FRIEND_FAMILY,
        CallerKind.ANONYMOUS,
        CallerKind.SURVIVOR,
        CallerKind.PROFESSIONAL,
        CallerKind.ANONYMOUS,
        CallerKind.SURVIVOR,
    )[n % 10]


def _pick(rng, choices, most: int) -> list[str]:
    return rng.sample(list(choices.values), rng.randint(0 if most > 1 else 1, most))


def seed_demo(context) -> None:
    rng = context.rng
    now = context.now
    takers = {
        "north": context.staff["north"][:4],
        "south": context.staff["south"][:3],
        "hillview": context.staff["hillview"][:3],
    }
    named = []
    n = 0
    for team, people in takers.items():
        per_day = 0.9 if team != "hillview" else 0.6
        for back in range(DAYS, 0, -1):
            day = now - dt.timedelta(days=back)
            weekend = day.weekday() >= 5
            # Fewer a day further back: enough that the last finished quarter, which may have
            # begun six months ago, has calls in the funders' reports.
            rate = per_day if back <= RECENT else per_day * (0.3 if back <= OLDER else 0.06)
            count = int(rate * (1.6 if weekend else 1) + rng.random())
            for _ in range(count):
                hour = rng.choice((9, 11, 13, 16, 18, 19, 20, 21, 22))
                taken_at = day.replace(hour=hour, minute=rng.randrange(0, 60, 5))
                if taken_at >= now:
                    continue
                kind = _kind(n)
                n += 1
                fields = {
                    "actor": rng.choice(people),
                    "caller_kind": kind,
                    "taken_at": taken_at,
                    "duration_minutes": rng.choice((4, 8, 12, 15, 20, 25, 35, 50)),
                    "needs": _pick(rng, CallNeed, 3),
                    "safety_concerns": _pick(rng, SafetyConcern, 2),
                    "responses": _pick(rng, CallResponse, 2),
                }
                if kind != CallerKind.ANONYMOUS:
                    fields["notes"] = rng.choice(NOTES)
                    fields["follow_up_wanted"] = rng.random() < 0.3
                    if fields["follow_up_wanted"]:
                        fields["follow_up_detail"] = "Weekdays after 6pm; no voicemail."
                if taken_at < now - services.OLDEST + SEEDING:
                    # Older than a call may be logged (or near enough that it will be by the
                    # time the seed reaches it): logged as of today, then dated back (as an
                    # agency's earlier call log would be brought in).
                    fields["taken_at"] = now - dt.timedelta(hours=1)
                    call = services.call_log(**fields)
                    Call.objects.filter(pk=call.pk).update(taken_at=taken_at, created_at=taken_at)
                    call.refresh_from_db()
                else:
                    call = services.call_log(**fields)
                if kind == CallerKind.SURVIVOR:
                    named.append(call)
    _take_some_on(context, named)


def _take_some_on(context, named) -> None:
    """Three named survivors rang the north team in the last days and became new cases; two
    earlier survivor calls went on the callers' existing cases."""
    advocates = context.staff["north"][1:4]
    for back, (advocate, (name, phone)) in enumerate(
        zip(advocates, NEW_CASE_CALLERS, strict=False), start=1
    ):
        call = services.call_log(
            actor=advocate,
            caller_kind=CallerKind.SURVIVOR,
            taken_at=context.now - dt.timedelta(days=back * 3, hours=2),
            duration_minutes=30,
            needs=[CallNeed.REFUGE, CallNeed.CHILDREN],
            safety_concerns=[SafetyConcern.THREATS],
            responses=[CallResponse.SAFETY_PLANNING, CallResponse.REFUGE_REFERRAL],
            caller_name=name,
            caller_phone=phone,
            notes="Left home this week; staying with family for now (fictional).",
            follow_up_wanted=True,
            follow_up_detail="Mornings only, on this number (fictional).",
        )
        services.call_open_case(
            actor=advocate,
            call=call,
            team=advocate.teams.first(),
            survivor={"full_name": name, "phone": phone},
            other_party=None,
        )
    attached = 0
    for call in named:
        case = next(
            (
                c
                for c in context.cases
                if c.primary_advocate_id == call.logged_by_id
                and c.status in (CaseStatus.ACTIVE, CaseStatus.REFERRAL)
                and not c.restricted
            ),
            None,
        )
        if case is None:
            continue
        services.call_attach(actor=call.logged_by, call=call, case=case)
        attached += 1
        if attached == 2:
            break
