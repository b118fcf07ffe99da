"""The contents of a referral pack, one section per category of information.

Each provider takes the case (already resolved through policy) and returns rows of (label, value).
The case's own categories are defined here; the features of the case add the categories they hold
(the safety plan, court orders, the contact log and evidence) as ``CaseFeature.pack_rows``. A
category may have several providers (court orders come from the safety plan and from contact
agreements), whose rows follow one another in the features' order. A category without a provider
says so in the pack instead of pretending the case holds nothing. The referral pack and the case
export both build their contents here: one definition of what each category contains.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from caseflow.cases import features
from caseflow.cases.models import Case, PartyRole
from caseflow.confidentiality.models import Category
from caseflow.lib.i18n import gettext_lazy as _

Rows = list[tuple[str, str]]


def _parties(case: Case, *roles: str):
    parties = [p for p in case.parties.all() if p.role in roles]
    for party in parties:
        party.case = case  # share the unwrapped data key
    return parties


def _settings(case: Case, kind: str, role: str | None = None) -> dict[str, dict]:
    """The case's agency's field settings for ``kind`` ("case" or "party" in ``role``), read once
    per case object. A field the agency does not collect never leaves in a pack, even if a value
    was stored before it was hidden; a relabelled field leaves under the agency's label."""
    from caseflow.cases.fields import FieldConfig, agency_field_config

    config = getattr(case, "_pack_field_config", None)
    if config is None:
        config = FieldConfig(agency_field_config(case.agency_id))
        # Cached on the case object for the other sections of the same pack.
        case._pack_field_config = config  # type: ignore[attr-defined]
    if kind == "case":
        return config.for_case()
    assert role is not None  # a party's settings are asked for with its role
    return config.for_role(role)


def _field(settings: dict[str, dict], attribute: str, label: str, value) -> Rows:
    setting = settings.get(attribute, {})
    if setting.get("hidden"):
        return []
    return [(setting.get("label") or label, value or "—")]


def _contact(case: Case) -> Rows:
    rows: Rows = []
    settings = _settings(case, "party", PartyRole.SURVIVOR)
    for p in _parties(case, PartyRole.SURVIVOR):
        rows += [("Name", p.full_name)]
        rows += _field(settings, "phone", "Phone", p.phone)
        rows += _field(settings, "email", "E-mail", p.email)
    return rows


def _address(case: Case) -> Rows:
    return [("Address", p.address or "—") for p in _parties(case, PartyRole.SURVIVOR)]


def _children(case: Case) -> Rows:
    rows: Rows = []
    for p in _parties(case, PartyRole.CHILD):
        rows += [("Child", p.full_name), (_("Date of birth"), p.date_of_birth or "—")]
    return rows or [("Children", _("None recorded"))]


def _narratives(case: Case) -> Rows:
    rows: Rows = _field(_settings(case, "case"), "summary", "Summary", case.summary)
    for p in _parties(case, PartyRole.SURVIVOR):
        if p.notes:
            rows.append(("Notes", p.notes))
    return rows


def _risk(case: Case) -> Rows:
    return [(_("Risk level"), case.get_risk_level_display())]


Provider = Callable[[Case], Rows]

#: The categories the case itself holds, before any feature's.
CASE_PROVIDERS: dict[str, list[Provider]] = {
    Category.CONTACT: [_contact],
    Category.ADDRESS: [_address],
    Category.CHILDREN: [_children],
    Category.NARRATIVES: [_narratives],
    Category.RISK: [_risk],
}

NOT_AVAILABLE: Rows = [(_("Not included"), _("This record type is not available for packs yet."))]
NONE_RECORDED = _("None recorded")


def providers() -> dict[str, list[Provider]]:
    """Every category's providers: the case's own, then each feature's (in their order)."""
    return _providers_of(features.registered())


@functools.cache
def _providers_of(registered: tuple[features.CaseFeature, ...]) -> dict[str, list[Provider]]:
    found = {category: list(rows) for category, rows in CASE_PROVIDERS.items()}
    for feature in registered:
        for contribution in feature.pack_rows:
            found.setdefault(contribution.category, []).append(contribution.rows)
    return found


def category_rows(case: Case, category: str) -> Rows:
    providers_ = providers().get(category)
    if not providers_:
        return list(NOT_AVAILABLE)
    rows: Rows = []
    for provider in providers_:
        rows += provider(case)
    return rows or [(dict(Category.choices)[category], NONE_RECORDED)]


def build_sections(case: Case, categories: list[str]) -> list[tuple[str, Rows]]:
    labels = dict(Category.choices)
    return [(labels[category], category_rows(case, category)) for category in categories]
