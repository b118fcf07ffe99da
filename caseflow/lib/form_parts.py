"""Pieces every part of caseflow's forms is built from (crispy-forms, Bootstrap 5)."""

from __future__ import annotations

from typing import Any

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Field, Layout, Submit
from django import forms
from django.core.exceptions import ValidationError

from caseflow.lib.date_parts import DatePartsField

#: How a date typed in parts is shown: a fieldset whose legend is the field's label.
DATE_PARTS_TEMPLATE = "forms/date_parts_field.html"


def submit_helper(label: Any, method: str = "post") -> FormHelper:
    """A form helper with one submit button saying ``label``."""
    helper = FormHelper()
    helper.form_method = method
    helper.add_input(Submit("submit", label))
    return helper


def date_field(label: Any, required: bool = True, **kw: Any) -> forms.DateField:
    """A day, picked with the browser's date input. Its value is written year-month-day
    whatever the reader's language, as the date input needs (a localised value would show as
    empty)."""
    return forms.DateField(
        label=label,
        required=required,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        **kw,
    )


def moment_field(label: Any, required: bool = True, **kw: Any) -> forms.DateTimeField:
    """A day and a time, picked with the browser's date-and-time input, written
    year-month-dayThour:minute whatever the reader's language (the order the input reads, so a
    typed day and month cannot be swapped)."""
    return forms.DateTimeField(
        label=label,
        required=required,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        **kw,
    )


def layout_with_date_parts(form: forms.Form) -> Layout:
    """The form's fields in order, each date typed in parts shown as its own fieldset (call it
    once the form has dropped the fields it does not ask for)."""
    return Layout(
        *(
            Field(name, template=DATE_PARTS_TEMPLATE) if isinstance(field, DatePartsField) else name
            for name, field in form.fields.items()
        )
    )


#: The integers every database caseflow runs on can store (a 64-bit signed column).
_LARGEST_ID = 2**63 - 1


class ChosenRows(forms.ModelMultipleChoiceField):
    """Several rows chosen by id (staff, teams). A posted id larger than any database column can
    hold is refused like any other id that is not one of the choices: Django would hand it to
    the database in ``pk__in``, where SQLite raises ``OverflowError`` (a 500 instead of a form
    error)."""

    def clean(self, value: Any) -> Any:
        for pk in value if isinstance(value, list | tuple) else ():
            try:
                number = int(str(pk))
            except (TypeError, ValueError):
                continue  # not a number: Django's own check says so
            if abs(number) > _LARGEST_ID:
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        return super().clean(value)


def errors_onto(form: Any, exc: ValidationError, *, field_prefix: str = "") -> None:
    """Put a service's refusal ``exc`` on ``form``: each field's messages on that field (on the
    form as a whole when it has no such field), a refusal of no field on the form.

    ``field_prefix`` is for a form whose fields are named the service's names with a prefix
    (wellbeing's ``q_`` before each question's code): a message about ``name`` goes on the
    form's field ``field_prefix + name`` when there is one, else on ``name``, else on the
    form."""
    if hasattr(exc, "error_dict"):
        for name, errors in exc.error_dict.items():
            prefixed = field_prefix + name
            target = prefixed if prefixed in form.fields else name
            for error in errors:
                form.add_error(target if target in form.fields else None, error)
    else:
        form.add_error(None, exc)
