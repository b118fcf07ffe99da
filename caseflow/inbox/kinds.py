"""Follow-up kinds: each feature of a case declares the kinds of follow-up it creates.

The inbox owns follow-ups but not what they are about: the safety plan brings "plan review",
agreements "breach escalation", and so on, each as ``CaseFeature.followup_kinds`` (the case
feature brings the general ones below). The inbox sits below ``cases`` and reads them through
:mod:`caseflow.lib.contributions`. A kind is stored as its value; its label is looked up here
when a person reads it. A value declared by two features is an error at start-up.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import translation
from django.utils.translation import gettext

from caseflow.lib.contributions import contributions
from caseflow.lib.i18n import gettext_lazy as _


class GeneralFollowUpKind(models.TextChoices):
    """Follow-ups that belong to no one part of caseflow."""

    TASK = "task", _("Task")
    COURT_DATE = "court_date", _("Court date")


def _kinds() -> dict[str, str]:
    return _labels(tuple(contributions().followup_kinds()))


@functools.cache
def _labels(kind_sets: Sequence[type[models.TextChoices]]) -> dict[str, str]:
    # Kept lazy: read in the language of whoever reads it.
    return {value: label for choices in kind_sets for value, label in choices.choices}


def followup_kind_choices() -> list[tuple[str, str]]:
    """Every declared kind, the general ones first, as (value, label)."""
    return [(value, str(label)) for value, label in _kinds().items()]


def followup_kind_label(kind: str) -> str:
    label = _kinds().get(kind)
    return str(label) if label is not None else kind.replace("_", " ").capitalize()


#: Notifications whose words are looked up from their kind when a person reads them (in that
#: person's language), rather than read from the words stored when they were sent. No personal
#: data: the link says where to look.
NOTIFICATION_WORDS = {
    "handover": _(
        "Cases were handed to you. Each case shows the survivor's safe ways to be contacted "
        "first, and a first check-in is proposed in her safe window where none was booked."
    ),
    "no_primary": _(
        "An open case of your team has no active primary advocate. Choose one on the case, or "
        "hand several over at once from Reassign cases."
    ),
    "break_glass_not_justified": _(
        "An emergency access was reviewed by a supervisor as not justified. Look at the "
        "account of the member of staff who used it."
    ),
}


#: In a notification's ``params``: the message its words are written from (its English source,
#: marked with ``gettext_noop`` where it is sent, translated when read).
WORDS_KEY = "_words"


def message_params(message: str, values: dict[str, Any] | None = None) -> dict[str, Any]:
    """What a notification stores to be written in its reader's language: ``message`` (marked
    with ``gettext_noop`` by the caller) and the values of its placeholders."""
    return {WORDS_KEY: message, **(values or {})}


def words_of(params: dict[str, Any]) -> str | None:
    """The words ``params`` stand for, in the active language (``None`` if they hold no
    message, or values its translation cannot take). A ``followup`` value is a follow-up kind,
    written as its label."""
    message = params.get(WORDS_KEY)
    if not isinstance(message, str) or not message:
        return None
    values = {k: v for k, v in params.items() if k != WORDS_KEY}
    if "followup" in values:
        values["followup"] = followup_kind_label(str(values["followup"]))
    translated = gettext(message)
    try:
        return translated % values if "%(" in translated else translated
    except (KeyError, TypeError, ValueError):
        return None


def stored_text(params: dict[str, Any]) -> str:
    """The words kept beside the message (in the language caseflow is set up in): what an old
    reader, a search or a log line sees."""
    with translation.override(settings.LANGUAGE_CODE):
        return (words_of(params) or "")[:200]


def notification_words(kind: str, stored: str, params: dict[str, Any] | None = None) -> str:
    """What a notification says, in the active language: its kind's own words, else its
    message translated with its values, else the words stored when it was sent."""
    words = NOTIFICATION_WORDS.get(kind)
    if words is not None:
        return str(words)
    return words_of(params or {}) or stored
