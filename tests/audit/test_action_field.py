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
