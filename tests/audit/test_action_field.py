"""The audit filters' action field is rendered once per language and choice: the very markup
``as_crispy_field`` writes, every time."""

from __future__ import annotations

import pytest
from crispy_forms.templatetags.crispy_forms_filters import as_crispy_field
from django.test import override_settings
from django.utils import translation

from caseflow.accounts.models import User
from caseflow.oversight import forms
from caseflow.oversight.templatetags import audit_filters

pytestmark = pytest.mark.django_db


def _form(data):
    return forms.AuditFilterForm(data, people=User.objects.all())


DATA = [None, {}, {"action": ""}, {"action": "case.view"}, {"action": "case."}, {"case": "X"}]


def test_the_kept_markup_is_what_crispy_writes(cast):
    audit_filters._RENDERED.clear()
    seen = set()
    for language in ("en-gb", "en-us", "es"):
        with translation.override(language):
            for data in DATA:
                for _round in range(2):  # rendered, then kept
                    form = _form(data)
                    form.is_valid()
                    kept = audit_filters.action_field(form["action"])
                    assert kept == as_crispy_field(_form(data)["action"])
                    seen.add(kept)
    # {} and {"case": …} submit the same action (none): kept once. Nothing chosen, whether
    # submitted or not, is written alike: three markups a language.
    assert len(audit_filters._RENDERED) == 3 * 5
    assert len(seen) == 3 * 3
    with translation.override("es"):
        assert "Cualquier" in audit_filters.action_field(_form(None)["action"])


def test_a_field_with_errors_is_rendered_each_time(cast):
    audit_filters._RENDERED.clear()
    form = _form({"action": "<nope>"})
    assert not form.is_valid() and form["action"].errors
    assert audit_filters.action_field(form["action"]) == as_crispy_field(form["action"])
    assert "is-invalid" in audit_filters.action_field(form["action"])
    assert not audit_filters._RENDERED


def test_the_choices_and_markup_are_forgotten_when_the_catalogs_change(cast):
    with translation.override("es"):
        audit_filters.action_field(_form(None)["action"])
    assert audit_filters._RENDERED and forms._CHOICES
    with override_settings(LOCALE_PATHS=[]):
        assert not audit_filters._RENDERED and not forms._CHOICES


EMPTY_FIELDS = ("date_from", "date_to", "case")
FILLED = [
    {"date_from": "2026-01-02"},
    {"date_to": "2026-01-02", "date_from": "2026-01-05"},  # an error on the end date
    {"date_from": "not a date"},
    {"case": "CASE-1"},
]


def test_an_empty_field_is_kept_as_crispy_writes_it(cast):
    audit_filters._RENDERED.clear()
    seen = set()
    for language in ("en-gb", "es"):
        with translation.override(language):
            for data in (None, {}, {"case": "", "date_from": ""}, {"action": "case."}):
                for _round in range(2):  # rendered, then kept
                    form = _form(data)
                    form.is_valid()
                    for name in EMPTY_FIELDS:
                        kept = audit_filters.empty_field(form[name])
                        assert kept == as_crispy_field(_form(data)[name])
                        seen.add(kept)
    # In each language: each field unbound and submitted without it (3 + 3), and the two
    # submitted as empty text (2).
    assert len(audit_filters._RENDERED) == 2 * 8
    assert len(seen) >= 2 * len(EMPTY_FIELDS)  # each field differs by language
    with translation.override("es"):
        assert "Desde" in audit_filters.empty_field(_form(None)["date_from"])


def test_a_filled_field_is_rendered_each_time(cast):
    audit_filters._RENDERED.clear()
    errors = 0
    for data in FILLED:
        form = _form(data)
        form.is_valid()
        for name in EMPTY_FIELDS:
            if form[name].value() in (None, "") and not form[name].errors:
                continue
            errors += bool(form[name].errors)
            assert audit_filters.empty_field(form[name]) == as_crispy_field(form[name])
            assert audit_filters.empty_field(form[name]) == as_crispy_field(_form(data)[name])
    assert errors == 2
    assert not audit_filters._RENDERED
    form = _form({"case": "CASE-1"})
    form.is_valid()
    assert 'value="CASE-1"' in audit_filters.empty_field(form["case"])
