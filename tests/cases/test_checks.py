"""Start-up check: every caseflow app with a case-page panel registers it."""

from __future__ import annotations

from django.core import checks

from caseflow.agreements import panels as agreement_panels
from caseflow.cases import checks as case_checks
from caseflow.cases import panels


def _errors(messages):
    return [m for m in messages if m.level >= checks.ERROR]


def test_the_project_registers_every_case_panel():
    assert _errors(case_checks.check_case_panels_registered()) == []


def test_an_unregistered_case_panel_is_an_error(monkeypatch):
    others = tuple(p for p in panels.registered_panels() if p is not agreement_panels.case_panel)
    monkeypatch.setattr(panels, "registered_panels", lambda: others)
    errors = _errors(case_checks.check_case_panels_registered())
    assert [(e.id, e.obj) for e in errors] == [("cases.E001", "caseflow.agreements.panels")]
