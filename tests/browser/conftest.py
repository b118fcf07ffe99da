"""Browser fixtures: one Chromium per test session, a fresh page per test, and the checks every
page a journey visits goes through (axe, same-origin assets, CSP, a screenshot for review).

Journeys run against pytest-django's ``live_server``: the server runs in another thread, so the
tests use ``transactional_db``. Playwright's sync API runs an event loop in the test thread, which
trips Django's async-unsafe guard although nothing here is async; hence the variable below.
"""

from __future__ import annotations

import http.client
import io
import os
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.test.utils import override_settings

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path(os.environ.get("CASEFLOW_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"
# Waits for what the user should see; generous for a loaded CI machine, short enough to fail fast.
EXPECT_TIMEOUT_MS = 10_000
SERIOUS = {"serious", "critical"}


def _services_required() -> bool:
    return os.environ.get("CASEFLOW_REQUIRE_SERVICES") == "1" or os.environ.get(
        "CI", ""
    ).lower() in {"1", "true"}


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        message = (
            f"Chromium is not installed at {CHROMIUM}: "
            "install it with `apt-get install -y chromium` to run the browser tests."
        )
        if _services_required():
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session", autouse=True)
def plain_http_live_server(request):
    """The live server speaks plain HTTP on localhost. SecurityMiddleware reads
    SECURE_SSL_REDIRECT once, when the server thread builds its handler, so the setting is
    changed for the whole session before the server starts (production settings redirect)."""
    override = override_settings(SECURE_SSL_REDIRECT=False)
    override.enable()
    try:
        server = request.getfixturevalue("live_server")
        connection = http.client.HTTPConnection(urlsplit(server.url).netloc)
        connection.request("HEAD", "/")
        location = connection.getresponse().getheader("Location") or ""
        connection.close()
        if location.startswith("https:"):
            pytest.fail(
                "the live server redirects to HTTPS: it was started with SECURE_SSL_REDIRECT "
                "on before the browser tests could turn it off"
            )
        yield server
    finally:
        override.disable()


@pytest.fixture
def browser_db(transactional_db, allow_audit_flush, settings):
    """The database and settings a journey needs: the live server shares both."""
    settings.SESSION_IDLE_SECONDS = 15 * 60
    return settings


class Tab:
    """One browser tab and what it saw: console errors, CSP violations, failed requests."""

    def __init__(self, page, base_url: str):
        from playwright.sync_api import expect

        self.page = page
        self.base_url = base_url
        self.origin = "{0.scheme}://{0.netloc}".format(urlsplit(base_url))
        self.csp_errors: list[str] = []
        self.page_errors: list[str] = []
        expect.set_options(timeout=EXPECT_TIMEOUT_MS)
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.page_errors.append(str(exc)))
        #: Requests sent and not yet answered (a draft being saved as the test ends).
        self.in_flight = 0
        page.on("request", lambda _r: self._flight(1))
        page.on("requestfinished", lambda _r: self._flight(-1))
        page.on("requestfailed", lambda _r: self._flight(-1))

    def _flight(self, change: int) -> None:
        self.in_flight = max(0, self.in_flight + change)

    def settle(self) -> None:
        """Wait for the answers to requests still in flight, so that the live server is done
        with the database before the test empties it (a draft saved as a page closes held a
        lock that the emptying waited on, and the other way round)."""
        for _answer in range(20):
            if self.in_flight <= 0:
                return
            try:
                self.page.wait_for_event("requestfinished", timeout=5000)
            except Exception:  # noqa: BLE001 - an unanswered request is the test's own concern
                return

    def _console(self, message) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.csp_errors.append(message.text)

    def goto(self, path: str, *, status: int = 200):
        """Open ``path``; a journey that lands on an error page it did not expect fails here."""
        response = self.page.goto(self.base_url + path)
        assert response is not None and response.status == status, (
            path,
            response and response.status,
        )
        return response

    def check(self, name: str) -> None:
        """What every page a journey visits must satisfy; saves a screenshot named ``name``."""
        page = self.page
        page.wait_for_load_state("load")
        SCREENSHOTS.mkdir(exist_ok=True)
        take_screenshot(page, SCREENSHOTS / f"{name}.png")
        assert_same_origin_assets(page, self.origin)
        assert_no_serious_axe_violation(page, name)
        self.assert_clean()

    def assert_clean(self) -> None:
        assert not self.csp_errors, f"Content Security Policy violations: {self.csp_errors}"
        assert not self.page_errors, f"JavaScript errors: {self.page_errors}"


#: How often a capture Chromium refuses is asked for again before the journey fails.
CAPTURE_TRIES = 3


def take_screenshot(page, path: Path, *, full_page: bool = True) -> None:
    """Save the page to ``path``: the whole of it, or what the window shows.

    Chromium now and then refuses one capture ("Unable to capture screenshot") and takes the
    same picture when asked again; seen once in 3,600 tests on CI, on a page that had loaded and
    passed its checks. Only that refusal is asked again, at most ``CAPTURE_TRIES`` times; any
    other error, or the same refusal every time, fails the journey.
    """
    from playwright.sync_api import Error

    for attempt in range(1, CAPTURE_TRIES + 1):
        try:
            page.screenshot(path=str(path), full_page=full_page)
            return
        except Error as error:
            if "Unable to capture screenshot" not in str(error) or attempt == CAPTURE_TRIES:
                raise


def assert_same_origin_assets(page, origin: str) -> None:
    urls = page.eval_on_selector_all(
        "script[src], link[href]",
        "els => els.map(e => e.src || e.href)",
    )
    foreign = [u for u in urls if not u.startswith(origin + "/")]
    assert not foreign, f"assets from another origin: {foreign}"


_axe = None


def assert_no_serious_axe_violation(page, name: str) -> None:
    global _axe
    if _axe is None:
        from axe_playwright_python.sync_playwright import Axe

        _axe = Axe()
    results = _axe.run(page)
    bad = [v for v in results.response["violations"] if v.get("impact") in SERIOUS]
    report = "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(", ".join(n["target"]) for n in v["nodes"][:5])
        for v in bad
    )
    assert not bad, f"axe found serious or critical violations on {name}:\n{report}"


