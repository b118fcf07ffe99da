"""Every page each role can reach, at 375 px: nothing scrolls sideways and axe finds nothing
serious or critical. The pages are the authorization matrix's: every named URL that answers the
role's GET with 200, built on the case the role may see."""

from __future__ import annotations

from collections.abc import Callable

import polib
import pytest
from playwright.sync_api import Error as PlaywrightError

from caseflow.accounts.language import set_agency_language
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
    # In no agency: the coalition's person reads the browser's language.
    "coalition": "case",
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
    # And for a large export: confidentiality:prepared_export is crawled.
    "confidentiality:prepared_export_progress": (
        "htmx fragment of confidentiality:prepared_export, not a page"
    ),
}


def _pages(actor: str, cast) -> list[tuple[str, str]]:
    pages = []
    for name, row in sorted(MATRIX.items()):
        if row.GET.get(actor) != 200 or name in NOT_CRAWLED:
            continue
        pages.append((name, url_for(name, row, cast, ROLES[actor])))
    return pages


def _walk(page, live_server, cast, actor: str, check: Callable[[str], list[str]]) -> None:
    """Open every page ``actor`` may reach, at the phone's width; ``check(name)`` looks at the
    page open and gives what is wrong with it. Fails with every problem found, after the walk."""
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
            problems.append(f"{name}: {width} px wide at 375 px: {_too_wide(page)}")
        problems.extend(check(name))
    assert visited >= 5, f"only {visited} pages walked for {actor}"
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("actor", sorted(ROLES))
def test_every_page_fits_a_phone_and_is_axe_clean(new_tab, live_server, cast, actor):
    tab = new_tab(viewport=PHONE)
    sign_in(tab.page, live_server, actor, f.PASSWORD)

    def axe_clean(name: str) -> list[str]:
        try:
            assert_no_serious_axe_violation(tab.page, name)
        except AssertionError as exc:
            return [str(exc)]
        return []

    _walk(tab.page, live_server, cast, actor, axe_clean)


def _too_wide(page) -> str:
    """The innermost element whose removal brings the page back within the phone's width (the
    one that makes it scroll sideways), named for the failure message."""
    return page.evaluate(
        """(limit) => {
            const fits = () => document.documentElement.scrollWidth <= limit;
            const culprit = (el) => {
                for (const child of el.children) {
                    const before = child.style.display;
                    child.style.display = 'none';
                    const fixed = fits();
                    child.style.display = before;
                    if (fixed) return culprit(child) || child;
                }
                return null;
            };
            const found = culprit(document.body);
            if (!found) return 'no single element';
            return found.tagName.toLowerCase() + (found.className ? '.' + found.className : '')
                + ' "' + (found.textContent || '').trim().slice(0, 60) + '"';
        }""",
        PHONE["width"],
    )


def _english_phrases() -> list[str]:
    """caseflow's own interface phrases in English whose Spanish differs or is missing: any of
    them on a page read in Spanish is a string left untranslated (or never marked and copied
    from one that is). Phrases of two words or more, without placeholders, so that data cannot
    match them."""
    from tests.i18n.pseudo import SOURCE

    phrases = {
        entry.msgid
        for entry in polib.pofile(str(SOURCE))
        if not entry.obsolete
        # Untranslated (empty) and fuzzy entries show in English, so they count too.
        and (entry.msgstr != entry.msgid or "fuzzy" in entry.flags)
        and " " in entry.msgid.strip()
        and len(entry.msgid) >= 12
        and not any(mark in entry.msgid for mark in ("%", "{", "\n"))
    }
    return sorted(phrases, key=len, reverse=True)


@pytest.mark.parametrize("actor", sorted(ROLES))
def test_every_page_in_spanish_fits_a_phone_with_no_english_left(new_tab, live_server, cast, actor):
    """The same walk with the agency's language set to Spanish: every page says it is Spanish,
    fits 375 px (Spanish runs longer than English) and shows none of caseflow's English phrases."""
    english = _english_phrases()
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, actor, f.PASSWORD)
    set_agency_language(cast.agency.pk, "es")
    if actor == "coalition":
        # In no agency, so no agency's language: the browser's, asked for after signing in.
        page.set_extra_http_headers({"Accept-Language": "es"})

    def in_spanish(name: str) -> list[str]:
        problems = []
        if page.locator("html").get_attribute("lang") != "es":
            problems.append(f"{name}: not in Spanish")
        text = page.locator("body").inner_text()
        left = [phrase for phrase in english if phrase in text]
        if left:
            problems.append(f"{name}: English left: {left[:5]}")
        return problems

    _walk(page, live_server, cast, actor, in_spanish)
