"""Demo data for the survivor's journey: a survivor whose case holds two earlier episodes (a
return and a re-referral) with their closures and outcomes, risk levels with their sources (an
assessment, a change by hand with its reason), a high-risk closure waiting for a supervisor's
approval, a colleague's request to reopen another team's case, and an agency's own closure
reason. The closures of the demo's closed cases record their reasons and outcomes too
(:func:`close_for_demo`, called by the seed).

Languages: Riverside is a UK agency (en-GB: "consent to share", 999), Hillview a
US one (en-US: "release of information", 911), and Hillview's Jo reads caseflow in Spanish.
Some survivors speak other languages: one needs a Polish interpreter, one a Spanish one, one
reads large print and uses British Sign Language."""

from __future__ import annotations

import datetime as dt
import random

from django.db.models import Count
from django.utils import timezone

from caseflow import policy
from caseflow.accounts import zones
from caseflow.accounts.language import set_agency_language, set_user_language
from caseflow.accounts.models import AdvocateTitle, Agency, User, set_advocate_title
from caseflow.cases import cover, journey, reassign
from caseflow.cases.models import (
    OPEN_STATUSES,
    AbuseChange,
    Case,
    CaseStatus,
    Closure,
    ClosureReason,
    ClosureState,
    Episode,
    EpisodeStart,
    EpisodeStatus,
    FeelsSafer,
    Party,
    PartyRole,
    PlanExitCheck,
    RiskLevel,
    RiskLevelChange,
    RiskSource,
    StandardClosureReason,
)

AGENCY_REASON = "Moved into a refuge run by another service"
SPANISH_ADVOCATE = "jo.advocate"


def _reason(case: Case, code: str) -> ClosureReason:
    return journey.closure_reasons(case.agency_id).get(standard=code)


def close_for_demo(*, advocate: User, supervisor: User, case: Case, rng: random.Random) -> Closure:
    """Close ``case`` through the closure, with a reason and outcomes (a supervisor approves it
    when the risk is high)."""
    code = rng.choice(
        [
            StandardClosureReason.GOALS_MET,
            StandardClosureReason.GOALS_MET,
            StandardClosureReason.SURVIVOR_CHOICE,
            StandardClosureReason.MOVED_AWAY,
            StandardClosureReason.REFERRED_ON,
        ]
    )
    closure = journey.closure_submit(
        actor=advocate,
        case=case,
        data={
            "reason": _reason(case, code),
            "plan_check": rng.choice(
                [PlanExitCheck.REVIEWED, PlanExitCheck.REVIEWED, PlanExitCheck.DECLINED]
            ),
            "if_things_change": "Fictional: call the duty line; the door is always open.",
            "abuse_change": rng.choice(
                [
                    AbuseChange.STOPPED,
                    AbuseChange.REDUCED,
                    AbuseChange.REDUCED,
                    AbuseChange.UNCHANGED,
                ]
            ),
            "feels_safer": rng.choice([FeelsSafer.YES, FeelsSafer.YES, FeelsSafer.A_LITTLE]),
            "quality_of_life_start": rng.choice([1, 2, 2, 3]),
            "quality_of_life_exit": rng.choice([3, 4, 4, 5]),
            # Most of the survivor's open needs were met by the end of support.
            "needs_met": [
                key for key, _words in journey.closure_need_choices(case) if rng.random() < 0.7
            ],
        },
    )
    if closure.state == ClosureState.AWAITING_APPROVAL:
        closure = journey.closure_decide(
            actor=supervisor,
            closure=closure,
            approve=True,
            comment="Safety plan reviewed together; the refuge team holds it from now on.",
        )
    return closure


