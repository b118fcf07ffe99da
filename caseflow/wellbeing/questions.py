"""The questions of the survivor's own rating, and the sets an agency chooses from.

A question is a code with a scale, written in the reader's language when shown; a rating stores
``{code: number}``. Codes are shared between the sets, so a trend goes on when an agency changes
its set: "safe" (how safe she feels) is in every set, and it is the one closing reads for "feels
safer" (:mod:`caseflow.wellbeing.closure`).

The sets follow the outcome areas of SafeLives Insights (feeling safe, quality of life, confidence
to get help) and the VOCA/FVPSA outcome measures (strategies for her safety, knowing where to get
help); the words are caseflow's own. An agency picks one set and may turn its questions off
(:class:`caseflow.wellbeing.models.QuestionSet`); there is no free-form question builder.

Conventions: scales are whole numbers from ``low`` to ``high`` inclusive; a higher number is
always better for her.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import models

from caseflow.lib.i18n import gettext_lazy as _

#: The code of the question closing reads ("how safe she feels"), present in every set.
SAFE = "safe"


@dataclass(frozen=True)
class Question:
    code: str
    #: The question as the advocate asks it.
    text: Any
    #: Short words for the trend and the timeline ("How safe she feels").
    short: Any
    low: int
    high: int
    low_words: Any
    high_words: Any
    #: The line's colour on the journey's trend picture.
    colour: str

    def in_scale(self, value: int) -> bool:
        return self.low <= value <= self.high

    @property
    def scale(self) -> str:
        return f"{self.low}–{self.high}"


QUESTIONS: dict[str, Question] = {
    q.code: q
    for q in (
        Question(
            SAFE,
            _("How safe does she feel right now?"),
            _("How safe she feels"),
            0,
            10,
            _("not safe at all"),
            _("completely safe"),
            "#0a58ca",
        ),
        Question(
            "coping",
            _("How is she coping?"),
            _("How she is coping"),
            0,
            10,
            _("not coping at all"),
            _("coping well"),
            "#6f42c1",
        ),
        Question(
            "quality_of_life",
            _("How does she rate her quality of life?"),
            _("Her quality of life"),
            0,
            10,
            _("very poor"),
            _("very good"),
            "#146c43",
        ),
        Question(
            "confidence",
            _("How confident does she feel about getting help when she needs it?"),
            _("Her confidence to get help"),
            0,
            10,
            _("not confident at all"),
            _("very confident"),
            "#a52834",
        ),
        Question(
            "safety_strategies",
            _("She knows more ways to plan for her safety: how much does she agree?"),
            _("She knows ways to plan for her safety"),
            1,
            5,
            _("strongly disagree"),
            _("strongly agree"),
            "#8a6100",
        ),
        Question(
            "know_resources",
            _("She knows more about where to get help: how much does she agree?"),
            _("She knows where to get help"),
            1,
            5,
            _("strongly disagree"),
            _("strongly agree"),
            "#495057",
        ),
    )
}


class Preset(models.TextChoices):
    DEFAULT = "default", _("Two short questions: how safe she feels, how she is coping")
    SAFELIVES = "safelives", _("SafeLives Insights: safety, quality of life, confidence")
    VOCA = "voca", _("VOCA outcomes: safety, safety planning, knowing where to get help")


PRESETS: dict[str, tuple[str, ...]] = {
    Preset.DEFAULT: (SAFE, "coping"),
    Preset.SAFELIVES: (SAFE, "quality_of_life", "confidence"),
    Preset.VOCA: (SAFE, "safety_strategies", "know_resources"),
}


def questions_of(preset: str, off: list[str] | tuple[str, ...] = ()) -> list[Question]:
    """The questions asked under ``preset``, less those turned ``off`` (never "safe")."""
    codes = PRESETS.get(preset, PRESETS[Preset.DEFAULT])
    return [QUESTIONS[code] for code in codes if code == SAFE or code not in off]


def answer_problem(code: str, value: Any) -> str:
    """Why ``value`` cannot be the answer to the question ``code`` ("" when it can)."""
    question = QUESTIONS.get(code)
    if question is None:
        return str(_("That question is not one of the rating's questions."))
    if isinstance(value, bool) or not isinstance(value, int):
        return str(_("Enter a whole number."))
    if not question.in_scale(value):
        return str(
            _("Her answer is a number from %(low)s to %(high)s.")
            % {"low": question.low, "high": question.high}
        )
    return ""
