"""Counting a service ("Count this as a service"), and the agency admin's catalogue."""

from __future__ import annotations

from typing import Any

from django import forms

from caseflow.lib.form_parts import date_field, submit_helper
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.servicelog.models import MAX_MINUTES, Scheme
from caseflow.servicelog.services import given_on_problem, minutes_problem


class ServiceCountForm(forms.Form):
    category = forms.ChoiceField(label=_("Category"))
    minutes = forms.IntegerField(
        label=_("Minutes"),
        min_value=1,
        max_value=MAX_MINUTES,
        help_text=_("How long the service took, in minutes."),
    )
    given_on = date_field(_("Given on"))

    def __init__(self, *args: Any, choices: list[tuple[Any, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = choices  # type: ignore[attr-defined]
        self.fields["category"].error_messages["required"] = _("Choose a category.")
        self.helper = submit_helper(_("Count the service"))

    def clean_minutes(self) -> int:
        value = self.cleaned_data["minutes"]
        problem = minutes_problem(value)
        if problem:
            raise forms.ValidationError(problem)
        return value

    def clean_given_on(self):
        value = self.cleaned_data["given_on"]
        problem = given_on_problem(value)
        if problem:
            raise forms.ValidationError(problem)
        return value


class SchemesForm(forms.Form):
    schemes = forms.MultipleChoiceField(
        label=_("Schemes your agency counts services by"),
        choices=Scheme.choices,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose at least one scheme.")},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Save the schemes"))
        self.helper.form_tag = False


class CategoryForm(forms.Form):
    label = forms.CharField(
        label=_("A category of your own"),
        max_length=80,
        help_text=_("A kind of service, in a few words. Never a person's name or details."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Add the category"))
        self.helper.form_tag = False
