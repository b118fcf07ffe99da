"""Contact events from a co-parenting app's export, sent over HTTP with a real key: recorded
through the contact log (checked against the agreement like any other contact), once per
message, all or none, answered with codes only."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.urls import reverse

from caseflow import policy
from caseflow.agreements import services as agreement_services
from caseflow.agreements.breaches import counted_breaches
from caseflow.agreements.models import AgreementStatus, ContactEvent, ReviewState
from caseflow.api.models import ImportedContact
from caseflow.audit.models import AuditEvent
from tests.agreements.helpers import make_agreement

CONTACTS = [policy.SCOPE_CONTACTS_WRITE]

#: The agreement: written contact through the app, weekdays 18:00-19:00 (London), about
#: child logistics, health or school, at most 3 a day; the other party never by phone.
START = dt.date(2026, 3, 2)

#: An export as a co-parenting app gives it (Monday 9 March 2026; London is on GMT).
EXPORT = [
    {
        "message_id": "ofw-1001",
        "occurred_at": "2026-03-09T18:20:00Z",
        "sender": "other_party",
        "topic": "school",
        "text": "Pick-up moved to 4pm on Friday.",
    },
    {
        "message_id": "ofw-1002",
        "occurred_at": "2026-03-09T21:40:00Z",
        "sender": "other_party",
        "channel": "phone",
        "kind": "call",
    },
    {
        "message_id": "ofw-1003",
        "occurred_at": "2026-03-09T22:05:00+00:00",
        "sender": "survivor",
        "topic": "health",
        "text": "Reminder about the dentist.",
    },
]


def url(case) -> str:
    return reverse("api:contact_events", args=[case.public_id])


@pytest.fixture
def agreement(cast):
    made = make_agreement(cast.case, cast.assigned, start=START)
    return agreement_services.agreement_set_status(
        actor=cast.assigned, agreement=made, expected_lock=made.lock, status=AgreementStatus.ACTIVE
    )


def written() -> tuple[int, int, int]:
    return (
        ContactEvent.objects.count(),
        ImportedContact.objects.count(),
        AuditEvent.objects.filter(action="api.contacts.write").count(),
    )


def test_the_url_is_the_versioned_one(cast):
    assert url(cast.case) == f"/api/v1/cases/{cast.case.public_id}/contact-events/"


def test_an_export_is_recorded_through_the_contact_log_and_answered_with_codes(
    cast, make_caller, agreement
):
    caller = make_caller(CONTACTS, name="Co-parenting app")
    response = caller.post(url(cast.case), {"events": EXPORT})
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["case"] == cast.case.public_id
    assert body["agreement"] == agreement.public_id
    assert (body["recorded"], body["already_recorded"]) == (3, 0)
    first, second, third = body["events"]
    assert [e["message_id"] for e in body["events"]] == ["ofw-1001", "ofw-1002", "ofw-1003"]
    assert all(e["new"] and e["agreement_in_force"] for e in body["events"])

    # Within the agreement: waits for the advocate's review like any contact of the other party.
    assert first["within_agreement"] is True
    assert first["outside"] == []
    assert first["review"] == ReviewState.PENDING
    # By phone, at night: the terms it fell outside, by their codes.
    assert second["within_agreement"] is False
    assert {(o["term"], o["code"]) for o in second["outside"]} >= {
        ("forbidden_channels", "forbidden_channel"),
        ("time_windows", "outside_window"),
    }
    assert second["review"] == ReviewState.PENDING
    # The survivor's own contact is never a breach: outside what was agreed, for safety planning.
    assert third["sender"] == "survivor"
    assert third["within_agreement"] is False
    assert [o["code"] for o in third["outside"]] == ["outside_window"]
    assert third["review"] == ReviewState.SURVIVOR_OUTSIDE

    rows = {row.public_id: row for row in ContactEvent.objects.filter(case=cast.case)}
    assert set(rows) == {e["id"] for e in body["events"]}
    account = caller.integration.account
    assert {row.logged_by_id for row in rows.values()} == {account.pk}
    assert rows[first["id"]].description == "Pick-up moved to 4pm on Friday."
    assert rows[second["id"]].channel == "phone"
    # Nothing is a breach until the advocate confirms it.
    assert not counted_breaches().filter(case=cast.case).exists()
    # The answer holds codes, never the text or the topic.
    text = response.content.decode()
    for words in ("Pick-up", "dentist", "school", "health"):
        assert words not in text
    # Audited as writes under the integration's name.
    logged = AuditEvent.objects.filter(action="agreement.event.create", case_id=cast.case.pk)
    assert logged.count() == 3
    assert set(logged.values_list("actor_id", flat=True)) == {account.pk}
    summary = AuditEvent.objects.get(action="api.contacts.write")
    assert summary.actor_id == account.pk
    assert summary.detail["integration"] == caller.integration.public_id
    assert sorted(summary.detail["recorded"]) == sorted(rows)


def test_the_other_partys_contact_shows_for_review_in_the_advocates_register(
    cast, make_caller, agreement
):
    """The breach register's own way: the advocate reviews it, and only then is it a breach."""
    response = make_caller(CONTACTS).post(url(cast.case), {"events": [EXPORT[1]]})
    event = ContactEvent.objects.get(public_id=response.json()["events"][0]["id"])
    breach = agreement_services.breach_review(
        actor=cast.assigned,
        event=event,
        terms_broken=[o["term"] for o in response.json()["events"][0]["outside"]],
        severity="medium",
    )
    assert breach is not None
    assert counted_breaches().filter(case=cast.case).count() == 1