def seed_demo(context) -> None:
    _languages(context)
    _handover(context)
    _cover()
    now = context.now
    north = context.staff["north"]
    north_cases = [c for c in context.cases if c.team_id == north[1].teams.first().pk]
    # An agency's own closure reason, beside the standard ones.
    agency_id = north_cases[0].agency_id
    journey.ensure_standard_reasons(agency_id)
    ClosureReason.objects.get_or_create(agency_id=agency_id, label=AGENCY_REASON)

    # The journey: the open north case with the most incidents recorded.
    candidates = (
        Case.objects.filter(
            pk__in=[c.pk for c in north_cases if c.is_open and not c.restricted],
            primary_advocate__isnull=False,
        )
        .annotate(n=Count("incidents"))
        .order_by("-n", "pk")
    )
    chosen = candidates.first()
    if chosen is not None:
        _earlier_episodes(chosen, now)

    # A high-risk closure waiting for a supervisor's approval.
    waiting = next(
        (
            c
            for c in north_cases
            if c.is_open
            and not c.restricted
            and c.primary_advocate is not None
            and (chosen is None or c.pk != chosen.pk)
            and c.risk_level == RiskLevel.HIGH
        ),
        None,
    )
    if waiting is not None and waiting.primary_advocate is not None:
        advocate = waiting.primary_advocate
        journey.closure_submit(
            actor=advocate,
            case=waiting,
            data={
                "reason": _reason(waiting, StandardClosureReason.MOVED_AWAY),
                "plan_check": PlanExitCheck.REVIEWED,
                "if_things_change": "Fictional: the new area's service has her plan.",
                "abuse_change": AbuseChange.UNCHANGED,
                "feels_safer": FeelsSafer.A_LITTLE,
                "quality_of_life_start": 2,
                "quality_of_life_exit": 3,
            },
        )

    # A colleague of another team asks to take up a closed north case for a new referral.
    closed = next((c for c in north_cases if c.status == CaseStatus.CLOSED), None)
    south = context.staff["south"]
    if closed is not None and len(south) > 1:
        journey.reopen_request_create(
            actor=south[1],
            case_ids=[closed.pk],
            note="Fictional: a new referral from the police for this client.",
        )


def _cover() -> None:
    """Cleo is on leave this week and next: Ben covers her cases (see Cover)."""
    nadia, ben, cleo = (
        User.objects.get(username=name)
        for name in ("nadia.supervisor", "ben.advocate", "cleo.advocate")
    )
    today = timezone.localdate(timezone.now(), zones.agency_zone(nadia.membership.agency))
    cover.cover_set(
        actor=nadia,
        absent=cleo,
        covering=ben,
        first_day=today,
        last_day=today + dt.timedelta(days=13),
    )


def _handover(context) -> None:
    """Hillview's supervisor shared out part of a caseload: two of Jo's open cases went to Ivan,
    with their check-ins, and a first check-in proposed in the survivor's safe window where none
    was booked (see Reassign cases)."""
    hana, ivan, jo = (
        User.objects.get(username=name)
        for name in ("hana.supervisor", "ivan.advocate", "jo.advocate")
    )
    # Cases with no check-in booked (Jo keeps her day's work; Ivan is proposed a first one).
    cases = list(
        Case.objects.filter(primary_advocate=jo, status__in=OPEN_STATUSES, restricted=False)
        .exclude(checkins__status="scheduled")
        .order_by("pk")[:2]
    )
    if cases:
        reassign.cases_reassign(actor=hana, cases=cases, primary=ivan)
    # The seeders after this one read the cases' advocates from the context: theirs now.
    handed = {c.pk for c in cases}
    for case in context.cases:
        if case.pk in handed:
            case.refresh_from_db()
            policy.forget_permissions(case)


