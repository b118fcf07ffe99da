"""Demo data for working with other agencies: Riverside names its risk meeting and records its
lawful basis; a high-risk case is referred to the meeting, which agreed three actions (one of
them now overdue on the advocate's queue); a housing referral is tracked to "accepted" and
another is still waiting for its reply (a follow-up); the demo survivors' demographics are
filled in, some of them declined. Everything goes through the partners services."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from django.utils import timezone

from caseflow.cases.journey import current_episode
from caseflow.cases.models import CaseStatus, IntakeField, PartyRole, RiskLevel
from caseflow.confidentiality.models import Category
from caseflow.confidentiality.services import field_settings_save, release_record
from caseflow.partners import hud, services
from caseflow.partners.models import (
    DECLINED,
    NOT_ASKED,
    QUESTIONS,
    HudAnswers,
    HudProjectType,
    HudRrhSubtype,
    answers,
)

HOUSING = "Safe Homes Housing Association (fictional)"
POLICE = "Riverside Police (fictional)"


#: How the demo's answers spread, as weights (an answer not listed is never given): roughly
#: the people a US domestic-abuse service supports, so that every funder report shows numbers
#: across its bands (most aged 25 to 44, mostly women, of every background), with "declined"
#: and "not asked" among them.
DEMO_WEIGHTS: dict[str, dict[str, int]] = {
    "age_band": {
        "13_17": 3,
        "18_24": 14,
        "25_34": 30,
        "35_44": 25,
        "45_54": 13,
        "55_59": 5,
        "60_64": 3,
        "65_plus": 3,
        DECLINED: 2,
        NOT_ASKED: 2,
    },
    "gender_identity": {
        "woman": 82,
        "man": 9,
        "non_binary": 3,
        "transgender": 2,
        "different": 1,
        DECLINED: 2,
        NOT_ASKED: 1,
    },
    "race_ethnicity": {
        "white": 42,
        "black": 20,
        "hispanic": 18,
        "asian": 6,
        "indigenous": 3,
        "mena": 2,
        "pacific": 1,
        "multiple": 4,
        "other": 1,
        DECLINED: 2,
        NOT_ASKED: 1,
    },
    # An agency in England: the 2021 census's groups, roughly as in a large city.
    "ethnic_group": {
        "white_british": 48,
        "white_other": 10,
        "white_irish": 2,
        "white_gypsy_traveller": 1,
        "asian_indian": 6,
        "asian_pakistani": 6,
        "asian_bangladeshi": 3,
        "asian_other": 2,
        "black_african": 7,
        "black_caribbean": 4,
        "mixed_white_black_caribbean": 2,
        "mixed_other": 2,
        "other_arab": 2,
        "other_any": 1,
        DECLINED: 3,
        NOT_ASKED: 1,
    },
    "disability": {"no": 68, "yes": 26, DECLINED: 3, NOT_ASKED: 3},
    "language": {"english": 76, "spanish": 14, "other": 5, "interpreter": 4, NOT_ASKED: 1},
    "relationship": {"ex_partner": 45, "partner": 34, "family": 15, "other": 4, DECLINED: 2},
    "household": {
        "with_children": 48,
        "alone": 20,
        "with_adults": 15,
        "with_other_party": 9,
        "no_fixed": 6,
        NOT_ASKED: 2,
    },
    "children": {"none": 30, "one": 29, "two": 25, "three_plus": 14, NOT_ASKED: 2},
    "immigration": {
        "citizen": 80,
        "visa": 8,
        "no_recourse": 4,
        "uncertain": 5,
        DECLINED: 3,
    },
}


#: The demo agencies' projects as HUD knows them (made-up identifiers).
HUD_PROJECT_BLANK: dict[str, Any] = {
    "organization_id": "",
    "project_id": "",
    "rrh_subtype": "",
    "coordinated_entry_access_point": False,
    "affiliated_with_residential": False,
    "affiliated_project_ids": "",
}
DEMO_PROJECTS: dict[str, dict[str, Any]] = {
    "riverside": {
        "organization_name": "Riverside Domestic Abuse Service",
        "organization_id": "RDAS-1",
        "project_name": "Riverside Emergency Shelter",
        "project_id": "RES-2027",
        "project_type": HudProjectType.ES_ENTRY_EXIT,
        "coc_number": "XX-501",
        "geocode": "999999",
    },
    "hillview": {
        "organization_name": "Hillview Family Advocacy",
        "organization_id": "HFA-204",
        "project_name": "Hillview Rapid Re-Housing",
        "project_id": "HRR-11",
        "project_type": HudProjectType.RAPID_REHOUSING,
        "rrh_subtype": HudRrhSubtype.HOUSING,
        "coordinated_entry_access_point": True,
        "coc_number": "IL-510",
        "geocode": "171032",
    },
}


def demo_answers(n: int, *, uk: bool = False) -> dict[str, str]:
    """Survivor ``n``'s answers: drawn by :data:`DEMO_WEIGHTS`, the same for the same ``n``.
    Only an agency in the ``uk`` asks the census's ethnic groups."""
    out = {}
    for i, question in enumerate(QUESTIONS):
        if question == "ethnic_group" and not uk:
            out[question] = NOT_ASKED
            continue
        weights = DEMO_WEIGHTS[question]
        given = {value for value, _label in answers(question)}
        choices = [value for value in weights if value in given]
        rng = random.Random(n * 1009 + i)
        out[question] = rng.choices(choices, weights=[weights[c] for c in choices])[0]
    return out


