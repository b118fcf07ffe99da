"""The audit pages' statements (the case in audit scope, a page of events, a case's reads and its
readers, the events' case labels) are compiled once per process for each role: the very
statements the querysets they replace send, so the very rows."""

from __future__ import annotations

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from caseflow import policy
from caseflow.audit.models import AuditEvent
from caseflow.audit.services import record
from caseflow.cases.models import Case
from caseflow.oversight import selectors

pytestmark = pytest.mark.django_db


def _sent(run) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        run()
    return [q["sql"] for q in captured]


@pytest.fixture
def trail(cast):
    """Reads and writes of the cast's cases by several people, one read of several cases at
    once, and a read of the restricted case."""
    for _ in range(3):
        record("case.view", actor=cast.assigned, case=cast.case, obj=cast.case)
    record("case.view", actor=cast.supervisor, case=cast.case, obj=cast.case)
    record("case.update", actor=cast.assigned, case=cast.case, obj=cast.case)
    record("case.view", actor=cast.other_team, case=cast.team2_case, obj=cast.team2_case)
    record("case.view", actor=cast.assigned, case=cast.restricted_case, obj=cast.restricted_case)
    record("calendar.fetch", actor=cast.same_team, detail={"cases": [cast.case.pk, 999999]})
    return cast


def _readers(cast):
    return (cast.supervisor, cast.auditor, cast.assigned, cast.other_team)


def _frozen(user):
    """Time stopped at the time ``user``'s audit scope is read at, so that the compiled and the
    built statements are asked about the same moment."""
    found = policy.audit_values(user)
    assert found is not None
    return time_machine.travel(found[1].get("now", timezone.now()), tick=False)


def _sql(queryset) -> tuple:
    return queryset.query.get_compiler("default").as_sql()


def _unnarrowed(events):
    return events


def _seqs(page) -> tuple:
    return [e.seq for e in page.events], page.next_before


def test_the_case_in_audit_scope_is_read_as_the_queryset_reads_it(trail):
    cast, seen = trail, 0
    for user in _readers(cast):
        for case in (cast.case, cast.restricted_case, cast.team2_case, cast.foreign_case):
            with _frozen(user):
                built = policy.audit_cases(user).filter(public_id=case.public_id).defer("summary")
                expected = built.first()
                compiled_sql = _sent(lambda: selectors.audit_case(user, case.public_id))  # noqa: B023
                assert compiled_sql == _sent(built.first)
                got = selectors.audit_case(user, case.public_id)
            assert got == expected
            if got is not None:
                seen += 1
                assert "summary" in got.get_deferred_fields()
    assert 4 <= seen < 16  # some in scope, and some (another team's, another agency's) not
    assert selectors.audit_case(cast.agency_admin, cast.case.public_id) is None


def test_a_page_of_events_is_the_keyset_page_of_the_scope(trail):
    cast, seen = trail, set()
    for user in _readers(cast):
        with _frozen(user):
            events = policy.auditable_events(user)
            for before, size in ((None, 50), (None, 2), (10**9, 2)):

                def built(events=events, before=before, size=size):
                    return selectors.keyset_page(events, before, size)

                def compiled(user=user, before=before, size=size):
                    return selectors._scope_page("events", user, {}, _unnarrowed, before, size)

                assert _sent(compiled) == _sent(built)
                assert _seqs(compiled()) == _seqs(built())
                seen.update(e.seq for e in compiled().events)
            # Without a filter the events page is the compiled page; with one, built.
            assert _seqs(selectors.events_page(user, {}, None)) == _seqs(
                selectors.keyset_page(events, None)
            )
            data = {"action": "case.view"}
            assert _seqs(selectors.events_page(user, data, None)) == _seqs(
                selectors.keyset_page(selectors.filtered_events(user, data), None)
            )
    assert seen
    # The restricted case's events are for its access list only, compiled or not.
    restricted = set(
        AuditEvent.objects.filter(case_id=cast.restricted_case.pk).values_list("seq", flat=True)
    )
    assert restricted
    assert not restricted & {e.seq for e in selectors.events_page(cast.supervisor, {}, None).events}
    assert restricted <= {e.seq for e in selectors.events_page(cast.assigned, {}, None).events}


