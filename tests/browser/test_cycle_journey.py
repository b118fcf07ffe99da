"""The cycle at 375 px: after three incidents each followed by an apology, an advocate opens the
latest incident, marks the apology that followed it (a time before the incident is a message on
the form, nothing saved), and sees the pattern beside the harm on the journey."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.accounts import zones
from caseflow.cycle import services
from caseflow.cycle.models import Mark
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in
from tests.casework.helpers import make_incident

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_an_advocate_marks_an_apology_and_sees_the_pattern_on_the_journey(
    new_tab, live_server, cast
):
    case = cast.case
    now = timezone.now()
    for weeks in (7, 5, 3):
        earlier = make_incident(case, cast.assigned, when=now - dt.timedelta(weeks=weeks))
        services.mark_record(
            actor=cast.assigned,
            case=case,
            incident=earlier,
            at=earlier.occurred_at + dt.timedelta(days=1),
            kind="apology",
        )
    incident = make_incident(case, cast.assigned, when=now - dt.timedelta(days=3))
    zone = zones.default_zone()
    day_after = timezone.localtime(incident.occurred_at, zone).date() + dt.timedelta(days=1)
    day_before = day_after - dt.timedelta(days=2)

    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{case.public_id}/casework/incidents/{incident.public_id}/")
    page.get_by_role("link", name="What did the other party do afterwards?").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "What did the other party do afterwards?"
    )
    expect(page.get_by_role("region", name="Recorded so far")).to_contain_text("Nothing yet.")
    fits_a_phone(tab, "cycle-mark-form")

    page.get_by_label("An apology").check()
    # A slip of the day is a message on the form, not an error page; nothing is saved.
    page.get_by_label("When").fill(f"{day_before.isoformat()}T10:00")
    page.get_by_label("In her own words (optional)").fill("Said sorry, said it was work stress")
    page.get_by_role("button", name="Record what followed").click()
    expect(page.locator("main")).to_contain_text("This is before what it follows")
    assert Mark.objects.filter(incident=incident).count() == 0
    expect(page.get_by_label("In her own words (optional)")).to_have_value(
        "Said sorry, said it was work stress"
    )
    page.get_by_label("When").fill(f"{day_after.isoformat()}T10:00")
    page.get_by_role("button", name="Record what followed").click()
    expect(page.get_by_role("status")).to_have_text(
        "Recorded: it shows on the journey beside the harm."
    )
    followed = page.get_by_role("region", name="Recorded so far")
    expect(followed).to_contain_text("An apology")
    expect(followed).to_contain_text("Said sorry, said it was work stress")
    fits_a_phone(tab, "cycle-mark-recorded")

    page.get_by_role("link", name="See the whole journey").click()
    trend = page.get_by_role("region", name="The trend")
    expect(trend).to_contain_text("What followed harm: 4 in all")
    expect(trend).to_contain_text("An apology: after 4 of the last 4 incidents, within 3 days.")
    # Facts and counts: no score, and her words stay on the record, not on the picture.
    expect(trend).not_to_contain_text("Said sorry")
    fits_a_phone(tab, "cycle-journey")
