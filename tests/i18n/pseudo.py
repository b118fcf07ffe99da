"""A pseudo-locale for finding words nobody marked for translation.

Its catalogue is built from caseflow's own (every msgid makemessages found, read from the
Spanish catalogue, which holds them all): each translation is the msgid between ⟦ and ⟧.
A page rendered in it shows every marked string wrapped; anything else a person reads is either
data (names, references, dates, numbers, what someone typed), Django's own words, or a string
that was never marked.

``python -m tests.i18n.pseudo DIR`` writes DIR/qps/LC_MESSAGES/django.mo."""

from __future__ import annotations

import sys
from pathlib import Path

import polib

CODE = "qps"
OPEN, CLOSE = "⟦", "⟧"
SOURCE = Path(__file__).resolve().parents[2] / "locale" / "es" / "LC_MESSAGES" / "django.po"


def wrap(text: str) -> str:
    return f"{OPEN}{text}{CLOSE}" if text else text


def build(directory: Path) -> Path:
    """Write the pseudo catalogue under ``directory`` (a LOCALE_PATHS entry); returns the .mo."""
    source = polib.pofile(str(SOURCE))
    pseudo = polib.POFile()
    pseudo.metadata = {
        "Content-Type": "text/plain; charset=UTF-8",
        "Language": CODE,
        "Plural-Forms": "nplurals=2; plural=(n != 1);",
    }
    for entry in source:
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            pseudo.append(
                polib.POEntry(
                    msgid=entry.msgid,
                    msgid_plural=entry.msgid_plural,
                    msgctxt=entry.msgctxt,
                    msgstr_plural={0: wrap(entry.msgid), 1: wrap(entry.msgid_plural)},
                )
            )
        else:
            pseudo.append(
                polib.POEntry(msgid=entry.msgid, msgctxt=entry.msgctxt, msgstr=wrap(entry.msgid))
            )
    target = directory / CODE / "LC_MESSAGES" / "django.mo"
    target.parent.mkdir(parents=True, exist_ok=True)
    pseudo.save_as_mofile(str(target))
    return target


if __name__ == "__main__":
    print(build(Path(sys.argv[1])))
