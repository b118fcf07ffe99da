"""The HUD entry and exit answers of an episode of support: the HMIS data elements the HUD
APR/CAPER counts (HMIS Data Standards, FY 2024), each stored as a code of caseflow's own and
shown in words.

Every question may also be answered "Client doesn't know", "Client prefers not to answer" or
"Data not collected", as HUD's are. A question with several answers (sources of income,
benefits, health insurance, conditions) follows a yes/no question ("any income?") and holds a
list of codes. A monthly amount is kept as the text of a decimal number of dollars ("1250.00").

The APR's groupings (prior living situation and exit destination: homeless, institutional,
temporary, permanent) are given here beside the answers they group, so a report and the form read
one list.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

DONT_KNOW = "dont_know"
PREFERS_NOT = "prefers_not"
NOT_COLLECTED = "not_collected"
#: The three answers every question has, as HUD's do.
UNKNOWN: list[tuple[str, Any]] = [
    (DONT_KNOW, _("Client doesn't know")),
    (PREFERS_NOT, _("Client prefers not to answer")),
    (NOT_COLLECTED, _("Data not collected")),
]

YES_NO: list[tuple[str, Any]] = [("yes", _("Yes")), ("no", _("No"))]

#: Living situations (3.917 at entry, 3.12 at exit), by the APR's groups (Q15, Q23c).
LIVING_GROUPS: list[tuple[str, Any, list[tuple[str, Any]]]] = [
    (
        "homeless",
        _("Homeless situations"),
        [
            (
                "place_not_meant",
                _("Place not meant for habitation (a vehicle, a station, outside)"),
            ),
            (
                "emergency_shelter",
                _(
                    "Emergency shelter, a hotel or motel paid for with a shelter voucher, "
                    "or a host home shelter"
                ),
            ),
            ("safe_haven", _("Safe Haven")),
        ],
    ),
    (
        "institutional",
        _("Institutional situations"),
        [
            ("foster_care", _("Foster care home or foster care group home")),
            ("hospital", _("Hospital or other residential non-psychiatric medical facility")),
            ("jail", _("Jail, prison or juvenile detention facility")),
            ("long_term_care", _("Long-term care facility or nursing home")),
            ("psychiatric", _("Psychiatric hospital or other psychiatric facility")),
            ("substance_treatment", _("Substance use treatment facility or detox center")),
        ],
    ),
    (
        "temporary",
        _("Temporary situations"),
        [
            ("transitional", _("Transitional housing for people who were homeless")),
            ("halfway_house", _("Residential project or halfway house with no homeless criteria")),
            ("hotel_no_voucher", _("Hotel or motel paid for without a shelter voucher")),
            ("host_home", _("Host home (non-crisis)")),
            ("family_temporary", _("Staying with family, for a while")),
            ("friends_temporary", _("Staying with friends, for a while")),
            ("hopwa_th", _("Moved from one HOPWA funded project to HOPWA transitional housing")),
        ],
    ),
    (
        "permanent",
        _("Permanent situations"),
        [
            ("family_permanent", _("Staying with family, to stay")),
            ("friends_permanent", _("Staying with friends, to stay")),
            ("hopwa_ph", _("Moved from one HOPWA funded project to HOPWA permanent housing")),
            ("rental_no_subsidy", _("Renting, with no ongoing housing subsidy")),
            ("rental_subsidy", _("Renting, with an ongoing housing subsidy")),
            ("owned_subsidy", _("Own home, with an ongoing housing subsidy")),
            ("owned_no_subsidy", _("Own home, with no ongoing housing subsidy")),
        ],
    ),
]
#: Destinations at exit only (3.12's "other" situations).
EXIT_OTHER: list[tuple[str, Any]] = [
    ("no_exit_interview", _("No exit interview completed")),
    ("other", _("Other")),
    ("deceased", _("Deceased")),
]
LIVING: list[tuple[str, Any]] = [item for _g, _l, items in LIVING_GROUPS for item in items]

PRIOR_LENGTH: list[tuple[str, Any]] = [
    ("one_night", _("One night or less")),
    ("two_to_six_nights", _("Two to six nights")),
    ("week_to_month", _("One week or more, but less than a month")),
    ("month_to_90_days", _("One month or more, but less than 90 days")),
    ("90_days_to_year", _("90 days or more, but less than a year")),
    ("year_or_more", _("One year or longer")),
]

#: Living situations in which a short stay keeps the homelessness of the night before it
#: (3.917B: under 90 days in an institution, under 7 nights anywhere else).
INSTITUTIONAL_SHORT = ("one_night", "two_to_six_nights", "week_to_month", "month_to_90_days")
OTHER_SHORT = ("one_night", "two_to_six_nights")

TIMES_HOMELESS: list[tuple[str, Any]] = [
    ("one", _("One time")),
    ("two", _("Two times")),
    ("three", _("Three times")),
    ("four_plus", _("Four or more times")),
]

MONTHS_HOMELESS: list[tuple[str, Any]] = [
    ("1", _("1 (this time is the first month)")),
    *((str(n), str(n)) for n in range(2, 13)),
    ("more_than_12", _("More than 12 months")),
]

#: Rental subsidies at exit (3.12A), asked when the destination is a rental with an ongoing
#: housing subsidy.
SUBSIDIES: list[tuple[str, Any]] = [
    ("gpd_tip", _("GPD TIP housing subsidy")),
    ("vash", _("VASH housing subsidy")),
    ("rrh", _("Rapid rehousing or an equivalent subsidy")),
    ("hcv", _("Housing Choice Voucher (tenant or project based), not dedicated")),
    ("public_housing", _("Public housing unit")),
    ("other_ongoing", _("Another ongoing housing subsidy")),
    ("stability_voucher", _("Housing Stability Voucher")),
    ("fup", _("Family Unification Program voucher (FUP)")),
    ("fyi", _("Foster Youth to Independence initiative (FYI)")),
    ("psh", _("Permanent supportive housing")),
    ("other_dedicated", _("Other permanent housing for people who were homeless")),
]

DV_WHEN: list[tuple[str, Any]] = [
    ("within_3_months", _("Within the past three months")),
    ("3_to_6_months", _("Three to six months ago")),
    ("6_to_12_months", _("Six months to a year ago")),
    ("over_a_year", _("More than a year ago")),
]

INCOME_SOURCES: list[tuple[str, Any]] = [
    ("earned", _("Earned income (from work)")),
    ("unemployment", _("Unemployment insurance")),
    ("ssi", _("Supplemental Security Income (SSI)")),
    ("ssdi", _("Social Security Disability Insurance (SSDI)")),
    ("va_disability_service", _("VA service-connected disability compensation")),
    ("va_disability_non_service", _("VA non-service-connected disability pension")),
    ("private_disability", _("Private disability insurance")),
    ("workers_comp", _("Worker's compensation")),
    ("tanf", _("Temporary Assistance for Needy Families (TANF)")),
    ("general_assistance", _("General assistance")),
    ("retirement_ss", _("Retirement income from Social Security")),
    ("pension", _("Pension or retirement income from a former job")),
    ("child_support", _("Child support")),
    ("alimony", _("Alimony and other spousal support")),
    ("other", _("Other source")),
]

BENEFIT_SOURCES: list[tuple[str, Any]] = [
    ("snap", _("Supplemental Nutrition Assistance Program (SNAP)")),
    ("wic", _("Special Supplemental Nutrition Program for Women, Infants and Children (WIC)")),
    ("tanf_child_care", _("TANF child care services")),
    ("tanf_transportation", _("TANF transportation services")),
    ("tanf_other", _("Other TANF-funded services")),
    ("other", _("Other source")),
]

INSURANCE_SOURCES: list[tuple[str, Any]] = [
    ("medicaid", _("Medicaid")),
    ("medicare", _("Medicare")),
    ("schip", _("State Children's Health Insurance Program")),
    ("va", _("Veterans' health care (VHA)")),
    ("employer", _("Employer-provided health insurance")),
    ("cobra", _("Health insurance through COBRA")),
    ("private", _("Private pay health insurance")),
    ("state", _("State health insurance for adults")),
    ("indian_health", _("Indian Health Service program")),
    ("other", _("Other source")),
]

CONDITIONS: list[tuple[str, Any]] = [
    ("mental_health", _("Mental health disorder")),
    ("alcohol", _("Alcohol use disorder")),
    ("drug", _("Drug use disorder")),
    ("chronic_health", _("Chronic health condition")),
    ("hiv_aids", _("HIV/AIDS")),
    ("developmental", _("Developmental disability")),
    ("physical", _("Physical disability")),
]

#: Who lives in the household the survivor heads, at entry: HUD's household types (the
#: children are those under 18).
HOUSEHOLD_TYPES: list[tuple[str, Any]] = [
    ("without_children", _("Adults only, no children")),
    ("children_and_adults", _("Adults and children")),
    ("only_children", _("Children only, no adult")),
]

ENTRY = "entry"
ANNUAL = "annual"
EXIT = "exit"
#: Permanent housing projects only: the day the household moved into housing (3.20).
HOUSING = "housing"


@dataclass(frozen=True)
class Element:
    """One question: ``kind`` is "choice" (one of ``choices`` or an unknown answer), "many" (a
    list of ``choices``, asked when ``after`` is "yes"), "amount" (dollars a month) or "date"
    (a day, as ISO text). A "choice" with an ``after`` is asked only when the answer to
    ``after`` is ``when``; an "amount" with an ``after`` (the earned income, a part of the
    amount ``total`` names) only when earned income is among the sources ``after`` names
    (:func:`earned_problem`)."""

    name: str
    label: Any
    stage: str
    kind: str
    choices: tuple[tuple[str, Any], ...] = ()
    after: str = ""
    when: str = "yes"
    total: str = ""

    def answers(self) -> list[tuple[str, Any]]:
        """The answers offered (a "choice" question's unknowns among them)."""
        if self.kind == "choice":
            return [*self.choices, *UNKNOWN]
        return list(self.choices)


def _choice(name: str, label: Any, stage: str, choices: list[tuple[str, Any]]) -> Element:
    return Element(name, label, stage, "choice", tuple(choices))


ELEMENTS: tuple[Element, ...] = (
    _choice("household_type", _("Who lives in the household"), ENTRY, HOUSEHOLD_TYPES),
    _choice("veteran", _("Veteran status (adults)"), ENTRY, YES_NO),
    _choice("prior_living", _("Where they stayed before (prior living situation)"), ENTRY, LIVING),
    _choice("prior_length", _("How long they stayed there"), ENTRY, PRIOR_LENGTH),
    _choice(
        "prior_night_street",
        _(
            "After a short stay (under 90 days in an institution, under a week elsewhere): "
            "on the night before it, on the streets, in an emergency shelter or a safe haven"
        ),
        ENTRY,
        YES_NO,
    ),
    Element(
        "homeless_since",
        _("Approximate date this time of homelessness began"),
        ENTRY,
        "date",
    ),
    _choice(
        "times_homeless",
        _("Times on the streets, in an emergency shelter or a safe haven in the past three years"),
        ENTRY,
        TIMES_HOMELESS,
    ),
    _choice(
        "months_homeless",
        _("Months on the streets, in an emergency shelter or a safe haven in the past three years"),
        ENTRY,
        MONTHS_HOMELESS,
    ),
    _choice("dv_history", _("Has experienced domestic violence"), ENTRY, YES_NO),
    _choice("dv_when", _("When it last happened"), ENTRY, DV_WHEN),
    _choice("dv_fleeing", _("Currently fleeing"), ENTRY, YES_NO),
    _choice("income_any", _("Income from any source"), ENTRY, YES_NO),
    Element("income_amount", _("Total monthly income (dollars)"), ENTRY, "amount"),
    Element(
        "income_sources",
        _("Sources of income"),
        ENTRY,
        "many",
        tuple(INCOME_SOURCES),
        after="income_any",
    ),
    Element(
        "income_earned_amount",
        _("Of that, monthly earned income from work (dollars)"),
        ENTRY,
        "amount",
        after="income_sources",
        total="income_amount",
    ),
    _choice("benefits_any", _("Non-cash benefits from any source"), ENTRY, YES_NO),
    Element(
        "benefits_sources",
        _("Non-cash benefits"),
        ENTRY,
        "many",
        tuple(BENEFIT_SOURCES),
        after="benefits_any",
    ),
    _choice("insurance_any", _("Covered by health insurance"), ENTRY, YES_NO),
    Element(
        "insurance_sources",
        _("Health insurance"),
        ENTRY,
        "many",
        tuple(INSURANCE_SOURCES),
        after="insurance_any",
    ),
    _choice("conditions_any", _("Has a disabling condition"), ENTRY, YES_NO),
    Element(
        "conditions", _("Conditions"), ENTRY, "many", tuple(CONDITIONS), after="conditions_any"
    ),
    _choice("destination", _("Where they went (destination)"), EXIT, [*LIVING, *EXIT_OTHER]),
    Element(
        "destination_subsidy",
        _("The housing subsidy (renting with an ongoing subsidy)"),
        EXIT,
        "choice",
        tuple(SUBSIDIES),
        after="destination",
        when="rental_subsidy",
    ),
    _choice("exit_income_any", _("Income from any source at exit"), EXIT, YES_NO),
    Element("exit_income_amount", _("Total monthly income at exit (dollars)"), EXIT, "amount"),
    Element(
        "exit_income_sources",
        _("Sources of income at exit"),
        EXIT,
        "many",
        tuple(INCOME_SOURCES),
        after="exit_income_any",
    ),
    Element(
        "exit_income_earned_amount",
        _("Of that, monthly earned income from work at exit (dollars)"),
        EXIT,
        "amount",
        after="exit_income_sources",
        total="exit_income_amount",
    ),
    _choice("exit_benefits_any", _("Non-cash benefits from any source at exit"), EXIT, YES_NO),
    Element(
        "exit_benefits_sources",
        _("Non-cash benefits at exit"),
        EXIT,
        "many",
        tuple(BENEFIT_SOURCES),
        after="exit_benefits_any",
    ),
    _choice("exit_insurance_any", _("Covered by health insurance at exit"), EXIT, YES_NO),
    Element(
        "exit_insurance_sources",
        _("Health insurance at exit"),
        EXIT,
        "many",
        tuple(INSURANCE_SOURCES),
        after="exit_insurance_any",
    ),
    _choice("exit_conditions_any", _("Has a disabling condition at exit"), EXIT, YES_NO),
    Element(
        "exit_conditions",
        _("Conditions at exit"),
        EXIT,
        "many",
        tuple(CONDITIONS),
        after="exit_conditions_any",
    ),
)


def _assessment(prefix: str, stage: str, labels: dict[str, Any]) -> tuple[Element, ...]:
    """The questions asked again at a later stage: income, benefits, insurance, conditions."""
    return (
        _choice(f"{prefix}income_any", labels["income_any"], stage, YES_NO),
        Element(f"{prefix}income_amount", labels["income_amount"], stage, "amount"),
        Element(
            f"{prefix}income_sources",
            labels["income_sources"],
            stage,
            "many",
            tuple(INCOME_SOURCES),
            after=f"{prefix}income_any",
        ),
        Element(
            f"{prefix}income_earned_amount",
            labels["income_earned_amount"],
            stage,
            "amount",
            after=f"{prefix}income_sources",
            total=f"{prefix}income_amount",
        ),
        _choice(f"{prefix}benefits_any", labels["benefits_any"], stage, YES_NO),
        Element(
            f"{prefix}benefits_sources",
            labels["benefits_sources"],
            stage,
            "many",
            tuple(BENEFIT_SOURCES),
            after=f"{prefix}benefits_any",
        ),
        _choice(f"{prefix}insurance_any", labels["insurance_any"], stage, YES_NO),
        Element(
            f"{prefix}insurance_sources",
            labels["insurance_sources"],
            stage,
            "many",
            tuple(INSURANCE_SOURCES),
            after=f"{prefix}insurance_any",
        ),
        _choice(f"{prefix}conditions_any", labels["conditions_any"], stage, YES_NO),
        Element(
            f"{prefix}conditions",
            labels["conditions"],
            stage,
            "many",
            tuple(CONDITIONS),
            after=f"{prefix}conditions_any",
        ),
    )


#: The annual assessment (HUD's data collection stage 5): for someone supported a year or more,
#: the questions asked again within 30 days of each anniversary of the start of support. The
#: latest is kept in these answers; earlier ones in :data:`EARLIER`, never replaced.
ANNUAL_ELEMENTS: tuple[Element, ...] = (
    Element("annual_on", _("Day of the annual assessment"), ANNUAL, "date"),
    *_assessment(
        "annual_",
        ANNUAL,
        {
            "income_any": _("Income from any source at the annual assessment"),
            "income_amount": _("Total monthly income at the annual assessment (dollars)"),
            "income_sources": _("Sources of income at the annual assessment"),
            "income_earned_amount": _(
                "Of that, monthly earned income from work at the annual assessment (dollars)"
            ),
            "benefits_any": _("Non-cash benefits from any source at the annual assessment"),
            "benefits_sources": _("Non-cash benefits at the annual assessment"),
            "insurance_any": _("Covered by health insurance at the annual assessment"),
            "insurance_sources": _("Health insurance at the annual assessment"),
            "conditions_any": _("Has a disabling condition at the annual assessment"),
            "conditions": _("Conditions at the annual assessment"),
        },
    ),
)
ELEMENTS = (
    *ELEMENTS,
    *ANNUAL_ELEMENTS,
    Element("move_in_on", _("Day they moved into housing"), HOUSING, "date"),
)
BY_NAME: dict[str, Element] = {e.name: e for e in ELEMENTS}
#: The key of the earlier annual assessments: a list of them, each as the ``annual_`` answers.
EARLIER = "annual_earlier"
#: How far from an anniversary of the start of support an annual assessment may be (days).
ANNUAL_WINDOW = 30

#: The largest monthly amount kept (a typing slip beyond it is refused).
AMOUNT_MAX = Decimal("1000000")
#: The earliest day a date may be (a typing slip before it is refused).
EARLIEST = dt.date(1940, 1, 1)


def blank() -> dict[str, Any]:
    """Answers never given: "data not collected", no sources, no amount, no date, no earlier
    annual assessment."""
    empty = {"choice": NOT_COLLECTED, "many": [], "amount": "", "date": ""}
    return {**{e.name: empty[e.kind] for e in ELEMENTS}, EARLIER: []}


#: The names of an annual assessment's answers (:data:`ANNUAL_ELEMENTS`).
ANNUAL_NAMES: tuple[str, ...] = tuple(e.name for e in ANNUAL_ELEMENTS)


def _annual_on(assessment: dict[str, Any]) -> Any:
    return assessment["annual_on"]


def assessments(values: dict[str, Any]) -> list[dict[str, Any]]:
    """Every annual assessment recorded (the latest and the earlier ones), each as its
    ``annual_`` answers, oldest first."""
    found = [a for a in values.get(EARLIER) or [] if date_of(a.get("annual_on"))]
    if date_of(values.get("annual_on")):
        found.append({name: values.get(name) for name in ANNUAL_NAMES})
    if len(found) > 1:
        found.sort(key=_annual_on)
    return found


def annual_assessment(
    values: dict[str, Any],
    started_on: dt.date,
    until: dt.date,
    *,
    recorded: list[dict[str, Any]] | None = None,
) -> tuple[str, dict[str, Any] | None]:
    """The annual assessment that counts for someone still supported on ``until`` whose support
    began on ``started_on``, as HUD's reports choose it: ("not_required", None) before a year of
    support, ("missing", None) when none was made within :data:`ANNUAL_WINDOW` days of the
    latest anniversary, or ("assessed", its answers), the latest in that window. ``recorded``
    is :func:`assessments` of ``values`` when the caller has it already (a report counting a
    person reads them twice)."""
    if (until - started_on).days < 365:
        return "not_required", None
    years = until.year - started_on.year
    while True:
        try:
            anniversary = started_on.replace(year=started_on.year + years)
        except ValueError:  # 29 February: the 28th in a year without one
            anniversary = started_on.replace(year=started_on.year + years, day=28)
        if anniversary <= until:
            break
        years -= 1
    window = dt.timedelta(days=ANNUAL_WINDOW)
    earliest, latest = anniversary - window, min(until, anniversary + window)
    within = None
    for a in assessments(values) if recorded is None else recorded:
        if earliest <= (date_of(a["annual_on"]) or dt.date.min) <= latest:
            within = a  # oldest first: the last in the window is the latest
    return ("assessed", within) if within is not None else ("missing", None)


def date_of(text: str | None) -> dt.date | None:
    """A stored date as a date (None when none was given or it cannot be read)."""
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text)
    except (TypeError, ValueError):
        return None


