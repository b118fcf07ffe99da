"""Her own rating at 375 px: at two check-ins, the advocate records the outcome (reached), is
offered to record how she feels at it, slips once (11 on a scale of 0 to 10: a message on the
form, what she said kept), records her answers, and finds her trend on the journey beside the
staff's figures. At closing, "feels safer" is proposed from it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.checkins.models import CheckIn
from caseflow.wellbeing.models import Rating
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _rate_at_the_next_check_in(page, tab, *, safe: str, coping: str, words: str, first: bool):
    checkins = page.get_by_role("region", name="Check-ins and follow-ups")
    checkins.get_by_role("link", name="Record outcome").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Record the outcome")
    page.get_by_label("Reached").check()
    page.get_by_role("button", name="Record outcome").click()
    expect(page.get_by_role("status")).to_have_text("Outcome recorded.")

    own = page.get_by_role("region", name="Her own rating")
    own.get_by_role("link", name="Record how she feels at this check-in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Record how she feels")
    expect(page.locator("main")).to_contain_text("At the check-in of")
    if first:
        fits_a_phone(tab, "rating-form")
        # A slip of the thumb: a message beside the answer, her words kept, nothing saved.
        page.get_by_label("How safe does she feel right now?").fill("11")
        page.get_by_label("In her own words (optional)").fill(words)
        page.get_by_role("button", name="Save her rating").click()
        expect(page.locator("main")).to_contain_text("Her answer is a number from 0 to 10.")
        expect(page.get_by_label("In her own words (optional)")).to_have_value(words)
        assert not Rating.objects.exists()
        fits_a_phone(tab, "rating-form-error")
    page.get_by_label("How safe does she feel right now?").fill(safe)
    page.get_by_label("How is she coping?").fill(coping)
    page.get_by_label("In her own words (optional)").fill(words)
    page.get_by_role("button", name="Save her rating").click()
    expect(page.get_by_role("status")).to_have_text("Her rating is recorded.")


def test_her_rating_at_two_check_ins_draws_her_trend_on_the_journey(new_tab, live_server, cast):
    case = cast.case
    now = timezone.now()
    # Two check-ins that have taken place, a fortnight apart, their outcomes not yet recorded.
    for ago in (dt.timedelta(days=15), dt.timedelta(hours=2)):
        CheckIn.objects.create(case=case, assignee=cast.assigned, due_at=now - ago, channel="phone")

    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{case.public_id}/")
    own = page.get_by_role("region", name="Her own rating")
    expect(own).to_contain_text("has not been recorded yet")

    _rate_at_the_next_check_in(
        page, tab, safe="3", coping="4", words="Jumping at every knock.", first=True
    )
    own = page.get_by_role("region", name="Her own rating")
    expect(own).to_contain_text("How safe she feels: 3 of 10")
    fits_a_phone(tab, "rating-case-panel")

    _rate_at_the_next_check_in(
        page, tab, safe="7", coping="6", words="Sleeping through most nights.", first=False
    )
    own = page.get_by_role("region", name="Her own rating")
    expect(own).to_contain_text("How safe she feels: 7 of 10")
    expect(own).to_contain_text("Sleeping through most nights.")
    assert [r.answers for r in Rating.objects.order_by("taken_at")] == [
        {"safe": 3, "coping": 4},
        {"safe": 7, "coping": 6},
    ]
    assert all(r.checkin_id for r in Rating.objects.all())

    own.get_by_role("link", name="See her trend on the journey").click()
    trend = page.get_by_role("region", name="The trend")
    expect(trend).to_contain_text(
        "Her own rating, how safe she feels: 3 at first, 7 most recently (0 to 10)."
    )
    expect(trend).to_contain_text("Her own rating, how she is coping: 4 at first, 6 most recently")
    # Beside the staff's figures.
    expect(trend).to_contain_text("Check-ins: 2 in all")
    expect(page.locator("figure.journey-trend circle")).to_have_count(4)
    fits_a_phone(tab, "rating-journey")

    # Closing reads her trend for "feels safer"; the advocate may still change it.
    tab.goto(f"/cases/{case.public_id}/close/")
    safer = page.get_by_label("Does the survivor feel safer?")
    expect(safer).to_have_value("yes")
    expect(page.locator("main")).to_contain_text(
        "Proposed from her own rating of how safe she feels: 3 of 10"
    )
    fits_a_phone(tab, "rating-closure")
