"""Canary values never reach logs, error pages, error e-mails or URLs."""

from __future__ import annotations

import io
import logging
import re

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.test import Client
from django.urls import reverse

from caseflow.lib.logging_filters import MASK, RedactPersonalData
from tests.conftest import verified_session

pytestmark = pytest.mark.django_db

CANARY = "CANARY-Zelda-Quux-1961"


def configured_handlers() -> list[logging.Handler]:
    loggers = [logging.getLogger()] + [
        logging.getLogger(name) for name in logging.root.manager.loggerDict
    ]
    handlers = {h for lg in loggers for h in getattr(lg, "handlers", [])}
    # pytest's own capture handlers are not part of caseflow's configuration.
    # Libraries' NullHandlers write nothing anywhere.
    return [
        h
        for h in handlers
        if not type(h).__module__.startswith("_pytest") and not isinstance(h, logging.NullHandler)
    ]


def test_every_handler_redacts():
    handlers = configured_handlers()
    assert handlers, "no log handlers configured"
    for handler in handlers:
        assert any(isinstance(f, RedactPersonalData) for f in handler.filters), handler


@pytest.fixture
def console():
    """What caseflow's own console handler writes, while the test runs."""
    handler = next(
        h
        for h in logging.getLogger().handlers
        if any(isinstance(f, RedactPersonalData) for f in h.filters)
    )
    buffer = io.StringIO()
    old = handler.setStream(buffer)
    yield buffer
    handler.setStream(old)


@pytest.fixture
def crashing_party_save(monkeypatch):
    def boom(**kwargs):
        raise RuntimeError(f"could not store {kwargs['data']['full_name']} {CANARY}")

    monkeypatch.setattr("caseflow.cases.services.party_save", boom)


def test_a_crash_leaks_nothing(cast, settings, console, caplog, crashing_party_save):
    settings.DEBUG = False
    settings.ADMINS = [("Operators", "ops@example.invalid")]
    caplog.handler.addFilter(RedactPersonalData())
    client = Client(raise_request_exception=False)
    verified_session(client, cast.assigned)
    url = reverse("cases:party_new", args=[cast.case.public_id])
    response = client.post(
        url,
        {
            "role": "child",
            "full_name": f"Child {CANARY}",
            "phone": f"0770 {CANARY}",
            "notes": f"notes {CANARY}",
        },
    )
    assert response.status_code == 500
    body = response.content.decode()
    assert CANARY not in body
    assert "Something went wrong" in body
    assert response["X-Request-ID"] and response["X-Request-ID"] in body

    logged = console.getvalue()
    assert "Internal Server Error" in logged
    assert "RuntimeError: " + MASK in logged  # the stack is kept, the message is not
    assert CANARY not in logged
    assert CANARY not in caplog.text
    for record in caplog.records:
        assert CANARY not in record.getMessage()

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert CANARY not in message.subject + message.body
    assert all(CANARY not in str(content) for content, _ in message.alternatives)


@pytest.mark.parametrize(
    "exc, status, text",
    [(Http404, 404, "Not found"), (PermissionDenied, 403, "Not allowed")],
)
def test_error_pages_are_generic_with_a_request_id(cast, settings, monkeypatch, exc, status, text):
    settings.DEBUG = False

    def refuse(request, case):
        raise exc(f"about {CANARY}")

    monkeypatch.setattr("caseflow.cases.views.render_sections", refuse)
    client = Client(raise_request_exception=False)
    verified_session(client, cast.assigned)
    response = client.get(reverse("cases:detail", args=[cast.case.public_id]))
    assert response.status_code == status
    body = response.content.decode()
    assert text in body and CANARY not in body
    assert response["X-Request-ID"] in body


def test_redaction_of_arguments_and_extras():
    record = logging.LogRecord("caseflow", logging.INFO, __file__, 1, "saved %(what)s", None, None)
    record.args = {"what": "party", "full_name": CANARY, "nested": {"phone": CANARY}}
    record.password = CANARY
    RedactPersonalData().filter(record)
    assert CANARY not in str(record.args) and record.password == MASK
    assert record.getMessage() == "saved party"


def test_urls_carry_no_personal_data(cast, login):
    client = login(cast.assigned)
    response = client.post(
        reverse("cases:new"),
        {
            "team": cast.team1.pk,
            "risk_level": "medium",
            "survivor_full_name": f"Survivor {CANARY}",
            "survivor_phone": "07700 900123",
            "survivor_email": "canary@example.invalid",
            "other_full_name": f"Other {CANARY}",
        },
    )
    assert response.status_code == 302
    assert CANARY not in response["Location"] and "canary" not in response["Location"]
    page = client.get(response["Location"]).content.decode()
    assert CANARY in page  # shown to the advocate…
    urls = re.findall(r'(?:href|action|src)="([^"]*)"', page)
    assert urls
    for url in urls:  # …but never in an address
        assert CANARY not in url and "900123" not in url and "canary@" not in url
