"""Redis away (cache and broker both on a port where nothing listens): every signed-in page
works, what is typed is saved, background work waits in the outbox, and the outage is logged
once, by the error's class only. ``/health/`` stays a liveness check; ``/health/ready/`` and
``/status/`` say which part is down."""

from __future__ import annotations

import logging
import socket
import uuid
from importlib import import_module

import pytest
from django.contrib.sessions.backends import db as database_sessions
from django.urls import reverse

from caseflow.cases.models import Draft
from caseflow.casework.models import CaseNote, Incident
from caseflow.celery import app as celery_app
from caseflow.checkins import services as checkin_services
from caseflow.lib import softcache
from caseflow.outbox.models import Intent
from caseflow.platform import health
from tests.celery_harness import _reset_producer

pytestmark = pytest.mark.django_db

SERIOUS = {
    "kinds": ["physical"],
    "occurred_on": "2025-03-02",
    "date_confirmed": "2025-03-02",
    "approximate": "on",
    "when_described": "last weekend",
    "person": "other_party",
    "what_happened": "Pushed her against the door.",
    "police": "no",
}
NOTE = {
    "kind": "call",
    "participants": ["survivor"],
    "direction": "incoming",
    "occurred_at": "2025-03-02T08:30",
    "date_confirmed": "2025-03-02T08:30",
    "duration_minutes": "25",
    "text": "Called about the hearing.",
}


