"""The checker's findings in the reader's words."""

from __future__ import annotations

from django import template

from caseflow.agreements.labels import RECORDED_BY_ADVOCATE, finding_label, finding_sentence

register = template.Library()


@register.filter
def finding(value: dict) -> dict[str, str]:
    """A stored finding as its label and the checker's sentence, both in the reader's language
    (the sentence as stored, in English, for a finding kept before its values were; none for a
    term the advocate marked)."""
    message = value.get("message") or ""
    return {
        "label": finding_label(value),
        "message": "" if message == RECORDED_BY_ADVOCATE else finding_sentence(value),
    }
