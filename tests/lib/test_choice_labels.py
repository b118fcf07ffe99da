"""``get_FOO_display()`` from each field's labels kept says what Django's says, in the language
active when it is asked."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db.models import Model
from django.utils import translation

from caseflow.cases.models import Case
from caseflow.checkins.models import CheckIn
from caseflow.lib.choice_labels import ChoiceLabels


def _choice_fields():
    found = []
    for model in apps.get_models():
        if issubclass(model, ChoiceLabels):
            found += [(model, field) for field in model._meta.fields if field.choices]
    return found


def test_the_case_models_keep_their_labels():
    models = {model for model, _ in _choice_fields()}
    assert Case in models and CheckIn in models
    assert len(_choice_fields()) >= 10


@pytest.mark.parametrize("first", ["en-gb", "es"])
def test_every_label_is_djangos_in_each_language(first):
    checked = 0
    for model, field in _choice_fields():
        values = [value for value, _ in field.flatchoices] + ["not-a-choice", None]
        for language in (first, "es" if first == "en-gb" else "en-gb", first):
            with translation.override(language):
                for value in values:
                    row = model(**{field.attname: value})
                    ours = getattr(row, f"get_{field.name}_display")()
                    assert ours == Model._get_FIELD_display(row, field), (model, field, value)
                    checked += 1
    assert checked > 100


def test_labels_follow_the_language():
    row = CheckIn(status="scheduled")
    with translation.override("en-gb"):
        english = row.get_status_display()
    with translation.override("es"):
        spanish = row.get_status_display()
    assert english != spanish
    with translation.override("en-gb"):
        assert row.get_status_display() == english
