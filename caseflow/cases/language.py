"""The languages a survivor may speak (their names come translated from Django's own catalogue)
and the ways a person may need to communicate, for the person's record.

Which language caseflow itself speaks to staff is theirs and their agency's:
:mod:`caseflow.accounts.language`."""

from __future__ import annotations

from django.conf import settings
from django.conf.global_settings import LANGUAGES as ALL_LANGUAGES

from caseflow.lib.i18n import gettext_lazy as _

#: Languages a person may speak, named in the reader's language (Django's own catalogue).
#: Regional variants are folded into their language; a few are kept apart where it matters.
_KEEP_VARIANTS = {"pt-br", "zh-hans", "zh-hant"}
PERSON_LANGUAGES: list[tuple[str, str]] = [
    (code, name) for code, name in ALL_LANGUAGES if "-" not in code or code in _KEEP_VARIANTS
]
_PERSON_LANGUAGE_NAMES = dict(PERSON_LANGUAGES)


def person_language_choices() -> list[tuple[str, str]]:
    """Sorted by name in the reader's language."""
    return sorted(
        ((code, str(_(name))) for code, name in PERSON_LANGUAGES), key=lambda item: item[1]
    )


def language_name(code: str) -> str:
    name = _PERSON_LANGUAGE_NAMES.get(code)
    return str(_(name)) if name else code


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
    languages = [language_name(code) for code in split_languages(party.languages)]
    interpreter = language_name(party.interpreter_language) if party.interpreter_language else ""
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
