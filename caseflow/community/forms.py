"""The two quick forms: a session held, a survey handed back."""

from __future__ import annotations

from typing import Any

from django import forms

from caseflow.community.models import (
    STATEMENTS,
    Audience,
    SessionKind,
    SurveyAnswer,
    SurveyService,
)
from caseflow.community.services import MOST_PARTICIPANTS
from caseflow.lib.form_parts import date_field, submit_helper
from caseflow.lib.i18n import gettext_lazy as _


class SessionForm(forms.Form):
    held_on = date_field(_("Day of the session"))
    kind = forms.ChoiceField(
        label=_("What kind of session"), choices=SessionKind.choices, widget=forms.RadioSelect
    )
    audience = forms.ChoiceField(
        label=_("Who it was for"), choices=Audience.choices, widget=forms.RadioSelect
    )
    participants = forms.IntegerField(
        label=_("How many people came"), min_value=1, max_value=MOST_PARTICIPANTS
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Record the session"))


class SurveyForm(forms.Form):
    returned_on = date_field(_("Day it was handed back"))
    service = forms.ChoiceField(
        label=_("The service it is about"), choices=SurveyService.choices, widget=forms.RadioSelect
    )
    safety = forms.ChoiceField(
        label=STATEMENTS["safety"], choices=SurveyAnswer.choices, widget=forms.RadioSelect
    )
    resources = forms.ChoiceField(
        label=STATEMENTS["resources"], choices=SurveyAnswer.choices, widget=forms.RadioSelect
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Count this survey"))
