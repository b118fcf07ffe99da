"""No CDN: every script, stylesheet and request stays on caseflow's own origin, and the pages work
under the Content Security Policy (no inline script or style is needed)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import factories as f
from tests.browser.conftest import assert_same_origin_assets, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_every_request_stays_on_caseflow_and_the_csp_holds(tab, live_server, cast):
    page = tab.page
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    documents = []
    page.on(
        "response",
        lambda response: (
            documents.append(response) if response.request.resource_type == "document" else None
        ),
    )
    tab.goto("/accounts/login/")
    sign_in(page, live_server, "supervisor", f.PASSWORD)
    for path in ("/", "/cases/", f"/cases/{cast.case.public_id}/", "/cases/new/"):
        tab.goto(path)
        assert_same_origin_assets(page, tab.origin)
        # Bootstrap's JavaScript is loaded and working (the menu toggler is wired by it).
        assert page.evaluate("typeof window.bootstrap === 'object'")
        assert page.evaluate("typeof window.htmx === 'object'")
    foreign = [u for u in requests if not u.startswith(tab.origin + "/")]
    assert not foreign, f"requests to other origins: {foreign}"
    assert any("/static/vendor/bootstrap/" in u for u in requests)
    pages = [r for r in documents if r.status == 200]
    assert len(pages) >= 4
    # Redirects (e.g. on to the second-factor step) carry no page to protect.
    for response in pages:
        policy = response.header_value("content-security-policy") or ""
        assert "script-src 'self'" in policy, (response.url, response.status)
        assert "unsafe-inline" not in policy, response.url
    tab.assert_clean()


def test_a_csp_violation_would_be_caught(tab, live_server, cast):
    """The console listener the journeys rely on does see a refused inline script."""
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    with page.expect_console_message(
        lambda message: "Content Security Policy" in message.text
    ) as refused:
        page.evaluate(
            """() => {
            const s = document.createElement("script");
            s.textContent = "document.body.dataset.inline = 'ran'";
            document.head.appendChild(s);
        }"""
        )
    assert "script-src" in refused.value.text
    expect(page.locator("body")).not_to_have_attribute("data-inline", "ran")
    assert tab.csp_errors, "the journeys' CSP listener missed the violation"
    tab.csp_errors.clear()
