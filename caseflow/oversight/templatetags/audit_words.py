"""The audit trail in words: what each event was, about what, with which details — no action
codes and no internal ids on the page (the CSV export keeps them for machines)."""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass
from typing import Any

from django import template
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.urls import reverse
from django.utils import dateformat, formats, timezone
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from caseflow.accounts.models import Role
from caseflow.audit import actions
from caseflow.cases.converters import PublicIdConverter
from caseflow.lib.i18n import gettext_lazy as _

register = template.Library()

#: Roles as recorded on events (the operator is not an agency role).
_ROLES = {**dict(Role.choices), "operator": _("Operator"), "coalition": _("Coalition")}

#: Detail keys that name records by their ids: counted, never shown.
_COUNTED = {
    "cases": lambda n: ngettext("%(count)s case", "%(count)s cases", n),
    "users": lambda n: ngettext("%(count)s person", "%(count)s people", n),
    "agreements": lambda n: ngettext(
        "%(count)s contact agreement", "%(count)s contact agreements", n
    ),
    "evidence": lambda n: ngettext("%(count)s evidence file", "%(count)s evidence files", n),
    "assessments": lambda n: ngettext("%(count)s risk assessment", "%(count)s risk assessments", n),
    "proposals": lambda n: ngettext("%(count)s purge proposal", "%(count)s purge proposals", n),
    "teams": lambda n: ngettext("%(count)s team", "%(count)s teams", n),
    "checkins": lambda n: ngettext("%(count)s check-in", "%(count)s check-ins", n),
}
#: Detail keys that hold an internal id, a code or a fingerprint only: left out (the CSV export
#: keeps them). A yes or no under one of these keys is still shown.
_HIDDEN = {
    "agreement",
    "amendment",
    "assessment",
    "breach",
    "certificate",
    "checkin",
    "disclosure",
    "episode",
    "event",
    "goal",
    "grant",
    "id",
    "incident",
    "instrument",
    "key",
    "need",
    "note",
    "order",
    "page",
    "path_name",
    "plan",
    "proposal",
    "release",
    "request",
    "sha256",
    "slug",
    "user",
}

#: Detail keys in words.
_KEYS = {
    "accepted": _("Accepted"),
    "action": _("Action"),
    "active": _("In use"),
    "added": _("Added"),
    "after": _("After"),
    "after_reset": _("After a reset"),
    "already_current": _("Already up to date"),
    "answer": _("Answer"),
    "approvals": _("Approvals"),
    "approvers": _("Approvers"),
    "assessed": _("Assessed"),
    "assignee": _("Assigned to"),
    "audience": _("For"),
    "basis": _("Basis for sharing"),
    "before": _("Before"),
    "below_assessment": _("Below the assessed level"),
    "break_glass": _("Under emergency access"),
    "cancelled": _("Cancelled"),
    "case_filter": _("Filtered by case"),
    "case_status": _("Case status"),
    "cases_outside_caseload": _("Cases outside their caseload"),
    "categories": _("Categories"),
    "cells": _("Cells"),
    "changed": _("Changed"),
    "channel": _("Channel"),
    "checked_by_name_only": _("Checked by name only"),
    "choice": _("Choice"),
    "cleared": _("Cleared"),
    "compared": _("Versions compared"),
    "conflict_flag": _("Possible conflict of interest"),
    "consent": _("Consent given by"),
    "agencies": _("Agencies added up"),
    "contacts": _("Contacts"),
    "count": _("Number"),
    "created": _("Created"),
    "deleted": _("Deleted"),
    "dimensions": _("Broken down by"),
    "direction": _("Direction"),
    "elsewhere": _("Elsewhere in the agency"),
    "entries": _("Entries"),
    "episodes": _("Episodes of support"),
    "events": _("Events"),
    "expired_at": _("Ran out at"),
    "fields": _("Fields"),
    "filters": _("Filters"),
    "flagged": _("Flagged"),
    "followups": _("Follow-ups"),
    "for_child": _("For a child"),
    "form": _("Form"),
    "format": _("Format"),
    "found_by": _("Found by"),
    "from": _("From"),
    "hour": _("Hour"),
    "how": _("How"),
    "incidents": _("Incidents"),
    "instrument_version": _("Instrument version"),
    "key_destroyed": _("Data key destroyed"),
    "kind": _("Kind"),
    "kinds": _("Kinds"),
    "language": _("Language"),
    "left": _("Left"),
    "limit": _("Limit"),
    "link_sent": _("Link sent"),
    "minutes": _("Minutes"),
    "mode": _("Mode"),
    "n": _("Times"),
    "narratives_years": _("Years before narratives are purged"),
    "needed": _("Needed"),
    "number": _("Number"),
    "older": _("Older entries"),
    "omitted": _("Left out"),
    "on": _("On"),
    "outcome": _("Outcome"),
    "override": _("Level overridden"),
    "owner": _("Who does it"),
    "parts": _("Parts"),
    "party_role": _("Role of the person"),
    "pending": _("Pending"),
    "period": _("Period"),
    "police": _("Police involved"),
    "police_reported": _("Reported to the police"),
    "previous_active": _("Previously active"),
    "previous_primary": _("Previously the main contact"),
    "previous_role": _("Previous role"),
    "primary": _("Main contact"),
    "proposed": _("Terms the checker found broken"),
    "reason": _("Reason"),
    "recent": _("Recent"),
    "record_years": _("Years before the whole record is purged"),
    "removed": _("Removed"),
    "reopened": _("Reopened"),
    "repeat": _("Heard within a year"),
    "report": _("Report"),
    "reset_at": _("Reset at"),
    "restored": _("Restored"),
    "restricted": _("Access limited"),
    "review": _("Review"),
    "reviewed": _("Reviewed"),
    "revoked": _("Revoked"),
    "rewrapped": _("Keys re-wrapped"),
    "risk_level": _("Risk level"),
    "role": _("Role"),
    "route": _("Route"),
    "rows": _("Rows"),
    "rule": _("Repeating"),
    "scope": _("Scope"),
    "sections": _("Sections"),
    "serious": _("Serious"),
    "series": _("The whole series"),
    "service": _("Service"),
    "severity": _("Severity"),
    "source": _("Source"),
    "start": _("Start"),
    "status": _("Status"),
    "step": _("Step"),
    "superseded": _("Superseded"),
    "suppressed": _("Suppressed"),
    "terms": _("Terms"),
    "title": _("Title"),
    "to": _("To"),
    "unanswered": _("Unanswered"),
    "values": _("Values"),
    "version": _("Version"),
    "versions": _("Versions"),
    "via": _("Via"),
}

