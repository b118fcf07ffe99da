"""The survivor's language and access needs, for the safe-contact card and check-ins."""

from __future__ import annotations

from django import template

from caseflow.cases.language import needs_of
from caseflow.cases.models import Case, PartyRole

register = template.Library()


@register.simple_tag
def survivor_needs(case: Case, parties=None) -> dict | None:
    """``parties``: the case's people when the page has them already (no further query)."""
    if parties is None:
        parties = list(case.parties.filter(role=PartyRole.SURVIVOR)[:1])
    for party in parties:
        if party.role == PartyRole.SURVIVOR:
            party.case = case  # share the unwrapped data key
            return needs_of(party)
    return None