def amount_of(text: str | None) -> Decimal | None:
    """A stored amount as a number (None when none was given or it cannot be read)."""
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return value if value.is_finite() and value >= 0 else None


def earned_problem(
    earned: Decimal | None, sources: Iterable[str] | None, total: Decimal | None
) -> Any:
    """What is wrong with an ``earned`` income, given the ``sources`` ticked and the ``total``
    monthly income (None when nothing is): it is given only when earned income is among the
    sources, and is at most the total. The service (:func:`problems`) and the form both ask
    this, each with the values it holds."""
    if earned is None:
        return None
    if "earned" not in (sources or ()):
        return _("Give the earned income only when earned income is among the sources ticked.")
    if total is not None and earned > total:
        return _("The earned income cannot be more than the total monthly income.")
    return None


def income_amounts(values: dict[str, Any], prefix: str) -> tuple[Decimal, Decimal, Decimal] | None:
    """A person's monthly income at one stage (``prefix``: "" at entry, "annual_" or "exit_")
    as (earned income, other income, total), in dollars: 0, 0, 0 for no income; None when it
    is not known (not answered, income said with no source or no total, or both earned and
    other income named without the earned amount). Earned income is the whole of it when it is
    the only source named."""
    answer = values.get(f"{prefix}income_any")
    if answer == "no":
        return Decimal(0), Decimal(0), Decimal(0)
    if answer != "yes":
        return None
    sources = set(values.get(f"{prefix}income_sources") or [])
    total = amount_of(values.get(f"{prefix}income_amount"))
    if not sources or total is None:
        return None
    if "earned" not in sources:
        return Decimal(0), total, total
    if sources == {"earned"}:
        return total, Decimal(0), total
    earned = amount_of(values.get(f"{prefix}income_earned_amount"))
    if earned is None or earned > total:
        return None
    return earned, total - earned, total


