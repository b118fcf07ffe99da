"""The audit filters' fields, rendered once per language and choice.

Its list holds every registered action (some 240 options in their groups), each written
through the form widgets' templates: over a quarter of the audit page's CPU. What it renders to
depends only on the language, whether the form was submitted and the action chosen (the actions are
registered once, at import), so the markup ``as_crispy_field`` writes is kept for the process
for each of those, and a field with errors is rendered every time. The dates and the case
reference, left empty (as on every first visit), are kept the same way; filled in, they are
rendered every time. Forgotten when the settings that choose the catalogs or the templates
change.
"""

from __future__ import annotations

from typing import Any

from crispy_forms.templatetags.crispy_forms_filters import as_crispy_field
from django import template
from django.core.signals import setting_changed
from django.forms import BoundField
from django.utils.safestring import SafeString
from django.utils.translation import get_language

register = template.Library()

#: (language, bound, chosen action) -> the action field's markup; (language, bound, the form's
#: class, the field's name) -> an empty field's markup.
_RENDERED: dict[tuple[Any, ...], SafeString] = {}
#: The choices are a few hundred per language: past this many the field is rendered each time.
_RENDERED_MAX = 4096


def _forget(*, setting: str, **kwargs: Any) -> None:
    if setting in {
        "LANGUAGES",
        "LANGUAGE_CODE",
        "LOCALE_PATHS",
        "INSTALLED_APPS",
        "TEMPLATES",
        "CRISPY_TEMPLATE_PACK",
    }:
        _RENDERED.clear()


setting_changed.connect(_forget, dispatch_uid="caseflow.oversight.audit_filters.forget")


@register.filter
def action_field(field: BoundField) -> SafeString:
    """``field|as_crispy_field`` for the audit filters' action, kept once rendered."""
    value = field.value()
    if field.errors or not isinstance(value, str | None):
        return as_crispy_field(field)
    return _kept((get_language(), field.form.is_bound, value), field)


@register.filter
def empty_field(field: BoundField) -> SafeString:
    """``field|as_crispy_field`` for a field of the audit filters whose markup depends on
    nothing but the language while it is empty (no choices from the database): kept once
    rendered while it is empty and without errors."""
    value = field.value()
    if field.errors or value not in (None, ""):
        return as_crispy_field(field)
    return _kept((get_language(), field.form.is_bound, type(field.form), field.name, value), field)


def _kept(key: tuple, field: BoundField) -> SafeString:
    """``field|as_crispy_field``, rendered once for ``key`` (everything its markup depends on)
    while there is room."""
    rendered = _RENDERED.get(key)
    if rendered is None:
        rendered = as_crispy_field(field)
        if len(_RENDERED) < _RENDERED_MAX:
            _RENDERED[key] = rendered
    return rendered
