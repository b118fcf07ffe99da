"""Every page each role can reach, at 375 px: nothing scrolls sideways and axe finds nothing
serious or critical. The pages are the authorization matrix's: every named URL that answers the
role's GET with 200, built on the case the role may see."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests import factories as f
from tests.browser.conftest import assert_no_serious_axe_violation, sign_in
from tests.test_url_matrix import MATRIX, url_for

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PHONE = {"width": 375, "height": 740}

#: The role each actor stands for, and the case whose pages it walks.
ROLES = {
    "assigned": "case",
    "supervisor": "case",
    "auditor": "case",
    "agency_admin": "case",
}


#: Pages left out of this crawl, each with its reason.
NOT_CRAWLED = {
    # drf-spectacular's Swagger UI: third-party markup and script (the React app draws the
    # page and sets inline styles), not caseflow's templates, so neither its width nor its
    # axe findings are ours to fix here. Its own browser test,
    # tests/browser/test_integrations_journey.py::
    # test_the_api_documentation_page_loads_within_the_policy, keeps it inside the Content
    # Security Policy with no JavaScript errors.
    "api:docs": "third-party Swagger UI page; its CSP is tested on its own",
    # An htmx fragment (the progress bar imports:batch swaps in every 2 s), not a page: no
    # <html lang>, no <title>. The page that shows it, imports:batch, is crawled.
    "imports:progress": "htmx fragment of imports:batch, not a page",
    # The same for a funder report prepared in the background: reporting:prepared is crawled.
    "reporting:prepared_progress": "htmx fragment of reporting:prepared, not a page",
}


def _pages(actor: str, cast) -> list[tuple[str, str]]:
    pages = []
    for name, row in sorted(MATRIX.items()):
        if row.GET.get(actor) != 200 or name in NOT_CRAWLED:
            continue
        pages.append((name, url_for(name, row, cast, ROLES[actor])))
    return pages


@pytest.mark.parametrize("actor", sorted(ROLES))
def test_every_page_fits_a_phone_and_is_axe_clean(new_tab, live_server, cast, actor):
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, actor, f.PASSWORD)
    problems: list[str] = []
    visited = 0
    for name, url in _pages(actor, cast):
        try:
            response = page.goto(live_server.url + url)
        except PlaywrightError as exc:
            if "Download is starting" in str(exc):
                continue  # a file download, not a page
            raise
        if response is None or response.status != 200:
            problems.append(f"{name}: answered {response and response.status}")
            continue
        if "text/html" not in (response.headers.get("content-type") or ""):
            continue  # a file, a feed, a download: not a page
        visited += 1
        page.wait_for_load_state("load")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            problems.append(f"{name}: {width} px wide at 375 px")
        try:
            assert_no_serious_axe_violation(page, name)
        except AssertionError as exc:
            problems.append(str(exc))
    assert visited >= 5, f"only {visited} pages walked for {actor}"
    assert not problems, "\n".join(problems)
