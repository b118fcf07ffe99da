"""A query compiled once runs the statement its queryset would, and gives the same instances."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.models import Exists, OuterRef
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from caseflow.cases.models import Case, CaseAssignment
from caseflow.lib.compiled import CompiledCount, CompiledForIds, CompiledQuery


def _build(*, team: int, reference: str, since: dt.datetime):
    return (
        Case.objects.filter(team_id=team, reference=reference, opened_at__gte=since)
        .select_related("team", "agency")
        .annotate(staffed=Exists(CaseAssignment.objects.filter(case=OuterRef("pk"))))
    )


QUERY = CompiledQuery(Case, _build, team="int", reference="str", since="datetime")


def test_the_statement_is_the_one_the_queryset_compiles_with_the_same_values(cast):
    since = timezone.now() - dt.timedelta(days=3)
    for team, reference in ((cast.team1.pk, "CASE-1"), (cast.team2.pk, "CASE-2")):
        fresh = _build(team=team, reference=reference, since=since).query
        assert (
            QUERY.sql(team=team, reference=reference, since=since)
            == fresh.get_compiler("default").as_sql()
        )


def test_rows_are_the_instances_the_queryset_gives(cast, django_assert_num_queries):
    since = timezone.now() - dt.timedelta(days=3650)
    expected = list(_build(team=cast.team1.pk, reference="CASE-1", since=since))
    with django_assert_num_queries(1):
        rows = QUERY.rows(team=cast.team1.pk, reference="CASE-1", since=since)
        # The related rows came with it: reading them asks nothing more.
        assert [(c.team.name, c.agency.name) for c in rows] == [
            (c.team.name, c.agency.name) for c in expected
        ]
    assert [c.pk for c in rows] == [cast.case.pk] == [c.pk for c in expected]
    assert [c.staffed for c in rows] == [True]
    assert rows[0].reference == "CASE-1" and rows[0].opened_at == expected[0].opened_at
    # Values that match nothing give nothing, in the same one statement.
    with CaptureQueriesContext(connection) as captured:
        assert QUERY.rows(team=cast.team2.pk, reference="CASE-1", since=since) == []
        assert QUERY.rows(team=cast.team1.pk, reference="CASE-1", since=timezone.now()) == []
    assert len(captured) == 2


def test_a_value_the_built_query_does_not_take_is_refused(cast):
    unused = CompiledQuery(
        Case,
        lambda *, team, reference: Case.objects.filter(team_id=team),
        team="int",
        reference="str",
    )
    with pytest.raises(ValueError, match="reference"):
        unused.rows(team=cast.team1.pk, reference="CASE-1")
    with pytest.raises(TypeError):
        QUERY.rows(team=cast.team1.pk, reference="CASE-1")
    with pytest.raises(ValueError, match="aware"):
        QUERY.rows(team=cast.team1.pk, reference="CASE-1", since=dt.datetime(2030, 1, 1))


def _team_cases(*, team: int, since: dt.datetime):
    return Case.objects.filter(team_id=team, opened_at__gte=since)


def test_a_compiled_count_sends_the_statement_count_sends_and_counts_the_same(cast):
    counted = CompiledCount(Case, _team_cases, team="int", since="datetime")
    since = timezone.now() - dt.timedelta(days=3650)
    # The first count also takes the statement: still one query, as the tests' counts see it.
    with CaptureQueriesContext(connection) as compiled:
        first = counted.count(team=cast.team1.pk, since=since)
    with CaptureQueriesContext(connection) as built:
        expected = _team_cases(team=cast.team1.pk, since=since).count()
    assert first == expected == 2  # CASE-1 and CASE-R
    assert [q["sql"] for q in compiled] == [q["sql"] for q in built]
    assert counted.count(team=cast.team2.pk, since=since) == 1
    assert counted.count(team=cast.team1.pk, since=timezone.now()) == 0


def test_a_date_takes_a_date_and_is_written_as_the_orm_writes_it(cast):
    opened = CompiledQuery(
        Case, lambda *, day: Case.objects.filter(opened_at__date__lte=day), day="date"
    )
    day = timezone.localdate()
    built = Case.objects.filter(opened_at__date__lte=day).query.get_compiler("default").as_sql()
    assert opened.sql(day=day) == built
    assert {c.pk for c in opened.rows(day=day)} == set(
        Case.objects.filter(opened_at__date__lte=day).values_list("pk", flat=True)
    )
    with pytest.raises(ValueError, match="dates"):
        opened.rows(day=timezone.now())


def _of_team(ids: list[int], *, team: int):
    return Case.objects.filter(pk__in=ids, team_id=team).order_by("pk")


def test_a_list_of_ids_is_compiled_for_each_number_of_them_up_to_its_most(cast):
    listed = CompiledForIds(Case, _of_team, most=2, team="int")
    cases = list(Case.objects.order_by("pk").values_list("pk", "team_id"))
    assert len(cases) >= 3
    checked = 0
    for size in (1, 2):
        ids = [pk for pk, _team in cases[:size]]
        team = cases[0][1]
        expected = _of_team(ids, team=team)
        assert listed.sql(ids, team=team) == expected.query.get_compiler("default").as_sql()
        assert [c.pk for c in listed.rows(ids, team=team) or ()] == [c.pk for c in expected]
        checked += 1
    assert checked == 2
    # None where the caller builds the statement instead: no ids, or more than its most.
    assert listed.rows([], team=cast.team1.pk) is None
    assert listed.rows([pk for pk, _team in cases[:3]], team=cast.team1.pk) is None


def test_the_columns_converters_are_looked_up_once_per_connection(cast, monkeypatch):
    from django.db.models.sql.compiler import SQLCompiler

    looked_up = []
    stock = SQLCompiler.get_converters

    def get_converters(self, expressions):
        looked_up.append(self.connection)
        return stock(self, expressions)

    monkeypatch.setattr(SQLCompiler, "get_converters", get_converters)
    query = CompiledQuery(Case, _build, team="int", reference="str", since="datetime")
    since = timezone.now() - dt.timedelta(days=3650)
    expected = list(_build(team=cast.team1.pk, reference="CASE-1", since=since))
    looked_up.clear()
    for _twice in range(2):
        rows = query.rows(team=cast.team1.pk, reference="CASE-1", since=since)
        # Converted as the queryset converts them: an aware time, the annotation a boolean.
        assert [(c.pk, c.opened_at, c.staffed) for c in rows] == [
            (c.pk, c.opened_at, c.staffed) for c in expected
        ]
        assert rows[0].opened_at.tzinfo is not None and rows[0].staffed is True
    assert looked_up == [connection]
    # Kept by connection: a connection it was not looked up for looks it up for itself.
    query._compile("default").converters.clear()
    assert query.rows(team=cast.team1.pk, reference="CASE-1", since=since)[0].staffed is True
    assert looked_up == [connection, connection]
