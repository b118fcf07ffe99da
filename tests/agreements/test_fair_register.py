"""A fair breach register: only the other party's contact can be a breach.

The survivor's own contact outside the terms is recorded neutrally, for safety planning; it is
never reviewed as a breach, never escalates, and never shows in the register, counts, trend,
chronology, timeline or exports as one. Shown for every rule of the breach checker, in both
directions, and for rows recorded before the rule (the migration re-labels them)."""

from __future__ import annotations

import datetime as dt
import importlib
import pathlib
import re

import pytest
from django.apps import apps
from django.urls import reverse

from caseflow.agreements import breaches, packs, selectors, services, terms
from caseflow.agreements.models import Breach, ContactEvent, ReviewState
from caseflow.cases import timeline as case_timeline
from tests.agreements.helpers import log_event, london, make_agreement

OTHER, SURVIVOR = "to_survivor", "from_survivor"
HANDOVER = terms.Handover(place="Library", weekdays=frozenset({0}), time="17:00")


#: Each rule of the checker: terms that apply it to both directions, and contact that breaks it
#: (Monday 24 February 2025, London time, unless said otherwise).
RULES = {
    "forbidden_channels": (
        {"forbidden_channels": {OTHER: ["phone"], SURVIVOR: ["phone"]}},
        [{"channel": "phone", "kind": "call", "when": (2025, 2, 24, 18, 10)}],
    ),
    "permitted_channels": (
        {},
        [{"channel": "email", "when": (2025, 2, 24, 18, 10)}],
    ),
    "time_windows": (
        {},
        [{"when": (2025, 2, 24, 22, 0)}],
    ),
    "frequency_cap": (
        {"frequency_cap": "direction"},
        [{"when": (2025, 2, 24, 18, 1)}, {"when": (2025, 2, 24, 18, 2)}],
    ),
    "permitted_topics": (
        {},
        [{"topic": "money", "when": (2025, 2, 24, 18, 10)}],
    ),
    "handover": (
        {"handover": HANDOVER},
        [{"kind": "handover", "handover_missed": True, "when": (2025, 2, 24, 17, 0)}],
    ),
    "child_contact_windows": (
        {"child_contact_windows": (terms.Window(days=range(7), start="18:00", end="18:30"),)},
        [{"kind": "child_contact", "when": (2025, 2, 24, 21, 0)}],
    ),
}


def _log_rule(cast, rule: str, direction: str):
    overrides, contacts = RULES[rule]
    overrides = dict(overrides)
    if overrides.get("frequency_cap") == "direction":
        overrides["frequency_cap"] = terms.Cap(limit=1, per="day", direction=direction)
    agreement = make_agreement(cast.case, cast.assigned, **overrides)
    events = []
    for contact in contacts:
        fields = dict(contact)
        when = london(*fields.pop("when"))
        events.append(log_event(agreement, cast.assigned, when, direction=direction, **fields))
    return agreement, events[-1]


@pytest.mark.parametrize("rule", sorted(RULES))
def test_the_other_partys_contact_outside_each_rule_awaits_review_as_a_breach(cast, rule):
    _, event = _log_rule(cast, rule, OTHER)
    assert rule in [v["term"] for v in event.proposed]
    assert event.review == ReviewState.PENDING
    breach = services.breach_review(
        actor=cast.assigned,
        event=event,
        terms_broken=[rule],
        severity="high",
    )
    assert breach is not None
    assert list(breaches.counted_breaches()) == [breach]


@pytest.mark.parametrize("rule", sorted(RULES))
def test_the_survivors_contact_outside_each_rule_is_recorded_neutrally(cast, rule):
    agreement, event = _log_rule(cast, rule, SURVIVOR)
    # What the checker found is kept, for safety planning...
    assert rule in [v["term"] for v in event.proposed]
    # ...but it is never awaiting a breach review, and cannot be made a breach.
    assert event.review == ReviewState.SURVIVOR_OUTSIDE
    with pytest.raises(services.NotABreach):
        services.breach_review(
            actor=cast.assigned, event=event, terms_broken=[rule], severity="high"
        )
    event.refresh_from_db()
    assert event.review == ReviewState.SURVIVOR_OUTSIDE
    assert not Breach.objects.exists()
    assert selectors.weekly_counts(agreement, dt.date(2025, 3, 1))[-1].breaches == 0


def test_the_survivors_contact_within_the_terms_is_labelled_so(cast):
    agreement = make_agreement(cast.case, cast.assigned)
    event = log_event(agreement, cast.assigned, london(2025, 2, 24, 18, 10), direction=SURVIVOR)
    assert event.proposed == []
    assert event.review == ReviewState.SURVIVOR_WITHIN


def test_the_rule_itself():
    assert breaches.can_breach(OTHER)
    assert not breaches.can_breach(SURVIVOR)
    assert not breaches.can_breach("anything else")
    assert breaches.review_for_survivor([]) == ReviewState.SURVIVOR_WITHIN
    assert breaches.review_for_survivor(["x"]) == ReviewState.SURVIVOR_OUTSIDE


