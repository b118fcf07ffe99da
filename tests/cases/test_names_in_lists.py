"""The survivor's name in the case lists: the name she goes by, else her full name; her
initials only where the agency says its screens are shared; never a name of a case the reader may
not read."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.accounts.models import Agency, lists_show_initials, set_lists_show_initials
from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case, CaseKey, PartyRole
from caseflow.cases.selectors import case_rows, initials_of, list_name
from tests import factories as f
from tests.conftest import canary

pytestmark = pytest.mark.django_db


def _rows(case):
    return list(case_rows(Case.objects.filter(pk=case.pk)))


@pytest.mark.parametrize(
    "name, initials",
    [
        ("Riley Sample", "R.S."),
        ("  jo-ann  o'neil ", "J.O."),
        ("Zoë (Zo) Éclair", "Z.Z.É."),
        ("", ""),
    ],
)
def test_initials_are_the_first_letter_of_each_word(name, initials):
    assert initials_of(name) == initials


def test_a_row_names_the_survivor_by_the_name_she_goes_by(cast):
    case = f.open_case(cast.team1, [cast.assigned], reference="NAMED-1")
    f.add_party(case, PartyRole.OTHER_PARTY, full_name="Other Person")
    survivor = f.add_party(case, PartyRole.SURVIVOR, full_name="Samantha Example")
    assert list_name(_rows(case)[0]) == "Samantha Example"
    survivor.known_as = "Sam Example"
    survivor.save()
    (row,) = _rows(case)
    assert list_name(row) == "Sam Example"
    assert list_name(row, initials=True) == "S.E."


def test_a_case_without_a_survivor_or_whose_key_was_destroyed_shows_no_name(cast):
    empty = f.open_case(cast.team1, [cast.assigned], reference="EMPTY-1")
    assert list_name(_rows(empty)[0]) == ""
    CaseKey.objects.filter(case=cast.case).delete()
    assert list_name(_rows(cast.case)[0]) == ""


def test_the_lists_show_names_and_the_agency_may_show_initials_instead(cast, login):
    client = login(cast.assigned)
    name = f"Survivor {canary(cast.case)}"
    for url in (reverse("cases:list"), reverse("dashboard")):
        page = client.get(url).content.decode()
        assert name in page, url
    set_lists_show_initials(cast.agency.pk, True)
    for url in (reverse("cases:list"), reverse("dashboard")):
        page = client.get(url).content.decode()
        assert canary(cast.case) not in page, url
        assert f"S.{canary(cast.case)[0]}." in page, url


def test_no_list_names_a_survivor_the_reader_may_not_read(cast, login):
    """The restricted case is listed (named) only for the advocate on its access list; the
    other team's and the other agency's cases are never listed."""
    restricted = canary(cast.restricted_case)
    assert restricted in login(cast.assigned).get(reverse("cases:list")).content.decode()
    for user in (cast.same_team, cast.supervisor, cast.other_team):
        for url in (reverse("cases:list"), reverse("dashboard")):
            page = login(user).get(url).content.decode()
            assert restricted not in page, (user.username, url)
            assert canary(cast.foreign_case) not in page, (user.username, url)
    page = login(cast.same_team).get(reverse("cases:list")).content.decode()
    assert canary(cast.team2_case) not in page


def test_the_agency_admin_chooses_initials_and_the_change_is_recorded(cast, login):
    client = login(cast.agency_admin)
    url = reverse("agency:list_names")
    page = client.get(url).content.decode()
    assert "Show initials instead of names in lists (for shared screens)" in page
    assert client.post(url, {"list_initials": "on"}).status_code == 302
    assert lists_show_initials(cast.agency.pk) is True
    assert Agency.objects.get(pk=cast.agency.pk).list_initials is True
    event = AuditEvent.objects.filter(action="agency.list_initials").latest("seq")
    assert event.detail == {"before": False, "after": True}
    # The lists follow at once (the cached answer is forgotten), and back again.
    staff = login(cast.assigned).get(reverse("cases:list")).content.decode()
    assert canary(cast.case) not in staff
    client = login(cast.agency_admin)
    assert client.post(url, {}).status_code == 302
    assert lists_show_initials(cast.agency.pk) is False
    staff = login(cast.assigned).get(reverse("cases:list")).content.decode()
    assert canary(cast.case) in staff
    # Another agency's lists are not changed.
    assert lists_show_initials(cast.foreign_case.agency_id) is False
    settings_page = login(cast.agency_admin).get(reverse("agency:settings")).content.decode()
    assert url in settings_page
