"""The import template: one row per case, its columns, and what each holds.

The column headings of the template are the field names below (``source_id``,
``survivor_full_name``…); a file from another system keeps its own headings and the admin maps
them to these fields once (the mapping is kept for the next batch). History comes as repeated
note columns on the same row: ``note_1_date``, ``note_1_text``, ``note_2_date``… up to
``NOTE_SLOTS`` notes a row. Dates are ``YYYY-MM-DD`` (or a real date cell in a spreadsheet);
times ``HH:MM``; several choices are separated by commas; yes/no columns take yes or no.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.utils.functional import Promise, lazy

from caseflow.lib.i18n import gettext_lazy as _

#: History notes a row may carry.
NOTE_SLOTS = 10


def _numbered(text: str | Promise, n: int) -> str:
    return str(text) % {"n": n}


numbered = lazy(_numbered, str)


@dataclass(frozen=True)
class Field:
    key: str
    label: str | Promise
    group: str | Promise
    example: str = ""
    required: bool = False


CASE = _("The case")
PEOPLE = _("The survivor and the other party")
SAFE = _("Safe contact")
RISK = _("Risk level")
WORK = _("Open follow-up and check-in")
ORDER = _("Protective order")
HISTORY = _("History")

FIELDS: tuple[Field, ...] = (
    Field("source_id", _("The case's id in your earlier system"), CASE, "APR-1042", True),
    Field("team", _("Team (its name in caseflow)"), CASE, "North team", True),
    Field("advocate", _("Primary advocate (their caseflow username)"), CASE, "alex", True),
    Field("reference", _("Reference (blank: numbered automatically)"), CASE, ""),
    Field("summary", _("Referral summary"), CASE, "Referred by the police after a call-out."),
    Field("survivor_full_name", _("Survivor's full name"), PEOPLE, "Robin Example", True),
    Field("survivor_date_of_birth", _("Survivor's date of birth"), PEOPLE, "1990-04-12"),
    Field("survivor_phone", _("Survivor's phone"), PEOPLE, ""),
    Field("survivor_email", _("Survivor's e-mail"), PEOPLE, ""),
    Field("other_full_name", _("Other party's full name"), PEOPLE, "Sam Sample"),
    Field("other_date_of_birth", _("Other party's date of birth"), PEOPLE, ""),
    Field("safe_timezone", _("Survivor's time zone"), SAFE, "Europe/London"),
    Field(
        "safe_channels",
        _("Safe channels (phone, text, email, in_person, third_party)"),
        SAFE,
        "text",
    ),
    Field("safe_times", _("Safe times, e.g. “Mon-Fri 10:00-12:00”"), SAFE, "Mon-Fri 10:00-12:00"),
    Field("voicemail_safe", _("Voicemail is safe (yes or no)"), SAFE, "no"),
    Field("safe_phone", _("Safe phone"), SAFE, "07700 900123"),
    Field("safe_email", _("Safe e-mail"), SAFE, ""),
    Field("third_party", _("Named third party"), SAFE, ""),
    Field("code_word", _("Code word"), SAFE, "blue umbrella"),
    Field("risk_level", _("Risk level (standard, medium, high)"), RISK, "high"),
    Field("risk_source", _("Where the risk level comes from"), RISK, "DASH by the police"),
    Field("risk_date", _("Date of the risk level"), RISK, "2026-10-02"),
    Field("followup_kind", _("Follow-up kind (task, court_date…)"), WORK, "court_date"),
    Field("followup_due", _("Follow-up due (date and time)"), WORK, "2026-12-15 10:00"),
    Field("followup_details", _("What to follow up"), WORK, "Hearing at the family court"),
    Field("checkin_date", _("Next check-in: date"), WORK, "2026-12-08"),
    Field("checkin_time", _("Next check-in: time, in the survivor's zone"), WORK, "10:30"),
    Field("checkin_channel", _("Next check-in: channel"), WORK, "text"),
    Field("order_court", _("Protective order: court"), ORDER, ""),
    Field("order_reference", _("Protective order: reference"), ORDER, ""),
    Field("order_granted", _("Protective order: granted on"), ORDER, ""),
    Field("order_expires", _("Protective order: expires on"), ORDER, ""),
    Field("order_conditions", _("Protective order: conditions"), ORDER, ""),
    *(
        field
        for n in range(1, NOTE_SLOTS + 1)
        for field in (
            Field(f"note_{n}_date", numbered(_("Note %(n)s: date"), n), HISTORY),
            Field(f"note_{n}_text", numbered(_("Note %(n)s: what happened"), n), HISTORY),
        )
    ),
)

FIELD_KEYS = tuple(f.key for f in FIELDS)
BY_KEY = {f.key: f for f in FIELDS}
REQUIRED = tuple(f.key for f in FIELDS if f.required)


def example_row() -> dict[str, str]:
    row = {f.key: f.example for f in FIELDS}
    row["note_1_date"] = "2026-09-30"
    row["note_1_text"] = "First call. She asked for text messages only."
    return row


def template_csv() -> bytes:
    """The empty template with one example row, UTF-8 with a byte-order mark (so that Excel
    opens it in the right encoding)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(FIELD_KEYS))
    writer.writeheader()
    writer.writerow(example_row())
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def auto_mapping(headings: list[str], saved: dict[str, str] | None = None) -> dict[str, str]:
    """{field: heading} guessed for a file: the saved mapping where its heading is in the file,
    else a heading equal to the field's name or label (case and spacing aside)."""

    def norm(text: str) -> str:
        return " ".join(str(text).replace("_", " ").lower().split())

    by_norm = {norm(h): h for h in headings}
    mapping: dict[str, str] = {}
    for field in FIELDS:
        heading = (saved or {}).get(field.key)
        if heading in headings:
            mapping[field.key] = heading
            continue
        for candidate in (field.key, str(field.label)):
            if norm(candidate) in by_norm:
                mapping[field.key] = by_norm[norm(candidate)]
                break
    return mapping