def _earlier_episodes(case: Case, now: dt.datetime) -> None:
    """Give ``case`` the history of a survivor who came back twice: a first episode she chose to
    end, a return that met its goals, and the current episode, referred again."""
    advocate = case.primary_advocate
    if advocate is None:
        return
    start = now - dt.timedelta(days=720)
    Case.objects.filter(pk=case.pk).update(opened_at=start)
    case.opened_at = start
    current = journey.current_episode(case)
    if current is None or current.number != 1:
        return
    reasons = journey.closure_reasons(case.agency_id)
    existing = list(RiskLevelChange.objects.filter(case=case).values_list("pk", flat=True))
    current_start = now - dt.timedelta(days=160)
    spans = [
        (start, start + dt.timedelta(days=130), EpisodeStart.REFERRAL, "survivor_choice"),
        (
            start + dt.timedelta(days=260),
            start + dt.timedelta(days=420),
            EpisodeStart.RETURN,
            "goals_met",
        ),
    ]
    outcomes = [
        (AbuseChange.UNCHANGED, FeelsSafer.A_LITTLE, RiskLevel.HIGH, RiskLevel.HIGH, 1, 2),
        (AbuseChange.REDUCED, FeelsSafer.YES, RiskLevel.MEDIUM, RiskLevel.STANDARD, 2, 4),
    ]
    # The current episode becomes the third: the survivor was referred again.
    Episode.objects.filter(pk=current.pk).update(
        number=3, start=EpisodeStart.REREFERRAL, opened_at=current_start
    )
    for number, ((opened, closed, how, code), outcome) in enumerate(
        zip(spans, outcomes, strict=True), start=1
    ):
        abuse, safer, risk_in, risk_out, qol_in, qol_out = outcome
        episode = Episode.objects.create(
            case=case,
            number=number,
            status=EpisodeStatus.CLOSED,
            start=how,
            opened_at=opened,
            opened_by=advocate,
            closed_at=closed,
            closed_by=advocate,
        )
        Closure.objects.create(
            case=case,
            episode=episode,
            state=ClosureState.CLOSED,
            reason=reasons.get(standard=code),
            plan_check=PlanExitCheck.REVIEWED,
            if_things_change="Fictional: call the duty line; the door is always open.",
            abuse_change=abuse,
            feels_safer=safer,
            risk_at_intake=risk_in,
            risk_at_exit=risk_out,
            quality_of_life_start=qol_in,
            quality_of_life_exit=qol_out,
            requested_by=advocate,
            requested_at=closed,
            closed_at=closed,
        )
        RiskLevelChange.objects.bulk_create(
            [
                RiskLevelChange(
                    case=case,
                    agency_id=case.agency_id,
                    level=risk_in,
                    source=RiskSource.OVERRIDE,
                    by=advocate,
                    at=opened + dt.timedelta(days=2),
                    reason="Fictional: professional judgement at the first meeting.",
                ),
                RiskLevelChange(
                    case=case,
                    agency_id=case.agency_id,
                    level=risk_out,
                    previous=risk_in,
                    source=RiskSource.OVERRIDE,
                    by=advocate,
                    at=closed - dt.timedelta(days=7),
                    reason="Fictional: reviewed with the survivor before closing.",
                ),
            ]
        )
    # The risk changes of the current episode come after the earlier ones.
    RiskLevelChange.objects.filter(pk__in=existing, at__lt=current_start).update(
        at=current_start + dt.timedelta(days=2)
    )


def _survivor(case) -> Party:
    party = Party.objects.get(case=case, role=PartyRole.SURVIVOR)
    party.case = case
    return party


def _languages(context) -> None:
    set_agency_language(Agency.objects.get(slug="riverside").pk, "en-gb")
    # Riverside, a UK service, calls its advocates IDVAs.
    set_advocate_title(Agency.objects.get(slug="riverside").pk, AdvocateTitle.IDVA)
    set_agency_language(Agency.objects.get(slug="hillview").pk, "en-us")
    set_user_language(User.objects.get(username=SPANISH_ADVOCATE), "es")
    riverside = [c for c in context.cases if c.agency.slug == "riverside"]
    hillview = [c for c in context.cases if c.agency.slug == "hillview"]
    needs: list[tuple[object, dict[str, object]]] = []
    if riverside:
        needs.append((riverside[0], {"languages": "pl,en", "interpreter_language": "pl"}))
    if len(riverside) > 3:
        needs.append((riverside[3], {"communication_needs": ["sign_language", "large_print"]}))
    if hillview:
        needs.append(
            (
                hillview[0],
                {
                    "languages": "es",
                    "interpreter_language": "es",
                    "access_needs": "Step-free access; a quiet room (fictional).",
                },
            )
        )
    for case, values in needs:
        party = _survivor(case)
        for name, value in values.items():
            setattr(party, name, value)
        party.save()
