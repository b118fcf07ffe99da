"""Webhooks: the event is written with the change that caused it, fanned out through the
outbox, sent by a worker to a real receiver on 127.0.0.1, signed, and sent again after the
receiver was down, slow or answered 500. A request never waits for a receiver."""

from __future__ import annotations

import datetime as dt
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import time_machine
from django.urls import reverse

from caseflow.api import services, tasks, webhooks
from caseflow.api.models import DeliveryState, WebhookDelivery
from caseflow.outbox.events import EventKind
from caseflow.outbox.models import Intent
from tests.api.conftest import HOTLINE_PAYLOAD, NOW
from tests.test_cache_outage import closed_port


class Receiver:
    """An HTTP receiver on 127.0.0.1 in a thread: answers 200, 500, or waits (slow)."""

    def __init__(self, port: int = 0, mode: str = "ok"):
        self.mode = mode
        self.received: list[tuple[dict, bytes]] = []
        self.release = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if outer.mode == "slow":
                    outer.release.wait(10)
                outer.received.append((dict(self.headers), body))
                self.send_response(500 if outer.mode == "500" else 204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def stop(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receivers(settings):
    settings.WEBHOOK_ALLOW_LOOPBACK_HTTP = True
    settings.WEBHOOK_TIMEOUT_SECONDS = 0.5
    started: list[Receiver] = []

    def start(**kw) -> Receiver:
        receiver = Receiver(**kw)
        started.append(receiver)
        return receiver

    yield start
    for receiver in started:
        receiver.stop()


def run_intents(task_name: str) -> int:
    """Run the pending intents of one task as a worker would (intent id included)."""
    task = {
        "caseflow.api.tasks.webhook_fanout": tasks.webhook_fanout,
        "caseflow.api.tasks.deliver_webhook": tasks.deliver_webhook,
    }[task_name]
    ran = 0
    for intent in Intent.objects.pending().filter(task=task_name).order_by("pk"):
        task(**intent.kwargs, intent_id=intent.pk)
        ran += 1
    return ran


def subscribe(cast, url, kinds=(EventKind.REFERRAL_RECEIVED,)):
    return services.webhook_subscribe(actor=cast.agency_admin, url=url, kinds=list(kinds))


def send_referral(make_caller, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        response = make_caller().post(reverse("api:referrals"), HOTLINE_PAYLOAD)
    assert response.status_code == 201
    return response.json()["id"]


def test_signing_and_verifying():
    body = webhooks.body_for("breach.recorded", "2026-03-10T14:00:00Z", "abc")
    header = webhooks.sign("s3cret", 1_773_151_200, body)
    assert header.startswith("t=1773151200,v1=")
    assert webhooks.verify("s3cret", header, body, now=1_773_151_200 + 10)
    assert not webhooks.verify("other", header, body, now=1_773_151_200)
    assert not webhooks.verify("s3cret", header, body + b" ", now=1_773_151_200)
    # A replay long after is refused.
    assert not webhooks.verify("s3cret", header, body, now=1_773_151_200 + 3600)


def test_a_referral_is_delivered_signed_with_nothing_personal(
    cast, make_caller, receivers, django_capture_on_commit_callbacks
):
    receiver = receivers()
    subscription, secret = subscribe(cast, receiver.url)
    case_id = send_referral(make_caller, django_capture_on_commit_callbacks)
    assert receiver.received == []  # nothing is sent by the request
    assert run_intents("caseflow.api.tasks.webhook_fanout") == 1
    assert run_intents("caseflow.api.tasks.deliver_webhook") == 1
    assert len(receiver.received) == 1
    headers, body = receiver.received[0]
    assert webhooks.verify(secret, headers["Caseflow-Signature"], body, now=NOW.timestamp())
    assert json.loads(body) == {
        "kind": "referral.received",
        "occurred_at": "2026-03-10T14:00:00Z",
        "id": case_id,
    }
    text = body.decode()
    for personal in ("Rowan", "Sam", "07700", "hotline"):
        assert personal not in text
    delivery = WebhookDelivery.objects.get()
    assert (delivery.state, delivery.attempts, delivery.last_status) == (
        DeliveryState.DELIVERED,
        1,
        204,
    )
    assert not Intent.objects.pending().exists()


def test_a_receiver_that_was_down_gets_it_after_the_back_off(
    cast, make_caller, receivers, django_capture_on_commit_callbacks
):
    port = closed_port()
    subscription, secret = subscribe(cast, f"http://127.0.0.1:{port}/hook")
    send_referral(make_caller, django_capture_on_commit_callbacks)
    run_intents("caseflow.api.tasks.webhook_fanout")
    run_intents("caseflow.api.tasks.deliver_webhook")
    delivery = WebhookDelivery.objects.get()
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("pending", 1, 0)
    assert delivery.next_attempt_at == NOW + dt.timedelta(minutes=1)
    # Not before its time...
    assert services.delivery_retry_sweep() == 0
    receiver = receivers(port=port)
    with time_machine.travel(NOW + dt.timedelta(minutes=1), tick=False):
        with django_capture_on_commit_callbacks(execute=False):
            assert services.delivery_retry_sweep() == 1
        assert run_intents("caseflow.api.tasks.deliver_webhook") == 1
        headers, body = receiver.received[0]
        assert webhooks.verify(
            secret,
            headers["Caseflow-Signature"],
            body,
            now=(NOW + dt.timedelta(minutes=1)).timestamp(),
        )
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts) == (DeliveryState.DELIVERED, 2)
    assert headers["Caseflow-Delivery"] == delivery.public_id


@pytest.mark.parametrize("mode", ["500", "slow"])
def test_a_receiver_that_answers_500_or_is_slow_never_blocks_and_loses_nothing(
    cast, make_caller, receivers, django_capture_on_commit_callbacks, mode
):
    receiver = receivers(mode=mode)
    subscribe(cast, receiver.url)
    send_referral(make_caller, django_capture_on_commit_callbacks)  # answered at once: 201
    run_intents("caseflow.api.tasks.webhook_fanout")
    run_intents("caseflow.api.tasks.deliver_webhook")
    delivery = WebhookDelivery.objects.get()
    assert delivery.state == DeliveryState.PENDING
    assert delivery.last_status == (500 if mode == "500" else 0)
    receiver.mode = "ok"
    receiver.release.set()
    with time_machine.travel(NOW + dt.timedelta(minutes=1), tick=False):
        with django_capture_on_commit_callbacks(execute=False):
            assert services.delivery_retry_sweep() == 1
        assert run_intents("caseflow.api.tasks.deliver_webhook") == 1
    delivery.refresh_from_db()
    assert delivery.state == DeliveryState.DELIVERED


def test_a_breach_is_published_with_the_breach(cast, receivers, django_capture_on_commit_callbacks):
    from tests.agreements.helpers import london, make_agreement, record_breach

    receiver = receivers()
    subscribe(cast, receiver.url, kinds=[EventKind.BREACH_RECORDED])
    agreement = make_agreement(cast.case, cast.assigned)
    with django_capture_on_commit_callbacks(execute=False):
        record_breach(agreement, cast.assigned, london(2026, 3, 9, 22, 0))
    assert run_intents("caseflow.api.tasks.webhook_fanout") == 1
    assert run_intents("caseflow.api.tasks.deliver_webhook") == 1
    assert json.loads(receiver.received[0][1])["kind"] == "breach.recorded"


def test_an_agency_nobody_listens_to_gets_no_fan_out(cast, receivers):
    from caseflow.outbox import events
    from tests.agreements.helpers import london, make_agreement, record_breach

    agreement = make_agreement(cast.case, cast.assigned)
    record_breach(agreement, cast.assigned, london(2026, 3, 9, 22, 0))
    # Subscribed, but to referrals only; and ended subscriptions do not listen.
    subscribe(cast, receivers().url)
    ended, _secret = subscribe(cast, receivers().url, kinds=[EventKind.BREACH_RECORDED])
    ended.ended_at = NOW
    ended.save()
    record_breach(agreement, cast.assigned, london(2026, 3, 9, 23, 0))
    assert not Intent.objects.filter(task=events.FANOUT_TASK).exists()
    assert services.anyone_listening(cast.case.agency_id, EventKind.REFERRAL_RECEIVED)
    assert not services.anyone_listening(cast.case.agency_id, EventKind.BREACH_RECORDED)


def test_nothing_is_sent_about_a_restricted_case_or_to_another_agency(cast, receivers):
    receiver = receivers()
    subscribe(cast, receiver.url, kinds=[EventKind.BREACH_RECORDED])
    for case in (cast.restricted_case, cast.foreign_case):
        assert (
            services.webhook_fanout(
                kind=EventKind.BREACH_RECORDED,
                agency_id=case.agency_id,
                case_public_id=case.public_id,
                at=NOW.isoformat(),
            )
            == 0
        )
    assert not WebhookDelivery.objects.exists()


def test_fanning_out_twice_delivers_once(cast, receivers):
    receiver = receivers()
    subscribe(cast, receiver.url, kinds=[EventKind.BREACH_RECORDED])
    kwargs = dict(
        kind=EventKind.BREACH_RECORDED,
        agency_id=cast.case.agency_id,
        case_public_id=cast.case.public_id,
        at=NOW.isoformat(),
    )
    assert services.webhook_fanout(**kwargs) == 1
    assert services.webhook_fanout(**kwargs) == 0
    assert WebhookDelivery.objects.count() == 1


def test_giving_up_after_the_last_attempt(cast, receivers, settings):
    settings.WEBHOOK_MAX_ATTEMPTS = 2
    receiver = receivers(mode="500")
    subscribe(cast, receiver.url, kinds=[EventKind.BREACH_RECORDED])
    services.webhook_fanout(
        kind=EventKind.BREACH_RECORDED,
        agency_id=cast.case.agency_id,
        case_public_id=cast.case.public_id,
        at=NOW.isoformat(),
    )
    delivery = WebhookDelivery.objects.get()
    services.delivery_attempt(delivery_id=delivery.pk)
    services.delivery_attempt(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts) == (DeliveryState.GAVE_UP, 2)


def test_the_admin_subscribes_and_sees_each_outcome(cast, login, receivers):
    client = login(cast.agency_admin)
    refused = client.post(
        reverse("integrations:subscription_new"),
        {"url": "http://plain.example.invalid/hook", "kinds": ["breach.recorded"]},
    )
    assert refused.status_code == 200
    assert "url" in refused.context["form"].errors
    made = client.post(
        reverse("integrations:subscription_new"),
        {"url": "https://on-call.example.invalid/hook", "kinds": ["breach.recorded"]},
    )
    assert made.status_code == 200
    secret = made.context["secret"]
    assert secret in made.content.decode()
    listing = client.get(reverse("integrations:list")).content.decode()
    assert "https://on-call.example.invalid/hook" in listing
    assert secret not in listing


@pytest.mark.parametrize(
    "url",
    [
        "https://10.0.0.5/hook",
        "https://192.168.1.1/hook",
        "https://169.254.169.254/latest/meta-data/",  # a cloud's metadata service
        "https://127.0.0.1/hook",
        "https://[::1]/hook",
        "https://[::ffff:10.0.0.5]/hook",
        "https://[fd00::1]/hook",
        "https://localhost/hook",
        "https://intranet.localhost/hook",
        "https://payroll.internal/hook",
        "https://printer.local/hook",
        "http://8.8.8.8/hook",  # not https
        "https:///hook",
    ],
)
def test_no_webhook_goes_to_this_machine_or_a_private_network(url):
    assert webhooks.address_problem(url, resolve=False) != ""


def test_a_public_address_is_accepted():
    assert webhooks.address_problem("https://8.8.8.8/hook", resolve=False) == ""
    assert webhooks.address_problem("https://hooks.example.org/hook", resolve=False) == ""


def _resolving_to(monkeypatch, address):
    import socket

    def fake(host, port, *args, **kwargs):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(webhooks.socket, "getaddrinfo", fake)


def test_a_name_that_resolves_to_a_private_address_is_refused(monkeypatch):
    _resolving_to(monkeypatch, "10.1.2.3")
    assert webhooks.address_problem("https://hooks.example.org/x", resolve=True) == "AddressRefused"
    _resolving_to(monkeypatch, "93.184.216.34")
    assert webhooks.address_problem("https://hooks.example.org/x", resolve=True) == ""


def test_the_form_refuses_a_private_address_in_words_and_keeps_nothing(cast, login, monkeypatch):
    client = login(cast.agency_admin)
    for url in ("https://10.0.0.5/hook", "https://payroll.internal/hook"):
        response = client.post(
            reverse("integrations:subscription_new"), {"url": url, "kinds": ["breach.recorded"]}
        )
        assert response.status_code == 200
        assert "only to public addresses" in response.content.decode()
    _resolving_to(monkeypatch, "172.16.0.9")
    response = client.post(
        reverse("integrations:subscription_new"),
        {"url": "https://hooks.example.org/hook", "kinds": ["breach.recorded"]},
    )
    assert "only to public addresses" in response.content.decode()
    assert not services.WebhookSubscription.objects.exists()
    with pytest.raises(services.AddressRefused):
        services.webhook_subscribe(
            actor=cast.agency_admin, url="https://169.254.169.254/x", kinds=["breach.recorded"]
        )


def test_a_name_that_later_resolves_to_a_private_address_gets_nothing(
    cast, monkeypatch, django_capture_on_commit_callbacks
):
    from tests.agreements.helpers import london, make_agreement, record_breach

    _resolving_to(monkeypatch, "93.184.216.34")
    subscribe(cast, "https://hooks.example.org/hook", kinds=[EventKind.BREACH_RECORDED])
    # Later the name points inside the agency's network (DNS rebinding): nothing is sent.
    _resolving_to(monkeypatch, "10.9.8.7")
    sent = []
    monkeypatch.setattr(
        webhooks.urllib.request.OpenerDirector, "open", lambda *a, **k: sent.append(a)
    )
    agreement = make_agreement(cast.case, cast.assigned)
    with django_capture_on_commit_callbacks(execute=False):
        record_breach(agreement, cast.assigned, london(2026, 3, 9, 22, 0))
    assert run_intents("caseflow.api.tasks.webhook_fanout") == 1
    assert run_intents("caseflow.api.tasks.deliver_webhook") == 1
    delivery = WebhookDelivery.objects.get()
    assert (delivery.last_status, delivery.last_error) == (0, "AddressRefused")
    assert delivery.state == DeliveryState.PENDING and sent == []


def test_a_closure_waiting_for_approval_and_a_missed_check_in_are_events(cast, receivers):
    from caseflow.cases.models import Case, RiskLevel
    from caseflow.checkins import scheduler
    from caseflow.outbox import events
    from tests.cases.test_decisions_waiting import _outcomes
    from tests.checkins.helpers import MONDAY, make_checkin

    subscribe(
        cast,
        receivers().url,
        kinds=[EventKind.CLOSURE_AWAITING_APPROVAL, EventKind.CHECKIN_MISSED],
    )
    Case.objects.filter(pk=cast.case.pk).update(risk_level=RiskLevel.HIGH)
    cast.case.refresh_from_db()
    from caseflow.cases import journey

    journey.closure_submit(actor=cast.assigned, case=cast.case, data=_outcomes(cast.case))
    due = MONDAY + dt.timedelta(hours=2)
    make_checkin(cast.team2_case, cast.other_team, due)
    make_checkin(cast.team2_case, cast.other_team, due + dt.timedelta(minutes=5))
    scheduler.sweep(due + dt.timedelta(hours=3), enqueue=lambda ids: None)
    published = sorted(
        (i.kwargs["kind"], i.kwargs["case"]) for i in Intent.objects.filter(task=events.FANOUT_TASK)
    )
    # One event per case, however many of its check-ins were missed in the sweep.
    assert published == sorted(
        [
            ("closure.awaiting_approval", cast.case.public_id),
            ("checkin.missed", cast.team2_case.public_id),
        ]
    )