#: How often each HUD answer is given in the demo: survivors of a domestic abuse programme,
#: most of them fleeing recent abuse, many from a relative's or friend's home or a shelter.
HUD_WEIGHTS: dict[str, dict[str, int]] = {
    "prior_living": {
        "rental_no_subsidy": 24,
        "family_temporary": 18,
        "friends_temporary": 10,
        "emergency_shelter": 14,
        "hotel_no_voucher": 5,
        "place_not_meant": 3,
        "rental_subsidy": 6,
        "owned_no_subsidy": 5,
        "hospital": 2,
        hud.PREFERS_NOT: 3,
        hud.NOT_COLLECTED: 4,
    },
    "prior_length": {
        "one_night": 4,
        "two_to_six_nights": 10,
        "week_to_month": 18,
        "month_to_90_days": 16,
        "90_days_to_year": 20,
        "year_or_more": 26,
        hud.NOT_COLLECTED: 6,
    },
    "dv_history": {"yes": 90, "no": 3, hud.PREFERS_NOT: 3, hud.NOT_COLLECTED: 4},
    "dv_when": {
        "within_3_months": 55,
        "3_to_6_months": 20,
        "6_to_12_months": 12,
        "over_a_year": 8,
        hud.PREFERS_NOT: 2,
        hud.NOT_COLLECTED: 3,
    },
    "dv_fleeing": {"yes": 60, "no": 34, hud.NOT_COLLECTED: 6},
    "income_any": {"yes": 60, "no": 30, hud.PREFERS_NOT: 4, hud.NOT_COLLECTED: 6},
    "benefits_any": {"yes": 45, "no": 45, hud.NOT_COLLECTED: 10},
    "insurance_any": {"yes": 70, "no": 20, hud.DONT_KNOW: 4, hud.NOT_COLLECTED: 6},
    "conditions_any": {"yes": 40, "no": 50, hud.PREFERS_NOT: 5, hud.NOT_COLLECTED: 5},
    "destination": {
        "rental_no_subsidy": 26,
        "rental_subsidy": 12,
        "family_permanent": 8,
        "family_temporary": 14,
        "friends_temporary": 8,
        "transitional": 8,
        "emergency_shelter": 8,
        "no_exit_interview": 6,
        hud.NOT_COLLECTED: 6,
    },
    "exit_income_any": {"yes": 66, "no": 24, hud.NOT_COLLECTED: 10},
    "exit_benefits_any": {"yes": 50, "no": 40, hud.NOT_COLLECTED: 10},
    "exit_insurance_any": {"yes": 76, "no": 14, hud.DONT_KNOW: 2, hud.NOT_COLLECTED: 8},
    "exit_conditions_any": {"yes": 38, "no": 52, hud.PREFERS_NOT: 4, hud.NOT_COLLECTED: 6},
}
#: The sources each "many" question draws from, most likely first.
HUD_SOURCES: dict[str, list[str]] = {
    "income_sources": ["earned", "child_support", "tanf", "ssi", "unemployment", "ssdi"],
    "benefits_sources": ["snap", "wic", "tanf_child_care", "other"],
    "insurance_sources": ["medicaid", "employer", "private", "medicare", "schip"],
    "conditions": ["mental_health", "chronic_health", "physical", "alcohol", "drug"],
    "exit_income_sources": ["earned", "child_support", "tanf", "ssi", "unemployment"],
    "exit_benefits_sources": ["snap", "wic", "tanf_child_care", "other"],
    "exit_insurance_sources": ["medicaid", "employer", "private", "medicare", "schip"],
    "exit_conditions": ["mental_health", "chronic_health", "physical", "alcohol", "drug"],
}