def test_an_export_sent_again_records_nothing_twice(cast, make_caller, agreement):
    caller = make_caller(CONTACTS)
    first = caller.post(url(cast.case), {"events": EXPORT})
    assert first.status_code == 201
    before = ContactEvent.objects.count()
    again = caller.post(url(cast.case), {"events": EXPORT})
    assert again.status_code == 200, again.content
    body = again.json()
    assert (body["recorded"], body["already_recorded"]) == (0, 3)
    assert [e["id"] for e in body["events"]] == [e["id"] for e in first.json()["events"]]
    assert not any(e["new"] for e in body["events"])
    assert ContactEvent.objects.count() == before

    # The next export overlaps the last one: only the new message is recorded.
    newer = {
        "message_id": "ofw-1004",
        "occurred_at": "2026-03-10T18:10:00Z",
        "sender": "other_party",
        "topic": "school",
    }
    response = caller.post(url(cast.case), {"events": [*EXPORT[1:], newer]})
    assert response.status_code == 201
    assert (response.json()["recorded"], response.json()["already_recorded"]) == (1, 2)
    assert [e["new"] for e in response.json()["events"]] == [False, False, True]
    assert ContactEvent.objects.count() == before + 1


def test_message_ids_are_the_cases_whoever_sends_them(cast, make_caller, agreement):
    make_caller(CONTACTS, name="App one").post(url(cast.case), {"events": EXPORT[:1]})
    response = make_caller(CONTACTS, name="App two").post(url(cast.case), {"events": EXPORT[:1]})
    assert response.status_code == 200
    assert ContactEvent.objects.count() == 1


def test_the_same_message_twice_in_one_batch_is_refused(cast, make_caller, agreement):
    before = written()
    response = make_caller(CONTACTS).post(url(cast.case), {"events": [EXPORT[0], EXPORT[0]]})
    assert response.status_code == 422
    assert "events.1.message_id" in response.json()["errors"]
    assert written() == before


def test_events_without_ids_are_made_idempotent_by_the_key(cast, make_caller, agreement):
    caller = make_caller(CONTACTS)
    events = [{k: v for k, v in e.items() if k != "message_id"} for e in EXPORT]
    first = caller.post(url(cast.case), {"events": events}, HTTP_IDEMPOTENCY_KEY="export-7")
    assert first.status_code == 201
    again = caller.post(url(cast.case), {"events": events}, HTTP_IDEMPOTENCY_KEY="export-7")
    assert again.status_code == 200
    assert again.json() == first.json()
    assert ContactEvent.objects.count() == 3
    other = caller.post(url(cast.case), {"events": events[:1]}, HTTP_IDEMPOTENCY_KEY="export-7")
    assert other.status_code == 409
    assert other["Content-Type"] == "application/problem+json"
    assert ContactEvent.objects.count() == 3


