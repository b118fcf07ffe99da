"""Emergency access at 375 px: a duty worker opens a case she does not work, is told honestly
what she may do and until when, and records the crisis call; the case's supervisor reviews the
access as needing follow-up, with a comment, and finds the follow-up on their list."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.accounts import zones
from caseflow.cases.models import BreakGlassGrant
from caseflow.casework.models import CaseNote
from caseflow.inbox.models import FollowUp
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_a_duty_worker_records_the_crisis_call_and_the_supervisor_asks_for_follow_up(
    new_tab, live_server, cast
):
    case = cast.case
    duty = new_tab(viewport=PHONE)
    page = duty.page
    sign_in(page, live_server, "same_team", f.PASSWORD)
    duty.goto(reverse("cases:break_glass"))
    page.get_by_label("Case reference").fill(case.reference)
    page.get_by_label("Reason").fill("Crisis call on the duty line; her advocate is on leave.")
    page.get_by_role("button", name="Open the case").click()
    expect(page.get_by_role("status")).to_contain_text("Emergency access granted")

    # The banner says what the access allows, until when, in her zone.
    grant = BreakGlassGrant.objects.get(user=cast.same_team)
    until = timezone.localtime(grant.expires_at, zones.default_zone()).strftime("%H:%M")
    banner = page.get_by_role("alert").filter(has_text="emergency access")
    expect(banner).to_contain_text(
        f"You can read the case and record notes until {until}. Everything is recorded and "
        "your supervisor will review it."
    )
    expect(banner).not_to_contain_text("read-only")
    expect(page.get_by_role("link", name="Edit", exact=True)).to_have_count(0)
    fits_a_phone(duty, "emergency-access-case")

    # What the banner promises works: she records the call.
    # On a phone the note is offered in the action bar at the foot of the screen.
    # The call she has just taken: "When" is the minute the form opened unless she changes it.
    opened = timezone.now().replace(second=0, microsecond=0)
    notes = page.get_by_role("region", name="Notes and incidents")
    notes.locator(".case-actionbar").get_by_role("link", name="Record a note").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Record a note")
    expect(page.locator("main")).to_contain_text("You are working under emergency access.")
    fits_a_phone(duty, "emergency-access-note-form")
    page.get_by_label("What kind of contact").select_option(label="Phone call")
    page.get_by_label("The survivor").check()
    page.get_by_label("Direction").select_option(label="They contacted us")
    expect(page.get_by_role("group", name="When")).to_contain_text("Now:")
    page.get_by_label("How long (minutes)").fill("25")
    page.locator("#id_text").fill("She called from a friend's phone; safe for tonight.")
    page.get_by_role("button", name="Save note").click()
    expect(page.get_by_role("status")).to_have_text("Note recorded.")
    expect(page.locator("main")).to_contain_text("Written under emergency access")
    fits_a_phone(duty, "emergency-access-note")
    note = CaseNote.objects.get(case=case, author=cast.same_team)
    assert note.break_glass_id == grant.pk
    assert opened <= note.occurred_at <= timezone.now()

    # The case's supervisor reviews the access.
    review = new_tab(viewport=PHONE)
    page = review.page
    sign_in(page, live_server, "supervisor", f.PASSWORD)
    review.goto(reverse("audit:break_glass"))
    pending = page.get_by_role("region", name="Awaiting review")
    row = pending.get_by_role("row").filter(has_text=case.reference)
    expect(row).to_contain_text("1 note written")
    fits_a_phone(review, "emergency-access-queue")
    row.get_by_role("link", name="Review").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        f"Review emergency access to {case.reference}"
    )
    expect(page.locator("main")).to_contain_text("Crisis call on the duty line")
    # Needing follow-up without saying why is a message on the form; nothing is recorded.
    page.get_by_role("radio", name="Needs follow-up").check()
    page.get_by_role("button", name="Record the review").click()
    expect(page.locator("main")).to_contain_text("Say why, in a sentence or two.")
    expect(page.get_by_role("radio", name="Needs follow-up")).to_be_checked()
    fits_a_phone(review, "emergency-access-review-error")
    assert BreakGlassGrant.objects.get(pk=grant.pk).reviewed_at is None
    page.get_by_label("Review comment").fill("Go over the duty-line handover with her.")
    page.get_by_role("button", name="Record the review").click()
    expect(page.get_by_role("status")).to_have_text(
        "Your review of the emergency access is recorded. A follow-up on the case is on your list."
    )
    done = page.get_by_role("region", name="Recently reviewed").get_by_role("row")
    expect(done.filter(has_text=case.reference)).to_contain_text("Needs follow-up")
    fits_a_phone(review, "emergency-access-reviewed")

    # The follow-up is on the supervisor's own list, in words.
    review.goto(reverse("checkins:home"))
    followups = page.get_by_role("region", name="Follow-ups due")
    expect(followups.get_by_role("row").filter(has_text=case.reference)).to_contain_text(
        "Emergency access follow-up"
    )
    fits_a_phone(review, "emergency-access-follow-up")

    # The note written under the access says how the access was judged.
    review.goto(reverse("casework:note", args=[case.public_id, note.public_id]))
    expect(page.locator("main")).to_contain_text("Written under emergency access")
    expect(page.locator("main")).to_contain_text("Needs follow-up")
    followup = FollowUp.objects.get(case=case, assignee=cast.supervisor)
    assert followup.details == "Go over the duty-line handover with her."
