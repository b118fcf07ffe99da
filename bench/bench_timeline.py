"""The case timeline's first page against the stock Django admin listing the same rows.

A case of the typical advocate gets about 2,000 timeline entries of its own (contacts of the
co-parenting log, breaches of some of them, check-ins, safety-plan and agreement versions), and
another of their cases about 20; both are removed afterwards (``RUN_LAST``). Measured:

* the timeline's first page (every kind, 50 entries) and the same page filtered to contacts
  (``?kind=contact``: exactly the rows the admin lists), against the admin changelist of the
  case's contact events (``bench.peers.ContactEventAdmin``: newest first, 50 a page);
* the SQL statements of the first page at about 20 and at about 2,000 entries (the same, or the
  page has an N+1 query).
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from bench.harness import BenchContext, Peer, Row, client_for, compare, count_queries, get
from caseflow.agreements import services as agreement_services
from caseflow.agreements import terms
from caseflow.agreements.models import (
    AgreementVersion,
    Breach,
    ContactAgreement,
    ContactEvent,
    ReviewState,
)
from caseflow.cases import timeline
from caseflow.cases.models import Case, CaseStatus
from caseflow.checkins.models import CheckIn, CheckInOutcome, CheckInStatus
from caseflow.safety.models import SafetyPlan, SafetyPlanVersion

ADMIN_CONTACTS = "/bench/admin/agreements/contactevent/"
RUN_LAST = True


def _agreement(case, actor) -> ContactAgreement:
    start = (timezone.now() - dt.timedelta(days=800)).date()
    return agreement_services.agreement_create(
        actor=actor,
        case=case,
        fields={"effective_from": start},
        children=[],
        agreement_terms=terms.Agreement(
            effective_from=dt.datetime.combine(start, dt.time.min, tzinfo=dt.UTC),
            timezone="Europe/London",
            permitted_channels={"to_survivor": ["app"], "from_survivor": ["app"]},
        ),
        protocol={},
    )


def _fill(case, actor, total: int) -> None:
    """About ``total`` timeline entries on ``case``, an hour apart, ending a day ago."""
    case.data_key()  # unwrapped once for every row below
    end = timezone.now() - dt.timedelta(days=1)
    times = iter(end - dt.timedelta(hours=n) for n in range(total + 10))
    agreement = _agreement(case, actor)
    agreement.case = case
    contacts = round(total * 0.55)
    events = ContactEvent.objects.bulk_create(
        ContactEvent(
            case=case,
            agency_id=case.agency_id,
            agreement=agreement,
            occurred_at=next(times),
            channel="phone" if n % 3 else "app",
            direction="from_survivor" if n % 5 == 4 else "to_survivor",
            kind="message",
            topic="school pick-up",
            description=f"Message about the school run, number {n}.",
            proposed=[],
            # A contact the survivor made is never a breach.
            review=ReviewState.BREACH if n % 3 == 0 and n % 5 != 4 else ReviewState.NO_BREACH,
            logged_by=actor,
        )
        for n in range(contacts)
    )
    Breach.objects.bulk_create(
        Breach(
            case=case,
            agency_id=case.agency_id,
            agreement=agreement,
            event=e,
            occurred_at=e.occurred_at,
            reported_at=e.occurred_at,
            channel=e.channel,
            terms_broken=["forbidden_channels"],
            violations=[],
            description="Called outside the agreed times.",
            severity="medium",
            recorded_by=actor,
        )
        for e in events
        if e.review == ReviewState.BREACH
    )
    breaches = sum(e.review == ReviewState.BREACH for e in events)
    rest = max(3, total - contacts - breaches)
    CheckIn.objects.bulk_create(
        CheckIn(
            case=case,
            agency_id=case.agency_id,
            assignee=actor,
            due_at=next(times),
            channel="phone",
            status=CheckInStatus.DONE,
            outcome=CheckInOutcome.REACHED,
            note="Talked through the week; no change to the plan.",
        )
        for _ in range(rest - 2)
    )
    plan, _ = SafetyPlan.objects.get_or_create(case=case)
    number = plan.version + 1
    SafetyPlanVersion.objects.create(
        case=case, plan=plan, number=number, author=actor, created_at=next(times), content={}
    )
    SafetyPlan.objects.filter(pk=plan.pk).update(version=number)
    AgreementVersion.objects.create(
        case=case,
        agreement=agreement,
        number=2,
        author=actor,
        created_at=next(times),
        terms={},
        protocol={},
    )


def _remove(case, before: dict) -> None:
    """Remove what :func:`_fill` added (the audit events of the run stay, as they must)."""
    with transaction.atomic():
        ContactAgreement.objects.filter(case=case).exclude(pk__in=before["agreements"]).delete()
        CheckIn.objects.filter(case=case).exclude(pk__in=before["checkins"]).delete()
        SafetyPlanVersion.objects.filter(case=case).exclude(pk__in=before["plan_versions"]).delete()
        if before["plan"] is None:
            SafetyPlan.objects.filter(case=case).delete()
        else:
            SafetyPlan.objects.filter(pk=before["plan"][0]).update(version=before["plan"][1])


def _state(case) -> dict:
    plan = SafetyPlan.objects.filter(case=case).values_list("pk", "version").first()
    return {
        "agreements": list(ContactAgreement.objects.filter(case=case).values_list("pk", flat=True)),
        "checkins": list(CheckIn.objects.filter(case=case).values_list("pk", flat=True)),
        "plan_versions": list(
            SafetyPlanVersion.objects.filter(case=case).values_list("pk", flat=True)
        ),
        "plan": plan,
    }


def _entries(case) -> int:
    return len(timeline.page(case, timeline.Query(limit=100_000)).entries)


def timeline_first_page(ctx: BenchContext) -> list[Row]:
    from bench.harness import scale_cast

    cast = scale_cast()
    advocate = cast.typical
    big, small = Case.objects.filter(
        assignments__user=advocate, status=CaseStatus.ACTIVE, restricted=False
    ).order_by("-opened_at")[:2]
    saved = {case.pk: _state(case) for case in (big, small)}
    try:
        with transaction.atomic():
            _fill(big, advocate, 2000)
            _fill(small, advocate, 20)
        n_big, n_small = _entries(big), _entries(small)
        client, operator = client_for(advocate), client_for(cast.operator)
        url = reverse("cases:timeline", args=[big.public_id])
        admin = get(operator, f"{ADMIN_CONTACTS}?case__id__exact={big.pk}")
        contacts = ContactEvent.objects.filter(case=big).count()
        rows = compare(
            ctx,
            f"case timeline, first page ({n_big} entries)",
            get(client, url),
            [Peer("admin changelist of the case's contact events", admin)],
        )
        rows += compare(
            ctx,
            f"case timeline, contacts only ({contacts} contacts)",
            get(client, f"{url}?kind=contact"),
            [Peer("admin changelist of the case's contact events", admin)],
        )
        small_url = reverse("cases:timeline", args=[small.public_id])
        get(
            client, small_url
        )()  # first-request work (caches of the agency's words) is not the page's
        q_small = count_queries(get(client, small_url))
        q_big = rows[0].caseflow_queries
        same = "the same" if q_small == q_big else "NOT the same"
        rows[0].notes.append(
            f"SQL queries of the first page at {n_small} and at {n_big} entries: "
            f"{q_small} and {q_big}, {same}"
        )
        rows[0].notes.append(
            "both list 50 rows a page; the admin shows the contacts only and counts the "
            "filtered and the full table; the timeline asks every source (9 kinds) for one page "
            "and writes its audit event"
        )
        return rows
    finally:
        for case in (big, small):
            _remove(case, saved[case.pk])


BENCHMARKS = [timeline_first_page]