def test_the_frequency_cap_counts_the_batch_in_time_order(cast, make_caller, agreement):
    """Four messages in one evening, sent newest first: the fourth in time is over the cap."""
    events = [
        {
            "message_id": f"m{minute}",
            "occurred_at": f"2026-03-09T18:{minute:02d}:00Z",
            "sender": "other_party",
            "topic": "school",
        }
        for minute in (40, 30, 20, 10)
    ]
    body = make_caller(CONTACTS).post(url(cast.case), {"events": events}).json()
    over = [e["message_id"] for e in body["events"] if not e["within_agreement"]]
    assert over == ["m40"]
    assert body["events"][0]["outside"] == [{"term": "frequency_cap", "code": "over_cap"}]


def test_a_contact_before_the_agreement_is_recorded_and_says_so(cast, make_caller, agreement):
    event = {**EXPORT[0], "occurred_at": "2026-02-20T18:20:00Z"}
    answer = make_caller(CONTACTS).post(url(cast.case), {"events": [event]}).json()["events"][0]
    assert answer["agreement_in_force"] is False
    assert answer["within_agreement"] is False
    assert answer["outside"] == []


def test_the_agreement_can_be_named_and_must_be_the_cases(cast, make_caller, agreement):
    caller = make_caller(CONTACTS)
    named = caller.post(url(cast.case), {"agreement": agreement.public_id, "events": EXPORT[:1]})
    assert named.status_code == 201
    other = make_agreement(cast.team2_case, cast.other_team, start=START)
    response = caller.post(url(cast.case), {"agreement": other.public_id, "events": EXPORT[1:2]})
    assert response.status_code == 422
    assert "agreement" in response.json()["errors"]


def test_a_case_without_an_active_agreement_is_a_problem(cast, make_caller):
    before = written()
    response = make_caller(CONTACTS).post(url(cast.case), {"events": EXPORT})
    assert response.status_code == 422
    assert response["Content-Type"] == "application/problem+json"
    assert "agreement" in response.json()["errors"]
    assert written() == before


def _many(n: int) -> list[dict]:
    return [
        {
            "message_id": f"bulk-{i}",
            "occurred_at": (
                dt.datetime(2026, 3, 3, 9, tzinfo=dt.UTC) + dt.timedelta(minutes=i)
            ).isoformat(),
            "sender": "other_party",
        }
        for i in range(n)
    ]


def test_a_full_batch_is_recorded_and_a_larger_one_refused(cast, make_caller, agreement, settings):
    settings.API_CONTACT_EVENTS_MAX = 20
    caller = make_caller(CONTACTS)
    response = caller.post(url(cast.case), {"events": _many(21)})
    assert response.status_code == 400
    assert "events" in response.json()["errors"]
    assert ContactEvent.objects.count() == 0
    response = caller.post(url(cast.case), {"events": _many(20)})
    assert response.status_code == 201
    assert response.json()["recorded"] == 20


BAD = [
    ("malformed JSON", b'{"events": [{"sender": "survivor"', 400),
    ("not an object", b'[{"sender": "survivor"}]', 400),
    ("no events", {"events": []}, 400),
    ("unknown field", {"events": EXPORT, "source": "app"}, 400),
    ("unknown event field", {"events": [{**EXPORT[0], "recipient": "Rowan"}]}, 400),
    ("wrong type", {"events": [{**EXPORT[0], "text": 42}]}, 400),
    ("a number for a time", {"events": [{**EXPORT[0], "occurred_at": 1773080400}]}, 400),
    ("a time without offset", {"events": [{**EXPORT[0], "occurred_at": "2026-03-09T18:20"}]}, 400),
    ("unknown sender", {"events": [{**EXPORT[0], "sender": "Rowan"}]}, 400),
    ("unknown channel", {"events": [{**EXPORT[0], "channel": "carrier pigeon"}]}, 400),
    ("a string for a flag", {"events": [{**EXPORT[0], "handover_missed": "yes"}]}, 400),
    ("handover flag on a message", {"events": [{**EXPORT[0], "handover_missed": True}]}, 422),
    ("one bad event of many", {"events": [*EXPORT, {**EXPORT[0], "sender": 1}]}, 400),
]


