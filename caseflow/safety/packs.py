"""What the safety plan contributes to referral packs and case exports.

The "safety plan" category is the current version's sections, except the protective orders:
court names and order references identify the family, so they belong to the "court orders"
category and leave only under a release that names it.
"""

from __future__ import annotations

from django.utils import formats

from caseflow.cases.models import Case
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.safety import sections
from caseflow.safety.hard_dates import hard_dates_of, shown_words, words_setting
from caseflow.safety.services import plan_content, plan_of

#: (label, value) pairs, the shape of every section of a referral pack or case export.
Rows = list[tuple[str, str]]


def _current(case: Case) -> tuple[int, dict] | None:
    plan = plan_of(case)
    if plan is None or plan.version == 0:
        return None
    return plan.version, plan_content(plan)


def safety_plan_rows(case: Case) -> Rows:
    current = _current(case)
    if current is None:
        return [(str(_("Safety plan")), str(_("No plan recorded")))]
    number, content = current
    rows: Rows = [(str(_("Plan version")), str(number))]
    for section in sections.SECTIONS:
        if section.key == "protective_orders":
            continue
        lines = sections.section_lines(content, section.key)
        rows.append((str(section.label), "\n".join(lines) if lines else "—"))
    return rows


def hard_date_rows(case: Case) -> Rows:
    """The dates she named as hard: the kind of day, her words, the day and whether yearly."""
    rows: Rows = []
    setting = words_setting(case)
    for row in hard_dates_of(case):
        value = formats.date_format(row.day, "DATE_FORMAT")
        if row.yearly:
            value += " " + str(_("(every year)"))
        words = shown_words(row, setting)
        if words:
            value += f" — {words}"
        rows.append((f"{_('Hard date')}: {row.get_kind_display()}", value))
    return rows


def protective_order_rows(case: Case) -> Rows:
    current = _current(case)
    if current is None:
        return []
    _number, content = current
    rows: Rows = []
    for number, order in enumerate(content["protective_orders"], start=1):
        for field, label in sections.ORDER_FIELDS:
            if order[field]:
                rows.append((f"Protective order {number}: {label}", order[field]))
    return rows
