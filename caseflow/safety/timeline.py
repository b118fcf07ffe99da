"""Safety-plan versions and risk assessments on the case timeline."""

from __future__ import annotations

from django.urls import reverse
from django.utils import formats

from caseflow.cases.models import RiskLevel
from caseflow.cases.timeline import (
    STAFF,
    SURVIVOR,
    Entry,
    Query,
    Source,
    about,
    key_of,
    newest,
    newest_compiled,
)
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.safety.hard_dates import shown_words, words_setting
from caseflow.safety.models import HardDate, RiskAssessment, SafetyPlanVersion

PLAN, RISK, HARD_DATE = "plan_version", "risk_assessment", "hard_date"
PEOPLE = frozenset({SURVIVOR, STAFF})
BODY_MAX = 300
_BANDS = dict(RiskLevel.choices)


def _name(user) -> str:
    return user.get_full_name() or user.username


def _plan_versions_of(*, case: int):
    return SafetyPlanVersion.objects.filter(case=case).select_related("author")


def plan_versions(case, query: Query) -> list[Entry]:
    if not about(query, PEOPLE):
        return []
    return [
        Entry(
            at=row.created_at,
            kind=PLAN,
            key=key_of(row.pk),
            title=_("Safety plan written") if row.number == 1 else _("Safety plan updated"),
            people=PEOPLE,
            url=reverse("safety:plan_version", args=[case.public_id, row.number]),
            facts=((_("Version"), str(row.number)), (_("By"), _name(row.author))),
        )
        for row in newest_compiled(
            SafetyPlanVersion, _plan_versions_of, query, PLAN, "created_at", case=case.pk
        )
    ]


def assessments(case, query: Query) -> list[Entry]:
    if not about(query, PEOPLE):
        return []
    qs = RiskAssessment.objects.filter(case=case).select_related("assessor", "instrument")
    entries = []
    for row in newest(qs, query, RISK, "created_at"):
        row.case = case
        facts = [
            (_("Instrument"), row.instrument.name),
            (_("Score"), f"{row.score:g}"),
            (_("By"), _name(row.assessor)),
        ]
        body = ""
        if row.override_band:
            facts.append((_("Instrument's band"), _BANDS.get(row.band, row.band)))
            reason = " ".join((row.override_reason or "").split())
            body = reason if len(reason) <= BODY_MAX else reason[: BODY_MAX - 1] + "…"
        entries.append(
            Entry(
                at=row.created_at,
                kind=RISK,
                key=key_of(row.pk),
                title=_("Risk assessed: %(effective_band)s")
                % {"effective_band": row.get_effective_band_display().lower()},
                body=body,
                people=PEOPLE,
                url=reverse("safety:assessment", args=[case.public_id, row.public_id]),
                facts=tuple(facts),
            )
        )
    return entries


def hard_dates(case, query: Query) -> list[Entry]:
    """The dates she named as hard, when they were noted: the kind of day and the day, her words
    as the body."""
    if not about(query, PEOPLE):
        return []
    qs = HardDate.objects.filter(case=case).select_related("created_by")
    entries = []
    rows = newest(qs, query, HARD_DATE, "created_at")
    setting = words_setting(case) if rows else {}
    for row in rows:
        row.case = case
        facts = [
            (_("The day"), formats.date_format(row.day, "DATE_FORMAT")),
            (_("Every year"), _("Yes") if row.yearly else _("No")),
            (_("By"), _name(row.created_by)),
        ]
        words = " ".join(shown_words(row, setting).split())
        entries.append(
            Entry(
                at=row.created_at,
                kind=HARD_DATE,
                key=key_of(row.pk),
                title=_("Hard date noted: %(kind)s")
                % {"kind": str(row.get_kind_display()).lower()},
                body=words if len(words) <= BODY_MAX else words[: BODY_MAX - 1] + "…",
                people=PEOPLE,
                url=reverse("safety:plan", args=[case.public_id]),
                facts=tuple(facts),
            )
        )
    return entries


SOURCES = (
    Source(
        kind=PLAN,
        label=_("Safety plan versions"),
        fetch=plan_versions,
        model=SafetyPlanVersion,
        order=20,
        categories=frozenset({"safety_plan"}),
    ),
    Source(
        kind=RISK,
        label=_("Risk assessments"),
        fetch=assessments,
        model=RiskAssessment,
        order=21,
        categories=frozenset({"risk", "narratives"}),
    ),
    Source(
        kind=HARD_DATE,
        label=_("Hard dates"),
        fetch=hard_dates,
        model=HardDate,
        order=22,
        categories=frozenset({"safety_plan", "narratives"}),
    ),
)