@pytest.mark.parametrize(("label", "body", "status"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_a_problem_and_writes_nothing(
    cast, make_caller, agreement, label, body, status
):
    caller = make_caller(CONTACTS)
    before = written()
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    response = caller.post(url(cast.case), data)
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["title"] and response.json()["detail"]
    assert "Rowan" not in response.content.decode()
    assert "Pick-up" not in response.content.decode()
    assert written() == before


def test_form_data_is_unsupported(cast, make_caller, agreement):
    caller = make_caller(CONTACTS)
    response = caller.client.generic(
        "POST",
        url(cast.case),
        b"sender=survivor",
        content_type="application/x-www-form-urlencoded",
        **caller.headers(),
    )
    assert response.status_code == 415
    assert response["Content-Type"] == "application/problem+json"


def test_an_oversized_body_is_refused_before_it_is_read(cast, make_caller, agreement, settings):
    settings.API_CONTACT_EVENTS_MAX_BODY_BYTES = 2000
    response = make_caller(CONTACTS).post(url(cast.case), {"events": _many(40)})
    assert response.status_code == 413
    assert response["Content-Type"] == "application/problem+json"
    assert ContactEvent.objects.count() == 0


def test_an_export_may_be_larger_than_a_referral(cast, make_caller, agreement, settings):
    settings.API_MAX_BODY_BYTES = 2000
    response = make_caller(CONTACTS).post(url(cast.case), {"events": _many(40)})
    assert response.status_code == 201


def test_without_the_scope_it_is_forbidden_and_audited(cast, make_caller, agreement):
    caller = make_caller([policy.SCOPE_CASES_SUMMARY, policy.SCOPE_REFERRALS_WRITE])
    before = written()
    response = caller.post(url(cast.case), {"events": EXPORT})
    assert response.status_code == 403
    assert response["Content-Type"] == "application/problem+json"
    assert written() == before
    refused = AuditEvent.objects.get(action="api.refused")
    assert refused.detail == {"reason": "scope", "status": 403}


@pytest.mark.parametrize("target", ["restricted_case", "team2_case", "foreign_case", "nothing"])
def test_a_case_the_integration_may_not_reach_is_not_found(cast, make_caller, agreement, target):
    caller = make_caller(CONTACTS, team=cast.team1)
    path = (
        reverse("api:contact_events", args=["x" * 22])
        if target == "nothing"
        else url(getattr(cast, target))
    )
    response = caller.post(path, {"events": EXPORT})
    assert response.status_code == 404
    assert response.json()["detail"] == "No such object, or not one this integration may read."
    assert ContactEvent.objects.count() == 0


def test_the_rate_limit_applies(cast, make_caller, agreement):
    caller = make_caller(CONTACTS, rate_per_minute=1)
    assert caller.post(url(cast.case), {"events": EXPORT[:1]}).status_code == 201
    response = caller.post(url(cast.case), {"events": EXPORT[1:2]})
    assert response.status_code == 429
    assert response["Content-Type"] == "application/problem+json"
    assert ContactEvent.objects.count() == 1


def test_the_service_checks_the_integration_itself(cast, make_caller, agreement):
    """Defence in depth: the contact log refuses an integration without the scope for the case,
    whoever called it."""
    from django.core.exceptions import PermissionDenied

    from caseflow.agreements import terms

    caller = make_caller([policy.SCOPE_CASES_SUMMARY])
    with pytest.raises(PermissionDenied):
        agreement_services.event_log(
            actor=caller.integration.account,
            agreement=agreement,
            event=terms.ContactEvent(
                occurred_at=dt.datetime(2026, 3, 9, 18, 20, tzinfo=dt.UTC),
                channel="app",
                direction="to_survivor",
                topic="school",
                kind="message",
            ),
            integration=caller.integration,
        )


def test_the_admin_grants_the_scope_on_the_page_and_the_key_records(cast, login, agreement):
    from caseflow.api.models import Integration
    from tests.api.conftest import Caller

    page = login(cast.agency_admin)
    form = page.get(reverse("integrations:new"))
    assert policy.SCOPE_CONTACTS_WRITE in form.content.decode()
    response = page.post(
        reverse("integrations:new"),
        {
            "name": "Co-parenting app",
            "scopes": [policy.SCOPE_CONTACTS_WRITE],
            "team": cast.team1.pk,
            "expires_on": "2026-06-30",
            "rate_per_minute": "30",
        },
    )
    assert response.status_code == 200
    integration = Integration.objects.get(name="Co-parenting app")
    assert integration.scopes == [policy.SCOPE_CONTACTS_WRITE]
    page.logout()
    caller = Caller(integration, response.context["key"], page)
    assert caller.post(url(cast.case), {"events": EXPORT[:1]}).status_code == 201
    # The contacts scope reads nothing.
    summary = reverse("api:case_summary", args=[cast.case.public_id])
    assert caller.get(summary).status_code == 403
