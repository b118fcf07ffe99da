"""The case summary first: the survivor named in the safe-contact card with her own name and
pronouns, her safe phone a link to call; the other party set apart, "do not contact", with no
link to call; a contents list for the long page."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Party, PartyRole
from caseflow.cases.templatetags.phone import tel_href
from tests import factories as f

pytestmark = pytest.mark.django_db


def _page(login, user, case) -> str:
    return login(user).get(reverse("cases:detail", args=[case.public_id])).content.decode()


@pytest.fixture
def people(cast):
    """An other party added first (the order that listed him first before), then the survivor
    with the name she goes by, both with phones."""
    cast.case.parties.all().delete()
    other = f.add_party(
        cast.case, PartyRole.OTHER_PARTY, full_name="Sam Otherparty", phone="07700 900111"
    )
    survivor = f.add_party(
        cast.case,
        PartyRole.SURVIVOR,
        full_name="Samantha Example",
        known_as="Sam",
        pronouns="she/her",
        phone="07700 900222",
    )
    profile = cast.case.safe_contact
    profile.case = cast.case
    profile.safe_phone = "+44 7700 900333"
    profile.save()
    return survivor, other


def test_the_safe_contact_card_names_the_survivor_and_links_her_safe_phone(cast, login, people):
    page = _page(login, cast.assigned, cast.case)
    card = page[page.index('id="safe-h"') : page.index('class="row case-facts"')]
    assert re.search(r"<strong[^>]*>Sam</strong>\s*<span[^>]*>\(Samantha Example\)</span>", card)
    assert "she/her" in card
    assert 'href="tel:+447700900333"' in card
    # The card comes before everything else that names people.
    assert page.index("Samantha Example") == page.index("(Samantha Example)") + 1


def test_people_list_the_survivor_first_and_the_other_party_apart_without_a_call_link(
    cast, login, people
):
    page = _page(login, cast.assigned, cast.case)
    people_section = page[page.index('id="people-h"') :]
    assert people_section.index("Samantha Example") < people_section.index("Sam Otherparty")
    apart = people_section[people_section.index('id="other-party-h"') :]
    assert "Other party: do not contact" in apart
    assert "Sam Otherparty" in apart and "07700 900111" in apart
    assert "Samantha Example" not in apart
    # The only call link on the page is the survivor's safe phone.
    assert re.findall(r'href="tel:[^"]*"', page) == ['href="tel:+447700900333"']
    # Phones must not turn the other party's number into a link by themselves.
    assert '<meta name="format-detection" content="telephone=no">' in page


def test_the_contents_list_leads_to_each_section_shown(cast, login, people):
    page = _page(login, cast.assigned, cast.case)
    start = page.index('class="case-contents')
    nav = page[start : page.index("</nav>", start)]
    anchors = re.findall(r'href="#([a-z-]+)">([^<]+)<', nav)
    assert [word for _, word in anchors] == [
        "Safety",
        "Notes",
        "Agreements",
        "Check-ins",
        "Her own rating",
        "Sharing",
        "Transfers",
        "People",
    ]
    for anchor, _ in anchors:
        assert f'id="{anchor}"' in page


def test_a_person_is_saved_with_the_name_they_go_by_and_pronouns(cast, login, people):
    survivor, _ = people
    client = login(cast.assigned)
    response = client.post(
        reverse("cases:party_edit", args=[cast.case.public_id, survivor.public_id]),
        {
            "role": PartyRole.SURVIVOR,
            "full_name": "Samantha Example",
            "known_as": "Sammy",
            "pronouns": "they/them",
            "interpreter_independent": "on",
        },
    )
    assert response.status_code == 302
    saved = Party.objects.get(pk=survivor.pk)
    saved.case = cast.case
    assert (saved.known_as, saved.pronouns) == ("Sammy", "they/them")
    event = AuditEvent.objects.filter(action="party.update").latest("seq")
    assert {"known_as", "pronouns"} <= set(event.detail["fields"])
    # Stored encrypted, like the full name.
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT known_as, pronouns FROM {Party._meta.db_table} WHERE id = %s", [survivor.pk]
        )
        known_as, pronouns = cursor.fetchone()
    assert known_as and "Sammy" not in known_as
    assert pronouns and "they/them" not in pronouns


@pytest.mark.parametrize(
    "number, href",
    [
        ("+44 7700 900333", "tel:+447700900333"),
        ("(555) 010-0199", "tel:5550100199"),
        ("07700-900-222 ext", "tel:07700900222"),
        ("call after 6", ""),
        ("", ""),
        ("javascript:alert(1)", ""),
    ],
)
def test_a_phone_link_holds_digits_only(number, href):
    assert tel_href(number) == href
