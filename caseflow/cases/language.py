"""The languages a survivor may speak or sign (a curated list of ISO 639-3 languages,
:mod:`caseflow.lib.spoken_languages`) and the ways a person may need to communicate, for the
person's record.

Which language caseflow itself speaks to staff is theirs and their agency's:
:mod:`caseflow.accounts.language`."""

from __future__ import annotations

from django.conf import settings

from caseflow.lib import spoken_languages
from caseflow.lib.i18n import gettext_lazy as _


def person_language_choices(extra: list[str] | tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """The curated spoken and signed languages (:mod:`caseflow.lib.spoken_languages`), sorted by
    name in the reader's language, then "Other (say which)"; ``extra``: codes already recorded."""
    return spoken_languages.choices(extra)


def language_name(code: str) -> str:
    return spoken_languages.name_of(code)


COMMUNICATION_NEEDS: list[tuple[str, str]] = [
    ("sign_language", _("Sign language")),
    ("lip_reading", _("Lip reading")),
    ("easy_read", _("Easy read")),
    ("large_print", _("Large print")),
    ("braille", _("Braille")),
    ("audio", _("Audio or spoken information")),
    ("text_relay", _("Text relay or text phone")),
    ("plain_words", _("Short sentences and plain words")),
]
_COMMUNICATION_NAMES = dict(COMMUNICATION_NEEDS)


def split_languages(value: str) -> list[str]:
    return [code for code in (value or "").split(",") if code]


def needs_of(party) -> dict | None:
    """A person's language and access needs in words, or None when nothing is recorded."""
    if party is None:
        return None
    other = party.other_language or ""

    def named(code: str) -> str:
        # "Other (say which)": the language as the advocate wrote it.
        if code == spoken_languages.OTHER and other:
            return other
        return language_name(code)

    languages = [named(code) for code in split_languages(party.languages)]
    interpreter = named(party.interpreter_language) if party.interpreter_language else ""
    communication = [
        str(_COMMUNICATION_NAMES.get(code, code)) for code in (party.communication_needs or [])
    ]
    access = party.access_needs or ""
    if not (languages or interpreter or communication or access):
        return None
    return {
        "languages": languages,
        "interpreter": interpreter,
        "independent": party.interpreter_independent,
        "communication": communication,
        "access": access,
    }


def survivor_interface_language(case) -> str | None:
    """The first of the survivor's languages that caseflow's interface speaks (for what they
    are handed on paper), or None. English follows the reader's own English."""
    party = case.parties.filter(role="survivor").first()
    if party is None:
        return None
    supported = {code for code, _name in settings.LANGUAGES}
    for code in split_languages(party.languages):
        if code == "en":
            return None
        if code in supported:
            return code
    return None
