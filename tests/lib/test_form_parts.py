"""A service's refusal goes on the form: each message on the field it names, else on the form as a
whole; with a field prefix, on the form's prefixed field first."""

from __future__ import annotations

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from caseflow.lib.form_parts import errors_onto


class Rating(forms.Form):
    """Named like wellbeing's form: each question's field is its code after ``q_``."""

    q_mood = forms.IntegerField(required=False)
    q_sleep = forms.IntegerField(required=False)
    sleep = forms.IntegerField(required=False)
    words = forms.CharField(required=False)


def _bound() -> Rating:
    form = Rating({"q_mood": "3", "q_sleep": "2", "sleep": "1", "words": "tired"})
    assert form.is_valid()
    return form


def _errors(form: Rating) -> dict[str, list[str]]:
    return {name: list(messages) for name, messages in form.errors.items()}


def test_each_message_goes_on_the_field_it_names_and_the_rest_on_the_form():
    form = _bound()
    errors_onto(
        form,
        ValidationError(
            {
                "words": ["Too long.", "Not allowed."],
                "checkin": ["Not on this case."],
            }
        ),
    )
    assert _errors(form) == {
        "words": ["Too long.", "Not allowed."],
        NON_FIELD_ERRORS: ["Not on this case."],
    }
    assert "words" not in form.cleaned_data


def test_a_refusal_of_no_field_goes_on_the_form():
    form = _bound()
    errors_onto(form, ValidationError("Nothing was saved."))
    assert _errors(form) == {NON_FIELD_ERRORS: ["Nothing was saved."]}


def test_without_a_prefix_a_code_does_not_reach_the_prefixed_field():
    form = _bound()
    errors_onto(form, ValidationError({"mood": ["Out of range."]}))
    assert _errors(form) == {NON_FIELD_ERRORS: ["Out of range."]}


def test_with_a_prefix_a_code_goes_on_the_prefixed_field():
    form = _bound()
    errors_onto(form, ValidationError({"mood": ["Out of range."]}), field_prefix="q_")
    assert _errors(form) == {"q_mood": ["Out of range."]}
    assert "q_mood" not in form.cleaned_data


def test_with_a_prefix_the_prefixed_field_wins_over_the_plain_one():
    form = _bound()
    errors_onto(form, ValidationError({"sleep": ["Out of range."]}), field_prefix="q_")
    assert _errors(form) == {"q_sleep": ["Out of range."]}
    assert form.cleaned_data["sleep"] == 1


def test_with_a_prefix_a_name_with_no_prefixed_field_goes_on_its_own_field_else_the_form():
    form = _bound()
    errors_onto(
        form,
        ValidationError({"words": ["Too long."], "checkin": ["Not on this case."]}),
        field_prefix="q_",
    )
    assert _errors(form) == {
        "words": ["Too long."],
        NON_FIELD_ERRORS: ["Not on this case."],
    }


def test_with_a_prefix_a_refusal_of_no_field_still_goes_on_the_form():
    form = _bound()
    errors_onto(form, ValidationError("Nothing was saved."), field_prefix="q_")
    assert _errors(form) == {NON_FIELD_ERRORS: ["Nothing was saved."]}