def problems(values: dict[str, Any]) -> list[str]:
    """What is wrong with ``values`` (complete answers, as :func:`blank`), in words."""
    out = []
    for element in ELEMENTS:
        value = values.get(element.name)
        if element.kind == "choice":
            if value not in dict(element.answers()):
                out.append(str(_("Choose one of the answers offered.")))
            elif (
                element.after
                and value in dict(element.choices)
                and values.get(element.after) != element.when
            ):
                out.append(
                    str(_("%(question)s: answer this only when it applies."))
                    % {"question": element.label}
                )
        elif element.kind == "date":
            if value and not (EARLIEST <= (date_of(value) or dt.date.min) <= timezone.localdate()):
                out.append(str(_("Give a date between 1940 and today.")))
        elif element.kind == "many":
            if not isinstance(value, list) or not set(value) <= set(dict(element.choices)):
                out.append(str(_("Choose among the answers offered.")))
            elif value and values.get(element.after) != "yes":
                out.append(
                    str(_("%(question)s: tick these only when the answer above is yes."))
                    % {"question": element.label}
                )
        elif value:
            amount = amount_of(value)
            if amount is None or amount > AMOUNT_MAX:
                out.append(str(_("Give the monthly amount as a number of dollars.")))
            elif element.total:
                total = amount_of(values.get(element.total))
                problem = earned_problem(amount, values.get(element.after), total)
                if problem is not None:
                    out.append(str(problem))
    return out


