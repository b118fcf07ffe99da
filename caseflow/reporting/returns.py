"""The SafeLives Insights return: one row per exit (a closure of an episode of support) in a
calendar quarter, for the survivors who agreed to anonymised data about their support being
shared with SafeLives Insights for research (``confidentiality.ResearchConsent``, "agreed" when
the file is prepared). Everyone else is left out and only counted.

A per-person file is a disclosure of pseudonymised personal data, so it holds codes only: no
name, date of birth (the age band only), address, public id, free text, or date finer than a
month. Each row's reference is a keyed HMAC of the case, under a key of the agency's own derived
on the server from ``BLIND_INDEX_KEY`` (:func:`pseudonym`): stable for a case from one return to
the next, different for the same case number in another agency, and impossible to work out
outside caseflow. The columns and their codes: the reporting README, "SafeLives Insights
return". SafeLives' own data dictionary is not public; the columns are caseflow's plain names.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import hmac
import io
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from caseflow.cases.fields import agency_field_config
from caseflow.cases.models import (
    Closure,
    ClosureState,
    IntakeField,
    StandardClosureReason,
)
from caseflow.casework.models import Need, NeedKind, NeedStatus, NeedStatusChange
from caseflow.confidentiality.models import ResearchAnswer, ResearchConsent
from caseflow.lib.csvcells import csv_cell
from caseflow.partners.models import DECLINED, NOT_ASKED, ONS_GROUPS, MeetingReferral
from caseflow.reporting import reports
from caseflow.reporting.reports import Period, agency_days, read_answers

SLUG = "insights_return"


@dataclass(frozen=True)
class ReturnKind:
    """What the prepared-report pages show of the return (a funder report's kind has the same
    names)."""

    slug: str
    title: Any
    description: Any
    #: Calendar quarters, as the Insights-style outcomes report (``reports.periods``).
    period: str


KIND = ReturnKind(
    SLUG,
    gettext_lazy("SafeLives Insights return (one row per exit)"),
    gettext_lazy(
        "The quarter's exits of the people who agreed to share anonymised data with SafeLives "
        "Insights, one coded row each, prepared in the background."
    ),
    "quarter",
)

NOT_RECORDED = "not_recorded"

#: Length of support, from the episode's opening to its closure, in days: (upper bound, code).
LENGTHS = [
    (31, "under_1_month"),
    (92, "1_to_3_months"),
    (183, "3_to_6_months"),
    (366, "6_to_12_months"),
]
LONGEST = "over_12_months"

#: The columns, in order. Needs: one column per kind (``need_housing``, ...).
COLUMNS = [
    "reference",
    "exit_month",
    "referral_type",
    "age_band",
    "gender",
    "ethnic_group",
    "disability",
    "risk_at_intake",
    "risk_at_exit",
    "referred_to_marac",
    *(f"need_{kind}" for kind in NeedKind.values),
    "length_of_support",
    "exit_reason",
    "abuse_change",
    "feels_safer",
    "quality_of_life_start",
    "quality_of_life_exit",
]

#: Survivors' answers read for the file (``reports.read_answers``).
QUESTIONS = ("age_band", "gender_identity", "disability", "ethnic_group")


def pseudonym(agency_id: int, case_id: int) -> str:
    """The row's reference: HMAC-SHA256 of the case under the agency's own return key (itself
    an HMAC of the agency under the server's ``BLIND_INDEX_KEY``, with a label of its own so
    that it is no blind index), 32 hex characters."""
    agency_key = hmac.new(
        settings.BLIND_INDEX_KEY.encode(),
        f"caseflow insights return\x1f{agency_id}".encode(),
        hashlib.sha256,
    ).digest()
    return hmac.new(agency_key, str(case_id).encode(), hashlib.sha256).hexdigest()[:32]


def length_band(days: int) -> str:
    for upper, code in LENGTHS:
        if days < upper:
            return code
    return LONGEST


def _need_code(statuses: Iterable[str]) -> str:
    """A kind of need at exit: met if one was met, not met if one is still open, no longer
    needed if that is all there is, none if none was identified."""
    found = set(statuses)
    if not found:
        return "none"
    if NeedStatus.MET in found:
        return "met"
    if found & {NeedStatus.IDENTIFIED, NeedStatus.IN_PROGRESS}:
        return "not_met"
    return "no_longer_needed"


class _NeedsAtExit:
    """The cases' needs as they stood on a day: each need's status after its last change on or
    before that day (from its history); a need with no history (recorded before it was kept)
    counts from the day it was identified, with its status now."""

    def __init__(self, case_ids: list[int]) -> None:
        self.history: dict[int, list[tuple[int, str, str, dt.date]]] = defaultdict(list)
        changes = (
            NeedStatusChange.objects.filter(case_id__in=case_ids)
            .order_by("changed_on", "created_at", "pk")
            .values_list("case_id", "need_id", "need__kind", "to_status", "changed_on")
        )
        for case_id, need_id, kind, status, day in changes:
            self.history[case_id].append((need_id, kind, status, day))
        with_history = {need_id for rows in self.history.values() for need_id, *_rest in rows}
        self.plain: dict[int, list[tuple[int, str, str, dt.date]]] = defaultdict(list)
        for case_id, need_id, kind, status, day in (
            Need.objects.filter(case_id__in=case_ids)
            .exclude(pk__in=with_history)
            .values_list("case_id", "pk", "kind", "status", "identified_on")
        ):
            self.plain[case_id].append((need_id, kind, status, day))

    def at(self, case_id: int, day: dt.date) -> dict[str, list[str]]:
        """{kind: [status of each need of that kind]} on ``day``."""
        stood: dict[int, tuple[str, str]] = {}
        for need_id, kind, status, changed_on in self.history.get(case_id, []):
            if changed_on <= day:
                stood[need_id] = (kind, status)
        for need_id, kind, status, identified_on in self.plain.get(case_id, []):
            if identified_on <= day:
                stood[need_id] = (kind, status)
        out: dict[str, list[str]] = defaultdict(list)
        for kind, status in stood.values():
            out[kind].append(status)
        return out


@dataclass
class PersonReturn:
    period: Period
    #: One list of codes per included exit, in :data:`COLUMNS` order.
    rows: list[list[str]] = field(default_factory=list)
    #: The exits of the period left out (no "agreed" answer): a count, nothing else.
    left_out: int = 0
    #: The cases whose exits are in the file (for their audit record).
    case_ids: list[int] = field(default_factory=list)

    def csv_bytes(self) -> bytes:
        out = io.StringIO(newline="")
        writer = csv.writer(out)
        label = reports.calendar_quarter(self.period.start).label
        writer.writerow([csv_cell(_("SafeLives Insights return")), csv_cell(label)])
        writer.writerow([csv_cell(_("Exits in this file")), len(self.rows)])
        writer.writerow(
            [
                csv_cell(_("Exits left out: no agreement to share with SafeLives Insights")),
                self.left_out,
            ]
        )
        writer.writerow([])
        writer.writerow(COLUMNS)
        writer.writerows([csv_cell(c) for c in row] for row in self.rows)
        return out.getvalue().encode("utf-8")


@agency_days
def build(agency_id: int, period: Period) -> PersonReturn:
    """The return of ``agency_id`` for ``period``: its exits in the period, those of people who
    agreed only. Moves :func:`reports.step` as it goes."""
    closures: list[Any] = list(
        Closure.objects.filter(
            case__agency_id=agency_id,
            state=ClosureState.CLOSED,
            closed_at__gte=period.since,
            closed_at__lt=period.until,
        )
        .order_by("closed_at", "pk")
        .values_list(
            "case_id",
            "closed_at",
            "episode__opened_at",
            "episode__start",
            "risk_at_intake",
            "risk_at_exit",
            "abuse_change",
            "feels_safer",
            "reason__standard",
            "quality_of_life_start",
            "quality_of_life_exit",
            named=True,
        )
    )
    agreed = set(
        ResearchConsent.objects.filter(
            case_id__in={c.case_id for c in closures}, answer=ResearchAnswer.AGREED
        ).values_list("case_id", flat=True)
    )
    included = [c for c in closures if c.case_id in agreed]
    result = PersonReturn(period=period, left_out=len(closures) - len(included))
    reports.step()
    ids = sorted({c.case_id for c in included})
    answers = dict(read_answers(ids, QUESTIONS))
    asks_ethnic_group = not agency_field_config(agency_id)[IntakeField.DEMOGRAPHIC_ETHNIC_GROUP][
        "hidden"
    ]
    group_of = {a: g for g, (_label, members) in ONS_GROUPS.items() for a in members}
    reports.step()
    needs = _NeedsAtExit(ids)
    marac: dict[int, list[dt.date]] = defaultdict(list)
    for case_id, referred_on in MeetingReferral.objects.filter(case_id__in=ids).values_list(
        "case_id", "referred_on"
    ):
        marac[case_id].append(referred_on)
    reports.step()
    for c in included:
        given = answers.get(c.case_id, {})
        exit_day = timezone.localdate(c.closed_at)
        opened = c.episode__opened_at or c.closed_at
        ethnic = NOT_ASKED
        if asks_ethnic_group:
            answer = given.get("ethnic_group", NOT_ASKED)
            ethnic = group_of.get(answer, answer if answer in (DECLINED, NOT_ASKED) else NOT_ASKED)
        case_needs = needs.at(c.case_id, exit_day)
        row = [
            pseudonym(agency_id, c.case_id),
            f"{exit_day:%Y-%m}",
            c.episode__start,
            given.get("age_band", NOT_ASKED),
            given.get("gender_identity", NOT_ASKED),
            ethnic,
            given.get("disability", NOT_ASKED),
            c.risk_at_intake,
            c.risk_at_exit,
            "yes" if any(day <= exit_day for day in marac.get(c.case_id, [])) else "no",
            *(_need_code(case_needs.get(kind, [])) for kind in NeedKind.values),
            length_band((c.closed_at - opened).days),
            c.reason__standard or StandardClosureReason.OTHER,
            c.abuse_change,
            c.feels_safer,
            str(c.quality_of_life_start or NOT_RECORDED),
            str(c.quality_of_life_exit or NOT_RECORDED),
        ]
        result.rows.append([str(value) for value in row])
    result.case_ids = ids
    reports.step()
    return result
