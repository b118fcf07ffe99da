"""The supervisor's audit workspace: scope, filters, keyset pages, export, each page audited."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.audit.services import record
from tests.conftest import canary


def _last(action: str) -> AuditEvent:
    return AuditEvent.objects.filter(action=action).latest("seq")


def _seqs(response) -> list[int]:
    return [e.seq for e in response.context["page"].events]


def test_supervisor_sees_their_teams_events_only(cast, login):
    mine = record("case.view", actor=cast.same_team, case=cast.case)
    theirs = record("case.view", actor=cast.other_team, case=cast.team2_case)
    foreign = record("case.view", actor=cast.other_agency, case=cast.foreign_case)
    seqs = _seqs(login(cast.supervisor).get(reverse("audit:events")))
    assert mine.seq in seqs
    assert theirs.seq not in seqs and foreign.seq not in seqs


def test_auditor_sees_the_whole_agency(cast, login):
    mine = record("case.view", actor=cast.same_team, case=cast.case)
    theirs = record("case.view", actor=cast.other_team, case=cast.team2_case)
    foreign = record("case.view", actor=cast.other_agency, case=cast.foreign_case)
    seqs = _seqs(login(cast.auditor).get(reverse("audit:events")))
    assert {mine.seq, theirs.seq} <= set(seqs)
    assert foreign.seq not in seqs


def test_advocate_sees_their_case_timeline_but_not_the_workspace(cast, login):
    client = login(cast.assigned)
    assert client.get(reverse("audit:events")).status_code == 403
    event = record("case.update", actor=cast.same_team, case=cast.case, detail={"fields": []})
    response = client.get(reverse("audit:case", args=[cast.case.public_id]))
    assert event.seq in _seqs(response)


def test_pages_are_keyset_paginated_without_offset_or_count(cast, login):
    for n in range(120):
        record("case.view", actor=cast.same_team, case=cast.case, detail={"n": n})
    client = login(cast.auditor)
    with CaptureQueriesContext(connection) as queries:
        first = client.get(reverse("audit:events"))
    sql = " ".join(q["sql"].upper() for q in queries.captured_queries)
    assert "OFFSET" not in sql and "COUNT(" not in sql
    seqs = _seqs(first)
    assert len(seqs) == 50 and seqs == sorted(seqs, reverse=True)
    before = first.context["page"].next_before
    assert before == seqs[-1]
    assert f"before={before}" in first.content.decode()
    second = _seqs(client.get(reverse("audit:events"), {"before": before}))
    assert len(second) == 50 and max(second) < min(seqs)


def test_the_number_of_queries_does_not_grow_with_the_page(cast, login):
    client = login(cast.auditor)
    people = [cast.assigned, cast.same_team, cast.supervisor, cast.other_team]
    cases = [cast.case, cast.team2_case, cast.restricted_case]
    record("case.view", actor=people[0], case=cases[0])
    client.get(reverse("audit:events"))  # warm: first-request work is not the page's
    with CaptureQueriesContext(connection) as few:
        client.get(reverse("audit:events"))
    for n in range(60):
        record("case.view", actor=people[n % 4], case=cases[n % 3])
    with CaptureQueriesContext(connection) as many:
        client.get(reverse("audit:events"))
    assert len(many.captured_queries) == len(few.captured_queries)


def test_filters_by_action_user_case_and_dates(cast, login):
    with time_machine.travel(dt.datetime(2026, 3, 1, 12, tzinfo=dt.UTC), tick=False):
        early = record("case.view", actor=cast.same_team, case=cast.case)
    with time_machine.travel(dt.datetime(2026, 3, 5, 12, tzinfo=dt.UTC), tick=False):
        update = record("case.update", actor=cast.assigned, case=cast.case, detail={"fields": []})
        other = record("case.view", actor=cast.other_team, case=cast.team2_case)
    client = login(cast.auditor)
    url = reverse("audit:events")
    assert _seqs(client.get(url, {"action": "case.update"})) == [update.seq]
    assert update.seq in _seqs(client.get(url, {"action": "case."}))
    by_user = _seqs(client.get(url, {"user": cast.other_team.pk}))
    assert other.seq in by_user and update.seq not in by_user
    by_case = _seqs(client.get(url, {"case": "CASE-2"}))
    assert other.seq in by_case and update.seq not in by_case
    assert _seqs(client.get(url, {"case": "NO-SUCH"})) == []
    dated = _seqs(client.get(url, {"date_from": "2026-03-01", "date_to": "2026-03-01"}))
    assert dated == [early.seq]


def test_bad_filters_are_form_errors(cast, login):
    client = login(cast.auditor)
    url = reverse("audit:events")
    response = client.get(url, {"date_from": "2026-03-05", "date_to": "2026-03-01"})
    assert response.status_code == 200 and response.context["page"] is None
    assert "before the start date" in response.content.decode()
    for bad in ({"date_from": "yesterday"}, {"user": "99999"}, {"action": "DROP TABLE"}):
        response = client.get(url, bad)
        assert response.status_code == 200 and response.context["form"].errors
    assert client.get(url, {"case": "x" * 500}).status_code == 200
    assert client.get(url, {"before": "abc"}).status_code == 200


def test_other_supervisors_team_member_is_out_of_scope(cast, login):
    response = login(cast.other_supervisor).get(reverse("audit:events"), {"user": cast.assigned.pk})
    assert response.context["form"].errors  # not one of the choices


def test_each_workspace_page_is_audited_without_typed_text(cast, login):
    client = login(cast.supervisor)
    client.get(reverse("audit:events"), {"action": "case.view", "case": "Jane Doe 1990"})
    event = _last("audit.events.view")
    assert event.actor_id == cast.supervisor.pk
    assert event.detail["filters"] == {"action": "case.view"}
    assert event.detail["case_filter"] is True
    assert "Jane" not in str(event.detail)
    client.get(reverse("audit:break_glass"))
    assert _last("audit.break_glass.view").actor_id == cast.supervisor.pk
    client.get(reverse("audit:user", args=[cast.same_team.pk]))
    assert _last("audit.user.view").object_id == str(cast.same_team.pk)


def test_csv_export(cast, login):
    record("case.view", actor=cast.same_team, case=cast.case)
    evil = record("case.view", actor=cast.assigned, case=cast.case)
    cast.assigned.username = "=HYPERLINK(1)"
    cast.assigned.save()
    response = login(cast.auditor).get(reverse("audit:export"), {"action": "case.view"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["seq", "time_utc", "actor_id"]
    by_seq = {int(r[0]): r for r in rows[1:]}
    assert by_seq[evil.seq][3] == "'=HYPERLINK(1)"
    assert all(r[6] == "case.view" for r in rows[1:])
    assert all(canary(cast.case) not in ",".join(r) for r in rows)
    exported = _last("audit.export")
    assert exported.detail["filters"] == {"action": "case.view"}
    assert exported.detail["events"] == len(rows) - 1


def test_export_is_capped_and_says_where_to_continue(cast, login, monkeypatch):
    from caseflow.oversight import views

    monkeypatch.setattr(views, "EXPORT_MAX_ROWS", 3)
    for _ in range(5):
        record("case.view", actor=cast.same_team, case=cast.case)
    response = login(cast.auditor).get(reverse("audit:export"), {"action": "case.view"})
    rows = list(csv.reader(io.StringIO(response.content.decode())))[1:]
    assert len(rows) == 3
    assert response["X-Audit-Export-Continue-Before"] == rows[-1][0]


def test_case_timeline_shows_the_change_history_by_field_name(cast, login):
    version = cast.case.version
    client = login(cast.assigned)
    client.post(
        reverse("cases:edit", args=[cast.case.public_id]),
        {
            "reference": "CASE-1",
            "summary": "secret words",
            "version": version,
        },
    )
    response = login(cast.auditor).get(reverse("audit:case", args=[cast.case.public_id]))
    body = response.content.decode()
    history = response.context["history"]
    assert history[0]["what"] == "Case details"
    # The risk level is changed on its own page, with a reason (tests/cases/test_journey.py).
    assert history[0]["fields"] == ["summary"]
    assert history[0]["event"].actor_id == cast.assigned.pk
    assert "summary" in body
    assert "secret words" not in body and canary(cast.case) not in body
    assert _last("audit.case.view").case_id == cast.case.pk


def test_who_accessed_a_case(cast, login):
    record("case.view", actor=cast.same_team, case=cast.case)
    record("case.view", actor=cast.same_team, case=cast.case)
    record("case.update", actor=cast.assigned, case=cast.case, detail={"fields": []})
    record("case.view", actor=cast.other_team, case=cast.team2_case)
    response = login(cast.supervisor).get(reverse("audit:case_access", args=[cast.case.public_id]))
    people = {row["actor_id"]: row["reads"] for row in response.context["people"]}
    assert people[cast.same_team.pk] == 2
    assert cast.other_team.pk not in people
    events = response.context["page"].events
    assert events and all(e.action.endswith(".view") for e in events)


def test_user_activity(cast, login):
    mine = record("case.view", actor=cast.same_team, case=cast.case)
    record("case.view", actor=cast.assigned, case=cast.case)
    response = login(cast.supervisor).get(reverse("audit:user", args=[cast.same_team.pk]))
    assert _seqs(response) == [mine.seq]
    other = login(cast.other_supervisor).get(reverse("audit:user", args=[cast.same_team.pk]))
    assert other.status_code == 404


def test_nav_item_for_supervisors_and_auditors_only(cast, login):
    link = f'href="{reverse("audit:events")}"'
    assert link in login(cast.supervisor).get(reverse("dashboard")).content.decode()
    assert link in login(cast.auditor).get(reverse("dashboard")).content.decode()
    assert link not in login(cast.assigned).get(reverse("dashboard")).content.decode()
    assert link not in login(cast.agency_admin).get(reverse("dashboard")).content.decode()


@pytest.mark.parametrize("method", ["put", "delete"])
def test_wrong_method(cast, login, method):
    response = getattr(login(cast.auditor), method)(reverse("audit:events"))
    assert response.status_code == 405


def test_timeline_and_access_pages_keep_a_constant_number_of_queries(cast, login):
    client = login(cast.supervisor)
    urls = [
        reverse("audit:case", args=[cast.case.public_id]),
        reverse("audit:case_access", args=[cast.case.public_id]),
    ]
    record("case.view", actor=cast.assigned, case=cast.case)
    client.get(urls[0])  # warm: first-request work (session, caches) is not the page's
    counts = []
    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            for url in urls:
                assert client.get(url).status_code == 200
        counts.append(len(queries.captured_queries))
        people = [cast.assigned, cast.same_team, cast.supervisor]
        for n in range(60):
            record("case.update", actor=people[n % 3], case=cast.case, detail={"fields": ["x"]})
            record("case.view", actor=people[n % 3], case=cast.case)
    assert counts[0] == counts[1]