#: The answers about veterans, homelessness before support and subsidies, drawn apart from the
#: rest (a veteran or two in a hundred; most of those who came from the street or a shelter
#: there for months, some of them for a year or more over several times).
HUD_MORE_WEIGHTS: dict[str, dict[str, int]] = {
    "veteran": {"no": 86, "yes": 5, hud.DONT_KNOW: 3, hud.NOT_COLLECTED: 6},
    "times_homeless": {"one": 40, "two": 20, "three": 10, "four_plus": 22, hud.DONT_KNOW: 8},
    "months_homeless": {"2": 10, "4": 12, "6": 14, "9": 10, "12": 20, "more_than_12": 26},
    "prior_night_street": {"yes": 45, "no": 50, hud.NOT_COLLECTED: 5},
    "destination_subsidy": {
        "hcv": 55,
        "rrh": 20,
        "public_housing": 12,
        "other_ongoing": 8,
        "psh": 3,
        hud.NOT_COLLECTED: 2,
    },
}


def demo_hud_answers(n: int, *, left: bool, started: dt.date, housed: bool = False) -> dict:
    """Survivor ``n``'s HUD entry answers (and exit answers when she has ``left``), the same
    for the same ``n``, for support that began on ``started``; in a rapid re-housing project
    (``housed``), the day most moved into housing."""
    rng = random.Random(n * 7919)

    def pick(question: str) -> str:
        weights = HUD_WEIGHTS[question]
        return rng.choices(list(weights), weights=list(weights.values()))[0]

    out = hud.blank()
    for question in HUD_WEIGHTS:
        out[question] = pick(question)
    if out["dv_history"] != "yes":
        out["dv_when"] = out["dv_fleeing"] = hud.NOT_COLLECTED
    for element in hud.ELEMENTS:
        if element.kind == "many" and out[element.after] == "yes":
            sources = HUD_SOURCES[element.name]
            count = 1 + (rng.random() < 0.3)
            out[element.name] = sorted(
                set(rng.choices(sources, k=count, weights=[8, 4, 2, 2, 1, 1][: len(sources)]))
            )
    for answer, amount in (
        ("income_any", "income_amount"),
        ("exit_income_any", "exit_income_amount"),
    ):
        if out[answer] == "yes":
            dollars = rng.choice([120, 380, 650, 900, 1150, 1400, 1800, 2400])
            out[amount] = f"{dollars + rng.randint(0, 99)}.00"
    more = random.Random(n * 7919 + 1)

    def draw(question: str) -> str:
        weights = HUD_MORE_WEIGHTS[question]
        return more.choices(list(weights), weights=list(weights.values()))[0]

    out["veteran"] = draw("veteran")
    if out["prior_living"] in hud.HOMELESS:
        days = more.choice([20, 45, 120, 200, 300, 400, 500, 800])
        out["homeless_since"] = (started - dt.timedelta(days=days)).isoformat()
        out["times_homeless"] = draw("times_homeless")
        if out["times_homeless"] == "four_plus":
            out["months_homeless"] = draw("months_homeless")
    elif out["prior_length"] in hud.INSTITUTIONAL_SHORT:
        out["prior_night_street"] = draw("prior_night_street")
        if out["prior_night_street"] == "yes":
            days = more.choice([60, 200, 500])
            out["homeless_since"] = (started - dt.timedelta(days=days)).isoformat()
            out["times_homeless"] = draw("times_homeless")
    if out["destination"] == "rental_subsidy":
        out["destination_subsidy"] = draw("destination_subsidy")
    # Half the veterans who leave rent with VA supportive housing (drawn apart from the rest, so
    # that no one else's answers changed).
    if left and out["veteran"] == "yes" and random.Random(n * 7919 + 2).random() < 0.5:
        out["destination"], out["destination_subsidy"] = "rental_subsidy", "vash"
    if not left:  # a stayer has no exit answers
        empty = hud.blank()
        out.update({e.name: empty[e.name] for e in hud.ELEMENTS if e.stage == hud.EXIT})
        out.update(_annual_assessments(more, started, timezone.localdate()))
    # The earned part of an income with other sources beside work (drawn apart from the rest,
    # so that adding it changed no other answer).
    earned = random.Random(n * 7919 + 4)
    for stage, prefix in [
        *((out, p) for p in ("", "exit_", "annual_")),
        *((a, "annual_") for a in out.get(hud.EARLIER, [])),
    ]:
        sources = stage.get(f"{prefix}income_sources") or []
        total = hud.amount_of(stage.get(f"{prefix}income_amount"))
        if "earned" in sources and len(sources) > 1 and total is not None:
            share = earned.choice([40, 55, 60, 70, 75, 85])
            stage[f"{prefix}income_earned_amount"] = f"{total * share // 100}.00"
    # Who lives in her household: most survivors the agencies support have children with
    # them (drawn apart from the other answers, so that adding it changed none of them).
    households = random.Random(n * 7919 + 3)
    out["household_type"] = households.choices(
        ["children_and_adults", "without_children", "only_children", hud.DONT_KNOW],
        weights=[58, 36, 1, 5],
    )[0]
    if housed:
        moving = random.Random(n * 7919 + 2)
        waited: int | None = moving.choice([4, 9, 13, 19, 26, 38, 52, 75, 110, 160, 240, None])
        if waited is not None and left:
            waited = min(waited, 26)  # those who left moved in soon after support began
        moved = started + dt.timedelta(days=waited) if waited is not None else None
        if moved is not None and moved < timezone.localdate():
            out["move_in_on"] = moved.isoformat()
    return out


