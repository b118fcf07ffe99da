"""Finding people in one's own cases as people remember them: part of a name, the surname alone,
the name a person goes by, a one-letter slip; never beyond the cases the searcher may read, and
the agency-wide answer says it matched full names only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import PartyRole
from caseflow.cases.selectors import find_similar_in_own_cases
from tests import factories as f

pytestmark = pytest.mark.django_db

FIND = reverse("cases:find")


@pytest.fixture
def riley(cast):
    """Riley Sample, known as "Ri", on the assigned advocate's case; a Riley Samples on another
    team's case; a Riley Sample on the restricted case (the assigned advocate is listed)."""
    f.add_party(cast.case, PartyRole.SURVIVOR, full_name="Riley Sample", known_as="Roo")
    f.add_party(cast.team2_case, PartyRole.SURVIVOR, full_name="Riley Samples")
    f.add_party(cast.foreign_case, PartyRole.SURVIVOR, full_name="Riley Sample")
    return cast


def _found(user, name, role=PartyRole.SURVIVOR):
    return {c.pk for c in find_similar_in_own_cases(user, name=name, role=role).cases}


@pytest.mark.parametrize(
    "typed",
    ["Sample", "sample riley", "Ril Sam", "Riley Smaple", "Rilye Sample", "Roo", "riley sampel"],
)
def test_part_of_a_name_the_surname_alone_the_name_she_goes_by_and_slips_find_her(riley, typed):
    assert riley.case.pk in _found(riley.assigned, typed)


@pytest.mark.parametrize("typed", ["Riley Smith", "Sammy", "R S", "Rolly Simple", "Sample Jones"])
def test_names_that_are_not_hers_do_not(riley, typed):
    assert riley.case.pk not in _found(riley.assigned, typed)


def test_only_the_searchers_own_cases_are_read(riley):
    # The other team's Riley Samples is found by that team, not by this advocate, and another
    # agency's Riley Sample by nobody here.
    assert _found(riley.assigned, "Riley Sample") == {riley.case.pk}
    assert _found(riley.other_team, "Riley Sample") == {riley.team2_case.pk}
    assert riley.foreign_case.pk not in _found(riley.supervisor, "Riley Sample")


def test_roles_are_searched_apart(riley):
    assert _found(riley.assigned, "Riley Sample", PartyRole.OTHER_PARTY) == set()


def test_the_page_lists_similar_names_and_says_the_agency_check_is_exact(riley, login):
    client = login(riley.assigned)
    page = client.post(FIND, {"name": "Sample", "role": PartyRole.SURVIVOR}).content.decode()
    assert "Your cases with a client of a similar name" in page
    assert riley.case.reference in page
    assert riley.team2_case.reference not in page
    assert "No case in the agency has exactly this full name." in page
    assert "only the exact full name is matched" in page
    event = AuditEvent.objects.filter(action="case.search_name").latest("seq")
    assert event.detail["similar"] == [riley.case.pk] and event.detail["cases"] == []
    assert "Sample" not in str(event.detail)
