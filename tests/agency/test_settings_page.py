"""The agency admin's settings in one place, and a home page that starts with them."""

from __future__ import annotations

import re

from django.urls import reverse

from caseflow.accounts.language import set_agency_language


def _links(html: str) -> list[str]:
    main = html[html.index("<main") :]
    return re.findall(r'<a href="(/[^"]*)"', main)


def test_every_setting_is_listed_with_how_it_stands_and_each_link_opens(cast, login):
    cast.agency.time_zone = "Europe/London"
    cast.agency.save(update_fields=["time_zone"])
    set_agency_language(cast.agency.pk, "es")
    client = login(cast.agency_admin)
    page = client.get(reverse("agency:settings"))
    assert page.status_code == 200
    text = page.content.decode()
    # In the agency's language now; with its staff, teams, language and zone.
    assert "Ajustes" in text
    assert "Europe/London" in text and "español" in text.lower()
    links = _links(text)
    expected = {
        reverse(name)
        for name in (
            "agency:staff_list",
            "confidentiality:fields",
            "confidentiality:retention",
            "cases:closure_reasons",
            "agency:agency_language",
            "agency:time_zone",
            "assistance:settings",
            "shelter:sites",
            "partners:settings",
            "partners:hud_project",
            "imports:upload",
            "integrations:list",
        )
    }
    assert expected <= set(links)
    for link in sorted(expected):
        assert client.get(link).status_code == 200, link


def test_the_admins_home_starts_with_the_settings_and_others_do_not_see_them(cast, login):
    home = login(cast.agency_admin).get(reverse("dashboard")).content.decode()
    assert reverse("confidentiality:fields") in home and reverse("imports:upload") in home
    # Sign-in through a provider, said plainly: the operators set it up.
    assert "ask the caseflow operators to set it up" in home
    for other in (cast.supervisor, cast.assigned, cast.auditor):
        page = login(other).get(reverse("dashboard")).content.decode()
        assert reverse("confidentiality:fields") not in page
