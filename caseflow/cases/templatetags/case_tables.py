"""The rows of the case tables (dashboards, case list) rendered in one pass.

A list page shows up to hundreds of cases; rendered by the template language, each row cost a
``reverse`` for its link, two ``get_*_display`` calls, a ``date`` filter and some twenty
variable look-ups — most of the page's time. This tag writes the same markup, every value
escaped by ``format_html``, with the link built from one ``reverse`` per page.
"""

from __future__ import annotations

import html
import re

from django import template
from django.urls import reverse
from django.utils import dates, timezone
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from caseflow import policy
from caseflow.accounts.models import lists_show_initials
from caseflow.cases.models import CaseStatus, RiskLevel
from caseflow.cases.selectors import list_name

register = template.Library()

_SENTINEL = "X" * 16  # matches the public id converter, appears in no URL prefix
_PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{16,32}")

_ROW = (
    "    <tr>\n"
    '      <td><a href="{url}">{reference}</a>{restricted}{emergency}</td>\n'
    '      <td class="survivor-name">{name}</td>\n'
    "      <td>{status}</td>\n"
    '      <td><span class="badge risk-{risk}">{risk_label}</span></td>\n'
    "      <td>{team}</td>\n"
    "      <td>{advocate}</td>\n"
    "      <td>{next_due}</td>\n"
    "    </tr>\n"
)


# Constant markup with nothing interpolated.
def _restricted() -> str:
    return format_html(' <span class="badge text-bg-dark">{}</span>', gettext("Restricted"))


_UNASSIGNED = mark_safe("<em>Unassigned</em>")
_EMERGENCY = mark_safe(' <span class="badge text-bg-warning">Emergency access</span>')


def short_datetime(value) -> str:
    """``value|date:"j M Y H:i"`` in the current time zone, without the format machinery."""
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    month = str(dates.MONTHS_3[value.month]).title()
    return f"{value.day} {month} {value.year:04d} {value.hour:02d}:{value.minute:02d}"


def _person(user) -> str:
    return user.get_full_name() or user.username


def _initials(context) -> bool:
    """Whether the reader's agency shows initials instead of names in its lists."""
    request = context.get("request")
    user = getattr(request, "user", None)
    return lists_show_initials(policy.agency_id_of(user)) if user is not None else False


@register.simple_tag(takes_context=True)
def case_table_rows(context, rows) -> SafeString:
    """The ``<tr>`` of each row of ``selectors.case_rows``."""
    initials = _initials(context)
    prefix, _, suffix = reverse("cases:detail", args=[_SENTINEL]).partition(_SENTINEL)
    # Each label in the active language once, not once a row.
    statuses = {value: str(label) for value, label in CaseStatus.choices}
    risks = {value: str(label) for value, label in RiskLevel.choices}

    def cells(case) -> dict:
        public_id = case.public_id
        if _PUBLIC_ID.fullmatch(public_id):
            url = f"{prefix}{public_id}{suffix}"
        else:  # not what the converter accepts: let ``reverse`` say so
            url = reverse("cases:detail", args=[public_id])
        advocate = case.primary_advocate
        next_due = getattr(case, "next_due", None)
        return {
            "url": url,
            "reference": case.reference,
            "name": list_name(case, initials=initials) or "—",
            "restricted": _restricted() if case.restricted else "",
            "emergency": _EMERGENCY if getattr(case, "emergency", False) else "",
            "status": statuses.get(case.status, case.status),
            "risk": case.risk_level,
            "risk_label": risks.get(case.risk_level, case.risk_level),
            "team": case.team.name,
            "advocate": _person(advocate) if advocate else _UNASSIGNED,
            "next_due": short_datetime(next_due) if next_due else "—",
        }

    # Every value is escaped as ``format_html`` escapes it; the markup is this module's own.
    return mark_safe("".join(_ROW.format_map(_escaped(cells(case))) for case in rows))  # noqa: S308


def _escape(value) -> str:
    """``conditional_escape(value)``'s text: a plain string (most cells) is escaped by the
    standard library's ``html.escape`` directly, as Django's ``escape`` does it, without
    Django's check of every argument for a lazy string on the way."""
    if type(value) is str:
        return html.escape(value)
    return conditional_escape(value)


def _escaped(cells: dict) -> dict:
    """``cells`` as ``format_html`` writes each, without a safe string for each row."""
    return {name: _escape(value) for name, value in cells.items()}