def field_words() -> dict[str, Any]:
    """Each stored answer's name, in words (what an audit event lists as changed)."""
    return {
        **{e.name: e.label for e in ELEMENTS},
        EARLIER: _("Earlier annual assessments"),
    }


def earlier_shown(values: dict[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
    """The earlier annual assessments, latest first: each its day and its answers in words."""
    latest = values.get("annual_on")
    out = []
    for assessment in reversed(assessments(values)):
        if assessment["annual_on"] == latest:
            continue
        day = date_of(assessment["annual_on"])
        words = date_format(day, "DATE_FORMAT") if day is not None else "—"
        out.append((words, shown(assessment, ANNUAL_ELEMENTS[1:])))
    return out


def shown(
    values: dict[str, Any], elements: tuple[Element, ...] | None = None
) -> list[tuple[str, str]]:
    """Each question (of ``elements``, every one by default) and its answer in words."""
    out = []
    for element in ELEMENTS if elements is None else elements:
        value = values.get(element.name)
        if element.kind == "choice":
            words = str(dict(element.answers()).get(str(value), UNKNOWN[2][1]))
        elif element.kind == "many":
            labels = dict(element.choices)
            words = ", ".join(str(labels[v]) for v in value or [] if v in labels) or "—"
        elif element.kind == "date":
            day = date_of(value)
            words = date_format(day, "DATE_FORMAT") if day is not None else "—"
        else:
            amount = amount_of(value)
            words = f"${amount:,.2f}" if amount is not None else "—"
        out.append((str(element.label), words))
    return out


HOMELESS = ("place_not_meant", "emergency_shelter", "safe_haven")
#: The codes offered for the answers that chronic homelessness is worked out from, and each
#: living situation's group: made once, not for each person a report counts.
LIVING_CODES = frozenset(code for code, _l in LIVING)
LIVING_GROUP: dict[str, str] = {
    code: group for group, _l, items in LIVING_GROUPS for code, _w in items
}
PRIOR_LENGTH_CODES = frozenset(code for code, _l in PRIOR_LENGTH)
TIMES_HOMELESS_CODES = frozenset(code for code, _l in TIMES_HOMELESS)
MONTHS_HOMELESS_CODES = frozenset(code for code, _l in MONTHS_HOMELESS)
_A_YEAR = dt.timedelta(days=365)


def _unknown(answer: Any) -> str:
    """HUD's row of an answer a question needs and lacks: "dk" for "doesn't know" or "prefers
    not to answer", "dnc" for anything else."""
    return "dk" if answer in (DONT_KNOW, PREFERS_NOT) else "dnc"


def chronically_homeless(values: dict[str, Any], started_on: dt.date) -> str:
    """Whether a person was chronically homeless at the start of support on ``started_on``,
    as HUD's reports work it out from the answers at entry: "yes", "no", "dk" (an answer it
    needs is "doesn't know" or "prefers not to answer") or "dnc" (one is not collected).

    A disabling condition, and homelessness (on the streets, in an emergency shelter or a safe
    haven, or just before a short stay elsewhere) for a year or more, at once or over four
    times or more in three years adding up to twelve months."""

    disabling = values.get("conditions_any")
    if disabling != "yes":
        return "no" if disabling == "no" else _unknown(disabling)
    prior = values.get("prior_living")
    if prior not in HOMELESS:
        if prior not in LIVING_CODES:
            return _unknown(prior)
        length = values.get("prior_length")
        if length not in PRIOR_LENGTH_CODES:
            return _unknown(length)
        short = INSTITUTIONAL_SHORT if LIVING_GROUP[prior] == "institutional" else OTHER_SHORT
        if length not in short:
            return "no"
        night = values.get("prior_night_street")
        if night != "yes":
            return "no" if night == "no" else _unknown(night)
    since = date_of(values.get("homeless_since"))
    if since is not None and since <= started_on - _A_YEAR:
        return "yes"
    times = values.get("times_homeless")
    if times not in TIMES_HOMELESS_CODES:
        return _unknown(times)
    if times != "four_plus":
        return "no"
    months = values.get("months_homeless")
    if months not in MONTHS_HOMELESS_CODES:
        return _unknown(months)
    return "yes" if months in ("12", "more_than_12") else "no"