def test_a_cases_reads_and_readers_are_the_querysets(trail):
    cast, people = trail, set()
    for user in _readers(cast):
        with _frozen(user):
            for case in (cast.case, cast.team2_case):
                reads = selectors.case_reads(policy.auditable_events(user), case)
                for before in (None, 10**9):

                    def built(reads=reads, before=before):
                        return selectors.keyset_page(reads, before)

                    def compiled(user=user, case=case, before=before):
                        return selectors.case_reads_page(user, case, before)

                    assert _sent(compiled) == _sent(built)
                    assert _seqs(compiled()) == _seqs(built())

                def readers(user=user, case=case):
                    return selectors.case_readers(user, case)

                def who(reads=reads):
                    return selectors.who_accessed(reads)

                assert _sent(readers) == _sent(who)
                assert readers() == who()
                people.update(r["actor_id"] for r in readers())
    # The multi-case read names the case in its detail: its reader is listed.
    assert {cast.assigned.pk, cast.supervisor.pk, cast.same_team.pk} <= people


def test_the_case_labels_are_what_the_two_querysets_give(trail):
    cast = trail
    events = list(AuditEvent.objects.exclude(case_id=None).order_by("seq"))
    ids = list(dict.fromkeys(e.case_id for e in events))
    cases = {c.pk: c for c in Case.objects.filter(pk__in=ids)}
    assert len(ids) >= 3
    for user in _readers(cast):
        with _frozen(user):
            openable = set(policy.audit_cases(user).filter(pk__in=ids).values_list("pk", flat=True))
            expected = {
                e.seq: (
                    cases[e.case_id].reference,
                    cases[e.case_id].public_id if e.case_id in openable else None,
                )
                for e in events
            }
            assert len(_sent(lambda: selectors.label_cases(user, [*events]))) == 2  # noqa: B023
            labelled = selectors.label_cases(user, [*events])
            assert {e.seq: (e.case_reference, e.case_public_id) for e in labelled} == expected
            reader = selectors._reader(user)
            assert reader is not None
            compiled = selectors._labels_compiled(reader, len(ids))
            assert compiled is not None
            role, values, _slots = reader
            assert compiled[0].sql(ids, **values) == _sql(
                policy.audit_cases_of(role, **values).filter(pk__in=ids).only("pk")
            )
            assert compiled[1].sql(ids) == _sql(
                Case.objects.filter(pk__in=ids).only("reference", "public_id")
            )
    # The supervisor may open their team's case, not the other team's: its label has no link.
    with _frozen(cast.supervisor):
        labels = {
            e.case_id: e.case_public_id for e in selectors.label_cases(cast.supervisor, events)
        }
    assert labels[cast.case.pk] == cast.case.public_id
    assert labels[cast.team2_case.pk] is None


def test_the_alerts_are_read_as_their_queryset_reads_them(cast):
    from caseflow.inbox.models import Notification

    for n, kind in enumerate(["break_glass", "unusual_access", "checkin_missed"] * 5):
        Notification.objects.create(
            recipient=cast.supervisor if n != 3 else cast.auditor,
            kind=kind,
            key=f"k{n}",
            text="An alert",
            read_at=timezone.now() if n == 4 else None,
        )
    expected = selectors._alerts(cast.supervisor, selectors.ALERTS_SHOWN)
    assert selectors._ALERTS.sql(user=cast.supervisor.pk) == _sql(expected)
    assert _sent(lambda: selectors.alerts_for(cast.supervisor)) == _sent(lambda: list(expected))
    shown = selectors.alerts_for(cast.supervisor)
    assert [a.pk for a in shown] == [a.pk for a in expected]
    assert len(shown) == 8  # ten alerts, one the auditor's and one read
    assert [a.pk for a in selectors.alerts_for(cast.supervisor, 3)] == [a.pk for a in shown[:3]]