#: Codes stored in details that no choice of a model names, in words.
_CODES = {
    "absolute": _("the longest a session may last"),
    "asked_supervisor": _("asked a supervisor"),
    "case_reopened": _("the case was reopened"),
    "closure": _("closing the case"),
    "csv": _("CSV"),
    "enrol": _("setting up"),
    "html": _("web page"),
    "idle": _("idle for too long"),
    "internal": _("our agency"),
    "json": _("JSON"),
    "new_case": _("a new case"),
    "no_covering_release": _("no consent to share covers it"),
    "offered": _("offered"),
    "other_agency": _("another agency"),
    "outside": _("outside the agency"),
    "pdf": _("PDF"),
    "reauth": _("confirming who they are"),
    "reopen": _("reopen the case"),
    "staff": _("our staff"),
    "unknown": _("not known"),
    "user": _("a member of staff"),
    "verify": _("signing in"),
    "zip": _("ZIP archive"),
    # Why a release does not cover a disclosure.
    "unknown_release": _("no consent to share chosen"),
    "revoked": _("the consent to share was revoked"),
    "expired": _("the consent to share has run out"),
    "not_yet_signed": _("the consent to share is not signed yet"),
    "consent_not_valid": _("the consent is not valid"),
    "recipient_not_covered": _("the recipient is not covered"),
    "category_not_covered": _("a category is not covered"),
}

#: Field names (``fields``) in words.
_FIELDS = {
    "address": _("address"),
    "aliases": _("other names"),
    "assignee": _("assigned to"),
    "channel": _("channel"),
    "code_word": _("code word"),
    "date_of_birth": _("date of birth"),
    "description": _("description"),
    "due_at": _("due"),
    "email": _("e-mail"),
    "known_as": _("known as"),
    "last_reviewed_at": _("last reviewed"),
    "name": _("name"),
    "note": _("note"),
    "outcome": _("outcome"),
    "phone": _("phone"),
    "pronouns": _("pronouns"),
    "review_by": _("next review by"),
    "review_comment": _("review comment"),
    "risk_level": _("risk level"),
    "safe_email": _("safe e-mail"),
    "safe_phone": _("safe phone"),
    "status": _("status"),
    "summary": _("summary"),
    "text": _("text"),
    "third_party": _("third party"),
    "timezone": _("time zone"),
    "title": _("title"),
    "voicemail_safe": _("safe to leave a voicemail"),
    "windows": _("safe times"),
}


