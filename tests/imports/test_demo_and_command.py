"""The demo shows an import done and one waiting; the operators' command checks, then imports."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.management import CommandError, call_command
from django.urls import reverse

from caseflow.accounts.models import User
from caseflow.demo import seed
from caseflow.imports import sample
from caseflow.imports.models import BatchState, ImportBatch, ImportRecord

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2026, 12, 2, 9, 0, tzinfo=dt.UTC)


@pytest.mark.demo
def test_demo_shows_an_import_done_and_one_to_correct(login):
    with time_machine.travel(NOW, tick=False):
        seed.seed()
        states = sorted(ImportBatch.objects.values_list("state", flat=True))
        assert states == [BatchState.CHECKED, BatchState.DONE]
        assert ImportRecord.objects.count() == 6
        waiting = ImportBatch.objects.get(state=BatchState.CHECKED)
        assert waiting.counts["errors"] == 2
        admin = User.objects.get(username="ada.admin")
        page = login(admin).get(reverse("imports:batch", args=[waiting.public_id]))
        assert page.status_code == 200
        assert len(page.context["problems"]) == 2
        sample_file = login(admin).get(reverse("imports:sample"))
        assert b"SAMPLE-00001" in sample_file.content


def test_command_dry_runs_by_default_then_commits(cast, tmp_path, capsys):
    with time_machine.travel(NOW, tick=False):
        path = tmp_path / "cases.csv"
        path.write_bytes(sample.sample_csv(2, team="Team 1", advocate="assigned", today=NOW.date()))
        call_command("import_caseload", str(path), admin="agency_admin")
        assert ImportRecord.objects.count() == 0
        assert "Dry run" in capsys.readouterr().out
        call_command("import_caseload", str(path), admin="agency_admin", commit=True)
        assert ImportRecord.objects.count() == 2
        call_command("import_caseload", str(path), admin="agency_admin", commit=True)
        assert ImportRecord.objects.count() == 2
        assert "2 updated" in capsys.readouterr().out


def test_command_refuses_errors_and_non_admins(cast, tmp_path):
    with time_machine.travel(NOW, tick=False):
        path = tmp_path / "cases.csv"
        path.write_bytes(
            sample.sample_csv(2, team="Team 1", advocate="assigned", today=NOW.date(), errors=1)
        )
        with pytest.raises(CommandError, match="Nothing imported"):
            call_command("import_caseload", str(path), admin="agency_admin", commit=True)
        with pytest.raises(CommandError, match="agency admin"):
            call_command("import_caseload", str(path), admin="supervisor")
        assert ImportRecord.objects.count() == 0
