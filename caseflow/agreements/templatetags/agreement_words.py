"""The checker's findings in the reader's words."""

from __future__ import annotations

from django import template

from caseflow.agreements.labels import RECORDED_BY_ADVOCATE, finding_label

register = template.Library()


@register.filter
def finding(value: dict) -> dict[str, str]:
    """A stored finding as its label, in the reader's language, and the checker's own sentence
    kept with it (none for a term the advocate marked)."""
    message = value.get("message") or ""
    return {
        "label": finding_label(value),
        "message": "" if message == RECORDED_BY_ADVOCATE else message,
    }
