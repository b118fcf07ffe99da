"""The features of a case: one registration each, one rule for a repeat, one start-up check."""

from __future__ import annotations

import pytest
from django.core import checks
from django.core.exceptions import ImproperlyConfigured
from django.db import models

from caseflow.agreements.feature import FEATURE as AGREEMENTS
from caseflow.cases import checks as case_checks
from caseflow.cases import features
from caseflow.cases.calendar import CalendarSource
from caseflow.cases.features import CaseFeature, ClosureNeeds, OpenWork, Panel
from caseflow.cases.timeline import Source
from caseflow.cases.today import QueueSource
from caseflow.cases.trend import TrendLine


@pytest.fixture
def registry(monkeypatch):
    """The registered features, restored after the test."""
    monkeypatch.setattr(features, "_FEATURES", features.registered())


def _errors(messages):
    return [m for m in messages if m.level >= checks.ERROR]


def _nothing(*args):
    return []


class _Kinds(models.TextChoices):
    TASK = "task", "Task again"


def test_the_project_registers_one_feature_per_app_and_passes_the_check():
    names = [f.name for f in features.registered()]
    assert names == [
        "cases",
        "safety",
        "agreements",
        "checkins",
        "casework",
        "cycle",
        "confidentiality",
        "transfers",
        "partners",
        "court",
        "assistance",
        "calls",
        "shelter",
        "servicelog",
        "wellbeing",
        "api",
    ]
    assert _errors(case_checks.check_features()) == []


def test_the_same_feature_again_is_no_repeat(registry):
    before = features.registered()
    features.register_feature(AGREEMENTS)
    assert features.registered() is before


@pytest.mark.parametrize(
    "clash, words",
    [
        ({"name": "agreements"}, "names"),
        ({"order": 20}, "orders"),
        ({"panels": (Panel(_nothing, order=10),)}, "panels' orders"),
        ({"timeline": (Source("note", "Notes", _nothing, order=1),)}, "timeline kinds"),
        ({"queue": (QueueSource("checkins", _nothing, order=1),)}, "today-queue sources"),
        ({"calendar": (CalendarSource("court_hearings", _nothing),)}, "calendar sources"),
        ({"open_work": (OpenWork("checkins", "Again", _nothing, _nothing),)}, "open work"),
        ({"followup_kinds": (_Kinds,)}, "follow-up kinds"),
        ({"closure_needs": ClosureNeeds(_nothing, _nothing, _nothing)}, "needs"),
        ({"user_language": _nothing}, "language"),
        ({"trend_lines": (TrendLine("checkins", "Again", _nothing, {}),)}, "trend kinds"),
    ],
)
def test_anything_else_taken_twice_stops_start_up(registry, clash, words):
    before = features.registered()
    feature = CaseFeature(**{"name": "newcomer", "order": 99, **clash})
    with pytest.raises(ImproperlyConfigured, match=words):
        features.register_feature(feature)
    assert features.registered() is before


def test_an_app_with_a_feature_it_did_not_register_is_an_error(monkeypatch):
    others = tuple(f for f in features.registered() if f is not AGREEMENTS)
    monkeypatch.setattr(features, "_FEATURES", others)
    errors = _errors(case_checks.check_features())
    assert [(e.id, e.obj) for e in errors] == [("cases.E001", "caseflow.agreements.feature")]


def test_a_feature_of_no_installed_app_is_an_error(registry):
    features.register_feature(CaseFeature(name="nowhere", order=99))
    errors = _errors(case_checks.check_features())
    assert [(e.id, e.obj) for e in errors] == [("cases.E002", "nowhere")]


def test_the_first_feature_to_propose_a_closure_field_is_the_one_shown(registry, cast):
    def safer(case):
        return {"feels_safer": ("yes", "Read from one place.")}

    def no(case):
        return {"feels_safer": ("no", "Read from another."), "abuse_change": ("reduced", "")}

    assert features.closure_proposals(cast.case) == {}  # no rating of hers yet
    features.register_feature(CaseFeature(name="later", order=99, closure_proposals=(no,)))
    features.register_feature(CaseFeature(name="late", order=98, closure_proposals=(safer,)))
    assert features.closure_proposals(cast.case) == {
        "feels_safer": ("yes", "Read from one place."),
        "abuse_change": ("reduced", ""),
    }


def test_members_follow_the_features_order(registry):
    first = CaseFeature(name="late", order=98, next_due=(_nothing,))
    features.register_feature(CaseFeature(name="later", order=99, next_due=(list,)))
    features.register_feature(first)
    sources = features.members(lambda f: f.next_due)
    assert sources[-2:] == [_nothing, list]
