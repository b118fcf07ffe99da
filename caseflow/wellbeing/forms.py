"""The form for her own rating (the agency's questions, each a whole number on its scale, and her
words), and the agency admin's choice of questions."""

from __future__ import annotations

from typing import Any

from django import forms

from caseflow.lib.form_parts import submit_helper
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.wellbeing.questions import PRESETS, QUESTIONS, SAFE, Preset, Question
from caseflow.wellbeing.services import WORDS_MAX

PREFIX = "q_"


def _scale_help(question: Question) -> str:
    return str(
        _("%(low)s is %(low_words)s, %(high)s is %(high_words)s.")
        % {
            "low": question.low,
            "low_words": question.low_words,
            "high": question.high,
            "high_words": question.high_words,
        }
    )


class RatingForm(forms.Form):
    """Her answers to the agency's questions (each optional, at least one) and her words."""

    words = forms.CharField(
        required=False,
        max_length=WORDS_MAX,
        widget=forms.Textarea({"rows": 3}),
        label=_("In her own words (optional)"),
        help_text=_("What she said about how she feels, as she put it."),
    )
    checkin = forms.CharField(required=False, widget=forms.HiddenInput)
    note = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, questions: list[Question], ask_words: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.questions = list(questions)
        fields = {}
        for question in self.questions:
            scale = _("Her answer is a number from %(low)s to %(high)s.") % {
                "low": question.low,
                "high": question.high,
            }
            fields[PREFIX + question.code] = forms.IntegerField(
                label=question.text,
                required=False,
                min_value=question.low,
                max_value=question.high,
                help_text=_scale_help(question),
                error_messages={"invalid": scale, "min_value": scale, "max_value": scale},
                widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
            )
        # The questions first, then her words.
        self.fields = {**fields, **self.fields}
        if not ask_words:
            del self.fields["words"]
        self.helper = submit_helper(_("Save her rating"))
        self.helper.form_id = "rating-form"

    def clean(self):
        data = super().clean()
        if not self.answers() and not any(PREFIX + q.code in self.errors for q in self.questions):
            raise forms.ValidationError(_("Record at least one of her answers."))
        return data

    def answers(self) -> dict[str, int]:
        """{question code: number} of the questions answered."""
        cleaned = getattr(self, "cleaned_data", {})
        return {
            q.code: cleaned[PREFIX + q.code]
            for q in self.questions
            if cleaned.get(PREFIX + q.code) is not None
        }


class QuestionSetForm(forms.Form):
    preset = forms.ChoiceField(
        label=_("Questions to ask"),
        choices=Preset.choices,
        widget=forms.RadioSelect,
    )
    off = forms.MultipleChoiceField(
        label=_("Questions of the set your agency does not ask"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("How safe she feels is always asked: closing reads it."),
    )
    ask_words = forms.BooleanField(
        label=_("Write down her own words with her numbers"),
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        off = self.fields["off"]
        assert isinstance(off, forms.MultipleChoiceField)
        off.choices = [
            (code, QUESTIONS[code].short)
            for code in QUESTIONS
            if code != SAFE and any(code in codes for codes in PRESETS.values())
        ]
        self.helper = submit_helper(_("Save the questions"))

    def clean(self):
        data = super().clean()
        preset = data.get("preset")
        off = data.get("off") or []
        if preset and set(off) - set(PRESETS[preset]):
            self.add_error("off", _("Choose questions of the set you chose."))
        return data
