"""A Spanish-speaking advocate's Monday morning on a phone, in Spanish: they choose Spanish, work
through today's queue, open a case, record a check-in's outcome, and take a new referral whose
survivor needs an interpreter. Every page fits 375 px, is axe-clean and shows no English words
of the interface (the pseudo-locale test checks every page for unmarked strings)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.inbox.models import FollowUp
from tests import factories as f
from tests.browser.conftest import sign_in
from tests.checkins.helpers import make_checkin

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PHONE = {"width": 375, "height": 740}
#: Interface words in English that must not be left on a Spanish page.
ENGLISH = re.compile(
    r"\b(Overdue|Due today|Your day|Safe contact|Timeline|Sign out|Record outcome|Save|"
    r"Open case|Check-ins|New referral|Hide screen|Outcome|Interpreter needed)\b"
)


def _check(tab, name: str) -> None:
    page = tab.page
    tab.check(name)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name} scrolls sideways at 375 px ({width} px wide)"
    assert page.locator("html").get_attribute("lang") == "es"
    text = page.locator("body").inner_text()
    assert not ENGLISH.search(text), f"English left on {name}: {ENGLISH.findall(text)}"


def test_a_spanish_speaking_advocates_monday_and_an_intake(new_tab, live_server, cast):
    now = timezone.now()
    FollowUp.objects.create(
        case=cast.case, kind="task", due_at=now - dt.timedelta(days=1), assignee=cast.assigned
    )
    make_checkin(cast.case, cast.assigned, now - dt.timedelta(hours=1))
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)

    # They choose Spanish for themselves (their agency stays English).
    page.goto(live_server.url + "/accounts/language/")
    page.get_by_label("Language").select_option("es")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_have_text("Tu idioma está guardado.")
    _check(tab, "es-language")

    # Today's queue: the overdue follow-up and the check-in that is due.
    page.goto(live_server.url + "/")
    day = page.get_by_role("region", name="Tu día")
    expect(day.get_by_role("list", name="Atrasado")).to_contain_text("Atrasado")
    _check(tab, "es-today")

    # The case, its safe-contact card in Spanish.
    page.get_by_role("link", name=cast.case.reference).first.click()
    expect(page.get_by_role("heading", name="Contacto seguro")).to_be_visible()
    _check(tab, "es-case")

    # The check-in's outcome.
    page.goto(live_server.url + "/")
    page.get_by_role("link", name=re.compile("^Registrar lo que pasó")).first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Registrar el resultado")
    _check(tab, "es-outcome")
    page.get_by_label("Se habló").check()
    page.get_by_role("button", name="Registrar el resultado").click()
    expect(page.get_by_role("status").first).to_have_text("Resultado registrado.")
    _check(tab, "es-outcome-done")

    # A new referral: the survivor prefers Spanish and needs a Spanish interpreter.
    page.goto(live_server.url + "/cases/new/")
    page.get_by_label("Nombre completo de la persona superviviente").fill("Lucía Ficticia")
    # The lists themselves (comboboxes), not the "Buscar un idioma: …" search box above each,
    # whose name repeats its list's on purpose.
    page.get_by_role("combobox", name="Idioma preferido de la persona superviviente").select_option(
        "es"
    )
    page.get_by_role("combobox", name="Intérprete").select_option("es")
    _check(tab, "es-intake")
    page.get_by_role("button", name="Abrir el caso").click()
    expect(page.get_by_role("status").filter(has_text="abierto")).to_have_count(1)
    expect(page.locator(".interpreter-needed")).to_have_text("Necesita intérprete: Español")
    _check(tab, "es-new-case")
