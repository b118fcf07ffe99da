"""Every word a person reads is marked for translation.

Every page of the authorization matrix that answers GET with 200, for the four main roles (and the
sign-in pages for someone not signed in), is rendered in the pseudo-locale (tests/i18n/pseudo.py),
whose catalogue wraps each marked string in ⟦ ⟧. What is left outside the markers must be data:
the fixtures' own text (names, references, what someone typed), numbers, dates, or Django's own
words (Django translates those itself). Anything else is a string nobody marked."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from zoneinfo import available_timezones

import django
import polib
import pytest
from django.apps import apps
from django.db import models

from caseflow.accounts.language import set_agency_language
from tests.i18n import pseudo
from tests.test_url_matrix import MATRIX, url_for

ROLES = ("assigned", "supervisor", "auditor", "agency_admin", "coalition")
ZONE_NAMES = available_timezones()
#: Time zones as a person reads them in a choice ("America/Los Angeles"): data, not words.
ZONE_LABELS = {name.replace("_", " ") for name in ZONE_NAMES}

READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "data-confirm")
# Not words to translate: scripts, what someone typed, and machine text (keys, codes, commands).
SKIP_CONTENT = {"script", "style", "textarea", "code"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
# Innermost first: a marked string may hold another (a label inside a sentence).
WRAPPED = re.compile(
    re.escape(pseudo.OPEN) + f"[^{pseudo.OPEN}{pseudo.CLOSE}]*" + re.escape(pseudo.CLOSE)
)
DATE_WORDS = re.compile(
    r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|"
    r"Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|January|February|March|April|June|July|"
    r"August|September|October|November|December|Sept|a\.m\.|p\.m\.|AM|PM|noon|midnight)\b\.?"
)
WORD = re.compile(r"[A-Za-z]{2,}")
# Time zones are named by their IANA identifiers (data, not words).
ZONE = re.compile(r"\b(?:[A-Z][A-Za-z_-]+/)+[A-Za-z_+-]+\b|\bUTC\b")


class Visible(HTMLParser):
    """The text nodes and read attributes of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._skip: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in SKIP_CONTENT:
            self._skip.append(tag)
        values = dict(attrs)
        for name in READ_ATTRIBUTES:
            if values.get(name):
                self.texts.append(values[name])
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.texts.append(values["value"])
        if tag == "meta" and values.get("name") == "description" and values.get("content"):
            self.texts.append(values["content"])

    def handle_endtag(self, tag):
        if self._skip and self._skip[-1] == tag:
            self._skip.pop()

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.texts.append(data)


def _django_words() -> set[str]:
    """Django's own msgids: Django translates them itself."""
    root = Path(django.__file__).parent
    words: set[str] = set()
    for po in root.glob("**/locale/en/LC_MESSAGES/django*.po"):
        for entry in polib.pofile(str(po)):
            words.add(entry.msgid)
            if entry.msgid_plural:
                words.add(entry.msgid_plural)
    # Django capitalises a model field's translated name for its form label ("Username").
    return {w.lower() for w in words if WORD.search(w)}


def _fixture_text() -> list[str]:
    """Every text value stored in the test database: names, references, what someone typed."""
    found: set[str] = set()
    for model in apps.get_models():
        if not model.__module__.startswith(("caseflow.", "django.contrib.auth")):
            continue
        fields = [
            f.name
            for f in model._meta.concrete_fields
            if isinstance(f, (models.CharField, models.TextField, models.JSONField))
        ]
        if not fields:
            continue
        for row in model._default_manager.all()[:500]:
            for name in fields:
                try:
                    value = getattr(row, name)
                except Exception:  # a destroyed key: nothing to read
                    continue
                for text in _strings(value):
                    if WORD.search(text) and len(text) >= 3:
                        found.add(text.strip())
                        found.update(line.strip() for line in text.splitlines() if line.strip())
    return sorted(found, key=len, reverse=True)


def _strings(value) -> list[str]:
    """The text inside a stored value (JSON documents included: topics, instrument questions)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def _language_names() -> set[str]:
    """The interface's languages, each named in its own words on purpose; and the names the
    Unicode CLDR gives languages and currencies (Babel's data, in English for a locale it does
    not know, such as the pseudo-locale)."""
    from django.conf import settings
    from django.utils import translation

    from caseflow.assistance.forms import currency_choices
    from caseflow.lib import spoken_languages

    with translation.override("en"):
        cldr = {name for _code, name in [*spoken_languages.choices(), *currency_choices()]}
    return {name for _code, name in settings.LANGUAGES} | cldr


def unmarked(texts: list[str], data: list[str], django_words: set[str]) -> list[str]:
    left = []
    names = _language_names()
    for text in texts:
        rest, found = text, 1
        while found:
            rest, found = WRAPPED.subn(" ", rest)
        if not WORD.search(rest):
            continue
        stripped = " ".join(rest.split())
        if stripped in names or stripped in ZONE_NAMES or stripped in ZONE_LABELS:
            continue
        if stripped.lower() in django_words or stripped.rstrip(":").lower() in django_words:
            continue
        for value in data:
            if value in rest:
                rest = re.sub(rf"(?<!\w){re.escape(value)}(?!\w)", " ", rest)
        rest = ZONE.sub(" ", rest)
        rest = DATE_WORDS.sub(" ", rest)
        if WORD.search(rest):
            left.append(" ".join(rest.split()))
    return left


@pytest.fixture
def pseudo_locale(settings, tmp_path):
    pseudo.build(tmp_path)
    settings.LOCALE_PATHS = [tmp_path, *settings.LOCALE_PATHS]
    settings.LANGUAGES = [*settings.LANGUAGES, (pseudo.CODE, "Pseudo")]
    return pseudo.CODE


def _pages(actor: str, cast) -> list[tuple[str, str]]:
    return [
        (name, url_for(name, row, cast, "case"))
        for name, row in sorted(MATRIX.items())
        if row.GET.get(actor) == 200
    ]


def _walk(client, pages, data, django_words) -> tuple[int, list[str]]:
    problems, visited = [], 0
    for name, url in pages:
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        visited += 1
        parser = Visible()
        parser.feed(response.content.decode())
        found = unmarked(parser.texts, data, django_words)
        problems.extend(f"{name}: {text!r}" for text in found)
    return visited, problems


@pytest.mark.parametrize("actor", ROLES)
def test_every_visible_string_is_marked(actor, cast, login, pseudo_locale):
    set_agency_language(cast.agency.pk, pseudo_locale)
    client = login(cast.actor(actor))
    if actor == "coalition":
        # In no agency: the browser's language.
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = pseudo_locale
    visited, problems = _walk(client, _pages(actor, cast), _fixture_text(), _django_words())
    assert visited >= 5, f"only {visited} pages rendered for {actor}"
    assert not problems, "\n".join(sorted(set(problems)))


def test_the_sign_in_pages_are_marked(cast, client, pseudo_locale):
    client.cookies["django_language"] = pseudo_locale
    visited, problems = _walk(client, _pages("anonymous", cast), _fixture_text(), _django_words())
    assert visited >= 1
    assert not problems, "\n".join(sorted(set(problems)))


def test_the_check_finds_an_unmarked_string(pseudo_locale):
    """The check itself: an unwrapped word is found, a wrapped one and data are not."""
    texts = ["⟦Save⟧", "Case CASE-1", "⟦Opened⟧ 1 Dec 2026", "Delete"]
    assert unmarked(texts, ["CASE-1"], set()) == ["Case", "Delete"]
