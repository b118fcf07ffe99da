"""Finding people in one's own cases as people remember them: part of a name, the surname alone,
the name a person goes by, a one-letter slip; never beyond the cases the searcher may read, and
the agency-wide answer says it matched full names only."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Party, PartyRole
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


@pytest.fixture
def aliased(riley):
    """Riley Sample was known as Riley Oldname: recorded as another name, with her birth day."""
    survivor = riley.case.parties.get(role=PartyRole.SURVIVOR, known_as__isnull=False)
    survivor.case = riley.case
    survivor.aliases = "Riley Oldname\nR. Brightwater"
    survivor.date_of_birth = "1988-04-02"
    survivor.save()
    return riley


@pytest.mark.parametrize("typed", ["Oldname", "riley oldnmae", "Brightwater", "Brightwatr"])
def test_another_name_she_was_known_by_finds_her(aliased, typed):
    assert aliased.case.pk in _found(aliased.assigned, typed)
    # Never across teams.
    assert aliased.case.pk not in _found(aliased.other_team, typed)


def _found_born(user, born, name=""):
    return {
        c.pk
        for c in find_similar_in_own_cases(
            user, name=name, role=PartyRole.SURVIVOR, date_of_birth=born
        ).cases
    }


def test_a_date_of_birth_alone_finds_and_with_a_name_narrows(aliased):
    born = dt.date(1988, 4, 2)
    assert _found_born(aliased.assigned, born) == {aliased.case.pk}
    assert _found_born(aliased.assigned, dt.date(1988, 4, 3)) == set()
    assert _found_born(aliased.assigned, born, "Sample") == {aliased.case.pk}
    # The name matches, the day does not: not found.
    assert _found_born(aliased.assigned, dt.date(1990, 1, 1), "Riley Sample") == set()
    # The cast's planted survivors, born on 1 January 1990: only the searcher's own (the
    # restricted case lists the assigned advocate, not the supervisor), never another team's or
    # another agency's.
    planted = _found_born(aliased.assigned, dt.date(1990, 1, 1))
    assert planted == {aliased.case.pk, aliased.restricted_case.pk}
    assert _found_born(aliased.supervisor, dt.date(1990, 1, 1)) == {aliased.case.pk}
    assert _found_born(aliased.same_team, dt.date(1988, 4, 2)) == set()
    assert _found_born(aliased.other_team, dt.date(1990, 1, 1)) == {aliased.team2_case.pk}


def test_the_page_finds_by_date_of_birth_and_keeps_neither_in_the_record(aliased, login):
    client = login(aliased.assigned)
    page = client.post(
        FIND, {"name": "Riley Sample", "date_of_birth": "1988-04-02", "role": PartyRole.SURVIVOR}
    ).content.decode()
    assert aliased.case.reference in page
    # The exact match on the full name is narrowed by the day too.
    page = client.post(
        FIND, {"name": "Riley Sample", "date_of_birth": "1975-04-02", "role": PartyRole.SURVIVOR}
    ).content.decode()
    assert aliased.case.reference not in page
    assert "Nothing found." in page
    page = client.post(
        FIND, {"name": "", "date_of_birth": "1988-04-02", "role": PartyRole.SURVIVOR}
    ).content.decode()
    assert "Your cases with a person born on this day" in page
    assert aliased.case.reference in page
    event = AuditEvent.objects.filter(action="case.search_name").latest("seq")
    assert event.detail["with_date_of_birth"] is True and event.detail["with_name"] is False
    assert "1988" not in str(event.detail) and "Riley" not in str(event.detail)


def test_neither_a_name_nor_a_date_is_refused_on_the_form(riley, login):
    response = login(riley.assigned).post(FIND, {"name": "", "role": PartyRole.SURVIVOR})
    assert response.status_code == 200
    assert "Enter a name, a date of birth, or both." in response.content.decode()
    response = login(riley.assigned).post(
        FIND, {"name": "", "date_of_birth": "1800-01-01", "role": PartyRole.SURVIVOR}
    )
    assert "more than 120 years ago" in response.content.decode()


def test_other_names_are_saved_encrypted_one_a_line(riley, login):
    survivor = riley.case.parties.get(role=PartyRole.SURVIVOR, known_as__isnull=False)
    response = login(riley.assigned).post(
        reverse("cases:party_edit", args=[riley.case.public_id, survivor.public_id]),
        {
            "role": PartyRole.SURVIVOR,
            "full_name": "Riley Sample",
            "aliases": "  Riley Oldname \n\n R. Brightwater\n",
            "interpreter_independent": "on",
        },
    )
    assert response.status_code == 302
    saved = Party.objects.get(pk=survivor.pk)
    saved.case = riley.case
    assert saved.aliases == "Riley Oldname\nR. Brightwater"
    assert saved.alias_list == ["Riley Oldname", "R. Brightwater"]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT aliases FROM {Party._meta.db_table} WHERE id = %s", [survivor.pk])
        (stored,) = cursor.fetchone()
    assert stored and "Oldname" not in stored
    event = AuditEvent.objects.filter(action="party.update").latest("seq")
    assert "aliases" in event.detail["fields"]
    page = login(riley.assigned).get(reverse("cases:detail", args=[riley.case.public_id]))
    assert "Also known as: Riley Oldname, R. Brightwater" in page.content.decode()
    too_long = login(riley.assigned).post(
        reverse("cases:party_edit", args=[riley.case.public_id, survivor.public_id]),
        {"role": PartyRole.SURVIVOR, "full_name": "Riley Sample", "aliases": "x" * 201},
    )
    assert too_long.status_code == 200
    assert "Each name may have at most 200 characters." in too_long.content.decode()


def test_the_agency_wide_check_does_not_match_other_names(aliased, login):
    """Decided: the agency-wide check stays on full names; another name finds her only in the
    searcher's own cases, and the answer says so."""
    page = (
        login(aliased.same_team)
        .post(FIND, {"name": "Riley Oldname", "role": PartyRole.SURVIVOR})
        .content.decode()
    )
    assert "may exist elsewhere in the agency" not in page
    assert "another name the person is known by" in page
