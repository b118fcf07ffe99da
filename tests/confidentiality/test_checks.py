"""Start-up check: narrative declarations name real encrypted fields of their model."""

from __future__ import annotations

from django.core import checks

from caseflow.cases import checks as case_checks
from caseflow.cases import features
from caseflow.cases.features import CaseFeature, PackRows
from caseflow.checkins.models import CheckIn
from caseflow.confidentiality.checks import check_narrative_declarations, check_pack_rows


def _errors(messages):
    return [m for m in messages if m.level >= checks.ERROR]


def test_the_project_has_no_narrative_declaration_errors():
    assert _errors(check_narrative_declarations()) == []


def test_a_misspelt_narrative_is_an_error(monkeypatch):
    monkeypatch.setattr(CheckIn, "narrative_fields", ("note", "nots"))
    errors = _errors(check_narrative_declarations())
    assert [e.id for e in errors] == ["confidentiality.E001"]
    assert "'nots'" in errors[0].msg and errors[0].obj is CheckIn


def test_a_kept_field_that_is_not_encrypted_is_an_error(monkeypatch):
    monkeypatch.setattr(CheckIn, "kept_encrypted_fields", ("status",))
    assert [e.id for e in _errors(check_narrative_declarations())] == ["confidentiality.E001"]


def test_a_string_instead_of_a_tuple_is_an_error(monkeypatch):
    monkeypatch.setattr(CheckIn, "narrative_fields", "note")
    assert [e.id for e in _errors(check_narrative_declarations())] == ["confidentiality.E002"]


def test_the_checks_run_at_start_up():
    registered = checks.registry.registry.get_checks()
    assert case_checks.check_features in registered
    assert check_narrative_declarations in registered
    assert check_pack_rows in registered


def test_pack_rows_under_a_category_we_do_not_have_are_an_error(monkeypatch):
    assert check_pack_rows() == []
    monkeypatch.setattr(features, "_FEATURES", features.registered())
    features.register_feature(
        CaseFeature(name="misnamed", order=99, pack_rows=(PackRows("evidnce", list),))
    )
    assert [(e.id, e.obj) for e in check_pack_rows()] == [("confidentiality.E003", "misnamed")]