def _legacy_survivor_breach(cast, agreement):
    """A survivor's contact recorded as a breach before the rule (as old data holds it)."""
    event = log_event(
        agreement, cast.assigned, london(2025, 2, 24, 22, 0), direction=SURVIVOR, channel="email"
    )
    ContactEvent.objects.filter(pk=event.pk).update(review=ReviewState.BREACH)
    event.refresh_from_db()
    breach = Breach(
        case=cast.case,
        agreement=agreement,
        event=event,
        occurred_at=event.occurred_at,
        reported_at=event.reported_at,
        channel=event.channel,
        terms_broken=["time_windows"],
        violations=[{"term": "time_windows", "message": "Outside the times."}],
        severity="critical",
        recorded_by=cast.assigned,
    )
    breach.save()
    return event, breach


def _other_party_breach(cast, agreement):
    event = log_event(
        agreement, cast.assigned, london(2025, 2, 25, 9, 0), channel="phone", kind="call"
    )
    return services.breach_review(
        actor=cast.assigned,
        event=event,
        terms_broken=["forbidden_channels"],
        severity="medium",
    )


def test_no_consumer_counts_a_survivors_contact_as_a_breach(cast):
    agreement = make_agreement(cast.case, cast.assigned)
    legacy_event, legacy = _legacy_survivor_breach(cast, agreement)
    real = _other_party_breach(cast, agreement)
    assert real is not None
    # The rule, counts for reports, the register and escalation.
    assert list(breaches.counted_breaches()) == [real]
    assert breaches.breach_counts([cast.case.pk]) == {cast.case.pk: 1}
    assert [e.pk for e in breaches.breach_events()] == [real.event_id]
    assert services.breach_escalate(breach_id=legacy.pk) == []
    # The trend chart.
    assert sum(w.breaches for w in selectors.weekly_counts(agreement, dt.date(2025, 3, 1))) == 1
    # The chronology (printed, CSV and for outside the agency).
    report = selectors.chronology(agreement)
    assert [row["ref"] for row in report["rows"]] == [real.public_id[:8]]
    assert legacy.public_id[:8] not in selectors.chronology_csv(report, dt.datetime.now(dt.UTC))
    # Exports.
    assert [row["ref"] for row in packs.breaches(cast.case)] == [real.public_id[:8]]
    log = {row["ref"]: row["review"] for row in packs.contact_log(cast.case)}
    assert log[legacy_event.public_id[:8]] == str(packs.SURVIVOR_CONTACT_REVIEW)
    assert "breach" not in log[legacy_event.public_id[:8]].lower()
    # The case timeline.
    entries = case_timeline.page(cast.case, case_timeline.Query(limit=50))
    breach_entries = [e for e in entries.entries if e.kind == "breach"]
    assert [e.key for e in breach_entries] == [case_timeline.key_of(real.pk)]
    # The contact log's "breaches only" filter.
    shown = selectors.contact_log_queryset(agreement, "breaches")
    assert [e.pk for e in shown] == [real.event_id]


def test_the_migration_relabels_the_survivors_contact(cast):
    agreement = make_agreement(cast.case, cast.assigned)
    legacy_event, legacy = _legacy_survivor_breach(cast, agreement)
    outside = log_event(agreement, cast.assigned, london(2025, 2, 24, 22, 30), direction=SURVIVOR)
    within = log_event(agreement, cast.assigned, london(2025, 2, 24, 18, 30), direction=SURVIVOR)
    other = log_event(agreement, cast.assigned, london(2025, 2, 24, 22, 45))
    # As the rows stood before the rule: every contact awaited a breach review.
    ContactEvent.objects.filter(pk__in=[outside.pk, within.pk]).update(review="pending")
    migration = importlib.import_module(
        "caseflow.agreements.migrations.0004_survivor_contact_never_a_breach"
    )
    migration.relabel(apps, None)
    reviews = dict(ContactEvent.objects.values_list("pk", "review"))
    assert reviews[legacy_event.pk] == ReviewState.SURVIVOR_OUTSIDE
    assert reviews[outside.pk] == ReviewState.SURVIVOR_OUTSIDE
    assert reviews[within.pk] == ReviewState.SURVIVOR_WITHIN
    assert reviews[other.pk] == ReviewState.PENDING
    # Nothing is lost: the earlier breach row stays, but no longer counts.
    assert Breach.objects.filter(pk=legacy.pk).exists()
    assert not breaches.counted_breaches().exists()


def test_the_review_page_of_a_survivors_contact_offers_no_breach(cast, login):
    client = login(cast.assigned)
    agreement = make_agreement(cast.case, cast.assigned)
    event = log_event(agreement, cast.assigned, london(2025, 2, 24, 22, 0), direction=SURVIVOR)
    url = reverse(
        "agreements:review", args=[cast.case.public_id, agreement.public_id, event.public_id]
    )
    page = client.get(url).content.decode()
    assert "Outside the agreed terms — from the survivor" in page
    assert 'name="terms_broken"' not in page
    response = client.post(url, {"terms_broken": ["time_windows"], "severity": "high"})
    assert response.status_code == 302
    assert not Breach.objects.exists()


def test_only_the_rule_module_queries_breaches():
    """Every consumer goes through caseflow.agreements.breaches, so none can count a survivor's
    contact by forgetting the rule."""
    root = pathlib.Path(__file__).resolve().parents[2] / "caseflow"
    allowed = {root / "agreements" / "breaches.py"}
    offenders = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if path not in allowed
        and "migrations" not in path.parts
        and re.search(r"\bBreach\.objects\b|\.breaches\.(all|filter|count)\(", path.read_text())
    ]
    assert offenders == []