def recorded_over_time(n: int, case, episode) -> None:
    """The days the answers were first recorded, as an agency records them over time (most on
    the day support began or within days, some later; the answers at exit days after the
    case closed), not the moment the demo saved them."""
    rng = random.Random(n * 7919 + 3)
    now = timezone.now()
    row = HudAnswers.objects.get(episode=episode)
    entry = episode.opened_at + dt.timedelta(days=rng.choice([0, 0, 0, 0, 1, 2, 3, 5, 8, 14]))
    exit_day = None
    closed_at = type(case).objects.filter(pk=case.pk).values_list("closed_at", flat=True).first()
    if row.exit_recorded_at is not None and closed_at is not None:
        exit_day = closed_at + dt.timedelta(days=rng.choice([0, 0, 0, 1, 2, 4, 6, 12]))
    HudAnswers.objects.filter(pk=row.pk).update(
        recorded_at=min(entry, now), exit_recorded_at=min(exit_day, now) if exit_day else None
    )


def save_demo_hud_answers(*, actor, case, values: dict) -> None:
    """Save ``values`` (as :func:`demo_hud_answers` gives them) as an advocate would: the
    earliest annual assessment first, each later one recorded as a new assessment."""
    values = dict(values)
    earlier = values.pop(hud.EARLIER, [])
    steps = [*earlier, None]
    for version, assessment in enumerate(steps):
        services.hud_answers_save(
            actor=actor,
            case=case,
            values={**values, **(assessment or {})},
            expected_version=version,
            new_assessment=version > 0,
        )


