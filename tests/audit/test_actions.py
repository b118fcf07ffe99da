"""Every recorded action is registered with its kind, and the kind decides what is a read."""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest
import time_machine
from django.urls import reverse

from caseflow.audit import actions
from caseflow.audit.actions import ACTIONS, ActionKind, UnknownAction
from caseflow.audit.models import AuditEvent
from caseflow.audit.services import record
from caseflow.oversight.services import unusual_access_sweep
from tests import factories as f
from tests.checkins.helpers import MONDAY, make_checkin

SOURCE = Path(__file__).resolve().parents[2] / "caseflow"
#: Helpers that pass their ``action`` argument on to ``record``.
WRAPPERS = {"record": 0, "_audit_list": 1, "_audit_read": 2}


def _literals(node: ast.expr) -> list[str] | None:
    """The action names an argument can take, or None if it is not built from literals."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = _literals(node.body), _literals(node.orelse)
        return None if body is None or orelse is None else body + orelse
    return None


def _recorded_actions() -> tuple[dict[str, list[str]], list[str]]:
    found: dict[str, list[str]] = {}
    dynamic: list[str] = []
    for path in sorted(SOURCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = getattr(func, "id", None) or getattr(func, "attr", None)
            if name == "case_page":
                # ``@case_page(action, read="...")`` records its read itself.
                for keyword in node.keywords:
                    if keyword.arg == "read":
                        where = f"{path.relative_to(SOURCE.parent)}:{node.lineno}"
                        for action in _literals(keyword.value) or []:
                            found.setdefault(action, []).append(where)
                continue
            index = WRAPPERS.get(name)
            if index is None or len(node.args) <= index:
                continue
            where = f"{path.relative_to(SOURCE.parent)}:{node.lineno}"
            names = _literals(node.args[index])
            if names is None:
                dynamic.append(where)
            for action in names or []:
                found.setdefault(action, []).append(where)
    return found, dynamic


def test_every_action_recorded_in_the_source_is_registered():
    found, _ = _recorded_actions()
    assert len(found) > 50  # the scan sees the calls
    unregistered = {a: where for a, where in found.items() if a not in ACTIONS}
    assert unregistered == {}


def test_only_the_known_helpers_pass_an_action_through():
    _, dynamic = _recorded_actions()
    assert sorted(d.split(":")[0] for d in dynamic) == [
        "caseflow/agreements/views.py",  # _audit_read
        "caseflow/cases/pages.py",  # case_page's read (checked when a view is decorated)
        "caseflow/cases/views.py",  # _audit_list
    ]


def test_every_registered_action_is_recorded_somewhere():
    found, _ = _recorded_actions()
    assert sorted(set(ACTIONS) - set(found)) == []


def test_every_action_has_a_label_and_a_kind():
    for action in ACTIONS.values():
        assert action.label and action.label[0].isupper()
        assert action.kind in ActionKind.values


def test_an_unregistered_action_is_refused(db):
    before = AuditEvent.objects.count()
    with pytest.raises(UnknownAction, match="no.such.action"):
        record("no.such.action")
    assert AuditEvent.objects.count() == before


@pytest.mark.parametrize(
    ("name", "is_read"),
    [
        ("case.view", True),
        ("disclosure.referral_pack", True),
        ("disclosure.evidence_pack", True),
        ("disclosure.case_export", True),
        ("agreement.chronology.export", True),
        ("calendar.fetch", True),
        ("purge.queue_view", True),
        ("audit.case.view", True),
        ("case.update", False),
        ("security.login", False),
        ("alert.unusual_access", False),
        ("no.such.action", False),
    ],
)
def test_reads_are_the_read_and_disclosure_kinds(name, is_read):
    assert actions.is_read(name) is is_read


CASE_READS = [
    "disclosure.referral_pack",
    "disclosure.evidence_pack",
    "disclosure.case_export",
    "agreement.chronology.export",
    "calendar.fetch",
]


@pytest.mark.parametrize("action", CASE_READS)
def test_who_accessed_lists_exports_feeds_and_disclosures(action, cast, login):
    record(action, actor=cast.same_team, case=cast.case, obj=cast.case)
    record("case.update", actor=cast.other_team, case=cast.case, obj=cast.case)
    response = login(cast.supervisor).get(reverse("audit:case_access", args=[cast.case.public_id]))
    assert response.status_code == 200
    people = {row["actor_id"]: row["reads"] for row in response.context["people"]}
    assert people.get(cast.same_team.pk) == 1
    assert cast.other_team.pk not in people  # a write is not a read
    assert action in {e.action for e in response.context["page"].events}


NOW = dt.datetime(2026, 6, 1, 10, 30, tzinfo=dt.UTC)


def test_the_unusual_access_alert_counts_exports(cast, settings):
    settings.AUDIT_UNUSUAL_ACCESS_PER_HOUR = 3
    cases = [f.open_case(cast.team2) for _ in range(4)]
    with time_machine.travel(NOW - dt.timedelta(minutes=20), tick=False):
        for case in cases:
            record("disclosure.case_export", actor=cast.same_team, case=case)
    with time_machine.travel(NOW, tick=False):
        assert unusual_access_sweep() == [cast.same_team.pk]
    alert = AuditEvent.objects.get(action="alert.unusual_access")
    assert alert.detail["cases_outside_caseload"] == 4


@time_machine.travel(MONDAY, tick=False)
def test_a_real_calendar_feed_fetch_shows_on_who_accessed_the_cases_it_carries(cast, client, login):
    from caseflow.checkins import services as checkins

    make_checkin(cast.case, cast.assigned, MONDAY + dt.timedelta(hours=2))
    token = checkins.calendar_token_create(actor=cast.assigned)
    assert client.get(reverse("checkins:feed", args=[token])).status_code == 200
    fetch = AuditEvent.objects.get(action="calendar.fetch")
    assert fetch.case_id is None and fetch.detail["cases"] == [cast.case.pk]

    def readers(case):
        response = login(cast.supervisor).get(reverse("audit:case_access", args=[case.public_id]))
        assert response.status_code == 200
        return [(e.action, e.actor_id) for e in response.context["page"].events]

    assert ("calendar.fetch", cast.assigned.pk) in readers(cast.case)
    other = f.open_case(cast.team1)
    assert "calendar.fetch" not in {a for a, _ in readers(other)}