@dataclass(frozen=True)
class Phrase:
    """One detail of an event: its label and its value, as parts; a part that is machine text
    (a code no list names) is shown as such."""

    label: str
    parts: tuple[tuple[str, bool], ...] = ()
    label_is_code: bool = False

    def __str__(self) -> str:
        text = "".join(part for part, _machine in self.parts)
        return f"{self.label}: {text}" if self.parts else str(self.label)


def _choice_classes() -> list[type[models.TextChoices]]:
    found = []
    todo = list(models.TextChoices.__subclasses__())
    while todo:
        cls = todo.pop(0)
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("caseflow."):
            found.append(cls)
    return found


@functools.cache
def _choice_index() -> dict[str, list[tuple[str, str]]]:
    """Every code caseflow's choices name: code -> [(choices' name, lower case), label]."""
    index: dict[str, list[tuple[str, str]]] = {}
    for cls in _choice_classes():
        for value, label in cls.choices:
            index.setdefault(str(value), []).append((cls.__name__.lower(), label))
    return index


def _known_labels(key: str, area: str = "") -> dict[str, str]:
    """Codes named by a list of labels of their own (terms, plan sections, and the fields or
    questions an area's events list as changed, in the words its feature gives them)."""
    from caseflow.agreements.labels import TERM_LABELS
    from caseflow.cases import features
    from caseflow.safety.sections import SECTION_LABELS

    if key == "changed":
        words: dict[str, str] = dict(_FIELDS)
        for given in features.members(lambda f: f.field_words):
            if given.area == area:
                words.update({name: str(label) for name, label in given.words().items()})
        return words
    if key in ("proposed", "terms"):
        return {str(k): v for k, v in TERM_LABELS.items()}
    if key in ("sections", "omitted"):
        return dict(SECTION_LABELS)
    return {}


def _code_label(code: str, key: str, area: str) -> str | None:
    """The words for a code stored under ``key`` by an action of ``area``: its own list's
    label, else the label of the choices that name it whose name fits the key and area best
    ("need" and "status" -> NeedStatus), a known code's words before choices that fit neither,
    else None."""
    own = _known_labels(key, area)
    if code in own:
        return own[code]
    candidates = _choice_index().get(code)
    if candidates:
        stem = "status" if key in ("from", "to", "case_status") else key.rstrip("s")
        stem = stem.replace("_", "")
        area = area.replace("_", "")

        def fit(candidate: tuple[str, str]) -> int:
            name = candidate[0]
            if name == area + stem:
                return 4
            if name.endswith(area + stem):
                return 3
            if name.endswith(stem):
                return 2
            return 1 if name.startswith(area) else 0

        best = max(candidates, key=fit)
        if fit(best) > 0 or code not in _CODES:
            return best[1]
    return _CODES.get(code)


def _parts(value: Any, key: str, area: str) -> list[tuple[str, bool]]:
    if value is None:
        return [("—", False)]
    if isinstance(value, bool):
        return [(str(_("yes")) if value else str(_("no")), False)]
    if isinstance(value, int | float):
        return [(str(value), False)]
    if isinstance(value, list | tuple):
        if not value:
            return [(str(_("none")), False)]
        out: list[tuple[str, bool]] = []
        for i, item in enumerate(value):
            if i:
                out.append((", ", False))
            out.extend(_parts(item, key, area))
        return out
    if isinstance(value, dict):
        if not value:
            return [(str(_("none")), False)]
        out = []
        for i, (inner, item) in enumerate(value.items()):
            if i:
                out.append(("; ", False))
            label = _KEYS.get(inner)
            out.append((f"{label}: ", False) if label else (inner, True))
            if not label:
                out.append((": ", False))
            out.extend(_parts(item, inner, area))
        return out
    text = str(value)
    if key == "fields" and text in _FIELDS:
        return [(str(_FIELDS[text]), False)]
    label = None if key == "fields" else _code_label(text, key, area)
    return [(str(label), False)] if label is not None else [(text, True)]


def field_words(name: str) -> str:
    """A field name in words (one no list names: its name, spaced)."""
    label = _FIELDS.get(name)
    return str(label) if label is not None else name.replace("_", " ")


def code_words(code: str, key: str, action: str = "") -> str:
    """A code stored under ``key`` in words (one nothing names: itself)."""
    label = _code_label(code, key, action.split(".", 1)[0])
    return str(label) if label is not None else code


