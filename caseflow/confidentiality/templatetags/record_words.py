"""Kinds of records and their fields in words, for purge pages and deletion certificates
(never model names such as "cases.CaseChange")."""

from __future__ import annotations

from django import template
from django.apps import apps

register = template.Library()

#: Where a model's own name is not the word a person would use.
_WORDS = {"cases.Party": ("person on the case", "people on the case")}


def _model(label: str):
    try:
        return apps.get_model(label)
    except (LookupError, ValueError):
        return None


@register.simple_tag
def records_in_words(label: str, count: int) -> str:
    """``"cases.CaseChange", 2`` → "2 case changes"."""
    model = _model(label)
    if model is None:
        return f"{count} × {label}"
    one, many = _WORDS.get(label, (model._meta.verbose_name, model._meta.verbose_name_plural))
    name = one if count == 1 else many
    return f"{count} {name}"


@register.simple_tag
def fields_in_words(label: str, names: list[str]) -> str:
    """``"safety.SafetyPlanVersion", ["content"]`` → "safety plan versions: content"."""
    model = _model(label)
    if model is None:
        return f"{label}: {', '.join(str(n) for n in names)}"
    words = []
    for name in names:
        try:
            words.append(str(model._meta.get_field(name).verbose_name))
        except Exception:
            words.append(name.replace("_", " "))
    many = _WORDS.get(label, (None, model._meta.verbose_name_plural))[1]
    return f"{many}: {', '.join(words)}"
