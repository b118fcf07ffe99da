"""On a phone (375 px): an advocate records a need, a goal and a service and moves the need to
"met"; and a message the survivor sent outside the agreed terms never shows as a breach — not in
the contact log, the breach filter, the case page's counts, the agreement's chronology or the
case chronology."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from caseflow.agreements import services as agreement_services
from caseflow.casework.models import Need, NeedStatusChange, Service
from tests import factories as f
from tests.agreements.helpers import log_event, london, make_agreement
from tests.browser.conftest import PHONE, fits_a_phone, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

SURVIVOR_TEXT = "Replied late about the school shoes."
OTHER_TEXT = "He phoned three times after midnight."


def test_advocate_records_a_need_a_goal_and_a_service_and_the_need_is_met(tab, live_server, cast):
    page = tab.page
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{cast.case.public_id}/")
    panel = page.get_by_role("region", name="Needs and goals")
    expect(panel).to_contain_text("No needs recorded yet.")
    panel.get_by_role("link", name="Record a need").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Record a need")
    fits_a_phone(tab, "need-form")
    page.get_by_label("What the survivor needs help with").select_option(label="Housing")
    page.get_by_label("More about it").fill("The tenancy is in his name.")
    page.get_by_role("button", name="Save need").click()

    expect(page.get_by_role("status")).to_have_text("Need recorded.")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Housing")
    expect(page.locator("#need-status")).to_have_text("Identified")
    fits_a_phone(tab, "need")

    page.get_by_role("link", name="Set a goal").click()
    page.get_by_label("The goal").fill("A tenancy in her own name")
    page.get_by_label("Target date").fill("2031-06-30")
    fits_a_phone(tab, "goal-form")
    page.get_by_role("button", name="Save goal").click()
    expect(page.get_by_role("status")).to_have_text("Goal set.")
    expect(page.locator("main")).to_contain_text("A tenancy in her own name")

    page.get_by_role("link", name="Record a service or referral").click()
    page.get_by_label("Referred to another service").check()
    page.get_by_label("Who gave it or took the referral").fill("Council housing options team")
    page.get_by_label("What came of the referral").select_option(label="Accepted")
    fits_a_phone(tab, "service-form")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_have_text("Service recorded.")
    expect(page.locator("main")).to_contain_text("Referred to Council housing options team")

    status = page.get_by_role("region", name="Change the status")
    status.get_by_label("New status").select_option(label="Met")
    status.get_by_label("Comment").fill("Offer accepted.")
    status.get_by_role("button", name="Change status").click()
    expect(page.get_by_role("status")).to_have_text("The need is now: met.")
    expect(page.locator("#need-status")).to_have_text("Met")
    expect(page.get_by_role("region", name="How it moved")).to_contain_text("Identified → Met")
    fits_a_phone(tab, "need-met")

    page.get_by_role("link", name="Needs, goals and services").click()
    expect(page.locator("main")).to_contain_text("Council housing options team")
    fits_a_phone(tab, "needs-list")

    need = Need.objects.get(case=cast.case)
    assert need.status == "met"
    assert NeedStatusChange.objects.filter(need=need).count() == 2
    assert Service.objects.get(case=cast.case).need_id == need.pk


def test_a_survivors_message_outside_the_terms_never_shows_as_a_breach(tab, live_server, cast):
    agreement = make_agreement(cast.case, cast.assigned)
    # The other party's call on a forbidden channel: a breach.
    call = log_event(
        agreement,
        cast.assigned,
        london(2025, 2, 24, 23, 30),
        channel="phone",
        kind="call",
        description=OTHER_TEXT,
    )
    agreement_services.breach_review(
        actor=cast.assigned,
        event=call,
        terms_broken=[v["term"] for v in call.proposed],
        severity="medium",
        description=OTHER_TEXT,
    )
    # The survivor's own message, late at night and outside the agreed times.
    log_event(
        agreement,
        cast.assigned,
        london(2025, 2, 25, 23, 10),
        direction="from_survivor",
        description=SURVIVOR_TEXT,
    )

    page = tab.page
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "assigned", f.PASSWORD)
    base = f"/cases/{cast.case.public_id}/agreements/{agreement.public_id}/"
    tab.goto(base)
    survivor_row = page.locator(".contact-event", has_text=SURVIVOR_TEXT)
    expect(survivor_row).to_contain_text("Outside the agreed terms — from the survivor")
    expect(survivor_row).to_contain_text("Not a breach")
    expect(survivor_row.locator(".text-bg-danger")).to_have_count(0)
    expect(page.locator(".contact-event", has_text=OTHER_TEXT)).to_contain_text("Breach")
    fits_a_phone(tab, "contact-log")

    # The breach filter lists the other party's breach only.
    page.get_by_label("Show").select_option(label="Breaches only")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator(".contact-event")).to_have_count(1)
    expect(page.locator("main")).not_to_contain_text(SURVIVOR_TEXT)
    page.get_by_label("Show").select_option(label="From the survivor")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator(".contact-event")).to_have_count(1)
    expect(page.locator(".contact-event .text-bg-danger")).to_have_count(0)
    fits_a_phone(tab, "contact-log-from-survivor")

    # The agreement's chronology (what may go to a family court).
    tab.goto(base + "chronology/")
    main = page.locator("main")
    expect(main).to_contain_text(OTHER_TEXT)
    expect(main).not_to_contain_text(SURVIVOR_TEXT)
    fits_a_phone(tab, "agreement-chronology")

    # The case page counts one breach.
    tab.goto(f"/cases/{cast.case.public_id}/")
    chart = page.locator("svg desc").first
    expect(chart).to_contain_text("and 1 breach over")

    # The case chronology holds the contact, never as a breach.
    tab.goto(f"/cases/{cast.case.public_id}/timeline/print/")
    main = page.locator("main")
    expect(main).to_contain_text("The other parent broke the contact agreement")
    expect(main).to_contain_text("The survivor contacted the other parent")
    expect(page.get_by_text("broke the contact agreement")).to_have_count(1)
