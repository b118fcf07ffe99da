"""`manage.py load_instrument`: shared and agency imports, clear errors, nothing half-saved."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from caseflow.safety.instruments import SHIPPED_DIR
from caseflow.safety.models import RiskInstrument
from tests.conftest import Cast

pytestmark = pytest.mark.django_db

SAMPLE = str(SHIPPED_DIR / "caseflow-sample.yaml")
DASH = str(SHIPPED_DIR / "example-dash-style.yaml")


def run(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("load_instrument", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_loads_a_shared_instrument_and_replaces_it_on_reload():
    out, _ = run(SAMPLE)
    assert 'Loaded "caseflow sample risk checklist" (caseflow-sample version 1)' in out
    row = RiskInstrument.objects.get()
    assert row.agency is None and row.thresholds == {}
    assert row.instrument().reassess_days == 90
    out, _ = run(SAMPLE)
    assert out.startswith("Replaced")
    assert RiskInstrument.objects.count() == 1


def test_an_agency_imports_with_its_own_threshold(cast: Cast):
    run(DASH, "--agency", cast.agency.slug, "--threshold", "high=12")
    row = RiskInstrument.objects.get()
    assert row.agency == cast.agency
    assert row.thresholds == {"high": 12}
    assert row.instrument().band("high").min_score == 12


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "instrument.yaml"
    path.write_text(text)
    return str(path)


BROKEN = """
id: broken
name: Broken instrument
version: 1
licence: test
scoring: weighted
colour: red
reassess_days: 30
escalation_band: high
bands:
  - {id: standard, label: Standard, min_score: 0}
  - {id: medium, label: Medium, min_score: 10}
  - {id: high, label: High, min_score: 8}
items:
  - {id: a, text: Item A, weight: 1}
  - {id: a, text: Item A again, weight: 2}
"""


def test_every_problem_is_named_and_nothing_is_saved(tmp_path):
    err = StringIO()
    with pytest.raises(CommandError, match="not a valid instrument"):
        call_command("load_instrument", write(tmp_path, BROKEN), stderr=err)
    text = err.getvalue()
    assert "nothing was saved" in text
    assert 'unknown field "colour"' in text
    assert 'duplicate id "a"' in text
    assert "min_score must increase" in text
    assert not RiskInstrument.objects.exists()


def test_bad_yaml_is_reported_with_its_line(tmp_path):
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("load_instrument", write(tmp_path, "id: x\nitems: [\n"), stderr=err)
    assert "yaml:" in err.getvalue() and "line" in err.getvalue()
    assert not RiskInstrument.objects.exists()


def test_thresholds_out_of_order_are_refused(cast: Cast):
    err = StringIO()
    with pytest.raises(CommandError):
        call_command(
            "load_instrument",
            DASH,
            "--agency",
            cast.agency.slug,
            "--threshold",
            "high=5",
            stderr=err,
        )
    assert "min_score must increase" in err.getvalue()
    with pytest.raises(CommandError):
        call_command(
            "load_instrument",
            DASH,
            "--agency",
            cast.agency.slug,
            "--threshold",
            "severe=5",
            stderr=StringIO(),
        )
    assert not RiskInstrument.objects.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["/nonexistent/file.yaml"], "no such file"),
        ([SAMPLE, "--agency", "nobody"], 'no agency with the slug "nobody"'),
        ([SAMPLE, "--threshold", "high=12"], "--threshold needs --agency"),
        ([SAMPLE, "--agency", "x", "--threshold", "high"], "expected BAND=NUMBER"),
        ([SAMPLE, "--agency", "x", "--threshold", "high=many"], '"many" is not a number'),
    ],
)
def test_bad_arguments_are_clear_errors(db, args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)
    assert not RiskInstrument.objects.exists()