def _annual_assessments(rng: random.Random, started: dt.date, today: dt.date) -> dict:
    """The annual assessments of someone supported since ``started``: one near each
    anniversary up to ``today`` (one in ten missed), the latest in the answers and the earlier
    ones among :data:`hud.EARLIER`."""
    made = []
    years = 1
    while True:
        anniversary = started + dt.timedelta(days=365 * years)
        if anniversary > today:
            break
        years += 1
        if rng.random() < 0.1:
            continue
        on = min(anniversary + dt.timedelta(days=rng.randint(-20, 20)), today)
        income = rng.choices(["yes", "no", hud.NOT_COLLECTED], weights=[70, 24, 6])[0]
        benefits = rng.choices(["yes", "no"], weights=[55, 45])[0]
        insurance = rng.choices(["yes", "no", hud.DONT_KNOW], weights=[80, 16, 4])[0]
        conditions = rng.choices(["yes", "no"], weights=[40, 60])[0]
        dollars = rng.choice([650, 900, 1150, 1400, 1800, 2400]) + rng.randint(0, 99)
        made.append(
            {
                **{e.name: hud.blank()[e.name] for e in hud.ANNUAL_ELEMENTS},
                "annual_on": on.isoformat(),
                "annual_income_any": income,
                "annual_income_amount": f"{dollars}.00" if income == "yes" else "",
                "annual_income_sources": (
                    sorted({"earned", rng.choice(["earned", "child_support", "tanf"])})
                    if income == "yes"
                    else []
                ),
                "annual_benefits_any": benefits,
                "annual_benefits_sources": ["snap"] if benefits == "yes" else [],
                "annual_insurance_any": insurance,
                "annual_insurance_sources": (
                    [rng.choice(["medicaid", "medicaid", "employer"])] if insurance == "yes" else []
                ),
                "annual_conditions_any": conditions,
                "annual_conditions": ["mental_health"] if conditions == "yes" else [],
            }
        )
    if not made:
        return {}
    *earlier, latest = made
    return {**latest, hud.EARLIER: earlier}


