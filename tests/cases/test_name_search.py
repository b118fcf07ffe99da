"""Finding a case by a person's name, through the blind index: inside the searcher's scope it
lists the cases; outside it only says a case may exist elsewhere (never for a restricted case or
another agency's), and a duty worker can open the one match with emergency access."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import BreakGlassGrant, Party, PartyRole, name_index_for
from tests import factories as f
from tests.conftest import canary

FIND = reverse("cases:find")
ELSEWHERE = "may exist elsewhere in the agency"
NOWHERE = "only the exact full name is matched"


def _find(client, name: str, role: str = PartyRole.SURVIVOR):
    response = client.post(FIND, {"name": name, "role": role})
    assert response.status_code == 200
    return response.content.decode()


def test_the_index_ignores_case_punctuation_spacing_and_word_order():
    assert name_index_for("Jane  Smith") == name_index_for("smith, JANE")
    assert name_index_for("Jane Smith") != name_index_for("Jane Smyth")
    assert name_index_for("  !! ") == ""


def test_the_search_page_sends_the_name_by_post_never_in_the_url(cast, login):
    page = login(cast.assigned).get(FIND).content.decode()
    assert 'method="post"' in page


def test_the_assigned_advocate_finds_the_case_and_the_audit_keeps_no_name(cast, login):
    client = login(cast.assigned)
    name = f"survivor  {canary(cast.case).lower()}"
    page = _find(client, name)
    assert cast.case.reference in page
    assert ELSEWHERE not in page
    event = AuditEvent.objects.filter(action="case.search_name").latest("pk")
    assert event.actor_id == cast.assigned.pk
    assert set(event.detail) == {
        "role",
        "with_name",
        "with_date_of_birth",
        "cases",
        "similar",
        "elsewhere",
    }
    assert (event.detail["with_name"], event.detail["with_date_of_birth"]) == (True, False)
    assert (event.detail["role"], event.detail["cases"]) == ("survivor", [cast.case.pk])
    assert event.detail["elsewhere"] is False
    # A similar name (another canary one character off) is listed apart, never twice.
    assert cast.case.pk not in event.detail["similar"]
    for row in AuditEvent.objects.all():
        assert canary(cast.case) not in str(row.detail)
        assert canary(cast.case).lower() not in str(row.detail)


def test_outside_the_scope_it_says_only_that_a_case_may_exist(cast, login):
    page = _find(login(cast.same_team), f"Survivor {canary(cast.team2_case)}")
    assert ELSEWHERE in page
    assert cast.team2_case.reference not in page
    assert cast.team2_case.public_id not in page


@pytest.mark.parametrize("which", ["restricted_case", "foreign_case"])
def test_restricted_and_other_agency_cases_are_never_hinted_at(cast, login, which):
    case = getattr(cast, which)
    page = _find(login(cast.other_team), f"Survivor {canary(case)}")
    assert ELSEWHERE not in page
    assert NOWHERE in page
    assert case.reference not in page


def test_the_listed_user_of_a_restricted_case_finds_it(cast, login):
    page = _find(login(cast.assigned), f"Survivor {canary(cast.restricted_case)}")
    assert cast.restricted_case.reference in page


def test_searching_the_other_partys_name_finds_the_cases_they_are_named_in(cast, login):
    page = _find(login(cast.supervisor), f"Other {canary(cast.case)}", PartyRole.OTHER_PARTY)
    assert cast.case.reference in page
    assert "other party in these cases" in page
    # The same name as a client matches nothing: roles are searched apart.
    page = _find(login(cast.supervisor), f"Other {canary(cast.case)}")
    assert cast.case.reference not in page and NOWHERE in page


@pytest.mark.parametrize("name", ["", "   ", "!!! ??", "x" * 201])
def test_a_name_without_letters_is_a_form_error(cast, login, name):
    page = _find(login(cast.assigned), name)
    assert "is-invalid" in page
    assert not AuditEvent.objects.filter(action="case.search_name").exists()


def test_roles_without_casework_cannot_search(cast, login):
    for user in (cast.auditor, cast.agency_admin, cast.operator):
        assert login(user).post(FIND, {"name": "A B", "role": "survivor"}).status_code == 403


def test_a_rename_moves_the_index(cast):
    party = Party.objects.get(case=cast.case, role=PartyRole.SURVIVOR)
    party.full_name = "Alex Rivera"
    party.save()
    party.refresh_from_db()
    assert party.name_index == name_index_for("rivera alex")
    # Saving a row read back without touching the name keeps its index.
    party.phone = "01632 960000"
    party.save()
    party.refresh_from_db()
    assert party.name_index == name_index_for("Alex Rivera")


def test_the_migration_indexes_existing_names_and_skips_purged_cases(cast):
    Party.objects.update(name_index="")
    cast.team2_case.key.delete()  # crypto-shredded: its names cannot be read, or indexed
    migration = importlib.import_module("caseflow.cases.migrations.0004_party_name_index")
    migration.index_names(apps, None)
    survivor = Party.objects.get(case=cast.case, role=PartyRole.SURVIVOR)
    assert survivor.name_index == name_index_for(f"Survivor {canary(cast.case)}")
    assert set(Party.objects.filter(case=cast.team2_case).values_list("name_index", flat=True)) == {
        ""
    }


EMERGENCY = reverse("cases:find_emergency")
REASON = "Crisis call on the duty line tonight"


def test_a_duty_worker_opens_the_one_match_with_emergency_access(cast, login):
    client = login(cast.same_team)
    name = f"Survivor {canary(cast.team2_case)}"
    page = _find(client, name)
    assert EMERGENCY in page
    response = client.post(EMERGENCY, {"name": name, "reason": REASON})
    assert response.status_code == 302
    assert response["Location"] == reverse("cases:detail", args=[cast.team2_case.public_id])
    grant = BreakGlassGrant.objects.get(user=cast.same_team)
    assert grant.case == cast.team2_case
    event = AuditEvent.objects.get(action="break_glass.open", actor_id=cast.same_team.pk)
    assert event.detail["found_by"] == "name"
    assert client.get(response["Location"]).status_code == 200


def test_emergency_access_by_name_is_refused_for_two_matches_or_a_restricted_case(cast, login):
    client = login(cast.same_team)
    twin = f.open_case(cast.team2, [cast.other_team], reference="CASE-TWIN")
    f.add_party(twin, PartyRole.SURVIVOR, full_name=f"Survivor {canary(cast.team2_case)}")
    for name in (f"Survivor {canary(cast.team2_case)}", f"Survivor {canary(cast.restricted_case)}"):
        response = client.post(EMERGENCY, {"name": name, "reason": REASON})
        assert response.status_code == 200
        assert "No single case can be opened this way" in response.content.decode()
    assert not BreakGlassGrant.objects.filter(user=cast.same_team).exists()
    assert AuditEvent.objects.filter(action="break_glass.refused").count() == 2


def test_emergency_access_by_name_needs_a_reason(cast, login):
    client = login(cast.same_team)
    response = client.post(EMERGENCY, {"name": f"Survivor {canary(cast.team2_case)}"})
    assert response.status_code == 200
    assert not BreakGlassGrant.objects.exists()