@pytest.fixture
def tab(browser, live_server, browser_db):
    """A fresh, isolated browser context (its own cookies) on the live server."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(EXPECT_TIMEOUT_MS)
    tab = Tab(page, live_server.url)
    yield tab
    try:
        tab.settle()
        tab.assert_clean()
    finally:
        context.close()


@pytest.fixture
def new_tab(browser, live_server, browser_db):
    """Further tabs, each in its own context, for journeys with several people."""
    contexts = []
    tabs: list[Tab] = []

    def _new(**context_options) -> Tab:
        options = {"viewport": {"width": 1280, "height": 900}, **context_options}
        context = browser.new_context(**options)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(EXPECT_TIMEOUT_MS)
        tabs.append(Tab(page, live_server.url))
        return tabs[-1]

    yield _new
    try:
        for t in tabs:
            t.settle()
            t.assert_clean()
    finally:
        for context in contexts:
            context.close()


#: The phone every journey is walked on.
PHONE = {"width": 375, "height": 740}


def fits_a_phone(tab, name: str) -> None:
    """The page does not scroll sideways at 375 px, and axe finds nothing serious on it."""
    width = tab.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name} scrolls sideways at 375 px ({width} px wide)"
    tab.check(name)


def looks_right(tab, width: int, name: str) -> None:
    """Axe-clean at the width the journey walks, and not scrolling sideways on the phone."""
    if width == PHONE["width"]:
        fits_a_phone(tab, name)
    else:
        tab.check(f"{name}-wide")


def sign_in(page, live_server, username: str, password: str) -> None:
    """Sign in through the login form and land on the dashboard. Every journey signs in here,
    so a new sign-in step (a second factor) is added in this one place."""
    from playwright.sync_api import expect

    from caseflow.accounts.models import User
    from tests.accounts.flows import code_for, enrolled

    # Every staff user has an authenticator; the journey types its current code. A code is
    # accepted once per time step, so the device forgets the last step it saw.
    user = User.objects.get(username=username)
    device = user.totpdevice_set.filter(confirmed=True).first() or enrolled(user)
    device.last_t = -1
    device.save(update_fields=["last_t"])

    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("Code").fill(code_for(device))
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Hello, "))


# --- Printing ------------------------------------------------------------------------------------

#: The browser's own header and footer, on as in a person's print dialog: the page's title and
#: its web address, which a safe paper must not give away.
PRINT_HEADER = '<div style="font-size:10px;width:100%"><span class="title"></span></div>'
PRINT_FOOTER = '<div style="font-size:10px;width:100%"><span class="url"></span></div>'


def pdf_pages(page) -> list[str]:
    """What ``page`` prints to PDF with the browser's header and footer on: each page's text."""
    from pypdf import PdfReader

    pdf = page.pdf(
        display_header_footer=True,
        header_template=PRINT_HEADER,
        footer_template=PRINT_FOOTER,
        margin={"top": "20mm", "bottom": "20mm", "left": "10mm", "right": "10mm"},
    )
    return [p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages]


def pdf_text(page) -> str:
    """What ``page`` prints to PDF with the browser's header and footer on, as text."""
    return "\n".join(pdf_pages(page))


def print_paper(page, title: str, *, press: str | None = None) -> str:
    """:func:`print_paper_pages`, as one text."""
    return "\n".join(print_paper_pages(page, title, press=press))


#: An init script that records a request to print instead of opening the dialog (headless
#: Chromium would block on it), on the page's root element where a locator can see it.
RECORD_PRINT = (
    "window.print = () => { window.printAsked = true;"
    " document.documentElement.setAttribute('data-print-asked', ''); };"
)


def print_paper_pages(page, title: str, *, press: str | None = None) -> list[str]:
    """The paper ``page`` opens on its own through its "Print" button (or the key ``press``),
    under ``title``, printed to PDF, as text. The print dialog must be recorded, not opened
    (``window.print`` replaced by an init script: headless Chromium would block on it)."""
    from playwright.sync_api import expect

    with page.expect_popup() as opened:
        if press:
            page.keyboard.press(press)
        else:
            page.get_by_role("button", name="Print", exact=True).click()
    paper = opened.value
    paper.wait_for_load_state()
    # A locator waits without evaluating a string in the page, which its CSP forbids.
    expect(paper.locator("html[data-print-asked]")).to_have_count(1)
    expect(paper).to_have_title(title)
    paper.emulate_media(media="print")
    try:
        return pdf_pages(paper)
    finally:
        paper.close()
