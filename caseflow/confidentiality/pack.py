"""The contents of a referral pack, one section per category of information.

Each provider takes the case (already resolved through policy) and returns rows of
(label, value). Other parts of caseflow add the categories they hold (the safety plan, court
orders) with :func:`register_provider`; a category without a provider says so in the pack instead
of pretending the case holds nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from caseflow.cases.models import Case, PartyRole
from caseflow.confidentiality.models import Category

Rows = list[tuple[str, str]]


def _parties(case: Case, *roles: str):
    parties = [p for p in case.parties.all() if p.role in roles]
    for party in parties:
        party.case = case  # share the unwrapped data key
    return parties


def _contact(case: Case) -> Rows:
    rows: Rows = []
    for p in _parties(case, PartyRole.SURVIVOR):
        rows += [("Name", p.full_name), ("Phone", p.phone or "—"), ("E-mail", p.email or "—")]
    return rows


def _address(case: Case) -> Rows:
    return [("Address", p.address or "—") for p in _parties(case, PartyRole.SURVIVOR)]


def _children(case: Case) -> Rows:
    rows: Rows = []
    for p in _parties(case, PartyRole.CHILD):
        rows += [("Child", p.full_name), ("Date of birth", p.date_of_birth or "—")]
    return rows or [("Children", "None recorded")]


def _narratives(case: Case) -> Rows:
    rows: Rows = [("Summary", case.summary or "—")]
    for p in _parties(case, PartyRole.SURVIVOR):
        if p.notes:
            rows.append(("Notes", p.notes))
    return rows


def _risk(case: Case) -> Rows:
    return [("Risk level", case.get_risk_level_display())]


PROVIDERS: dict[str, Callable[[Case], Rows]] = {
    Category.CONTACT: _contact,
    Category.ADDRESS: _address,
    Category.CHILDREN: _children,
    Category.NARRATIVES: _narratives,
    Category.RISK: _risk,
}


def register_provider(category: str, provider: Callable[[Case], Rows]) -> None:
    PROVIDERS[category] = provider


def build_sections(case: Case, categories: list[str]) -> list[tuple[str, Rows]]:
    labels = dict(Category.choices)
    sections = []
    for category in categories:
        provider = PROVIDERS.get(category)
        rows = (
            provider(case)
            if provider
            else [("Not included", "This record type is not available for packs yet.")]
        )
        sections.append((labels[category], rows))
    return sections
