"""The sections of a safety plan: what each holds, how it reads as text, how two versions differ.

A plan version's content is one JSON document (encrypted as a whole)::

    {"safe_contacts": "...", "home": "...", "leaving": "...", "go_bag": ["id", "keys"],
     "documents": "...", "children": "...", "pets": "...", "technology": "...",
     "work_school": "...", "protective_orders": [{"court": "...", "reference": "...",
     "granted": "2026-01-31", "expires": "2026-07-31", "conditions": "..."}],
     "emergency_numbers": "...", "triggers": "...", "reach_out": "...", "delay_contact": "...",
     "factual_record": "...", "staying": "...", "barriers": {"money": "...", ...}}

The emotional-safety sections (triggers, people to reach out to, ways to delay contact, the
factual record) and the options for staying are free text like the rest, versioned and
encrypted with the plan.

Every section is optional; :func:`normalise` fills the gaps, so any two versions compare cleanly.
"""

from __future__ import annotations

import datetime as dt
import difflib
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from caseflow.lib.i18n import gettext_lazy as _

#: Free-text sections of physical safety, in the order the plan shows them (protective orders come
#: after work/school).
PHYSICAL_SECTIONS: tuple[tuple[str, Any, Any], ...] = (
    (
        "safe_contacts",
        _("Safe contacts and code words"),
        _("People the survivor can call, and the words or signals that mean 'I need help'."),
    ),
    ("home", _("Safety at home"), _("Safe rooms, exits, what to do when an incident starts.")),
    ("leaving", _("Leaving plan"), _("Where to go, how to get there, who helps, when.")),
    ("documents", _("Documents to take"), _("Or copies kept somewhere safe.")),
    ("children", _("Children"), _("What the children know to do; school pick-up arrangements.")),
    ("pets", _("Pets"), _("Who can look after them; vet records.")),
    (
        "technology",
        _("Technology safety"),
        _("Phone, accounts, passwords, location sharing, trackers, shared devices."),
    ),
    ("work_school", _("Work and school"), _("Routes, colleagues who know, reception, timetables.")),
    ("emergency_numbers", _("Emergency numbers"), _("Police, helplines, refuge, local services.")),
)

#: Emotional safety, beside physical safety, as survivors' guidance puts it; and the options for
#: a survivor who is staying or not ready to leave (never a failure: the plan works with them).
EMOTIONAL_SECTIONS: tuple[tuple[str, Any, Any], ...] = (
    (
        "triggers",
        _("Triggers and what helps"),
        _("What brings the fear or pull back (dates, messages, places), and what helps then."),
    ),
    (
        "reach_out",
        _("People to reach out to instead"),
        _("Who to call or message instead of the other party when the urge comes."),
    ),
    (
        "delay_contact",
        _("Ways to delay contact"),
        _("Steps that put time between the urge and contact: wait an hour, call someone first."),
    ),
    (
        "factual_record",
        _("Re-reading the factual record"),
        _("Where the survivor keeps what really happened, to re-read when doubts come."),
    ),
    (
        "staying",
        _("If staying or not ready to leave"),
        _("Safety while living with or seeing the other party: what lowers the risk now."),
    ),
)
EMOTIONAL_KEYS = tuple(key for key, _, _ in EMOTIONAL_SECTIONS)

#: Every free-text section.
TEXT_SECTIONS: tuple[tuple[str, Any, Any], ...] = PHYSICAL_SECTIONS + EMOTIONAL_SECTIONS

#: The go-bag checklist: ticked items.
GO_BAG_ITEMS: tuple[tuple[str, str], ...] = (
    ("id", _("Identity documents (passport, driving licence, birth certificates)")),
    ("money", _("Money, bank cards, cheque book")),
    ("keys", _("Spare keys (house, car, work)")),
    ("medication", _("Medication and prescriptions")),
    ("phone", _("Phone, charger and a list of numbers")),
    ("children_items", _("Children's things (favourite toy, school items, medicine)")),
    ("papers", _("Copies of important papers (tenancy, court orders, benefits)")),
    ("clothes", _("Clothes for a few days")),
)

#: Practical barriers to safety that the advocate works on.
BARRIERS: tuple[tuple[str, str], ...] = (
    ("money", _("Money and financial dependence")),
    ("housing", _("Housing")),
    ("children", _("Children")),
    ("immigration", _("Immigration status")),
    ("disability", _("Disability")),
    ("retaliation", _("Threats of retaliation")),
    ("surveillance", _("Surveillance and tech abuse")),
)

ORDER_FIELDS: tuple[tuple[str, str], ...] = (
    ("court", _("Court")),
    ("reference", _("Order reference")),
    ("granted", _("Granted")),
    ("expires", _("Expires")),
    ("conditions", _("Conditions")),
)


@dataclass(frozen=True)
class Section:
    key: str
    label: Any


