"""What followed harm in a referral pack or case export, only under a release: the dated kinds
with the contact log and breaches ("evidence"), her words with the narratives, and only while the
agency collects them."""

from __future__ import annotations

from caseflow.accounts import zones
from caseflow.cases.fields import FieldConfig, agency_field_config
from caseflow.cases.models import Case
from caseflow.cycle.models import Mark

Rows = list[tuple[str, str]]


def _marks(case: Case) -> list[Mark]:
    found = list(
        Mark.objects.filter(case=case)
        .select_related("agency_kind", "incident", "contact_event")
        .order_by("at", "pk")
    )
    for mark in found:
        mark.case = case
    return found


def _label(number: int) -> str:
    return f"What followed harm {number}"


def mark_rows(case: Case) -> Rows:
    zone = zones.agency_zone(case.agency)
    rows: Rows = []
    for number, mark in enumerate(_marks(case), start=1):
        follows = mark.incident if mark.incident is not None else mark.contact_event
        assert follows is not None
        what = "incident" if mark.incident is not None else "contact"
        rows.append(
            (
                _label(number),
                f"{mark.kind_label}, {mark.at.astimezone(zone):%Y-%m-%d %H:%M} ({zone.key}); "
                f"after the {what} of {follows.occurred_at.astimezone(zone):%Y-%m-%d %H:%M}",
            )
        )
    return rows


def words_rows(case: Case) -> Rows:
    setting = FieldConfig(agency_field_config(case.agency_id)).for_kind("cycle_mark")
    if setting.get("words", {}).get("hidden"):
        return []
    label = setting.get("words", {}).get("label") or "In her own words"
    return [
        (f"{_label(number)}: {label}", mark.words)
        for number, mark in enumerate(_marks(case), start=1)
        if mark.words
    ]
