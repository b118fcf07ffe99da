"""The audit filters' "What they did" field, rendered once per language and choice.

Its list holds every registered action (some 240 options in their groups), each written
through the form widgets' templates: over a quarter of the audit page's CPU. What it renders to
depends only on the language, whether the form was submitted and the action chosen (the actions are
registered once, at import), so the markup ``as_crispy_field`` writes is kept for the process
for each of those, and a field with errors is rendered every time. Forgotten when the settings
that choose the catalogs change.
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

#: (language, bound, chosen action) -> the field's markup.
_RENDERED: dict[tuple[str | None, bool, str | None], SafeString] = {}
#: The choices are a few hundred per language: past this many the field is rendered each time.
_RENDERED_MAX = 4096


def _forget(*, setting: str, **kwargs: Any) -> None:
    if setting in {"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "INSTALLED_APPS", "TEMPLATES"}:
        _RENDERED.clear()


setting_changed.connect(_forget, dispatch_uid="caseflow.oversight.audit_filters.forget")


@register.filter
def action_field(field: BoundField) -> SafeString:
    """``field|as_crispy_field`` for the audit filters' action, kept once rendered."""
    value = field.value()
    if field.errors or not isinstance(value, str | None):
        return as_crispy_field(field)
    key = (get_language(), field.form.is_bound, value)
    rendered = _RENDERED.get(key)
    if rendered is None:
        rendered = as_crispy_field(field)
        if len(_RENDERED) < _RENDERED_MAX:
            _RENDERED[key] = rendered
    return rendered
