"""A date typed in the other order is caught before saving (issue #29): a UK advocate types a
recent day month first; the form names what was entered and the date probably meant, keeps the
note, and saves only the date confirmed. At desk and phone widths, axe-clean."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from caseflow.accounts import zones
from caseflow.casework.models import CaseNote
from caseflow.lib.date_parts import doubts
from tests import factories as f
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

TEXT = "She rang about the handover at the school gate."


def _meant_and_typed(today: dt.date) -> tuple[dt.date, dt.date]:
    """The latest day before today that, typed month first, reads as a day in the past that is
    further from today than the day meant (so the form must say "did you mean")."""
    tried = 0
    for back in range(1, 120):
        meant = today - dt.timedelta(days=back)
        tried += 1
        if meant.day > 12 or meant.day == meant.month:
            continue
        typed = dt.date(meant.year, meant.day, meant.month)
        if typed < today and "swapped" in doubts(typed, today=today):
            return meant, typed
    raise AssertionError(f"no such day in the {tried} days tried")


def _words(day: dt.date) -> str:
    return f"{day:%A} {day.day} {day:%B %Y}"


@pytest.mark.parametrize("width", [1366, 375])
def test_a_date_typed_in_the_other_order_is_caught_before_saving(tab, live_server, cast, width):
    page = tab.page
    page.set_viewport_size({"width": width, "height": 900})
    today = dt.datetime.now(zones.default_zone()).date()
    meant, typed = _meant_and_typed(today)
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(reverse("casework:note_new", args=[cast.case.public_id]))

    when = page.get_by_role("group", name="When")
    expect(when).to_contain_text("Now:")
    expect(when.get_by_label("Day", exact=True)).to_be_hidden()
    page.get_by_label("What kind of contact").select_option(label="Phone call")
    page.locator("#id_text").fill(TEXT)
    when.get_by_text("Change").click()
    # The boxes read day, month, year for a UK reader; the date is typed month first.
    boxes = when.get_by_role("textbox")
    expect(boxes.nth(0)).to_have_accessible_name("Day")
    expect(boxes.nth(1)).to_have_accessible_name("Month")
    when.get_by_label("Day", exact=True).fill(str(meant.month))
    when.get_by_label("Month", exact=True).fill(str(meant.day))
    when.get_by_label("Year", exact=True).fill(str(typed.year))
    when.get_by_label("Hour", exact=True).fill("9")
    when.get_by_label("Minute", exact=True).fill("30")
    tab.check(f"dates-typed-{width}")
    page.get_by_role("button", name="Save note").click()

    warning = page.get_by_role("alert")
    expect(warning).to_contain_text(f"You entered {_words(typed)}")
    expect(warning).to_contain_text(f"Did you mean {_words(meant)}?")
    expect(warning).to_contain_text(f"This note will be dated {_words(typed)} at 09:30. Save it?")
    expect(page.locator("#id_text")).to_have_value(TEXT)
    assert not CaseNote.objects.exists()
    tab.check(f"dates-caught-{width}")

    # Put right, read back once more (it is not today), then confirmed and saved.
    when.get_by_label("Day", exact=True).fill(str(meant.day))
    when.get_by_label("Month", exact=True).fill(str(meant.month))
    page.get_by_role("button", name="Save note").click()
    expect(page.get_by_role("alert")).to_contain_text(
        f"This note will be dated {_words(meant)} at 09:30. Save it?"
    )
    expect(page.get_by_role("alert")).not_to_contain_text("Did you mean")
    assert not CaseNote.objects.exists()
    page.get_by_role("button", name="Yes, save it with this date").click()

    expect(page.get_by_role("status").first).to_have_text("Note recorded.")
    note = CaseNote.objects.get()
    local = note.occurred_at.astimezone(zones.default_zone())
    assert (local.date(), local.hour, local.minute) == (meant, 9, 30)
    assert note.text == TEXT
