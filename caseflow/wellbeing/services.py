"""Recording the survivor's own rating, and choosing the agency's questions. Each checks policy
itself and is audited; the audit holds which questions were answered, never her numbers or words."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.models import Case
from caseflow.casework.models import CaseNote
from caseflow.checkins.models import CheckIn
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.wellbeing.models import QuestionSet, Rating
from caseflow.wellbeing.questions import PRESETS, SAFE, Preset, answer_problem

WORDS_MAX = 2000
#: How far back a rating may be dated (she told us last week), and how little ahead.
EARLIEST = dt.timedelta(days=366)
CLOCK_SLACK = dt.timedelta(minutes=5)


def answers_problems(answers: dict[str, Any]) -> dict[str, str]:
    """{question code: why its answer cannot be kept} for every bad answer."""
    return {
        code: problem for code, value in answers.items() if (problem := answer_problem(code, value))
    }


@transaction.atomic
def rating_record(
    *,
    actor: User,
    case: Case,
    answers: dict[str, int],
    words: str = "",
    taken_at: dt.datetime | None = None,
    checkin: CheckIn | None = None,
    note: CaseNote | None = None,
) -> Rating:
    """Record her answers (at least one) and, if given, her own words. Taken at a check-in or
    with a note, the rating is dated by it (the check-in's time, the note's), unless it is ahead."""
    policy.require(actor, case, "edit")
    now = timezone.now()
    if taken_at is None:
        taken_at = now
        if checkin is not None and checkin.due_at <= now:
            taken_at = checkin.due_at
        elif note is not None and note.occurred_at <= now:
            taken_at = note.occurred_at
    if not answers:
        raise ValidationError(_("Record at least one of her answers."))
    problems = answers_problems(answers)
    if problems:
        raise ValidationError(problems)
    if taken_at > now + CLOCK_SLACK or taken_at < now - EARLIEST:
        raise ValidationError(_("A rating is dated within the last year, and not ahead."))
    for linked in (checkin, note):
        if linked is not None and linked.case_id != case.pk:
            raise PermissionDenied
    words = (words or "").strip()
    if len(words) > WORDS_MAX:
        raise ValidationError(_("Her words are kept to %(max)s characters.") % {"max": WORDS_MAX})
    rating = Rating(
        case=case,
        taken_at=taken_at,
        checkin=checkin,
        note=note,
        answers={code: int(value) for code, value in answers.items()},
        words=words,
        recorded_by=actor,
    )
    rating.save()
    record(
        "wellbeing.record",
        actor=actor,
        case=case,
        obj=rating,
        detail={
            "questions": sorted(answers),
            "words": bool(words),
            "at": "checkin" if checkin else ("note" if note else ""),
        },
    )
    return rating


@transaction.atomic
def question_set_save(*, actor: User, preset: str, off: list[str], ask_words: bool) -> QuestionSet:
    """Choose the agency's questions: a preset, the questions of it not asked, her words."""
    agency_id = policy.agency_id_of(actor)
    if not policy.is_agency_admin(actor) or agency_id is None:
        raise PermissionDenied
    if preset not in Preset.values:
        raise ValidationError({"preset": _("Choose one of the sets of questions.")})
    off = sorted(set(off))
    if SAFE in off:
        raise ValidationError({"off": _("How safe she feels is always asked.")})
    if set(off) - set(PRESETS[preset]):
        raise ValidationError({"off": _("Choose questions of the set you chose.")})
    row, _created = QuestionSet.objects.get_or_create(agency_id=agency_id)
    changed = [
        name
        for name, value in (("preset", preset), ("off", off), ("ask_words", ask_words))
        if getattr(row, name) != value
    ]
    row.preset, row.off, row.ask_words = preset, off, ask_words
    row.updated_by = actor
    row.save()
    record(
        "wellbeing.settings",
        actor=actor,
        obj=row,
        detail={"changed": changed, "preset": preset, "off": off, "ask_words": ask_words},
    )
    return row
