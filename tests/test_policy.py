"""The access policy: the scope, actions inside it, and a property test over random graphs."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from caseflow import policy
from caseflow.accounts.models import Role
from caseflow.cases.models import BreakGlassGrant, CaseAssignment
from tests import factories as f
from tests.conftest import ACTORS, Cast, verified_session

pytestmark = pytest.mark.django_db


def names(qs) -> set[str]:
    return set(qs.values_list("reference", flat=True))


def test_scope_of_each_role(cast: Cast):
    assert names(policy.visible_cases(cast.assigned)) == {"CASE-1", "CASE-R"}
    assert names(policy.visible_cases(cast.same_team)) == set()
    assert names(policy.visible_cases(cast.supervisor)) == {"CASE-1"}
    assert names(policy.visible_cases(cast.other_supervisor)) == {"CASE-2"}
    assert names(policy.visible_cases(cast.other_agency)) == {"CASE-B"}
    for nobody in (cast.auditor, cast.agency_admin, cast.operator, cast.deactivated):
        assert names(policy.visible_cases(nobody)) == set()


def test_get_case_for_404_outside_scope_and_403_inside_without_right(cast: Cast):
    with pytest.raises(policy.CaseNotFound):
        policy.get_case_for(cast.same_team, cast.case.public_id, "view")
    with pytest.raises(policy.CaseForbidden):
        policy.get_case_for(cast.assigned, cast.case.public_id, "assign")
    assert policy.get_case_for(cast.supervisor, cast.case.public_id, "assign") == cast.case
    with pytest.raises(ValueError):
        policy.get_case_for(cast.assigned, cast.case.public_id, "fly")


def test_losing_assignment_takes_effect_on_next_request(cast: Cast, login):
    client = login(cast.assigned)
    url = reverse("cases:detail", args=[cast.case.public_id])
    assert client.get(url).status_code == 200
    CaseAssignment.objects.filter(case=cast.case, user=cast.assigned).delete()
    assert client.get(url).status_code == 404


def test_deactivation_ends_the_session_on_next_request(cast: Cast, login):
    client = login(cast.assigned)
    url = reverse("cases:detail", args=[cast.case.public_id])
    assert client.get(url).status_code == 200
    cast.assigned.membership.is_active = False
    cast.assigned.membership.save()
    response = client.get(url)
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_session_epoch_bump_ends_the_session(cast: Cast, login):
    client = login(cast.assigned)
    url = reverse("dashboard")
    assert client.get(url).status_code == 200
    cast.assigned.session_epoch += 1
    cast.assigned.save()
    assert client.get(url).status_code == 302


def test_break_glass_opens_the_case_without_edits_for_a_limited_time(cast: Cast, login):
    client = login(cast.same_team)
    detail = reverse("cases:detail", args=[cast.case.public_id])
    assert client.get(detail).status_code == 404
    response = client.post(
        reverse("cases:break_glass"),
        {"reference": "CASE-1", "reason": "Client phoned; advocate off sick today."},
    )
    assert response.status_code == 302
    assert client.get(detail).status_code == 200
    assert client.get(reverse("cases:edit", args=[cast.case.public_id])).status_code == 403
    grant = BreakGlassGrant.objects.get(user=cast.same_team)
    assert grant.reason == "Client phoned; advocate off sick today."
    BreakGlassGrant.objects.filter(pk=grant.pk).update(
        expires_at=timezone.now() - dt.timedelta(seconds=1)
    )
    assert client.get(detail).status_code == 404


def test_break_glass_refuses_restricted_and_foreign_cases_alike(cast: Cast, login):
    client = login(cast.same_team)
    for reference in ("CASE-R", "CASE-B", "NO-SUCH"):
        response = client.post(
            reverse("cases:break_glass"),
            {"reference": reference, "reason": "Client phoned; advocate off sick today."},
        )
        assert response.status_code == 200
        assert "no case with this reference that you can open" in response.content.decode()
    assert not BreakGlassGrant.objects.exists()


def test_break_glass_requires_a_reason(cast: Cast, login):
    client = login(cast.same_team)
    response = client.post(reverse("cases:break_glass"), {"reference": "CASE-1", "reason": ""})
    assert response.status_code == 200
    assert not BreakGlassGrant.objects.exists()


# --- Property: the queryset and an independent reading of the rules agree -----------------------


def oracle(user, role, user_teams, case, assigned, restricted_list, grants) -> bool:
    if role not in ("advocate", "supervisor"):
        return False
    if case["restricted"]:
        return user in restricted_list
    if user in assigned or user in grants:
        return True
    return role == "supervisor" and case["team"] in user_teams


graphs = st.fixed_dictionaries(
    {
        "roles": st.lists(
            st.sampled_from(["advocate", "supervisor", "auditor", "agency_admin"]),
            min_size=3,
            max_size=5,
        ),
        "teams": st.lists(st.sets(st.integers(0, 1), max_size=2), min_size=5, max_size=5),
        "cases": st.lists(
            st.fixed_dictionaries(
                {
                    "team": st.integers(0, 1),
                    "restricted": st.booleans(),
                    "assigned": st.sets(st.integers(0, 4), max_size=3),
                    "listed": st.sets(st.integers(0, 4), max_size=2),
                    "grants": st.sets(st.integers(0, 4), max_size=2),
                    "expired": st.booleans(),
                }
            ),
            min_size=1,
            max_size=8,
        ),
    }
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(graph=graphs)
def test_visible_cases_matches_the_rules_and_the_case_list(graph, client):
    with transaction.atomic():
        agency = f.AgencyFactory()
        teams = [f.TeamFactory(agency=agency) for _ in range(2)]
        users = []
        for i, role in enumerate(graph["roles"]):
            users.append(f.staff(agency, role, [teams[t] for t in graph["teams"][i]]))
        cases = []
        now = timezone.now()
        for spec in graph["cases"]:
            assigned = [users[i] for i in spec["assigned"] if i < len(users)]
            listed = [users[i] for i in spec["listed"] if i < len(users)]
            case = f.open_case(teams[spec["team"]], assigned)
            if spec["restricted"]:
                case.restricted = True
                case.save()
                case.restricted_users.set(listed)
            for i in spec["grants"]:
                if i < len(users):
                    BreakGlassGrant.objects.create(
                        case=case,
                        user=users[i],
                        reason="r",
                        expires_at=now + dt.timedelta(minutes=-5 if spec["expired"] else 30),
                    )
            cases.append((case, spec, set(assigned), set(listed)))
        for i, user in enumerate(users):
            role = graph["roles"][i]
            user_teams = set(graph["teams"][i])
            expected = set()
            for case, spec, assigned, listed in cases:
                grants = (
                    set()
                    if spec["expired"]
                    else {users[j] for j in spec["grants"] if j < len(users)}
                )
                if oracle(user, role, user_teams, spec, assigned, listed, grants):
                    expected.add(case.public_id)
            got = set(policy.visible_cases(user).values_list("public_id", flat=True))
            assert got == expected
            for case, *_ in cases:
                assert policy.can_view_case(user, case) == (case.public_id in expected)
            if role in policy.CASEWORK_ROLES:
                verified_session(client, user)
                body = client.get(reverse("cases:list")).content.decode()
                listed_ids = set(re.findall(r"/cases/([A-Za-z0-9_-]{16,32})/", body))
                assert listed_ids == expected
        transaction.set_rollback(True)


def test_assignable_users_are_active_casework_staff_of_the_agency(cast: Cast):
    people = set(policy.assignable_users(cast.case).values_list("username", flat=True))
    assert people == {"assigned", "same_team", "other_team", "supervisor", "other_supervisor"}
    assert Role.AUDITOR not in people


def test_permission_answers_are_forgotten_when_access_changes(cast: Cast):
    from caseflow.cases import services

    case = policy.get_case_for(cast.supervisor, cast.case.public_id, "assign")
    assert policy.may(cast.assigned, case, "edit")
    services.case_assign(actor=cast.supervisor, case=case, primary=cast.same_team, others=[])
    # The same instance, later in the same request: the old answer is not reused.
    assert not policy.may(cast.assigned, case, "edit")
    assert policy.may(cast.same_team, case, "edit")


def test_get_case_for_asks_the_statement_the_scope_builds(cast: Cast):
    """The case is found with SQL compiled once per process: the very statement
    ``visible_cases`` builds for the same person at the same moment, for an advocate and for a
    supervisor, on any case."""
    from django.db.models import Exists, OuterRef

    now = timezone.now()
    for user in (cast.assigned, cast.supervisor):
        for case in (cast.case, cast.team2_case, cast.foreign_case):
            with time_machine.travel(now, tick=False):
                built = (
                    policy.visible_cases(user)
                    .select_related("team", "agency", "primary_advocate")
                    .annotate(
                        assigned_to_covered=Exists(
                            CaseAssignment.objects.filter(
                                case=OuterRef("pk"), user__in=policy.covered_for(user)
                            )
                        )
                    )
                    .filter(public_id=case.public_id)[:1]
                )
                expected = built.query.get_compiler("default").as_sql()
            compiled = policy._CASE_FOR[user == cast.supervisor].sql(
                user=user.pk, agency=cast.agency.pk, now=now, public_id=case.public_id
            )
            assert compiled == expected


def test_get_case_for_finds_exactly_the_scope(cast: Cast, django_assert_num_queries):
    cases = (cast.case, cast.restricted_case, cast.team2_case, cast.foreign_case)
    for name in ACTORS:
        user = cast.actor(name)
        if user is None:
            continue
        user.refresh_from_db()
        visible = set(policy.visible_cases(user).values_list("pk", flat=True))
        for case in cases:
            if case.pk in visible:
                found = policy.get_case_for(user, case.public_id, "view")
                assert found.pk == case.pk
                assert found.assigned_to_covered is False
                with django_assert_num_queries(0):  # read with the case
                    assert (found.team.pk, found.agency.pk) == (case.team_id, case.agency_id)
            else:
                with pytest.raises(policy.CaseNotFound):
                    policy.get_case_for(user, case.public_id, "view")


def test_is_assigned_asks_the_statement_exists_sends(cast: Cast, django_assert_num_queries):
    """Whether someone is assigned (or covers someone who is) is asked with SQL built once per
    process: the statement ``exists()`` sends for the same person, case and moment."""
    from django.db import connection
    from django.db.models import Q
    from django.test.utils import CaptureQueriesContext

    now = timezone.now()
    for user in (cast.assigned, cast.same_team, cast.supervisor, cast.other_agency):
        for case in (cast.case, cast.restricted_case, cast.foreign_case):
            with time_machine.travel(now, tick=False):
                with CaptureQueriesContext(connection) as built:
                    expected = (
                        CaseAssignment.objects.filter(case=case)
                        .filter(Q(user=user) | Q(user__in=policy.covered_for(user)))
                        .exists()
                    )
                with CaptureQueriesContext(connection) as compiled:
                    answer = policy.is_assigned(user, case)
            assert answer == expected
            assert [q["sql"] for q in compiled] == [q["sql"] for q in built]
    assert policy.is_assigned(cast.assigned, cast.case)
    assert not policy.is_assigned(cast.same_team, cast.case)
    with django_assert_num_queries(0):
        from django.contrib.auth.models import AnonymousUser

        assert not policy.is_assigned(AnonymousUser(), cast.case)
