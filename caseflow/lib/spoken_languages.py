"""The languages a person may speak or sign, for their record: a curated list, named in the
reader's language.

Conventions:

- The list is of ISO 639-3 codes (:data:`CURATED`), spoken and signed languages that agencies
  meet, and "Other (say which)". ``pycountry`` (the ISO 639-3 registry) says which of them also
  have a two-letter ISO 639-1 code.
- What is stored for a language is its shortest ISO 639 code, as BCP 47 language tags are
  written: the two-letter code where there is one ("so" for Somali), else the three-letter code
  ("prs" for Dari, "bfi" for British Sign Language). These are the codes records held before the
  curated list (Django's interface languages used the same two-letter codes), so no stored value
  changes meaning and reports keep counting by the same keys.
- Names come from the Unicode CLDR through ``Babel`` in the reader's language (Spanish names
  included), with its first letter capitalised for a list. The few languages CLDR does not name
  (most sign languages, Dari, Mandarin, Sylheti...) carry their own name here, marked for
  translation in caseflow's catalogue.
- A code recorded before the curated list and no longer in it (Esperanto, "zh-hans") is still
  named, by CLDR or Django's catalogue, and finally shown as it is.
- :func:`search_words` gives each language the words it can be found by in a form: its name in
  the reader's language, in English, its ISO name and its own name for itself.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Any

import pycountry
from babel import Locale, UnknownLocaleError
from django.conf.global_settings import LANGUAGES as DJANGO_LANGUAGES
from django.utils import translation

from caseflow.lib.i18n import gettext_lazy as _

#: "Other (say which)": ISO 639's code for a language that has no code of its own.
OTHER = "mis"


@dataclass(frozen=True)
class SpokenLanguage:
    #: The ISO 639-3 code.
    iso639_3: str
    #: The stored code: ISO 639-1 where there is one, else the ISO 639-3 code.
    code: str
    #: Whether it is a signed language.
    signed: bool
    #: A name of caseflow's own (translated in its catalogue), for languages CLDR does not name.
    own_name: Any
    #: CLDR's key for the language, where it is not the stored code ("fa_AF" for Dari).
    cldr_key: str


#: ISO 639-3 codes, each with a name of caseflow's own where CLDR has none in English and Spanish,
#: and CLDR's key where it differs from the stored code.
_SPOKEN: tuple[tuple[str, Any, str], ...] = (
    ("aii", _("Assyrian Neo-Aramaic"), ""),
    ("aka", None, ""),
    ("amh", None, ""),
    ("ara", None, ""),
    ("aze", None, ""),
    ("bal", None, ""),
    ("bel", None, ""),
    ("ben", None, ""),
    ("bos", None, ""),
    ("bul", None, ""),
    ("cat", None, ""),
    ("ceb", None, ""),
    ("ces", None, ""),
    ("chk", None, ""),
    ("ckb", None, ""),
    ("cmn", _("Mandarin"), ""),
    ("cym", None, ""),
    ("deu", None, ""),
    ("ell", None, ""),
    ("eng", None, ""),
    ("est", None, ""),
    ("eus", None, ""),
    ("fas", None, ""),
    ("fij", None, ""),
    ("fra", None, ""),
    ("ful", None, ""),
    ("gla", None, ""),
    ("gle", None, ""),
    ("glg", None, ""),
    ("guj", None, ""),
    ("hak", None, ""),
    ("hat", None, ""),
    ("hau", None, ""),
    ("heb", None, ""),
    ("hin", None, ""),
    ("hmn", None, ""),
    ("hrv", None, ""),
    ("hun", None, ""),
    ("hye", None, ""),
    ("ibo", None, ""),
    ("ilo", None, ""),
    ("ind", None, ""),
    ("ita", None, ""),
    ("jpn", None, ""),
    ("kat", None, ""),
    ("kaz", None, ""),
    ("khm", None, ""),
    ("kin", None, ""),
    ("kmr", _("Kurmanji (Northern Kurdish)"), ""),
    ("kor", None, ""),
    ("kri", _("Krio"), ""),
    ("kur", None, ""),
    ("lao", None, ""),
    ("lav", None, ""),
    ("lin", None, ""),
    ("lit", None, ""),
    ("lug", None, ""),
    ("mah", None, ""),
    ("mal", None, ""),
    ("mam", _("Mam"), ""),
    ("mar", None, ""),
    ("mkd", None, ""),
    ("mon", None, ""),
    ("msa", None, ""),
    ("mya", None, ""),
    ("nan", None, ""),
    ("nav", None, ""),
    ("nep", None, ""),
    ("nld", None, ""),
    ("orm", None, ""),
    ("pan", None, ""),
    ("pol", None, ""),
    ("por", None, ""),
    ("prs", _("Dari"), "fa_AF"),
    ("pus", None, ""),
    ("quc", None, ""),
    ("que", None, ""),
    ("rom", None, ""),
    ("ron", None, ""),
    ("run", None, ""),
    ("rus", None, ""),
    ("sin", None, ""),
    ("slk", None, ""),
    ("slv", None, ""),
    ("smo", None, ""),
    ("snd", None, ""),
    ("som", None, ""),
    ("spa", None, ""),
    ("sqi", None, ""),
    ("srp", None, ""),
    ("swa", None, ""),
    ("syl", _("Sylheti"), ""),
    ("tam", None, ""),
    ("tel", None, ""),
    ("tgk", None, ""),
    ("tgl", None, ""),
    ("tha", None, ""),
    ("tir", None, ""),
    ("ton", None, ""),
    ("tpi", None, ""),
    ("tur", None, ""),
    ("uig", None, ""),
    ("ukr", None, ""),
    ("urd", None, ""),
    ("uzb", None, ""),
    ("vie", None, ""),
    ("wol", None, ""),
    ("yor", None, ""),
    ("yue", None, ""),
)

_SIGNED: tuple[tuple[str, Any, str], ...] = (
    ("ase", _("American Sign Language (ASL)"), ""),
    ("asf", _("Australian Sign Language (Auslan)"), ""),
    ("bfi", _("British Sign Language (BSL)"), ""),
    ("csc", _("Catalan Sign Language (LSC)"), ""),
    ("fsl", _("French Sign Language (LSF)"), ""),
    ("ils", _("International Sign"), ""),
    ("isg", _("Irish Sign Language (ISL)"), ""),
    ("mfs", _("Mexican Sign Language (LSM)"), ""),
    ("nzs", _("New Zealand Sign Language (NZSL)"), ""),
    ("pso", _("Polish Sign Language (PJM)"), ""),
    ("ssp", _("Spanish Sign Language (LSE)"), ""),
)


def _entry(iso: str, own_name: Any, cldr_key: str, signed: bool) -> SpokenLanguage:
    found = pycountry.languages.get(alpha_3=iso)
    if found is None:  # pragma: no cover - the list is checked by its tests
        raise ValueError(f"not an ISO 639-3 code: {iso}")
    code = getattr(found, "alpha_2", iso)
    return SpokenLanguage(iso, code, signed, own_name, cldr_key or code)


CURATED: tuple[SpokenLanguage, ...] = (
    *(_entry(iso, name, key, False) for iso, name, key in _SPOKEN),
    *(_entry(iso, name, key, True) for iso, name, key in _SIGNED),
)
BY_CODE: dict[str, SpokenLanguage] = {item.code: item for item in CURATED}

OTHER_NAME = _("Other (say which)")
#: How "Other" reads in a record or a report, where the question is not asked.
OTHER_SHOWN = _("Another language")

_DJANGO_NAMES = dict(DJANGO_LANGUAGES)


@cache
def _locale(language: str) -> Locale | None:
    try:
        return Locale.parse(translation.to_locale(language))
    except (UnknownLocaleError, ValueError):
        return None


def _cldr_name(key: str, language: str) -> str:
    locale = _locale(language) or _locale("en")
    assert locale is not None
    name = locale.languages.get(key) or ""
    return name[:1].upper() + name[1:]


def _reader() -> str:
    return translation.get_language() or "en"


def name_of(code: str) -> str:
    """The name of a stored language code in the reader's language (see the module's rules)."""
    if not code:
        return ""
    if code == OTHER:
        return str(OTHER_SHOWN)
    item = BY_CODE.get(code)
    if item is not None and item.own_name is not None:
        return str(item.own_name)
    key = item.cldr_key if item is not None else translation.to_locale(code)
    found = _cldr_name(key, _reader())
    if found:
        return found
    if code in _DJANGO_NAMES:
        return str(_(_DJANGO_NAMES[code]))
    return code


def _english(item: SpokenLanguage) -> str:
    if item.own_name is not None:
        with translation.override("en"):
            return str(item.own_name)
    return _cldr_name(item.cldr_key, "en")


def _autonym(item: SpokenLanguage) -> str:
    locale = _locale(item.cldr_key)
    if locale is None:
        return ""
    return locale.languages.get(item.cldr_key) or ""


def search_words(item: SpokenLanguage) -> str:
    """What a language may be found by: its names (the reader's, English, ISO's, its own) and
    its codes, in lower case."""
    iso = pycountry.languages.get(alpha_3=item.iso639_3)
    words = {
        name_of(item.code),
        _english(item),
        getattr(iso, "name", ""),
        _autonym(item),
        item.code,
        item.iso639_3,
    }
    return " ".join(sorted(w.lower() for w in words if w))


def choices(extra: list[str] | tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """The curated list sorted by name in the reader's language, then "Other (say which)";
    ``extra`` adds codes recorded before (so an old record can be edited unchanged)."""
    codes = {item.code for item in CURATED}
    named = [(item.code, name_of(item.code)) for item in CURATED]
    named += [(code, name_of(code)) for code in extra if code and code not in codes | {OTHER}]
    return [*sorted(named, key=lambda pair: sort_key(pair[1])), (OTHER, str(OTHER_NAME))]


def sort_key(name: str) -> str:
    """Alphabetical order that files "Árabe" under A."""
    plain = unicodedata.normalize("NFKD", name.casefold())
    return "".join(ch for ch in plain if not unicodedata.combining(ch))


def search_attributes() -> dict[str, str]:
    """Each code's search words in the reader's language, for the form's filter."""
    return _search_attributes(_reader())


@cache
def _search_attributes(language: str) -> dict[str, str]:
    with translation.override(language):
        return {item.code: search_words(item) for item in CURATED}
