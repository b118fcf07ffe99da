"""Agreement services: versions in force, policy inside the services, audit hygiene, evidence
clean-up, and query counts of the case-page panel."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from caseflow.agreements import services
from caseflow.agreements.forms import ContactEventForm
from caseflow.agreements.models import (
    AgreementVersion,
    Breach,
    ContactAgreement,
    ContactEvent,
    Evidence,
)
from caseflow.audit.models import AuditEvent
from tests.agreements.helpers import (
    LONDON,
    add_evidence,
    log_event,
    london,
    make_agreement,
    make_terms,
    record_breach,
)

NOW = dt.datetime(2025, 9, 1, 12, 0, tzinfo=dt.UTC)


def save_version(agreement, actor, start, **overrides):
    agreement.refresh_from_db()
    return services.agreement_save(
        actor=actor,
        agreement=agreement,
        expected_lock=agreement.lock,
        fields={"effective_from": agreement.effective_from},
        children=[],
        agreement_terms=make_terms(start, **overrides),
        protocol={},
    )


def test_a_newer_version_applies_from_its_start_and_the_older_one_before(cast):
    agreement = make_agreement(cast.case, cast.assigned)
    save_version(agreement, cast.assigned, dt.date(2025, 3, 3), permitted_topics=["health"])
    before = log_event(agreement, cast.assigned, london(2025, 2, 25, 18, 30), topic="school")
    after = log_event(agreement, cast.assigned, london(2025, 3, 4, 18, 30), topic="school")
    assert (before.version_number, before.proposed) == (1, [])
    assert after.version_number == 2
    assert [v["term"] for v in after.proposed] == ["permitted_topics"]


def test_a_newer_version_that_ends_earlier_ends_the_agreement(cast):
    agreement = make_agreement(cast.case, cast.assigned)
    save_version(
        agreement,
        cast.assigned,
        dt.date(2025, 3, 3),
        effective_to=london(2025, 7, 1, 0, 0),
    )
    late = log_event(agreement, cast.assigned, london(2025, 7, 2, 22, 0), channel="phone")
    assert late.version_number is None
    assert late.proposed == []


def test_an_event_before_the_agreement_proposes_nothing(cast, login):
    agreement = make_agreement(cast.case, cast.assigned)
    early = log_event(agreement, cast.assigned, london(2024, 12, 1, 23, 0), channel="phone")
    assert (early.version_number, early.proposed) == (None, [])
    url = reverse(
        "agreements:review", args=[cast.case.public_id, agreement.public_id, early.public_id]
    )
    assert "no version in force at that time" in login(cast.assigned).get(url).content.decode()


@pytest.mark.parametrize("actor", ["other_team", "auditor", "same_team", "other_agency"])
def test_services_check_policy_themselves(cast, actor):
    user = getattr(cast, actor)
    with pytest.raises(PermissionDenied):
        make_agreement(cast.case, user)
    agreement = make_agreement(cast.case, cast.assigned)
    with pytest.raises(PermissionDenied):
        log_event(agreement, user, london(2025, 2, 25, 18, 30))
    event = log_event(agreement, cast.assigned, london(2025, 2, 25, 22, 30), channel="phone")
    with pytest.raises(PermissionDenied):
        services.breach_review(
            actor=user, event=event, terms_broken=["time_windows"], severity="low"
        )
    assert ContactAgreement.objects.count() == 1
    assert ContactEvent.objects.count() == 1
    assert not Breach.objects.exists()


@time_machine.travel(NOW, tick=False)
def test_audit_details_hold_no_sensitive_values(cast):
    agreement = make_agreement(cast.case, cast.assigned)
    secret = "SECRETWORDS"
    event = log_event(
        agreement,
        cast.assigned,
        london(2025, 2, 25, 22, 30),
        channel="phone",
        topic=f"topic {secret}".lower(),
        description=f"said {secret}",
    )
    services.breach_review(
        actor=cast.assigned,
        event=event,
        terms_broken=["forbidden_channels"],
        severity="high",
        police_reported=True,
        police_reference=f"ref {secret}",
        description=f"breach {secret}",
    )
    services.breach_escalate(breach_id=event.breach.pk)
    details = json.dumps(list(AuditEvent.objects.values_list("detail", flat=True)))
    assert secret.lower() not in details.lower()
    assert "agreement.breach.create" in set(AuditEvent.objects.values_list("action", flat=True))


def test_stored_values_are_encrypted(cast):
    agreement = make_agreement(cast.case, cast.assigned, permitted_topics=["ZEBRATOPIC"])
    log_event(agreement, cast.assigned, london(2025, 2, 25, 18, 30), description="ZEBRADESC")
    with connection.cursor() as cur:
        for table in (AgreementVersion._meta.db_table, ContactEvent._meta.db_table):
            cur.execute(f"SELECT * FROM {table}")  # noqa: S608 (table names from the models)
            assert "ZEBRA" not in repr(cur.fetchall()).upper()


def test_a_failed_event_log_keeps_neither_rows_nor_files(cast, monkeypatch, evidence_root):
    agreement = make_agreement(cast.case, cast.assigned)

    def broken(*args, **kwargs):
        raise RuntimeError("audit unavailable")

    monkeypatch.setattr(services, "record", broken)
    with pytest.raises(RuntimeError):
        add_evidence(agreement, cast.assigned)
    assert not ContactEvent.objects.exists()
    assert not Evidence.objects.exists()
    assert not [p for p in evidence_root.rglob("*") if p.is_file()]


@time_machine.travel(NOW, tick=False)
def test_a_local_time_that_did_not_exist_is_refused():
    form = ContactEventForm(
        {
            "occurred_at": "2025-03-30T01:30",
            "channel": "app",
            "direction": "to_survivor",
            "kind": "message",
            "topic": "school",
        },
        timezone_name=LONDON,
    )
    assert not form.is_valid()
    assert "clocks went forward" in form.errors["occurred_at"][0]


@time_machine.travel(NOW, tick=False)
def test_the_event_form_reads_times_in_the_survivors_zone(cast, login):
    profile = cast.case.safe_contact
    profile.timezone = "America/New_York"
    profile.save()
    agreement = make_agreement(cast.case, cast.assigned)
    url = reverse("agreements:event_new", args=[cast.case.public_id, agreement.public_id])
    response = login(cast.assigned).post(
        url,
        {
            "occurred_at": "2025-02-25T13:30",
            "channel": "app",
            "direction": "to_survivor",
            "kind": "message",
            "topic": "school",
        },
    )
    assert response.status_code == 302
    event = ContactEvent.objects.get()
    assert event.occurred_at == dt.datetime(2025, 2, 25, 18, 30, tzinfo=dt.UTC)


@time_machine.travel(NOW, tick=False)
def test_case_page_panel_queries_do_not_grow_with_the_log(
    cast, login, django_assert_max_num_queries
):
    agreement = make_agreement(cast.case, cast.assigned)
    client = login(cast.assigned)
    url = reverse("cases:detail", args=[cast.case.public_id])
    client.get(url)
    with CaptureQueriesContext(connection) as small:
        client.get(url)
    for day in range(1, 25):
        record_breach(agreement, cast.assigned, london(2025, 5, day, 22, 0), severity="low")
    with django_assert_max_num_queries(len(small.captured_queries)):
        client.get(url)


def test_the_message_over_the_daily_cap_is_proposed_as_a_breach(cast):
    agreement = make_agreement(cast.case, cast.assigned)
    events = [
        log_event(agreement, cast.assigned, london(2025, 2, 25, 18, minute))
        for minute in (0, 10, 20, 30)
    ]
    assert [e.proposed for e in events[:3]] == [[], [], []]
    assert [v["term"] for v in events[3].proposed] == ["frequency_cap"]
    assert "message number 4" in events[3].proposed[0]["message"]
