"""HUD's entry and exit questions at 375 px: the agency admin shows the section, and an advocate
records a survivor's answers from the case page, a bad amount refused with a form error first."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.cases.models import Episode, IntakeField
from caseflow.confidentiality.services import field_settings_save
from caseflow.partners.models import HudAnswers
from tests import factories as f
from tests.browser.conftest import PHONE, looks_right, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_an_advocate_records_the_entry_answers(new_tab, live_server, cast):
    case = cast.case
    Episode.objects.get_or_create(case=case, number=1, defaults={"opened_at": case.opened_at})
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})

    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{case.public_id}/")
    page.get_by_role("region", name="Other agencies").get_by_role(
        "link", name="HUD entry and exit"
    ).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("HUD entry and exit")
    looks_right(tab, PHONE["width"], "hud-answers")

    page.get_by_label("Where they stayed before (prior living situation)").select_option(
        "family_temporary"
    )
    page.get_by_label("How long they stayed there").select_option("two_to_six_nights")
    page.get_by_label("Veteran status (adults)").select_option("no")
    page.get_by_label("Who lives in the household").select_option(label="Adults and children")
    # What HUD works chronic homelessness out from: the night before a short stay, since when,
    # how many times.
    page.get_by_label("on the night before it", exact=False).select_option("yes")
    page.get_by_label("Approximate date this time of homelessness began").fill("2025-06-01")
    page.get_by_label("Times on the streets", exact=False).select_option("two")
    page.get_by_label("Has experienced domestic violence").select_option("yes")
    page.get_by_label("When it last happened").select_option("within_3_months")
    page.get_by_label("Currently fleeing").select_option("yes")
    # Two questions begin "Income from any source" (at entry, and at exit).
    page.locator("#id_income_any").select_option("yes")
    page.get_by_label("Total monthly income (dollars)").fill("-40")
    page.get_by_role("group", name="Sources of income", exact=True).get_by_label(
        "Earned income (from work)"
    ).check()
    # The questions asked at entry are asked at exit too, their labels ending "at exit".
    page.locator("#id_insurance_any").select_option("yes")
    page.get_by_role("group", name="Health insurance", exact=True).get_by_label("Medicaid").check()
    page.get_by_label("Has a disabling condition at exit").select_option("yes")
    page.get_by_role("group", name="Conditions at exit").get_by_label(
        "Mental health disorder"
    ).check()
    page.get_by_role("button", name="Save the answers").click()
    # A negative amount is a form error; everything else typed is kept.
    expect(page.locator(".invalid-feedback, .errorlist").first).to_be_visible()
    looks_right(tab, PHONE["width"], "hud-answers-error")
    assert not HudAnswers.objects.exists()
    page.get_by_label("Total monthly income (dollars)").fill("1250")
    # Work and child support: the part from work asked beside the total (for HUD's income
    # change, Q19a).
    page.get_by_role("group", name="Sources of income", exact=True).get_by_label(
        "Child support"
    ).check()
    page.get_by_label("Of that, monthly earned income from work (dollars)", exact=True).fill("800")
    page.get_by_role("button", name="Save the answers").click()
    expect(page.get_by_role("status")).to_have_text("Answers saved.")

    # A year on, the annual assessment: its day and the questions asked again.
    page.get_by_role("region", name="Other agencies").get_by_role(
        "link", name="HUD entry and exit"
    ).click()
    assessed_on = timezone.localdate().isoformat()
    page.get_by_label("Day of the annual assessment").fill(assessed_on)
    page.get_by_label("Income from any source at the annual assessment").select_option("yes")
    page.get_by_role("group", name="Sources of income at the annual assessment").get_by_label(
        "Earned income (from work)"
    ).check()
    page.get_by_role("button", name="Save the answers").click()
    expect(page.get_by_role("status")).to_have_text("Answers saved.")

    row = HudAnswers.objects.get(case=case)
    row.case = case
    assert row.answers["annual_on"] == assessed_on
    assert row.answers["annual_income_sources"] == ["earned"]
    assert row.answers["prior_living"] == "family_temporary"
    assert row.answers["veteran"] == "no"
    assert row.answers["household_type"] == "children_and_adults"
    assert row.answers["prior_night_street"] == "yes"
    assert row.answers["homeless_since"] == "2025-06-01"
    assert row.answers["times_homeless"] == "two"
    assert row.answers["income_amount"] == "1250.00"
    assert row.answers["income_sources"] == ["earned", "child_support"]
    assert row.answers["income_earned_amount"] == "800.00"
    assert row.answers["insurance_sources"] == ["medicaid"]
    assert row.answers["destination"] == "not_collected"
    assert row.answers["exit_conditions"] == ["mental_health"]
    assert row.answers["conditions"] == []