def closed_port() -> int:
    """A port on which nothing listens (bound, then let go)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def redis_down(settings):
    url = f"redis://127.0.0.1:{closed_port()}/0"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    saved = celery_app.conf.broker_url, celery_app.conf.broker_transport_options
    celery_app.conf.broker_url = url
    celery_app.conf.broker_transport_options = {}
    _reset_producer()
    softcache.reset()
    try:
        yield url
    finally:
        celery_app.conf.broker_url, celery_app.conf.broker_transport_options = saved
        _reset_producer()
        softcache.reset()


def test_pages_and_saves_work_while_redis_is_down(
    cast, login, redis_down, caplog, django_capture_on_commit_callbacks, settings
):
    # Sessions are in the database, so signing in and staying signed in need no Redis.
    assert issubclass(
        import_module(settings.SESSION_ENGINE).SessionStore, database_sessions.SessionStore
    )
    client = login(cast.assigned)
    case_url = reverse("cases:detail", args=[cast.case.public_id])
    with caplog.at_level(logging.WARNING):
        assert client.get(reverse("dashboard")).status_code == 200
        page = client.get(case_url)
        assert page.status_code == 200 and cast.case.reference in page.content.decode()

        draft = client.post(
            reverse("cases:draft", args=[cast.case.public_id, "note-new"]), {"text": "Half"}
        )
        assert draft.status_code == 204
        assert Draft.objects.filter(case=cast.case, user=cast.assigned).count() == 1

        note = client.post(reverse("casework:note_new", args=[cast.case.public_id]), NOTE)
        assert note.status_code == 302
        saved = CaseNote.objects.get(case=cast.case)
        saved.case = cast.case
        assert saved.text == "Called about the hearing."

        with django_capture_on_commit_callbacks(execute=True):
            incident = client.post(
                reverse("casework:incident_new", args=[cast.case.public_id]), SERIOUS
            )
        assert incident.status_code == 302
        assert Incident.objects.get(case=cast.case).serious is True
    # The escalation waits in the outbox, unsent, for the relay.
    intent = Intent.objects.get(task="caseflow.casework.tasks.escalate_incident")
    assert intent.enqueued_at is None and intent.completed_at is None
    assert intent.attempts == 1 and intent.last_error
    # The cache outage is logged once, by its class, with nothing of the request in it.
    outages = [r for r in caplog.records if r.getMessage().startswith("cache unavailable")]
    assert len(outages) == 1
    assert outages[0].getMessage() == (
        "cache unavailable (ConnectionError): reading from the database until it answers again"
    )


def test_the_language_and_title_still_come_from_the_database(cast, login, redis_down):
    from caseflow.accounts.language import set_agency_language
    from caseflow.accounts.models import set_advocate_title

    set_agency_language(cast.agency.pk, "es")
    set_advocate_title(cast.agency.pk, "idva")
    body = login(cast.supervisor).get(reverse("dashboard")).content.decode()
    assert 'lang="es"' in body
    staff = login(cast.agency_admin).get(reverse("agency:staff_list")).content.decode()
    assert "IDVA" in staff


def test_status_and_readiness_say_what_is_down(cast, login, client, redis_down):
    response = login(cast.supervisor).get(reverse("status"))
    assert response.status_code == 200
    texts = {check.name: (check.ok, check.text) for check in response.context["checks"]}
    assert texts["Database"] == (True, "The database is answering.")
    assert texts["Cache"][0] is False
    assert texts["Cache"][1].startswith("The cache is not answering.")
    assert texts["Task queue"][0] is False
    assert response.context["all_ok"] is False
    client.logout()
    ready = client.get(reverse("health_ready"))
    assert ready.status_code == 200  # pages work without Redis: still ready
    assert ready.json() == {
        "database": "ok",
        "cache": "unavailable",
        "broker": "unavailable",
        "down": ["cache", "broker"],
    }
    assert client.get(reverse("health")).json() == {"database": "ok"}


def test_the_calendar_feed_still_answers_and_still_limits(cast, client, redis_down, settings):
    token = checkin_services.calendar_token_create(actor=cast.assigned)
    settings.CALENDAR_FEED_RATE_PER_HOUR = 1
    feed = reverse("checkins:feed", args=[token])
    assert client.get(feed).status_code == 200
    assert client.get(feed).status_code == 429  # counted in this process meanwhile


def test_readiness_fails_without_the_database(db, client, monkeypatch):
    class Gone:
        def cursor(self):
            raise health.OperationalError("gone")

    monkeypatch.setattr(health, "connection", Gone())
    ready = client.get(reverse("health_ready"))
    assert ready.status_code == 503
    assert ready.json()["database"] == "unavailable"
    assert "database" in ready.json()["down"]


def test_a_change_made_during_the_outage_is_not_hidden_when_the_cache_returns(
    cast, settings, redis_down
):
    """The cached value from before the outage is dropped once the cache answers again."""
    from caseflow.accounts.language import agency_language, set_agency_language

    # A cache that keeps its data across the outage, as a restarted Redis does.
    working = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"kept-{uuid.uuid4().hex}",
        }
    }
    broken = settings.CACHES
    settings.CACHES = working
    assert agency_language(cast.agency.pk) == settings.LANGUAGE_CODE  # cached
    settings.CACHES = broken
    set_agency_language(cast.agency.pk, "es")  # the delete fails
    assert agency_language(cast.agency.pk) == "es"  # from the database
    settings.CACHES = working
    softcache._retry_at = 0.0  # the retry time has come
    assert agency_language(cast.agency.pk) == "es"


def test_a_redis_that_hangs_costs_one_timeout_not_one_a_page(cast, login, settings, monkeypatch):
    """A cache that accepts connections and never answers: the first page waits for the socket
    timeout once; the pages after it do not try the cache again (counted, not timed)."""
    with socket.socket() as hanging:
        hanging.bind(("127.0.0.1", 0))
        hanging.listen(16)  # connections queue, nobody answers
        port = hanging.getsockname()[1]
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": f"redis://127.0.0.1:{port}/0",
                "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
            }
        }
        softcache.reset()
        attempts = []
        connect = socket.socket.connect

        def counting_connect(sock, address):
            if isinstance(address, tuple) and address[1:2] == (port,):
                attempts.append(address)
            return connect(sock, address)

        monkeypatch.setattr(socket.socket, "connect", counting_connect)
        client = login(cast.assigned)
        for _ in range(3):
            assert client.get(reverse("dashboard")).status_code == 200
        assert 1 <= len(attempts) <= 2, attempts
    softcache.reset()


def test_the_pages_one_read_failing_leaves_them_to_the_database(cast, login, settings, caplog):
    """Redis stops: the page's one read of its settings fails, and the page is in the agency's
    language, with its word for advocates, from the database; the outage is logged once, and
    the next page does not try the cache."""
    from caseflow.accounts.language import set_agency_language
    from caseflow.accounts.models import set_advocate_title

    client = login(cast.agency_admin)
    staff = reverse("agency:staff_list")
    set_agency_language(cast.agency.pk, "es")
    set_advocate_title(cast.agency.pk, "idva")
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    reads = []
    real = softcache.cache.get_many

    def counting(*args, **kwargs):
        reads.append(args)
        return real(*args, **kwargs)

    softcache.reset()
    with caplog.at_level(logging.WARNING), pytest.MonkeyPatch.context() as patch:
        patch.setattr(softcache.cache, "get_many", counting, raising=False)
        for _ in range(2):
            body = client.get(staff).content.decode()
            assert 'lang="es"' in body and "IDVA" in body
    assert len(reads) == 1  # the first page tried, the second did not
    outages = [r for r in caplog.records if r.getMessage().startswith("cache unavailable")]
    assert [r.getMessage() for r in outages] == [
        "cache unavailable (ConnectionError): reading from the database until it answers again"
    ]
    softcache.reset()
