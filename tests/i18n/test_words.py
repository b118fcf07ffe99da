"""Words the brief forbids, in every language caseflow speaks.

Survivors are never blamed: no "failed", "non-compliant", "disengaged", no "victim",
"perpetrator" or "abuser" (the other party is "the other party"); the survivor's own actions are
never told in rule-breaking words ("must not", "forbids", "does not permit"). Spanish uses
gender-neutral forms ("persona usuaria", "persona supervisora").

Every string a person reads is marked (tests/i18n/test_every_string_marked.py), so the
catalogues hold them all: the English source of each and its US and Spanish words are scanned.
Pages are walked too, in Spanish, for the roles that read case pages: what they show beyond the
catalogues (sentences put together from codes and values, labels seeded as data) is scanned the
same way."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

from caseflow.accounts.language import set_agency_language
from tests.i18n.test_every_string_marked import Visible, _pages

LOCALE = Path(__file__).resolve().parents[2] / "locale"

#: Forbidden anywhere, whoever the sentence is about.
ANYWHERE = re.compile(
    r"\b(fail(?:ed|s|ure|ures|ing)?|unsuccessful|non-?compliant|non-?compliance|disengag\w*|"
    r"victims?|perpetrators?|abusers?|"
    r"víctimas?|agresor(?:es|as?)?|maltratador(?:es|as?)?|perpetrador(?:es|as?)?|fracas\w*|"
    r"incumplidora?s?)\b",
    re.IGNORECASE,
)
#: A sentence about the survivor may not hold rule-breaking words.
ABOUT_SURVIVOR = re.compile(r"\b(survivors?|superviviente|usuari[ao]s?)\b", re.IGNORECASE)
RULE_BREAKING = re.compile(
    r"\b(must not|forbid\w*|(?:does|do|is) not permit\w*|not permitted|broke|violat\w*|"
    r"no puede usar|no debe|prohíbe|prohibid[oa]s?|no permite|infring\w*)\b",
    re.IGNORECASE,
)
#: Spanish forms that assume the reader's or the survivor's gender.
GENDERED = re.compile(
    # "supervisor o supervisora", "usuario o usuaria": both named, nobody assumed.
    r"(?<!persona )(?<!personas )(?<!supervisor o )(?<!supervisores o )(?<!usuario o )"
    r"(?<!usuarios o )\b(usuarias?|supervisoras?)\b|\bnuestra usuaria\b"
)


def problems_in(text: str) -> list[str]:
    found = [f"blaming word {m.group(0)!r}" for m in ANYWHERE.finditer(text)]
    if ABOUT_SURVIVOR.search(text):
        found += [f"rule-breaking word {m.group(0)!r}" for m in RULE_BREAKING.finditer(text)]
    found += [f"gendered form {m.group(0)!r}" for m in GENDERED.finditer(text)]
    return found


def _texts(entry: polib.POEntry, source: bool) -> list[str]:
    texts = [entry.msgstr, *entry.msgstr_plural.values()]
    if source:
        texts += [entry.msgid, entry.msgid_plural]
    return [text for text in texts if text]


def test_the_check_finds_what_it_looks_for():
    assert problems_in("The client failed to attend") == ["blaming word 'failed'"]
    assert problems_in("Channels the survivor must not use") == ["rule-breaking word 'must not'"]
    assert problems_in("Channels the other parent must not use") == []
    assert problems_in("Contacto del agresor") == ["blaming word 'agresor'"]
    assert problems_in("Superviviente (usuaria)") == ["gendered form 'usuaria'"]
    assert problems_in("la persona usuaria y su persona supervisora") == []
    assert problems_in("consulta a tu supervisor o supervisora") == []
    assert problems_in("Contact from the survivor is never a breach") == []


#: The US catalogue holds only the words that differ from the UK source.
@pytest.mark.parametrize(("language", "at_least"), [("es", 2000), ("en_US", 40), ("en_GB", 2000)])
def test_no_catalogue_holds_a_forbidden_word(language, at_least):
    catalogue = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    scanned, problems = 0, []
    for entry in catalogue:
        if entry.obsolete:
            continue
        for text in _texts(entry, source=language == "en_GB"):
            scanned += 1
            problems += [f"{entry.msgid!r}: {p}" for p in problems_in(text)]
    assert scanned >= at_least, f"only {scanned} strings scanned"
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("actor", ["assigned", "supervisor"])
def test_no_page_shows_a_forbidden_word(actor, cast, login):
    set_agency_language(cast.agency.pk, "es")
    client = login(cast.actor(actor))
    visited, problems = 0, []
    for name, url in _pages(actor, cast):
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        visited += 1
        parser = Visible()
        parser.feed(response.content.decode())
        for text in parser.texts:
            problems += [f"{name}: {p} in {text!r}" for p in problems_in(text)]
    assert visited >= 20, f"only {visited} pages rendered for {actor}"
    assert not problems, "\n".join(sorted(set(problems)))
