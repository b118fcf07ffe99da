"""Needs, goals and services: recording them, the status history, goals with target dates,
services linked to notes and releases, the case-page panel, the timeline, and the counts reports
use. Access is the case's (the URL matrix covers who may open each page)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases import timeline
from caseflow.cases.models import Case, PartyRole
from caseflow.casework import needs
from caseflow.casework.models import (
    CaseNote,
    GoalStatus,
    Need,
    NeedStatus,
    NeedStatusChange,
    Service,
)
from caseflow.lib.concurrency import StaleEdit
from tests.casework.helpers import make_goal, make_need, make_note, make_service
from tests.confidentiality.helpers import party, release

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 3, 10, 9, 0, tzinfo=dt.UTC)


@time_machine.travel(NOW, tick=False)
def test_a_need_keeps_every_status_change_with_its_day(cast):
    need = make_need(
        cast.case, cast.assigned, detail="Tenancy in his name.", identified_on=dt.date(2026, 3, 1)
    )
    needs.need_set_status(
        actor=cast.assigned,
        need=need,
        expected_version=need.version,
        status=NeedStatus.IN_PROGRESS,
        changed_on=dt.date(2026, 3, 5),
    )
    needs.need_set_status(
        actor=cast.supervisor,
        need=need,
        expected_version=need.version,
        status=NeedStatus.MET,
        comment="Housing offer accepted.",
    )
    need.refresh_from_db()
    assert (need.status, need.status_since) == (NeedStatus.MET, dt.date(2026, 3, 10))
    history = [
        (c.from_status, c.to_status, c.changed_on, c.changed_by_id)
        for c in NeedStatusChange.objects.filter(need=need)
    ]
    assert history == [
        ("", NeedStatus.IDENTIFIED, dt.date(2026, 3, 1), cast.assigned.pk),
        (NeedStatus.IDENTIFIED, NeedStatus.IN_PROGRESS, dt.date(2026, 3, 5), cast.assigned.pk),
        (NeedStatus.IN_PROGRESS, NeedStatus.MET, dt.date(2026, 3, 10), cast.supervisor.pk),
    ]
    status_events = AuditEvent.objects.filter(action="need.status").order_by("pk")
    assert [e.detail["to"] for e in status_events] == ["in_progress", "met"]
    assert "Housing" not in str(list(status_events.values_list("detail", flat=True)))


def test_the_same_status_again_changes_nothing(cast):
    need = make_need(cast.case, cast.assigned)
    assert (
        needs.need_set_status(
            actor=cast.assigned,
            need=need,
            expected_version=need.version,
            status=NeedStatus.IDENTIFIED,
        )
        is None
    )
    assert NeedStatusChange.objects.filter(need=need).count() == 1


def test_a_stale_status_change_is_refused_and_writes_nothing(cast):
    need = make_need(cast.case, cast.assigned)
    old_version = need.version
    needs.need_set_status(
        actor=cast.assigned,
        need=need,
        expected_version=old_version,
        status=NeedStatus.IN_PROGRESS,
    )
    stale = Need.objects.get(pk=need.pk)
    stale.case = cast.case
    with pytest.raises(StaleEdit):
        needs.need_set_status(
            actor=cast.assigned,
            need=stale,
            expected_version=old_version,
            status=NeedStatus.MET,
        )
    assert Need.objects.get(pk=need.pk).status == NeedStatus.IN_PROGRESS
    assert NeedStatusChange.objects.filter(need=need).count() == 2


@pytest.mark.parametrize("days", [5, -3])
def test_a_status_change_for_a_day_to_come_or_before_the_last_is_refused(cast, days):
    need = make_need(cast.case, cast.assigned)
    with pytest.raises(ValueError):
        needs.need_set_status(
            actor=cast.assigned,
            need=need,
            expected_version=need.version,
            status=NeedStatus.MET,
            changed_on=dt.date.today() + dt.timedelta(days=days),
        )
    assert NeedStatusChange.objects.filter(need=need).count() == 1


def test_services_check_policy_and_the_case_themselves(cast):
    with pytest.raises(PermissionDenied):
        make_need(cast.case, cast.other_team)
    foreign_need = make_need(cast.team2_case, cast.other_team)
    with pytest.raises(PermissionDenied):
        make_goal(cast.case, cast.assigned, need=foreign_need)
    with pytest.raises(PermissionDenied):
        make_service(cast.case, cast.assigned, need=foreign_need)
    assert not Need.objects.filter(case=cast.case).exists()


def test_detail_text_is_encrypted_at_rest(cast):
    make_need(cast.case, cast.assigned, detail="Staying at her sister's flat")
    make_goal(cast.case, cast.assigned, description="A tenancy of her own by summer")
    with connection.cursor() as cur:
        cur.execute("SELECT detail FROM casework_need")
        (detail,) = cur.fetchone()
        cur.execute("SELECT description FROM casework_goal")
        (goal,) = cur.fetchone()
    assert "sister" not in detail and "tenancy" not in goal


def test_a_referral_names_the_survivors_release_and_the_note(cast):
    rel = release(cast)
    note = make_note(cast.case, cast.assigned)
    need = make_need(cast.case, cast.assigned)
    service = make_service(
        cast.case,
        cast.assigned,
        need=need,
        note=note,
        release=needs.release_by_id(cast.case, rel.public_id),
    )
    service.refresh_from_db()
    assert (service.release_id, service.note_id, service.need_id) == (rel.pk, note.pk, need.pk)
    assert needs.release_choices(cast.case)[0][0] == rel.public_id


def test_only_the_survivors_valid_releases_are_offered(cast):
    from caseflow.confidentiality.models import Release

    other = party(cast.case, PartyRole.OTHER_PARTY)
    today = dt.date.today()
    from_other = Release(
        case=cast.case,
        consenting_party=other,
        recipient="Housing team",
        recipient_index="x",
        purpose="x",
        categories=["contact"],
        signed_on=today - dt.timedelta(days=1),
        expires_on=today + dt.timedelta(days=30),
    )
    from_other.save()
    expired = release(
        cast, signed_on=today - dt.timedelta(days=40), expires_on=today - dt.timedelta(days=1)
    )
    assert needs.release_choices(cast.case) == []
    assert needs.release_by_id(cast.case, from_other.public_id) is None
    assert needs.release_by_id(cast.case, expired.public_id) is None


def test_a_service_given_names_no_release(cast):
    rel = release(cast)
    service = make_service(cast.case, cast.assigned, how="given", release=rel)
    assert service.release is None


def test_goal_changes_keep_their_own_history_date(cast):
    goal = make_goal(cast.case, cast.assigned, target_date=dt.date(2026, 6, 1))
    needs.goal_change(
        actor=cast.assigned,
        goal=goal,
        expected_version=goal.version,
        description=goal.description,
        need=None,
        target_date=goal.target_date,
        status=GoalStatus.ACHIEVED,
    )
    goal.refresh_from_db()
    assert goal.status == GoalStatus.ACHIEVED
    assert AuditEvent.objects.get(action="goal.update").detail["fields"] == ["status"]


def test_counts_by_need_type_and_status_for_a_set_of_cases(cast):
    housing = make_need(cast.case, cast.assigned, kind="housing")
    make_need(cast.case, cast.assigned, kind="housing")
    make_need(cast.case, cast.assigned, kind="money", status=NeedStatus.IN_PROGRESS)
    make_need(cast.team2_case, cast.other_team, kind="housing")
    needs.need_set_status(
        actor=cast.assigned,
        need=housing,
        expected_version=housing.version,
        status=NeedStatus.MET,
    )
    counts = needs.need_counts(Case.objects.filter(pk=cast.case.pk))
    assert counts["housing"] == {
        "identified": 1,
        "in_progress": 0,
        "met": 1,
        "no_longer_needed": 0,
    }
    assert counts["money"]["in_progress"] == 1
    assert sum(sum(row.values()) for row in counts.values()) == 3
    everyone = needs.need_counts(Case.objects.filter(pk__in=[cast.case.pk, cast.team2_case.pk]))
    assert everyone["housing"]["identified"] == 2
    make_service(cast.case, cast.assigned)
    assert needs.service_counts([cast.case]) == {"given": 0, "referred": 1}


def test_a_note_can_be_about_a_need_or_a_goal(cast, login):
    need = make_need(cast.case, cast.assigned)
    goal = make_goal(cast.case, cast.assigned, need=need)
    client = login(cast.assigned)
    form_page = client.get(
        reverse("casework:note_new", args=[cast.case.public_id]) + f"?need={need.public_id}"
    ).content.decode()
    assert f'value="{need.public_id}" selected' in form_page
    an_hour_ago = (dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(
        reverse("casework:note_new", args=[cast.case.public_id]),
        {
            "kind": "call",
            "participants": ["survivor"],
            "direction": "incoming",
            "occurred_at": an_hour_ago,
            "date_confirmed": an_hour_ago,
            "text": "Talked about the housing offer.",
            "need": need.public_id,
            "goal": goal.public_id,
        },
    )
    assert response.status_code == 302
    note = CaseNote.objects.get(case=cast.case)
    assert (note.need_id, note.goal_id) == (need.pk, goal.pk)
    shown = client.get(reverse("casework:note", args=[cast.case.public_id, note.public_id]))
    assert "Find a safe place to live." in shown.content.decode()
    detail = client.get(reverse("casework:need", args=[cast.case.public_id, need.public_id]))
    assert reverse("casework:note", args=[cast.case.public_id, note.public_id]) in (
        detail.content.decode()
    )


def test_the_pages_record_change_and_move_a_need(cast, login):
    client = login(cast.assigned)
    base = [cast.case.public_id]
    response = client.post(
        reverse("casework:need_new", args=base),
        {"kind": "immigration", "detail": "Visa depends on him.", "status": "identified"},
    )
    need = Need.objects.get(case=cast.case)
    assert response.url == reverse("casework:need", args=[*base, need.public_id])
    # Bad input: a clear message on the form, nothing lost, nothing saved.
    bad = client.post(
        reverse("casework:need_status", args=[*base, need.public_id]),
        {"status": "met", "changed_on": "2999-01-01", "version": need.version},
    )
    assert bad.status_code == 200 and "This day has not come yet." in bad.content.decode()
    client.post(
        reverse("casework:need_status", args=[*base, need.public_id]),
        {"status": "met", "version": need.version, "comment": "Leave to remain granted."},
    )
    need.refresh_from_db()
    assert need.status == NeedStatus.MET
    page = client.get(reverse("casework:need", args=[*base, need.public_id])).content.decode()
    assert "Leave to remain granted." in page and "Visa depends on him." in page
    assert AuditEvent.objects.filter(action="need.view", object_id=need.public_id).exists()
    client.post(
        reverse("casework:goal_new", args=base),
        {
            "description": "Apply for settled status",
            "need": need.public_id,
            "target_date": "2026-09-01",
        },
    )
    client.post(
        reverse("casework:service_new", args=base),
        {"how": "referred", "provider": "", "need": need.public_id},
    )
    assert not Service.objects.exists()  # a referral says where it went
    client.post(
        reverse("casework:service_new", args=base),
        {"how": "referred", "provider": "Immigration advice line", "need": need.public_id},
    )
    listing = client.get(reverse("casework:needs", args=base)).content.decode()
    assert "Apply for settled status" in listing and "Immigration advice line" in listing


def test_the_case_page_panel_shows_open_needs(cast, login):
    open_need = make_need(cast.case, cast.assigned, kind="housing")
    met = make_need(cast.case, cast.assigned, kind="money")
    needs.need_set_status(actor=cast.assigned, need=met, expected_version=1, status="met")
    make_goal(cast.case, cast.assigned, need=open_need, target_date=dt.date(2026, 9, 1))
    page = login(cast.assigned).get(reverse("cases:detail", args=[cast.case.public_id]))
    body = page.content.decode()
    assert reverse("casework:need", args=[cast.case.public_id, open_need.public_id]) in body
    assert reverse("casework:need", args=[cast.case.public_id, met.public_id]) not in body
    assert "1 need met or no longer needed." in body


def test_the_timeline_shows_status_changes_and_services(cast):
    need = make_need(cast.case, cast.assigned, kind="legal")
    needs.need_set_status(actor=cast.assigned, need=need, expected_version=1, status="met")
    make_service(cast.case, cast.assigned, need=need, provider="Family law clinic")
    entries = timeline.page(cast.case, timeline.Query(kinds=frozenset({"need", "service"})))
    titles = [e.title for e in entries.entries]
    assert "Need identified: Legal and court" in titles
    assert "Need met: Legal and court" in titles
    assert "Referred to Family law clinic" in titles


def test_the_printed_chronology_holds_needs_and_services(cast):
    need = make_need(cast.case, cast.assigned, kind="legal")
    make_service(cast.case, cast.assigned, need=need, provider="Family law clinic")
    printed = timeline.chronology(cast.case, timeline.Query(), {"case": cast.case.reference})
    assert {"need", "service"} <= {e.kind for e in printed.entries}
    assert len(printed.sha256) == 64


def test_a_referral_keeps_its_release_after_the_release_runs_out(cast, login):
    rel = release(cast)
    service = make_service(cast.case, cast.assigned, release=rel)
    from caseflow.confidentiality.models import Release

    Release.objects.filter(pk=rel.pk).update(expires_on=dt.date.today() - dt.timedelta(days=1))
    client = login(cast.assigned)
    url = reverse("casework:service_change", args=[cast.case.public_id, service.public_id])
    response = client.post(
        url,
        {
            "how": "referred",
            "provider": "Housing options team",
            "outcome": "accepted",
            "release": rel.public_id,
            "version": service.version,
        },
    )
    assert response.status_code == 302
    service.refresh_from_db()
    assert (service.release_id, service.outcome) == (rel.pk, "accepted")


def _closure_form(case, **extra):
    from caseflow.cases import journey
    from caseflow.cases.models import AbuseChange, FeelsSafer, PlanExitCheck, StandardClosureReason

    reason = journey.closure_reasons(case.agency_id).get(standard=StandardClosureReason.GOALS_MET)
    return {
        "reason": reason.pk,
        "plan_check": PlanExitCheck.REVIEWED,
        "abuse_change": AbuseChange.REDUCED,
        "feels_safer": FeelsSafer.YES,
        **extra,
    }


def test_closing_asks_which_open_needs_were_met_and_marks_them(cast, login):
    housing = make_need(cast.case, cast.assigned, kind="housing")
    income = make_need(cast.case, cast.assigned, kind="money")
    done = make_need(cast.case, cast.assigned, kind="legal")
    needs.need_set_status(
        actor=cast.assigned,
        need=done,
        expected_version=done.version,
        status=NeedStatus.MET,
    )
    elsewhere = make_need(cast.team2_case, cast.other_supervisor, kind="children")
    client = login(cast.assigned)
    url = reverse("cases:closure", args=[cast.case.public_id])
    page = client.get(url).content.decode()
    assert "Which of the survivor&#x27;s needs were met?" in page
    assert f'value="{housing.public_id}"' in page and f'value="{income.public_id}"' in page
    assert f'value="{done.public_id}"' not in page  # already met: nothing to tick
    # Another case's need is not a choice: the form says so and nothing closes.
    response = client.post(url, _closure_form(cast.case, needs_met=[elsewhere.public_id]))
    assert response.status_code == 200 and "is not one of the available choices" in (
        response.content.decode()
    )
    assert Case.objects.get(pk=cast.case.pk).status != "closed"
    response = client.post(url, _closure_form(cast.case, needs_met=[housing.public_id]))
    assert response.status_code == 302
    housing.refresh_from_db()
    income.refresh_from_db()
    elsewhere.refresh_from_db()
    assert housing.status == NeedStatus.MET
    assert income.status == NeedStatus.IDENTIFIED  # not ticked: left as it was
    assert elsewhere.status == NeedStatus.IDENTIFIED
    change = NeedStatusChange.objects.get(need=housing, to_status=NeedStatus.MET)
    assert change.changed_by_id == cast.assigned.pk
    moved = AuditEvent.objects.filter(action="need.status", case_id=cast.case.pk)
    assert [e.detail["to"] for e in moved] == [NeedStatus.MET, NeedStatus.MET]  # legal, housing
    journey_page = client.get(reverse("cases:journey", args=[cast.case.public_id]))
    body = journey_page.content.decode()
    assert "Needs met" in body and "Housing" in body.split("Needs met", 1)[1][:200]


def test_a_high_risk_closure_marks_needs_met_only_when_approved(cast, login):
    from caseflow.cases import journey
    from caseflow.cases.models import Closure, RiskLevel

    cast.case.risk_level = RiskLevel.HIGH
    cast.case.save(update_fields=["risk_level"])
    housing = make_need(cast.case, cast.assigned, kind="housing")
    response = login(cast.assigned).post(
        reverse("cases:closure", args=[cast.case.public_id]),
        _closure_form(cast.case, needs_met=[housing.public_id]),
    )
    assert response.status_code == 302
    housing.refresh_from_db()
    assert housing.status == NeedStatus.IDENTIFIED  # waiting for the supervisor
    closure = Closure.objects.get(case=cast.case)
    page = login(cast.supervisor).get(reverse("cases:closure", args=[cast.case.public_id]))
    assert "Needs met" in page.content.decode()
    journey.closure_decide(
        actor=cast.supervisor, closure=closure, approve=True, comment="Plan reviewed together."
    )
    housing.refresh_from_db()
    assert housing.status == NeedStatus.MET
    met = NeedStatusChange.objects.get(need=housing, to_status=NeedStatus.MET)
    assert met.changed_by_id == cast.supervisor.pk
