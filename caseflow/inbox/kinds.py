"""Follow-up kinds: each part of caseflow registers the kinds of follow-up it creates.

The inbox owns follow-ups but not what they are about: the safety plan registers "plan review",
agreements register "breach escalation", and so on, each in its ``AppConfig.ready``. A kind is
stored as its value; its label is looked up here when a person reads it. Registering the same
value twice with another label is an error at start-up.
"""

from __future__ import annotations

from django.db import models

from caseflow.lib.i18n import gettext_lazy as _

_KINDS: dict[str, str] = {}


class GeneralFollowUpKind(models.TextChoices):
    """Follow-ups that belong to no one part of caseflow."""

    TASK = "task", _("Task")
    COURT_DATE = "court_date", _("Court date")


def register_followup_kinds(choices: type[models.TextChoices]) -> None:
    for value, label in choices.choices:
        known = _KINDS.get(value)
        if known is not None and str(known) != str(label):
            raise ValueError(f"follow-up kind {value!r} is registered twice with other labels")
        # Kept lazy: read in the language of whoever reads it.
        _KINDS[value] = label


def followup_kind_choices() -> list[tuple[str, str]]:
    """Every registered kind, the general ones first, as (value, label)."""
    return [(value, str(label)) for value, label in _KINDS.items()]


def followup_kind_label(kind: str) -> str:
    label = _KINDS.get(kind)
    return str(label) if label is not None else kind.replace("_", " ").capitalize()