def _hidden(key: str, value: Any) -> bool:
    if key.endswith(("_id", "_ids")):
        return True
    return key in _HIDDEN and not isinstance(value, bool)


def detail_phrases(detail: Any, action: str = "") -> list[Phrase]:
    """The event's details as phrases: "Fields: phone, e-mail", "3 cases"; codes in words
    where caseflow names them, ids left out."""
    if not isinstance(detail, dict):
        return []
    area = action.split(".", 1)[0]
    out = []
    for key, value in detail.items():
        if key in _COUNTED and isinstance(value, list):
            out.append(Phrase(_COUNTED[key](len(value)) % {"count": len(value)}))
        elif _hidden(key, value):
            continue
        elif key in _KEYS:
            out.append(Phrase(str(_KEYS[key]), tuple(_parts(value, key, area))))
        else:
            out.append(Phrase(key, tuple(_parts(value, key, area)), label_is_code=True))
    return out


@register.filter
def event_details(event: Any) -> list[Phrase]:
    return detail_phrases(event.detail, event.action)


@register.filter
def detail_words(detail: Any, action: str = "") -> list[str]:
    """The event's details as short phrases of text: "Fields: phone, e-mail", "3 cases"."""
    return [str(phrase) for phrase in detail_phrases(detail, action)]


@register.filter
def action_label(name: str) -> str:
    return actions.label(name)


@register.filter
def role_label(role: str) -> str:
    if not role:
        return "—"
    return str(_ROLES.get(role, _("Other role")))


#: What events are about, in words (the record's model, as the event names it).
_OBJECTS = {
    "agency": _("agency"),
    "agencyescalationrule": _("escalation rule"),
    "agencypartnersettings": _("risk meeting settings"),
    "agreement": _("contact agreement"),
    "agreementversion": _("contact agreement version"),
    "breach": _("breach of a contact agreement"),
    "breakglassgrant": _("emergency access"),
    "calendartoken": _("calendar feed"),
    "case": _("case"),
    "caseassignment": _("case assignment"),
    "casekey": _("case's data key"),
    "casenote": _("case note"),
    "casepurge": _("purge"),
    "checkin": _("check-in"),
    "checkinschedule": _("repeating check-in"),
    "closure": _("closure"),
    "closurereason": _("closure reason"),
    "compelledorder": _("court order or subpoena"),
    "contactagreement": _("contact agreement"),
    "contactevent": _("logged contact"),
    "deletioncertificate": _("deletion certificate"),
    "demographics": _("demographics"),
    "disclosure": _("disclosure"),
    "draft": _("draft"),
    "episode": _("episode of support"),
    "evidence": _("evidence file"),
    "fieldsetting": _("field setting"),
    "followup": _("follow-up"),
    "goal": _("goal"),
    "hudanswers": _("HUD entry and exit answers"),
    "incident": _("incident"),
    "languagesetting": _("language setting"),
    "legalhold": _("legal hold"),
    "meetingaction": _("risk meeting action"),
    "meetingreferral": _("risk meeting referral"),
    "membership": _("membership"),
    "need": _("need"),
    "note": _("case note"),
    "noteamendment": _("amendment to a case note"),
    "otpdevice": _("second factor"),
    "party": _("person"),
    "plan": _("safety plan"),
    "protectiveorderexpiry": _("protective order expiry"),
    "purgeapproval": _("purge approval"),
    "purgeproposal": _("purge proposal"),
    "release": _("consent to share"),
    "reopenrequest": _("request to reopen"),
    "retentionschedule": _("retention schedule"),
    "riskassessment": _("risk assessment"),
    "riskinstrument": _("risk instrument"),
    "safecontactprofile": _("safe-contact profile"),
    "safetyplan": _("safety plan"),
    "safetyplanversion": _("safety plan version"),
    "service": _("service or referral"),
    "servicereferral": _("referral to another service"),
    "team": _("team"),
    "user": _("member of staff"),
}


@register.filter
def object_words(object_type: str) -> str:
    """The record an event is about, in words; a kind of record not named here is left out
    (the CSV export keeps its code)."""
    if not object_type:
        return ""
    label = _OBJECTS.get(object_type)
    return str(label) if label is not None else ""


