"""The audit trail in words: what each event was, about what, with which details — no action
codes and no internal ids on the page (the CSV export keeps them for machines)."""

from __future__ import annotations

from typing import Any

from django import template

from caseflow.accounts.models import Role
from caseflow.audit import actions
from caseflow.lib.i18n import gettext_lazy as _

register = template.Library()

#: Roles as recorded on events (the operator is not an agency role).
_ROLES = {**dict(Role.choices), "operator": _("Operator")}

#: Detail keys that hold internal ids only: counted or left out, never shown as numbers.
_ID_LISTS = {"cases": (_("case"), _("cases")), "users": (_("person"), _("people"))}
_HIDDEN = {"grant", "event", "request", "page", "release", "disclosure", "order", "key", "id"}

#: Detail keys in words.
_KEYS = {
    "fields": _("Fields"),
    "role": _("Role"),
    "status": _("Status"),
    "from": _("From"),
    "to": _("To"),
    "version": _("Version"),
    "minutes": _("Minutes"),
    "reason": _("Reason"),
    "filters": _("Filters"),
    "omitted": _("Left out"),
    "elsewhere": _("Elsewhere in the agency"),
    "found_by": _("Found by"),
    "form": _("Form"),
    "audience": _("For"),
    "categories": _("Categories"),
    "pending": _("Pending"),
    "reviewed": _("Reviewed"),
    "values": _("Values"),
}


@register.filter
def action_label(name: str) -> str:
    return actions.label(name)


@register.filter
def role_label(role: str) -> str:
    return _ROLES.get(role, role.replace("_", " ").capitalize()) if role else "—"


#: What events are about, in words.
_OBJECTS = {
    "case": _("case"),
    "party": _("person"),
    "user": _("member of staff"),
    "team": _("team"),
    "note": _("case note"),
    "incident": _("incident"),
    "plan": _("safety plan"),
    "checkin": _("check-in"),
    "followup": _("follow-up"),
    "agreement": _("contact agreement"),
    "release": _("consent to share"),
}


@register.filter
def object_words(object_type: str) -> str:
    if not object_type:
        return ""
    return str(_OBJECTS.get(object_type, object_type.replace("_", " ")))


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return str(_("yes")) if value else str(_("no"))
    if isinstance(value, list | tuple):
        return ", ".join(_value(v).replace("_", " ") for v in value) or str(_("none"))
    if isinstance(value, dict):
        return "; ".join(f"{_key(k)}: {_value(v)}" for k, v in value.items())
    return str(value).replace("_", " ") if isinstance(value, str) else str(value)


def _key(key: str) -> str:
    return str(_KEYS.get(key, key.replace("_", " ").capitalize()))


@register.filter
def detail_words(detail: Any) -> list[str]:
    """The event's details as short phrases: "Fields: phone, e-mail", "3 cases"."""
    if not isinstance(detail, dict):
        return []
    out = []
    for key, value in detail.items():
        if key in _ID_LISTS and isinstance(value, list):
            one, many = _ID_LISTS[key]
            out.append(f"{len(value)} {one if len(value) == 1 else many}")
        elif key in _HIDDEN or key.endswith("_id") or key.endswith("_ids"):
            continue
        else:
            out.append(f"{_key(key)}: {_value(value)}")
    return out
