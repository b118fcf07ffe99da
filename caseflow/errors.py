"""The 400, 403, 404 and 500 pages: they cannot fail. And the page for a form whose security
token no longer matches (``csrf_failure``), in caseflow's own layout.

They are rendered without the request's context (no context processors, no user, no database),
from one self-contained template, ``error.html`` (no ``{% static %}``, so no static manifest, no
``{% url %}``, no base template, no inline style the content security policy would refuse), whose
only variables are the page's title and message and the request id (the reference a person
gives support). Should even that fail (a template
missing or broken), the page falls back to the same words written inline.
"""

from __future__ import annotations

import logging
from html import escape
from urllib.parse import urlsplit

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template import loader
from django.utils.translation import get_language, gettext, gettext_noop

from caseflow.lib.request_context import current_request_id

log = logging.getLogger(__name__)

FALLBACK = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow">
<title>{title} · caseflow</title></head>
<body>
<h1>{title}</h1><p>{text}</p>{rid}<p><a href="/">Back to the start</a></p></body></html>
"""

# Marked for translation here, translated when a page is rendered (in the reader's language).
PAGES = {
    400: (
        gettext_noop("Bad request"),
        gettext_noop("caseflow could not read this request. Go back and try again."),
    ),
    403: (
        gettext_noop("Not allowed"),
        gettext_noop("Your role does not allow this. Ask your supervisor if you think it should."),
    ),
    404: (
        gettext_noop("Not found"),
        gettext_noop("There is nothing here, or nothing you can open."),
    ),
    405: (
        gettext_noop("Not available here"),
        gettext_noop(
            "This page cannot be used that way. Go back to the page you were on and use its "
            "buttons and links."
        ),
    ),
    410: (
        gettext_noop("No longer here"),
        gettext_noop("What was here has been removed. Go back to the start."),
    ),
    429: (
        gettext_noop("Too many requests"),
        gettext_noop(
            "caseflow received too many requests from you in a short time. Wait a "
            "minute, then try again."
        ),
    ),
    500: (
        gettext_noop("Something went wrong"),
        gettext_noop(
            "caseflow could not finish this request. Nothing you entered is shown here. Try "
            "again in a moment; if it keeps happening, tell your administrator the reference "
            "below."
        ),
    ),
}


REFERENCE = gettext_noop("If you contact support, give them this reference: ")


def page_words(status: int) -> tuple[str, str]:
    """The title and message of a status's page, in the active language: a status without its
    own words gets its class's (a 4xx the 400 page's, a 5xx the 500 page's)."""
    words = PAGES.get(status) or PAGES[400 if status < 500 else 500]
    return gettext(words[0]), gettext(words[1])


def render_error(request: HttpRequest, status: int) -> HttpResponse:
    rid = current_request_id(request)
    title, text = page_words(status)
    try:
        html = loader.get_template("error.html").render(
            {"title": title, "message": text, "request_id": rid}
        )
    except Exception:  # noqa: BLE001 - an error page must answer whatever is broken
        log.exception("error page %s could not be rendered; the inline page is served", status)
        html = FALLBACK.format(
            lang=escape(get_language() or "en"),
            title=title,
            text=text,
            rid=f"<p>{gettext(REFERENCE)}<code>{escape(rid)}</code></p>" if rid else "",
        )
    return HttpResponse(html, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render_error(request, 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render_error(request, 403)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render_error(request, 404)


def server_error(request: HttpRequest) -> HttpResponse:
    return render_error(request, 500)


def _same_site_path(request: HttpRequest) -> str | None:
    """The page the form was on, when the browser says and it is one of caseflow's own: only
    its path (never a query string, which might carry what was typed)."""
    referer = request.headers.get("Referer", "")
    if not referer:
        return None
    parts = urlsplit(referer)
    if parts.netloc and parts.netloc != request.get_host():
        return None
    if not parts.path.startswith("/") or parts.path.startswith("//"):
        return None
    return parts.path


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent with a security token that no longer matches: most often the person signed
    in again in another tab, or the page stayed open across a sign-out. Said in caseflow's
    layout and the reader's language, with the way back to the form, where the draft kept on
    the server is offered back ("Put it back"). Nothing of what was sent is shown or kept here
    (a forged request must not be able to leave text in someone's drafts)."""
    log.info("form refused: its security token no longer matches")
    try:
        return render(
            request,
            "csrf_failure.html",
            # Forms post to their own page: without a Referer, that page is the way back.
            {"back": _same_site_path(request) or request.path},
            status=403,
        )
    except Exception:  # noqa: BLE001 - an error page must answer whatever is broken
        log.exception("the security-token page could not be rendered; the plain page is served")
        return render_error(request, 403)
