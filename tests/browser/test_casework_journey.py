"""An advocate records a call and an incident with a photo and a voice note, sees both on the
case page, looks at the photo and plays the recording in the page; at desk and phone widths."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from caseflow.accounts import zones
from caseflow.casework.models import CaseNote, Evidence, Incident
from tests import factories as f
from tests.browser.conftest import sign_in
from tests.casework.helpers import png, wav
from tests.conftest import canary

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PHONE = {"width": 375, "height": 740}


def _fits_a_phone(tab, name: str) -> None:
    page = tab.page
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name} scrolls sideways at 375 px ({width} px wide)"
    tab.check(f"phone-{name}")
    page.set_viewport_size({"width": 1280, "height": 900})


def test_advocate_records_a_call_and_an_incident_with_a_photo_and_a_voice_note(
    tab, live_server, cast
):
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{cast.case.public_id}/")
    section = page.get_by_role("region", name="Notes and incidents")
    expect(section).to_contain_text("No notes yet.")

    section.get_by_role("link", name="Record a note").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Record a note")
    tab.check("note-form")
    _fits_a_phone(tab, "note-form")
    page.get_by_label("What kind of contact").select_option(label="Phone call")
    page.get_by_label("The survivor").check()
    page.get_by_label("Direction").select_option(label="They contacted us")
    expect(page.get_by_role("group", name="When")).to_contain_text("Now:")
    page.get_by_label("How long (minutes)").fill("20")
    page.locator("#id_text").fill("She called about the weekend handover.")
    page.get_by_role("button", name="Save note").click()

    expect(page.get_by_role("status")).to_have_text("Note recorded.")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Phone call")
    expect(page.locator("main")).to_contain_text("She called about the weekend handover.")
    expect(page.get_by_role("link", name="Change the note")).to_be_visible()
    tab.check("note")

    page.get_by_role("link", name=f"← {cast.case.reference}").click()
    page.get_by_role("region", name="Notes and incidents").get_by_role(
        "link", name="Record an incident"
    ).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Record an incident")
    tab.check("incident-form")
    _fits_a_phone(tab, "incident-form")
    page.get_by_label("Threats").check()
    page.get_by_label("Stalking or harassment").check()
    # Earlier today, in the staff's own time (typed in parts; today's date saves in one step).
    today = dt.datetime.now(zones.default_zone()).date()
    page.get_by_label("Day").fill(str(today.day))
    page.get_by_label("Month").fill(str(today.month))
    page.get_by_label("Year").fill(str(today.year))
    page.locator("#id_occurred_time").fill("00:00")
    page.get_by_label("Where").fill("Outside the school")
    page.locator("#id_what_happened").fill("He waited by the gate and shouted.")
    page.get_by_label("Evidence files").set_input_files(
        [
            {"name": "gate.png", "mimeType": "image/png", "buffer": png(120, 80)},
            {"name": "voicemail.wav", "mimeType": "audio/wav", "buffer": wav(1.0)},
        ]
    )
    page.get_by_role("button", name="Save incident").click()

    expect(page.get_by_role("status")).to_have_text("Incident recorded.")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Serious")
    main = page.locator("main")
    expect(main).to_contain_text("He waited by the gate and shouted.")
    photo = page.get_by_role("img", name="Evidence photo 1: gate.png")
    expect(photo).to_be_visible()
    page.wait_for_function(
        "() => { const i = document.querySelector('main img'); return i && i.naturalWidth > 0; }"
    )
    assert page.evaluate("document.querySelector('main img').naturalWidth") == 120
    # The recording is fetched when played: press the player's play button.
    audio = page.locator("main audio")
    expect(audio).to_have_attribute("aria-label", "Recording 2: voicemail.wav")
    box = audio.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 20, box["y"] + box["height"] / 2)
    page.wait_for_function(
        "() => { const a = document.querySelector('audio'); return a.readyState >= 1; }"
    )
    player = page.evaluate(
        "(() => { const a = document.querySelector('audio');"
        " return {duration: a.duration, error: a.error && a.error.code, paused: a.paused}; })()"
    )
    assert player["error"] is None
    assert 0.9 < player["duration"] < 1.1
    assert not player["paused"] or player["duration"] > 0
    tab.check("incident")
    _fits_a_phone(tab, "incident")

    page.get_by_role("link", name=f"← {cast.case.reference}").click()
    section = page.get_by_role("region", name="Notes and incidents")
    expect(section.get_by_role("link", name="Phone call", exact=False)).to_be_visible()
    expect(section).to_contain_text("Stalking or harassment, Threats")
    tab.check("case-with-notes")

    # Both are in the case's one timeline, and in its printed chronology.
    page.get_by_role("link", name="Timeline", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Timeline: {cast.case.reference}")
    main = page.locator("main")
    expect(main).to_contain_text("Phone call: they contacted us")
    expect(main).to_contain_text("Incident: stalking or harassment, threats")
    tab.check("timeline-with-notes")
    page.get_by_role("link", name="Print the chronology").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Case chronology")
    expect(main).to_contain_text("Phone call: they contacted us")
    expect(main).to_contain_text("Incident: stalking or harassment, threats")
    tab.check("chronology-with-notes")

    # And the case is found by the survivor's name.
    tab.goto("/cases/find/")
    page.get_by_label("Name", exact=True).fill(f"survivor {canary(cast.case).lower()}")
    page.get_by_role("button", name="Find").click()
    found = page.get_by_role("region", name="What we found")
    expect(found.get_by_role("link", name=cast.case.reference)).to_be_visible()

    assert CaseNote.objects.filter(case=cast.case).count() == 1
    incident = Incident.objects.get(case=cast.case)
    assert incident.serious
    assert set(Evidence.objects.filter(incident=incident).values_list("family", flat=True)) == {
        "image",
        "audio",
    }