# --- The events table's rows, written in one pass ----------------------------------------------
#
# Written in the template language each of the 50 rows of a page cost two date filters, a URL
# reversed per person, a loop over its details and some forty look-ups and conditions: about a
# fifth of the audit page's CPU. ``audit_event_rows`` writes the same markup, byte for byte
# (compared in tests/audit/test_event_rows.py), every value rendered as the template rendered it
# (localized, then escaped unless marked safe) on its way in.

_ROW = (
    "\n    <tr>\n"
    '      <td><time datetime="{iso}">{when}</time></td>\n'
    "      <td>{who}</td>\n"
    "      <td>{role}</td>\n"
    "      <td>{what}</td>\n"
    "      {case}\n"
    "      <td>{about}</td>\n"
    '      <td class="small text-break">{details}</td>\n'
    '      <td class="small">{ip}</td>\n'
    "    </tr>\n  "
)


_SENTINEL = "X" * 16  # what the public id converter takes, in no URL's fixed part
_PUBLIC_ID = re.compile(PublicIdConverter.regex)


def _out(value: Any) -> str:
    """``value`` as ``{{ value }}`` writes it in an escaping template (no time zone to apply)."""
    value = formats.localize(value)
    if isinstance(value, SafeData):
        return str(value)
    return html.escape(str(value))


def _details(phrases: list[Phrase]) -> str:
    out = []
    for phrase in phrases:
        label = _out(phrase.label)
        if phrase.label_is_code:
            label = f"<code>{label}</code>"
        parts = ""
        if phrase.parts:
            parts = ": " + "".join(
                f"<code>{_out(text)}</code>" if machine else _out(text)
                for text, machine in phrase.parts
            )
        out.append(f'<span class="me-2">{label}{parts}</span>')
    return "".join(out)


def _current_app(context: Any) -> str | None:
    """The application namespace ``{% url %}`` reverses in, as it finds it."""
    request = context.get("request")
    try:
        return request.current_app  # type: ignore[union-attr]
    except AttributeError:
        try:
            return request.resolver_match.namespace  # type: ignore[union-attr]
        except AttributeError:
            return None


@register.simple_tag(takes_context=True)
def audit_event_rows(context: Any, events: Any, link_people: Any, hide_case: Any) -> SafeString:
    """The ``<tr>`` of each event of the events table (``oversight/_events_table.html``), in
    the active time zone and language."""
    current_app = _current_app(context)
    system = "<em>" + _out(gettext("system")) + "</em>"
    # What ``date_format(at, "DATETIME_FORMAT")`` looks up for each row, once; and each case's
    # link from one ``reverse`` (a public id the converter takes is written as it is).
    when_format = formats.get_format("DATETIME_FORMAT")
    prefix, _sentinel, suffix = reverse(
        "audit:case", args=[_SENTINEL], current_app=current_app
    ).partition(_SENTINEL)
    people: dict[int, str] = {}
    rows = []
    for event in events:
        at = timezone.localtime(event.at) if timezone.is_aware(event.at) else event.at
        try:
            actor = event.actor
        except ObjectDoesNotExist:  # the template writes a missing person as none
            actor = None
        if actor:
            name = _out(actor.get_full_name() or actor.username)
            if link_people:
                url = people.get(event.actor_id)
                if url is None:
                    url = people[event.actor_id] = _out(
                        reverse("audit:user", args=[event.actor_id], current_app=current_app)
                    )
                name = f'<a href="{url}">{name}</a>'
        else:
            name = system
        case = ""
        if not hide_case:
            # Set by ``label_cases``; an event without them is shown as the template showed it.
            public_id = getattr(event, "case_public_id", None)
            reference = getattr(event, "case_reference", "")
            if public_id:
                if _PUBLIC_ID.fullmatch(public_id):
                    link = f"{prefix}{public_id}{suffix}"
                else:  # not what the converter takes: let ``reverse`` say so
                    link = reverse("audit:case", args=[public_id], current_app=current_app)
                case = f'<td><a href="{_out(link)}">{_out(reference)}</a></td>'
            else:
                case = f"<td>{_out(reference or '—')}</td>"
        rows.append(
            _ROW.format(
                iso=_out(at.isoformat()),  # Django's format "c" is ``isoformat()``
                when=_out(dateformat.format(at, when_format)),
                who=name,
                role=_out(role_label(event.actor_role)),
                what=_out(action_label(event.action)),
                case=case,
                about=_out(object_words(event.object_type) or "—"),
                details=_details(event_details(event)),
                ip=_out(event.ip),
            )
        )
    # Every value was escaped by ``_out`` on its way in; the markup is this module's own.
    return mark_safe("".join(rows))  # noqa: S308
