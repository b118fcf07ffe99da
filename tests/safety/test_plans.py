"""Safety plans through the services: versions, diffs, stale saves, reviews."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import OperationalError, connection, connections, transaction

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case
from caseflow.inbox.models import FollowUp, FollowUpStatus
from caseflow.safety import sections, services
from caseflow.safety.models import ProtectiveOrderExpiry, SafetyPlan, SafetyPlanVersion
from tests.conftest import Cast

pytestmark = pytest.mark.django_db


def save(cast: Cast, expected: int, actor=None, case=None, **content):
    return services.plan_save(
        actor=actor or cast.assigned,
        case=case or cast.case,
        expected_version=expected,
        content=content,
    )


@time_machine.travel(dt.datetime(2026, 3, 2, 10, tzinfo=dt.UTC), tick=False)
def test_first_save_makes_version_one_with_a_review_date_by_risk_band(cast: Cast):
    cast.case.risk_level = "high"
    cast.case.save()
    version = save(cast, 0, home="Sleep in the front room.")
    plan = SafetyPlan.objects.get(case=cast.case)
    assert (plan.version, version.number, version.author) == (1, 1, cast.assigned)
    assert plan.review_by == dt.date(2026, 3, 16)  # high: 14 days
    other = save(cast, 0, case=cast.team2_case, actor=cast.other_team)
    assert other.plan.review_by == dt.date(2026, 4, 1)  # not assessed: 30 days


def test_plan_content_is_encrypted_at_rest(cast: Cast):
    save(cast, 0, home="Spare key under the blue pot")
    with connection.cursor() as cur:
        cur.execute("SELECT content FROM safety_safetyplanversion")
        (raw,) = cur.fetchone()
    assert "blue pot" not in raw
    assert services.plan_content(services.plan_of(cast.case))["home"] == (
        "Spare key under the blue pot"
    )


def test_every_save_is_a_new_immutable_version(cast: Cast):
    save(cast, 0, home="one")
    save(cast, 1, home="two", pets="Dog goes to the neighbour.")
    third = save(cast, 2, actor=cast.supervisor, home="three", pets="Dog goes to the neighbour.")
    plan = services.plan_of(cast.case)
    assert [v.number for v in services.plan_versions(plan)] == [3, 2, 1]
    assert services.plan_content(plan, 1)["home"] == "one"
    assert services.plan_content(plan, 2)["pets"] == "Dog goes to the neighbour."
    assert services.plan_content(plan)["home"] == "three"
    assert third.author == cast.supervisor
    old = services.plan_version(plan, 1)
    old.content = {"home": "rewritten"}
    with pytest.raises(ValueError, match="immutable"):
        old.save()
    assert services.plan_content(plan, 1)["home"] == "one"


def test_a_stale_save_is_refused_and_names_what_changed(cast: Cast):
    save(cast, 0, home="one", pets="cat")
    # Both open version 1; the supervisor saves first.
    save(cast, 1, actor=cast.supervisor, home="changed by the supervisor", pets="cat")
    with pytest.raises(services.StalePlan) as caught:
        save(cast, 1, home="my edit", pets="dog")
    assert caught.value.current_version == 2
    assert caught.value.changed == ["home"]
    assert caught.value.changed_labels == ["Safety at home"]
    plan = services.plan_of(cast.case)
    assert plan.version == 2
    assert SafetyPlanVersion.objects.filter(plan=plan).count() == 2
    assert services.plan_content(plan)["home"] == "changed by the supervisor"
    assert services.plan_content(plan)["pets"] == "cat"


def test_creating_a_plan_someone_else_already_created_is_stale(cast: Cast):
    save(cast, 0, home="first")
    with pytest.raises(services.StalePlan) as caught:
        save(cast, 0, home="second")
    assert caught.value.changed == ["home"]
    with pytest.raises(services.StalePlan):
        save(cast, 5, case=cast.team2_case, actor=cast.other_team)
    assert SafetyPlanVersion.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_saves_racing_from_the_same_version_one_wins(cast: Cast, allow_audit_flush):
    save(cast, 0, home="start")
    barrier = threading.Barrier(2)
    finished = threading.Event()
    results: list[str] = []

    def write(user, case, text):
        with transaction.atomic():
            services.plan_save(actor=user, case=case, expected_version=1, content={"home": text})

    def attempt(user, text):
        try:
            case = Case.objects.get(pk=cast.case.pk)
            barrier.wait(timeout=10)
            try:
                write(user, case, text)
            except OperationalError:
                # The in-memory test database of SQLite shares one cache between threads and
                # answers "table is locked" instead of waiting as a database file does (its
                # busy timeout): wait for the other writer to finish, then write as SQLite would.
                if connection.vendor != "sqlite":
                    raise
                finished.wait(timeout=10)
                write(user, case, text)
            results.append("saved")
        except services.StalePlan:
            results.append("stale")
        finally:
            finished.set()
            connections.close_all()

    threads = [
        threading.Thread(target=attempt, args=(cast.assigned, "advocate's edit")),
        threading.Thread(target=attempt, args=(cast.supervisor, "supervisor's edit")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(results) == ["saved", "stale"]
    plan = SafetyPlan.objects.get(case=cast.case)
    plan.case = cast.case
    assert plan.version == 2
    assert SafetyPlanVersion.objects.filter(plan=plan).count() == 2
    assert services.plan_content(plan)["home"] in ("advocate's edit", "supervisor's edit")


def test_diff_is_section_by_section_and_line_by_line():
    old = {"home": "Keep the phone charged.\nLeave by the back door.", "go_bag": ["id"]}
    new = {
        "home": "Keep the phone charged.\nLeave by the front door.",
        "go_bag": ["id", "keys"],
        "protective_orders": [{"court": "Family Court", "expires": "2026-05-01"}],
    }
    assert sections.changed_sections(old, new) == ["home", "go_bag", "protective_orders"]
    by_key = {d.key: d for d in sections.diff(old, new)}
    assert by_key["home"].changed and not by_key["pets"].changed
    assert by_key["home"].lines == (
        (" ", "Keep the phone charged."),
        ("-", "Leave by the back door."),
        ("+", "Leave by the front door."),
    )
    assert ("+", "[x] Spare keys (house, car, work)") in by_key["go_bag"].lines
    assert ("+", "  Expires: 2026-05-01") in by_key["protective_orders"].lines


def test_unknown_sections_and_bad_dates_are_refused_with_nothing_saved(cast: Cast):
    with pytest.raises(ValidationError, match="unknown plan sections: diary"):
        save(cast, 0, diary="x")
    with pytest.raises(ValidationError):
        save(cast, 0, protective_orders=[{"court": "X", "expires": "2026-02-31"}])
    assert not SafetyPlan.objects.exists()


def test_order_expiry_dates_are_kept_in_the_clear_for_the_current_version(cast: Cast):
    orders = [
        {"court": "A", "expires": "2026-06-01"},
        {"court": "B", "expires": "2026-09-01"},
    ]
    save(cast, 0, protective_orders=orders)
    assert sorted(ProtectiveOrderExpiry.objects.values_list("expires_on", flat=True)) == [
        dt.date(2026, 6, 1),
        dt.date(2026, 9, 1),
    ]
    save(cast, 1, protective_orders=orders[1:])
    assert list(ProtectiveOrderExpiry.objects.values_list("expires_on", flat=True)) == [
        dt.date(2026, 9, 1)
    ]


def test_only_caseworkers_may_save(cast: Cast):
    for outsider in (cast.same_team, cast.other_team, cast.auditor, cast.other_agency):
        with pytest.raises(PermissionDenied):
            save(cast, 0, actor=outsider, home="x")
    assert not SafetyPlan.objects.exists()


def test_saves_are_audited_with_section_names_only(cast: Cast):
    save(cast, 0, home="A secret address, 1 High Street")
    event = AuditEvent.objects.get(action="plan.save")
    assert event.case_id == cast.case.pk
    assert event.detail == {"version": 1, "sections": ["home"]}
    assert "High Street" not in str(event.detail)


def test_mark_reviewed_records_who_and_when_and_closes_the_old_follow_up(cast: Cast):
    with time_machine.travel(dt.datetime(2026, 1, 5, 9, tzinfo=dt.UTC), tick=False):
        save(cast, 0, home="x")
    with time_machine.travel(dt.datetime(2026, 3, 1, 9, tzinfo=dt.UTC), tick=False):
        services.safety_followups_sweep()
        review = FollowUp.objects.get(case=cast.case, kind="plan_review")
        plan = services.plan_mark_reviewed(actor=cast.supervisor, case=cast.case)
        assert plan.last_reviewed_by == cast.supervisor
        assert plan.last_reviewed_at == dt.datetime(2026, 3, 1, 9, tzinfo=dt.UTC)
        assert plan.review_by == dt.date(2026, 3, 31)
        review.refresh_from_db()
        assert review.status == FollowUpStatus.CANCELLED
        chosen = services.plan_mark_reviewed(
            actor=cast.assigned, case=cast.case, review_by=dt.date(2026, 3, 10)
        )
        assert chosen.review_by == dt.date(2026, 3, 10)
    assert AuditEvent.objects.filter(action="plan.review").count() == 2


def test_mark_reviewed_without_a_plan_is_refused(cast: Cast):
    with pytest.raises(ValidationError, match="no safety plan"):
        services.plan_mark_reviewed(actor=cast.assigned, case=cast.case)
