"""Reading ratings and question sets: always inside a case already resolved through policy, or
for the agency the caller names."""

from __future__ import annotations

import datetime as dt

from django.db.models import QuerySet

from caseflow.cases.models import Case
from caseflow.casework.models import CaseNote
from caseflow.checkins.models import CheckIn, CheckInOutcome
from caseflow.lib.compiled import CompiledQuery
from caseflow.wellbeing.models import QuestionSet, Rating
from caseflow.wellbeing.questions import QUESTIONS, Preset, Question

#: The outcomes of a check-in at which she was reached (so could be asked).
REACHED = (CheckInOutcome.REACHED,)
#: How recent a reached check-in is for the case page to offer rating it.
OFFER_FOR = dt.timedelta(days=3)


def question_set(agency_id: int) -> QuestionSet:
    """The agency's question set (the default two questions until an admin chooses)."""
    found = QuestionSet.objects.filter(agency_id=agency_id).first()
    return found if found is not None else QuestionSet(agency_id=agency_id, preset=Preset.DEFAULT)


def checkin_on(case: Case, pk: object) -> CheckIn | None:
    """The check-in ``pk`` of ``case``, or ``None`` (not a number, another case's, none)."""
    try:
        number = int(str(pk))
    except (TypeError, ValueError):
        return None
    found = CheckIn.objects.filter(case=case, pk=number).first()
    if found is not None:
        found.case = case
    return found


def note_on(case: Case, public_id: object) -> CaseNote | None:
    """The note ``public_id`` of ``case``, or ``None``."""
    if not isinstance(public_id, str) or not public_id:
        return None
    found = CaseNote.objects.filter(case=case, public_id=public_id).first()
    if found is not None:
        found.case = case
    return found


def ratings_of(case: Case, since: dt.datetime | None = None) -> list[Rating]:
    """The case's ratings, oldest first (one query)."""
    rows = Rating.objects.filter(case=case)
    if since is not None:
        rows = rows.filter(taken_at__gte=since)
    found = list(rows.order_by("taken_at", "pk"))
    for row in found:
        row.case = case
    return found


def _latest_reached(*, case: int, since: dt.datetime, now: dt.datetime) -> QuerySet[CheckIn]:
    # What ``.first()`` sends: the first row of the ordered query.
    return CheckIn.objects.filter(
        case=case, outcome__in=REACHED, outcome_at__gte=since, outcome_at__lte=now
    ).order_by("-outcome_at", "-pk")[:1]


#: Every case page asks it: its SQL is built once per process.
_LATEST_REACHED = CompiledQuery(
    CheckIn, _latest_reached, case="int", since="datetime", now="datetime"
)


def checkin_to_rate(case: Case, now: dt.datetime) -> CheckIn | None:
    """The latest check-in of the last few days at which she was reached and no rating was
    taken: what the case page offers to rate."""
    found = _LATEST_REACHED.rows(case=case.pk, since=now - OFFER_FOR, now=now)
    latest = found[0] if found else None
    if latest is None or Rating.objects.filter(case=case, checkin=latest).exists():
        return None
    latest.case = case
    return latest


def trend_points(case: Case, since: dt.datetime) -> list[tuple[dt.datetime, str, int]]:
    """Her answers from ``since`` as (moment, question code, number), for the journey's trend."""
    points = []
    for rating in ratings_of(case, since):
        for code, value in (rating.answers or {}).items():
            if code in QUESTIONS and isinstance(value, int):
                points.append((rating.taken_at, code, value))
    return points


def series() -> dict[str, Question]:
    return dict(QUESTIONS)