def seed_demo(context) -> None:
    riverside = context.staff["north"][0].membership.agency
    admin = next(
        u for u in riverside.memberships.select_related("user") if u.role == "agency_admin"
    ).user
    services.settings_save(
        actor=admin,
        meeting_name="MARAC",
        lawful_basis="Sharing to protect the survivor's vital interests when the risk of serious "
        "harm is high (fictional demo wording).",
    )
    today = context.now.date()
    high = [
        c
        for c in context.cases
        if c.agency_id == riverside.pk
        and c.risk_level == RiskLevel.HIGH
        and c.status != CaseStatus.CLOSED
        and not c.restricted
        and c.primary_advocate_id
    ]
    if high:
        case = high[0]
        advocate = case.primary_advocate
        referral = services.meeting_refer(
            actor=advocate,
            case=case,
            route="assessment",
            reason="",
            basis="lawful_basis",
            release=None,
            categories=[Category.RISK, Category.CONTACT, Category.CHILDREN],
            referred_on=today - dt.timedelta(days=20),
            meeting_on=today - dt.timedelta(days=10),
        )
        services.meeting_update(
            actor=advocate,
            referral=referral,
            meeting_on=referral.meeting_on,
            outcome="Police to flag the address for a priority response; housing to look at a "
            "move; the school told of the contact arrangements (fictional).",
        )
        for text, owner, other, due, done in (
            ("Call the survivor about the housing options", advocate, "", -3, False),
            (
                "Flag the address for a priority response",
                None,
                "Riverside Police (fictional)",
                7,
                False,
            ),
            ("Share the school contact plan with the survivor", advocate, "", -8, True),
        ):
            action = services.action_add(
                actor=advocate,
                referral=referral,
                text=text,
                owner=owner,
                owner_agency=other,
                due_on=today + dt.timedelta(days=due),
            )
            if done:
                services.action_set_status(actor=advocate, action=action, status="done")
    # Housing referrals: one accepted, one still waiting past its reply date.
    open_cases = [
        c
        for c in context.cases
        if c.agency_id == riverside.pk
        and c.status != CaseStatus.CLOSED
        and not c.restricted
        and c.primary_advocate_id
    ]
    for case, accepted in zip(open_cases[1:3], (True, False), strict=False):
        advocate = case.primary_advocate
        survivor = case.parties.filter(role=PartyRole.SURVIVOR).first()
        if survivor is None:
            continue
        release = release_record(
            actor=advocate,
            case=case,
            consenting_party=survivor,
            recipient=HOUSING,
            purpose="Referral for a safe move.",
            categories=[Category.CONTACT, Category.ADDRESS],
            signed_on=today - dt.timedelta(days=15),
            expires_on=today + dt.timedelta(days=180),
        )
        sent = services.referral_create(
            actor=advocate,
            case=case,
            direction="out",
            service_type="housing",
            organisation=HOUSING,
            details="A safe move away from the other party's area.",
            sent_on=today - dt.timedelta(days=14),
            respond_by=today - dt.timedelta(days=4),
            release=release,
            needs=[],
        )
        if accepted:
            services.referral_set_state(
                actor=advocate,
                referral=sent,
                state="accepted",
                on=today - dt.timedelta(days=2),
                expected_version=sent.version,
            )
    services.referral_followups_sweep(context.now)
    # Riverside works in England: it asks the census's ethnic groups too. It also asks HUD's
    # entry and exit questions, so that the demo's funder reports show every report in use;
    # Hillview, in the US, reports to HUD.
    field_settings_save(
        actor=admin,
        values={
            IntakeField.DEMOGRAPHIC_ETHNIC_GROUP: (False, ""),
            IntakeField.HUD_ANSWERS: (False, ""),
        },
    )
    hill_admin = next(
        m.user
        for m in context.staff["hillview"][0].membership.agency.memberships.select_related("user")
        if m.role == "agency_admin"
    )
    field_settings_save(actor=hill_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    hillview = context.staff["hillview"][0].membership.agency_id
    # How HUD knows each agency's project: the HUD report's first question (Q4a).
    for actor, project in (
        (admin, DEMO_PROJECTS["riverside"]),
        (hill_admin, DEMO_PROJECTS["hillview"]),
    ):
        services.hud_project_save(actor=actor, values={**HUD_PROJECT_BLANK, **project})
    # The survivors' answers, some declined and some not asked.
    for n, case in enumerate(context.cases):
        advocate = case.primary_advocate
        if advocate is None or case.restricted:
            continue
        services.demographics_save(
            actor=advocate,
            case=case,
            values=demo_answers(n, uk=case.agency_id == riverside.pk),
            expected_version=0,
        )
        episode = current_episode(case)
        if episode is None:
            continue
        save_demo_hud_answers(
            actor=advocate,
            case=case,
            values=demo_hud_answers(
                n,
                left=case.status == CaseStatus.CLOSED,
                started=timezone.localtime(episode.opened_at).date(),
                housed=case.agency_id == hillview,
            ),
        )
        recorded_over_time(n, case, episode)
