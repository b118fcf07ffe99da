"""The review screenshot every journey saves asks Chromium again only when it refuses a capture,
and never hides any other error."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error

from tests.browser.conftest import CAPTURE_TRIES, take_screenshot

REFUSED = "Page.screenshot: Protocol error (Page.captureScreenshot): Unable to capture screenshot"


class FakePage:
    """Answers each capture with the next of ``answers``: an error to raise, or None to save."""

    def __init__(self, *answers: Error | None) -> None:
        self.answers = list(answers)
        self.saved: list[tuple[str, bool]] = []
        self.asked = 0

    def screenshot(self, *, path: str, full_page: bool) -> None:
        self.asked += 1
        answer = self.answers.pop(0)
        if answer is not None:
            raise answer
        self.saved.append((path, full_page))


def test_a_refused_capture_is_asked_again_and_saved(tmp_path):
    page = FakePage(Error(REFUSED), None)
    take_screenshot(page, tmp_path / "board.png")
    assert page.asked == 2
    assert page.saved == [(str(tmp_path / "board.png"), True)]


def test_what_the_window_shows_is_asked_again_too(tmp_path):
    page = FakePage(Error(REFUSED), None)
    take_screenshot(page, tmp_path / "top.png", full_page=False)
    assert page.saved == [(str(tmp_path / "top.png"), False)]


def test_a_capture_refused_every_time_fails(tmp_path):
    page = FakePage(*[Error(REFUSED)] * CAPTURE_TRIES)
    with pytest.raises(Error, match="Unable to capture screenshot"):
        take_screenshot(page, tmp_path / "board.png")
    assert page.asked == CAPTURE_TRIES
    assert page.saved == []


def test_any_other_error_fails_at_once(tmp_path):
    page = FakePage(Error("Target page, context or browser has been closed"), None)
    with pytest.raises(Error, match="has been closed"):
        take_screenshot(page, tmp_path / "board.png")
    assert page.asked == 1
