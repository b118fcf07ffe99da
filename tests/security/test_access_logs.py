"""The calendar feed's token never reaches an access log: runserver's ``django.server`` lines
and gunicorn's access log (with the logger class the Dockerfile names) mask it."""

from __future__ import annotations

import datetime as dt
import io
import logging
from types import SimpleNamespace

import pytest
from django.core.servers.basehttp import WSGIRequestHandler
from django.urls import reverse
from gunicorn.config import Config

from caseflow.checkins import services
from caseflow.lib.access_log import RedactingLogger


@pytest.fixture
def feed(cast, client):
    token = services.calendar_token_create(actor=cast.assigned)
    path = reverse("checkins:feed", args=[token])
    assert token in path
    response = client.get(path)
    assert response.status_code == 200
    return token, path


@pytest.fixture
def server_log():
    """What the ``django.server`` handler (as configured in settings) writes."""
    logger = logging.getLogger("django.server")
    assert logger.handlers, "django.server has its handler"
    handler = logger.handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


def _runserver_logs(path: str, status: int) -> None:
    """The development server's own access-log call for a request line."""
    handler = WSGIRequestHandler.__new__(WSGIRequestHandler)
    handler.requestline = f"GET {path}?x=1 HTTP/1.1"
    handler.request_version = "HTTP/1.1"
    handler.command = "GET"
    handler.path = path
    handler.request = None
    handler.client_address = ("127.0.0.1", 50000)
    handler.log_request(status, 1234)


@pytest.mark.parametrize("status", [200, 404])
def test_runserver_access_lines_mask_the_token(feed, server_log, status):
    token, path = feed
    _runserver_logs(path, status)
    line = server_log.getvalue()
    assert "/checkins/calendar/[redacted].ics" in line and str(status) in line
    assert token not in line


def test_gunicorn_access_lines_mask_the_token(feed):
    token, path = feed
    cfg = Config()
    cfg.set("accesslog", "-")
    cfg.set(
        "access_log_format",
        '%(h)s "%(r)s" %(s)s %(U)s %(q)s "%(f)s" %({x-original-uri}i)s',
    )
    logger = RedactingLogger(cfg)
    stream = io.StringIO()
    assert logger.access_log.handlers
    for h in logger.access_log.handlers:
        h.setStream(stream)  # type: ignore[attr-defined]
    headers = [("REFERER", f"https://example.org{path}"), ("X-ORIGINAL-URI", path)]
    req = SimpleNamespace(
        method="GET", uri=path, path=path, query="", version=(1, 1), headers=headers
    )
    resp = SimpleNamespace(status="200 OK", sent=10, response_length=10, headers=[])
    environ = {
        "REMOTE_ADDR": "10.0.0.2",
        "REQUEST_METHOD": "GET",
        "RAW_URI": path,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_REFERER": f"https://example.org{path}",
    }
    try:
        logger.access(resp, req, environ, dt.timedelta(seconds=0.01))
    finally:
        # gunicorn's handlers stay on the process's loggers: leave none behind.
        for log in (logger.access_log, logger.error_log):
            for h in list(log.handlers):
                log.removeHandler(h)
    line = stream.getvalue()
    assert line.count("/checkins/calendar/[redacted].ics") == 4, line
    assert token not in line


def test_runserver_access_lines_mask_an_account_link_token(cast, server_log, client):
    """An enrolment or reset link's token, on the first request (the one with the token) and
    on its redirect target alike."""
    from caseflow.accounts import links

    path = links.link_path(cast.same_team)
    token = path.rstrip("/").split("/")[-1]
    assert client.get(path).status_code == 302
    _runserver_logs(path, 302)
    line = server_log.getvalue()
    assert token not in line
    assert "/accounts/link/" in line and "/[redacted]/" in line


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '"GET /cases/new/?survivor_full_name=Jo+Bloggs&survivor_date_of_birth=1990-01-02 '
            'HTTP/1.1" 302 0',
            '"GET /cases/new/?survivor_full_name=[redacted]&survivor_date_of_birth=[redacted] '
            'HTTP/1.1" 302 0',
        ),
        # A part without "=" is a value too.
        (
            "https://caseflow.example.org/cases/find/?Jo%20Bloggs",
            "https://caseflow.example.org/cases/find/?[redacted]",
        ),
        # A malformed request line, quoted whole when the server refuses it.
        (
            "Bad request syntax ('GET /cases/find/?q=Jo Bloggs&x=1 HTTP/1.1')",
            "Bad request syntax ('GET /cases/find/?q=[redacted]&x=[redacted] HTTP/1.1')",
        ),
        (
            "https://caseflow.example.org?email=jo@example.org",
            "https://caseflow.example.org?email=[redacted]",
        ),
        # Words that are not URLs are left alone.
        ("Is it due? Yes", "Is it due? Yes"),
        ("Not Found: /cases/12/", "Not Found: /cases/12/"),
    ],
)
def test_every_query_string_value_is_masked(text, expected):
    from caseflow.lib.logging_filters import redact_paths

    assert redact_paths(text) == expected
    assert redact_paths(expected) == expected


def test_gunicorns_error_log_masks_query_values(caplog):
    """gunicorn logs a request it fails to handle with its URL."""
    cfg = Config()
    logger = RedactingLogger(cfg)
    logger.error_log.propagate = True
    try:
        with caplog.at_level(logging.INFO, logger="gunicorn.error"):
            logger.exception("Error handling request %s %s", "GET", "/cases/find/?q=Jo+Bloggs")
            logger.warning("Invalid request from ip=10.0.0.2: 'GET /x/?dob=1990-01-02 HTTP/1.1'")
    finally:
        logger.error_log.propagate = False
        for h in list(logger.error_log.handlers):
            logger.error_log.removeHandler(h)
    text = caplog.text
    assert "/cases/find/?q=[redacted]" in text and "/x/?dob=[redacted]" in text
    assert "Bloggs" not in text and "1990-01-02" not in text