#: Every section in display order: the unit of diffs, stale-save messages and the print view.
SECTIONS: tuple[Section, ...] = (
    *(Section(key, label) for key, label, _ in PHYSICAL_SECTIONS[:3]),
    Section("go_bag", _("Go-bag checklist")),
    *(Section(key, label) for key, label, _ in PHYSICAL_SECTIONS[3:8]),
    Section("protective_orders", _("Protective orders")),
    Section("emergency_numbers", _("Emergency numbers")),
    *(Section(key, label) for key, label, _ in EMOTIONAL_SECTIONS),
    Section("barriers", _("Practical barriers to safety")),
)
SECTION_KEYS = tuple(s.key for s in SECTIONS)
SECTION_LABELS = {s.key: s.label for s in SECTIONS}
_TEXT_KEYS = {key for key, _, _ in TEXT_SECTIONS}
_GO_BAG_LABELS = dict(GO_BAG_ITEMS)
_BARRIER_LABELS = dict(BARRIERS)


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _date(value: Any) -> str:
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str) and value:
        return dt.date.fromisoformat(value).isoformat()  # ValueError on a bad date
    return ""


def normalise(content: dict[str, Any] | None) -> dict[str, Any]:
    """The full, canonical form of ``content``: every section present, dates as ISO strings,
    empty protective-order rows dropped. Unknown keys raise ``ValueError``."""
    content = dict(content or {})
    unknown = sorted(set(content) - set(SECTION_KEYS))
    if unknown:
        raise ValueError(f"unknown plan sections: {', '.join(unknown)}")
    out: dict[str, Any] = {key: _text(content.get(key)) for key in _TEXT_KEYS}
    out["go_bag"] = [key for key, _ in GO_BAG_ITEMS if key in (content.get("go_bag") or [])]
    orders = []
    for raw in content.get("protective_orders") or []:
        order = {
            "court": _text(raw.get("court")),
            "reference": _text(raw.get("reference")),
            "granted": _date(raw.get("granted")),
            "expires": _date(raw.get("expires")),
            "conditions": _text(raw.get("conditions")),
        }
        if any(order.values()):
            orders.append(order)
    out["protective_orders"] = orders
    barriers = content.get("barriers") or {}
    out["barriers"] = {key: _text(barriers.get(key)) for key, _ in BARRIERS}
    return out


def order_expiry_dates(content: dict[str, Any]) -> list[dt.date]:
    """The expiry dates of the plan's protective orders (not identifying on their own)."""
    dates = set()
    for order in normalise(content)["protective_orders"]:
        if order["expires"]:
            dates.add(dt.date.fromisoformat(order["expires"]))
    return sorted(dates)


def section_lines(content: dict[str, Any], key: str) -> list[str]:
    """One section as lines of plain text: what a reader sees, and what diffs compare."""
    content = normalise(content)
    if key in _TEXT_KEYS:
        return content[key].splitlines()
    if key == "go_bag":
        return [f"[x] {_GO_BAG_LABELS[item]}" for item in content["go_bag"]]
    if key == "protective_orders":
        lines = []
        for number, order in enumerate(content["protective_orders"], start=1):
            lines.append(gettext("Order %(number)s") % {"number": number})
            for field, label in ORDER_FIELDS:
                if order[field]:
                    for i, line in enumerate(order[field].splitlines()):
                        lines.append(f"  {label}: {line}" if i == 0 else f"    {line}")
        return lines
    if key == "barriers":
        lines = []
        for barrier, label in BARRIERS:
            text = content["barriers"][barrier]
            if text:
                lines.append(f"{label}:")
                lines.extend(f"  {line}" for line in text.splitlines())
        return lines
    raise KeyError(key)


def changed_sections(old: dict[str, Any] | None, new: dict[str, Any] | None) -> list[str]:
    """Keys of the sections that differ between two contents, in display order."""
    before, after = normalise(old), normalise(new)
    return [key for key in SECTION_KEYS if before[key] != after[key]]


@dataclass(frozen=True)
class SectionDiff:
    key: str
    label: str
    changed: bool
    #: (marker, text): "+" added, "-" removed, " " unchanged.
    lines: tuple[tuple[str, str], ...]


def diff(old: dict[str, Any] | None, new: dict[str, Any] | None) -> list[SectionDiff]:
    """Section-by-section, line-by-line differences from ``old`` to ``new``."""
    result = []
    changed = set(changed_sections(old, new))
    for section in SECTIONS:
        before = section_lines(old or {}, section.key)
        after = section_lines(new or {}, section.key)
        lines = []
        for line in difflib.ndiff(before, after):
            marker, text = line[0], line[2:]
            if marker in "+- ":
                lines.append((marker, text))
        result.append(SectionDiff(section.key, section.label, section.key in changed, tuple(lines)))
    return result


def display(content: dict[str, Any] | None, omit: tuple[str, ...] | list[str] = ()) -> list[dict]:
    """The sections as templates show them, in order, leaving out the keys in ``omit``.

    Each entry: ``key``, ``label``, ``kind`` ("text", "go_bag", "orders" or "barriers"), ``value``
    ready to render, and ``empty``.
    """
    content = normalise(content)
    out = []
    for section in SECTIONS:
        if section.key in omit:
            continue
        key = section.key
        if key in _TEXT_KEYS:
            kind, value = "text", content[key]
        elif key == "go_bag":
            kind, value = "go_bag", [_GO_BAG_LABELS[item] for item in content["go_bag"]]
        elif key == "protective_orders":
            kind = "orders"
            value = [
                [(label, order[field]) for field, label in ORDER_FIELDS if order[field]]
                for order in content["protective_orders"]
            ]
        else:
            kind = "barriers"
            value = [
                (label, content["barriers"][barrier])
                for barrier, label in BARRIERS
                if content["barriers"][barrier]
            ]
        out.append(
            {"key": key, "label": section.label, "kind": kind, "value": value, "empty": not value}
        )
    return out
