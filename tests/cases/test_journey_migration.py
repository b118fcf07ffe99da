"""The migration that brings episodes, closure reasons and risk sources: every case gets its
first episode (closed for a closed case), every agency the standard reasons, every case with a
risk level a source, and nothing existing changes."""

from __future__ import annotations

import datetime as dt

import pytest
from cryptography.fernet import Fernet
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from caseflow.accounts.models import Agency as LiveAgency
from caseflow.accounts.models import Team as LiveTeam
from caseflow.lib.encryption import new_wrapped_data_key

BEFORE = [("cases", "0008_agency_required")]
AFTER = [("cases", "0009_episodes_closure_risk_sources")]


@pytest.mark.migration_history
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("allow_audit_flush")
def test_existing_cases_get_their_first_episode_and_risk_source():
    # The agency and its team are written with today's models before going back: going back
    # unapplies the accounts migrations that depend on later cases migrations (a column they
    # added goes with them), while the columns of earlier accounts migrations stay, which the
    # historical models below do not know. Rows written first are read back through them.
    live = LiveAgency.objects.create(name="Old agency", slug="old")
    live_team = LiveTeam.objects.create(agency=live, name="Old team")
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Agency = old.get_model("accounts", "Agency")
    Team = old.get_model("accounts", "Team")
    Case = old.get_model("cases", "Case")
    CaseKey = old.get_model("cases", "CaseKey")
    # The historical model has no key of its own: the summary is never read by the migration.
    Case.data_key = lambda self: Fernet(Fernet.generate_key())
    agency = Agency.objects.get(pk=live.pk)
    team = Team.objects.get(pk=live_team.pk)
    opened = timezone.now() - dt.timedelta(days=300)
    closed_at = timezone.now() - dt.timedelta(days=10)
    made = {}
    for status, risk in (
        ("referral", "unknown"),
        ("active", "high"),
        ("dormant", "medium"),
        ("closed", "standard"),
    ):
        case = Case.objects.create(
            agency=agency,
            team=team,
            reference=f"OLD-{status}",
            status=status,
            risk_level=risk,
            opened_at=opened,
            closed_at=closed_at if status == "closed" else None,
        )
        CaseKey.objects.create(case=case, agency=agency, wrapped=new_wrapped_data_key())
        made[status] = case.pk

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    Episode = new.get_model("cases", "Episode")
    Reason = new.get_model("cases", "ClosureReason")
    Change = new.get_model("cases", "RiskLevelChange")
    Case = new.get_model("cases", "Case")
    episodes = {e.case_id: e for e in Episode.objects.filter(case_id__in=made.values())}
    assert {status: episodes[pk].status for status, pk in made.items()} == {
        "referral": "referral",
        "active": "active",
        "dormant": "active",
        "closed": "closed",
    }
    assert all(e.number == 1 and e.opened_at == opened for e in episodes.values())
    assert episodes[made["closed"]].closed_at == closed_at
    assert set(Reason.objects.filter(agency_id=agency.pk).values_list("standard", flat=True)) == {
        "goals_met",
        "survivor_choice",
        "no_contact",
        "moved_away",
        "referred_on",
        "other",
    }
    sources = {
        c.case_id: (c.level, c.source) for c in Change.objects.filter(case__agency_id=agency.pk)
    }
    assert sources == {
        made["active"]: ("high", "recorded"),
        made["dormant"]: ("medium", "recorded"),
        made["closed"]: ("standard", "recorded"),
    }
    # Nothing existing changed.
    assert dict(Case.objects.filter(agency_id=agency.pk).values_list("reference", "status")) == {
        "OLD-referral": "referral",
        "OLD-active": "active",
        "OLD-dormant": "dormant",
        "OLD-closed": "closed",
    }
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
