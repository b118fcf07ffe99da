"""The survivor's own rating of how she is, and the questions her agency asks for it.

A :class:`Rating` is taken at a check-in, with a note, or on its own: her answers as numbers per
question code (:mod:`caseflow.wellbeing.questions`) and, if she wants them written down, her own
words. Both are encrypted with the case's data key. Ratings are case data: on the case's pages,
its timeline and its exports under a release; never in reports.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from caseflow.accounts.models import Agency
from caseflow.cases.models import Case, CaseOwned, new_public_id
from caseflow.lib.encryption import EncryptedJSONField, EncryptedTextField
from caseflow.wellbeing.questions import QUESTIONS, Preset, Question, questions_of


class QuestionSet(models.Model):
    """Which questions an agency asks: a set chosen from the presets, with some questions
    turned off, and whether her own words are written down with her numbers."""

    agency = models.OneToOneField(
        Agency, on_delete=models.CASCADE, related_name="wellbeing_questions"
    )
    preset = models.CharField(max_length=16, choices=Preset.choices, default=Preset.DEFAULT)
    # Question codes of the preset the agency does not ask.
    off = models.JSONField(default=list, blank=True)
    ask_words = models.BooleanField(default=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Wellbeing questions of agency {self.agency_id}"

    @property
    def questions(self) -> list[Question]:
        return questions_of(self.preset, list(self.off or []))


class Rating(CaseOwned):
    """The survivor's own answers, once, in her own numbers and words."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="wellbeing_ratings")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    taken_at = models.DateTimeField(default=timezone.now)
    # Where it was taken, if at a check-in or with a note (by app label: they sit below).
    checkin = models.ForeignKey(
        "checkins.CheckIn", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    note = models.ForeignKey(
        "casework.CaseNote", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # {question code: whole number within its scale}.
    answers = EncryptedJSONField(default=dict)
    words = EncryptedTextField(blank=True, default="")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    narrative_fields = ("words",)
    # Her numbers are structured data: a partial purge keeps them, so her trend stays.
    kept_encrypted_fields = ("answers",)

    class Meta:
        ordering = ["taken_at", "pk"]
        indexes = [models.Index(fields=["case", "taken_at"])]

    def __str__(self) -> str:
        return f"Rating {self.public_id}"

    def answer_rows(self) -> list[tuple[Question, int]]:
        """Her answers as (question, number), in the questions' order; unknown codes left out."""
        answers = self.answers or {}
        return [(q, answers[code]) for code, q in QUESTIONS.items() if code in answers]
