"""The survivor's journey: episodes inside one case, returns and re-referrals found at intake,
closure with its reason, exit check and outcomes (a supervisor's approval when the risk is high,
nothing left running), and where the risk level comes from."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from caseflow.audit.models import AuditEvent
from caseflow.cases import journey, services
from caseflow.cases.models import (
    AbuseChange,
    Case,
    CaseStatus,
    Closure,
    ClosureReason,
    ClosureState,
    Episode,
    EpisodeStart,
    EpisodeStatus,
    FeelsSafer,
    Party,
    PartyRole,
    PlanExitCheck,
    ReopenRequest,
    ReopenRequestState,
    RiskLevel,
    RiskLevelChange,
    RiskSource,
    StandardClosureReason,
)
from caseflow.checkins.models import CheckIn, CheckInSchedule, CheckInStatus
from caseflow.inbox.models import FollowUpStatus, Notification
from tests.checkins.helpers import make_checkin, make_followup
from tests.conftest import Cast

pytestmark = pytest.mark.django_db


def _outcomes(case: Case, code: str = StandardClosureReason.GOALS_MET, **extra) -> dict:
    return {
        "reason": journey.closure_reasons(case.agency_id).get(standard=code),
        "plan_check": PlanExitCheck.REVIEWED,
        "if_things_change": "Call the duty line.",
        "abuse_change": AbuseChange.REDUCED,
        "feels_safer": FeelsSafer.YES,
        "quality_of_life_start": 2,
        "quality_of_life_exit": 4,
        **extra,
    }


def _open(cast: Cast, name: str = "Alex Example", dob: str | None = "1985-04-02") -> Case:
    return journey.case_open(
        actor=cast.assigned,
        team=cast.team1,
        survivor={"full_name": name, "date_of_birth": dob},
        other_party=None,
    )


def _actions(case: Case) -> list[str]:
    return list(
        AuditEvent.objects.filter(case_id=case.pk).order_by("seq").values_list("action", flat=True)
    )


# --- Episodes ------------------------------------------------------------------------------------


def test_a_new_case_has_its_first_episode_and_is_not_yet_assessed(cast: Cast):
    case = _open(cast)
    episode = Episode.objects.get(case=case)
    assert (episode.number, episode.status, episode.start) == (
        1,
        EpisodeStatus.REFERRAL,
        EpisodeStart.REFERRAL,
    )
    assert case.risk_level == RiskLevel.UNKNOWN
    assert journey.risk_source(case) is None
    journey.case_set_status(actor=cast.assigned, case=case, status="active")
    assert Episode.objects.get(case=case).status == EpisodeStatus.ACTIVE


def test_closing_then_reopening_starts_a_new_episode_in_the_same_case(cast: Cast):
    case = _open(cast)
    journey.closure_submit(actor=cast.assigned, case=case, data=_outcomes(case))
    case.refresh_from_db()
    assert case.status == CaseStatus.CLOSED
    journey.case_set_status(actor=cast.assigned, case=case, status="active")
    episodes = list(Episode.objects.filter(case=case).order_by("number"))
    assert [(e.number, e.status, e.start) for e in episodes] == [
        (1, EpisodeStatus.CLOSED, EpisodeStart.REFERRAL),
        (2, EpisodeStatus.ACTIVE, EpisodeStart.RETURN),
    ]
    # The first episode's closure and outcomes stay on the case.
    assert Closure.objects.get(case=case).episode == episodes[0]
    assert (
        Case.objects.filter(agency=cast.agency).count()
        == Case.objects.filter(agency=cast.agency).count()
    )
    assert "episode.open" in _actions(case)


def test_the_case_page_is_closed_only_through_the_closure(cast: Cast, login):
    client = login(cast.assigned)
    response = client.post(
        reverse("cases:status", args=[cast.case.public_id]), {"status": CaseStatus.CLOSED}
    )
    assert response.status_code == 302
    assert Case.objects.get(pk=cast.case.pk).status == CaseStatus.REFERRAL
    with pytest.raises(ValidationError):
        journey.case_set_status(actor=cast.assigned, case=cast.case, status=CaseStatus.CLOSED)


# --- Intake: the survivor's earlier case --------------------------------------------------------


def _intake(client, name: str, dob: str = "", **extra):
    data = {
        "team": "",
        "reference": "",
        "summary": "New referral from the police.",
        "survivor_full_name": name,
        "survivor_date_of_birth": dob,
        **extra,
    }
    return client.post(reverse("cases:new"), data)


def test_intake_offers_the_earlier_case_and_opens_nothing_until_chosen(cast: Cast, login):
    earlier = _open(cast, "Robin Sample", "1979-06-01")
    journey.closure_submit(actor=cast.assigned, case=earlier, data=_outcomes(earlier))
    before = Case.objects.count()
    client = login(cast.assigned)
    response = _intake(client, "ROBIN  sample", "1979-06-01", team=cast.team1.pk)
    body = response.content.decode()
    assert response.status_code == 200
    assert earlier.reference in body
    assert Case.objects.count() == before
    offered = AuditEvent.objects.filter(action="intake.earlier_case").latest("seq")
    assert offered.detail["choice"] == "offered"
    assert offered.detail["cases"] == [earlier.pk]

    response = _intake(
        client, "Robin Sample", "1979-06-01", team=cast.team1.pk, reopen=earlier.public_id
    )
    assert response.status_code == 302
    assert Case.objects.count() == before
    earlier.refresh_from_db()
    assert earlier.status == CaseStatus.ACTIVE
    assert "New referral from the police." in earlier.summary
    latest = Episode.objects.filter(case=earlier).order_by("-number").first()
    assert (latest.number, latest.start) == (2, EpisodeStart.REREFERRAL)
    chosen = AuditEvent.objects.filter(action="intake.earlier_case", case_id=earlier.pk).get()
    assert chosen.detail["choice"] == "reopen"


def test_a_different_date_of_birth_is_not_the_same_survivor(cast: Cast):
    _open(cast, "Robin Sample", "1979-06-01")
    found = journey.earlier_cases(
        actor=cast.assigned,
        agency_id=cast.agency.pk,
        full_name="Robin Sample",
        date_of_birth="1980-01-01",
    )
    assert not found


def test_opening_a_new_case_anyway_is_audited_with_the_match(cast: Cast, login):
    earlier = _open(cast, "Robin Sample", "1979-06-01")
    client = login(cast.assigned)
    response = _intake(client, "Robin Sample", "1979-06-01", team=cast.team1.pk, new_anyway="1")
    assert response.status_code == 302
    event = AuditEvent.objects.filter(action="intake.earlier_case").latest("seq")
    assert event.detail == {"choice": "new_case", "cases": [earlier.pk], "elsewhere": 0}
    assert event.case_id != earlier.pk


def test_another_teams_case_is_never_shown_and_its_supervisor_decides(cast: Cast, login):
    services.party_save(
        actor=cast.other_supervisor,
        case=cast.team2_case,
        party=Party(role=PartyRole.SURVIVOR),
        data={"full_name": "Quinn Notreal", "date_of_birth": "1990-03-03"},
    )
    client = login(cast.assigned)
    response = _intake(client, "Quinn Notreal", "1990-03-03", team=cast.team1.pk)
    body = response.content.decode()
    assert cast.team2_case.reference not in body
    assert "a team you do not work in" in body
    before = Case.objects.count()
    response = _intake(client, "Quinn Notreal", "1990-03-03", team=cast.team1.pk, ask_reopen="1")
    assert response.status_code == 302
    assert Case.objects.count() == before
    asked = ReopenRequest.objects.get(case=cast.team2_case)
    assert asked.requested_by == cast.assigned
    told = Notification.objects.filter(kind="reopen_request", case=cast.team2_case)
    assert set(told.values_list("recipient_id", flat=True)) == {cast.other_supervisor.pk}

    # Only a supervisor of that team decides; the advocate who asked becomes its primary.
    with pytest.raises(PermissionDenied):
        journey.reopen_request_decide(actor=cast.supervisor, asked=asked, accept=True)
    journey.reopen_request_decide(actor=cast.other_supervisor, asked=asked, accept=True)
    case = Case.objects.get(pk=cast.team2_case.pk)
    assert case.primary_advocate == cast.assigned
    assert ReopenRequest.objects.get(pk=asked.pk).state == ReopenRequestState.REOPENED
    assert AuditEvent.objects.filter(action="reopen_request.decide", case_id=case.pk).exists()


# --- Closure -------------------------------------------------------------------------------------


def test_closure_records_reason_exit_check_and_outcomes_against_intake(cast: Cast):
    case = _open(cast)
    journey.risk_level_override(
        actor=cast.assigned, case=case, level=RiskLevel.MEDIUM, reason="First call."
    )
    journey.risk_level_override(
        actor=cast.assigned, case=case, level=RiskLevel.STANDARD, reason="Moved."
    )
    closure = journey.closure_submit(actor=cast.assigned, case=case, data=_outcomes(case))
    assert closure.state == ClosureState.CLOSED
    assert (closure.risk_at_intake, closure.risk_at_exit) == (RiskLevel.MEDIUM, RiskLevel.STANDARD)
    assert (closure.abuse_change, closure.feels_safer) == (AbuseChange.REDUCED, FeelsSafer.YES)
    assert (closure.quality_of_life_start, closure.quality_of_life_exit) == (2, 4)
    assert closure.needs_met == []
    event = AuditEvent.objects.get(action="closure.record", case_id=case.pk)
    assert event.detail["reason"] == "goals_met"
    assert "Call the duty line." not in str(event.detail)


def test_no_contact_needs_the_number_of_attempts_and_other_its_words(cast: Cast, login):
    client = login(cast.assigned)
    url = reverse("cases:closure", args=[cast.case.public_id])
    reasons = journey.closure_reasons(cast.agency.pk)
    base = {
        "plan_check": PlanExitCheck.NOT_REACHED,
        "abuse_change": AbuseChange.NOT_KNOWN,
        "feels_safer": FeelsSafer.NOT_ASKED,
    }
    response = client.post(
        url, {**base, "reason": reasons.get(standard=StandardClosureReason.NO_CONTACT).pk}
    )
    assert response.status_code == 200
    assert "how many attempts" in response.content.decode()
    response = client.post(
        url, {**base, "reason": reasons.get(standard=StandardClosureReason.OTHER).pk}
    )
    assert "Say what the reason is" in response.content.decode()
    assert Case.objects.get(pk=cast.case.pk).status == CaseStatus.REFERRAL
    response = client.post(
        url,
        {
            **base,
            "reason": reasons.get(standard=StandardClosureReason.NO_CONTACT).pk,
            "contact_attempts": "4",
        },
    )
    assert response.status_code == 302
    assert Closure.objects.get(case=cast.case).contact_attempts == 4


def test_closing_lists_and_cancels_follow_ups_and_future_check_ins(cast: Cast, login):
    now = timezone.now()
    followup = make_followup(cast.case, cast.assigned, now + dt.timedelta(days=2))
    schedule = CheckInSchedule.objects.create(
        case=cast.case,
        assignee=cast.assigned,
        channel="phone",
        rule="FREQ=WEEKLY",
        dtstart_local="2026-12-07T10:00",
        tz="Europe/London",
        generated_until=now + dt.timedelta(days=30),
    )
    checkin = make_checkin(cast.case, cast.assigned, now + dt.timedelta(days=3), schedule=schedule)
    past = make_checkin(
        cast.case,
        cast.assigned,
        now - dt.timedelta(days=3),
        status=CheckInStatus.DONE,
        outcome="reached",
    )
    client = login(cast.assigned)
    page = client.get(reverse("cases:closure", args=[cast.case.public_id])).content.decode()
    assert "Open follow-ups" in page and "Future check-ins" in page
    journey.closure_submit(actor=cast.assigned, case=cast.case, data=_outcomes(cast.case))
    followup.refresh_from_db()
    checkin.refresh_from_db()
    past.refresh_from_db()
    assert followup.status == FollowUpStatus.CANCELLED
    assert checkin.status == CheckInStatus.CANCELLED
    assert past.status == CheckInStatus.DONE
    assert not CheckInSchedule.objects.get(pk=schedule.pk).active
    closure = Closure.objects.get(case=cast.case)
    assert closure.cancelled == {"followups": 1, "checkins": 1}
    assert journey.open_work(cast.case) == []


def test_a_high_risk_case_waits_for_a_supervisors_approval(cast: Cast):
    cast.case.risk_level = RiskLevel.HIGH
    cast.case.save(update_fields=["risk_level"])
    checkin = make_checkin(cast.case, cast.assigned, timezone.now() + dt.timedelta(days=3))
    closure = journey.closure_submit(actor=cast.assigned, case=cast.case, data=_outcomes(cast.case))
    assert closure.state == ClosureState.AWAITING_APPROVAL
    assert Case.objects.get(pk=cast.case.pk).status != CaseStatus.CLOSED
    # Nothing is cancelled while it waits.
    assert CheckIn.objects.get(pk=checkin.pk).status == CheckInStatus.SCHEDULED
    told = Notification.objects.filter(kind="closure_approval", case=cast.case)
    assert set(told.values_list("recipient_id", flat=True)) == {cast.supervisor.pk}
    # Not the advocate, not another team's supervisor.
    for someone in (cast.assigned, cast.same_team, cast.other_supervisor):
        with pytest.raises(PermissionDenied):
            journey.closure_decide(actor=someone, closure=closure, approve=True)
    journey.closure_decide(
        actor=cast.supervisor, closure=closure, approve=True, comment="Plan reviewed together."
    )
    closure.refresh_from_db()
    assert closure.state == ClosureState.CLOSED and closure.decided_by == cast.supervisor
    assert Case.objects.get(pk=cast.case.pk).status == CaseStatus.CLOSED
    assert CheckIn.objects.get(pk=checkin.pk).status == CheckInStatus.CANCELLED
    actions = _actions(cast.case)
    assert actions.index("closure.request") < actions.index("closure.approve")


def test_a_supervisor_who_asks_cannot_approve_their_own_closure(cast: Cast):
    cast.case.risk_level = RiskLevel.HIGH
    cast.case.save(update_fields=["risk_level"])
    closure = journey.closure_submit(
        actor=cast.supervisor, case=cast.case, data=_outcomes(cast.case)
    )
    assert not journey.may_approve(cast.supervisor, closure)
    with pytest.raises(PermissionDenied):
        journey.closure_decide(
            actor=cast.supervisor, closure=closure, approve=True, comment="Plan reviewed together."
        )


def test_a_returned_closure_needs_a_comment_and_can_be_asked_again(cast: Cast):
    cast.case.risk_level = RiskLevel.HIGH
    cast.case.save(update_fields=["risk_level"])
    closure = journey.closure_submit(actor=cast.assigned, case=cast.case, data=_outcomes(cast.case))
    with pytest.raises(ValidationError):
        journey.closure_decide(actor=cast.supervisor, closure=closure, approve=False)
    journey.closure_decide(
        actor=cast.supervisor,
        closure=closure,
        approve=False,
        comment="Review the plan with her first.",
    )
    assert Closure.objects.get(pk=closure.pk).state == ClosureState.RETURNED
    assert Case.objects.get(pk=cast.case.pk).status != CaseStatus.CLOSED
    again = journey.closure_submit(actor=cast.assigned, case=cast.case, data=_outcomes(cast.case))
    assert again.pk == closure.pk and again.state == ClosureState.AWAITING_APPROVAL


def test_agency_admin_adds_and_retires_closure_reasons(cast: Cast, login):
    client = login(cast.agency_admin)
    url = reverse("cases:closure_reasons")
    assert client.post(url, {"label": "Moved into a refuge"}).status_code == 302
    reason = ClosureReason.objects.get(agency=cast.agency, label="Moved into a refuge")
    assert reason in journey.closure_reasons(cast.agency.pk)
    response = client.post(url, {"label": "Moved into a refuge"})
    assert "already has this reason" in response.content.decode()
    client.post(url, {"toggle": reason.pk})
    assert reason not in journey.closure_reasons(cast.agency.pk)
    standard = ClosureReason.objects.get(agency=cast.agency, standard="goals_met")
    assert client.post(url, {"toggle": standard.pk}).status_code == 404
    assert login(cast.supervisor).get(url).status_code == 403
    assert not ClosureReason.objects.filter(
        agency=cast.other_agency_team.agency, label=reason.label
    )


# --- Risk governance -----------------------------------------------------------------------------


def test_a_change_by_hand_needs_a_reason_and_says_who_when_why(cast: Cast):
    with pytest.raises(ValidationError):
        journey.risk_level_override(
            actor=cast.assigned, case=cast.case, level=RiskLevel.HIGH, reason="  "
        )
    change = journey.risk_level_override(
        actor=cast.assigned,
        case=cast.case,
        level=RiskLevel.HIGH,
        reason="Threats last night.",
    )
    source = journey.risk_source(Case.objects.get(pk=cast.case.pk))
    assert source == change
    assert (source.source, source.by, source.reason) == (
        RiskSource.OVERRIDE,
        cast.assigned,
        "Threats last night.",
    )
    event = AuditEvent.objects.get(action="risk.override", case_id=cast.case.pk)
    assert "Threats" not in str(event.detail)


def test_lowering_below_the_latest_assessment_tells_the_supervisors(cast: Cast, login):
    assessed_at = timezone.now() - dt.timedelta(days=3)
    journey.risk_from_assessment(
        actor=cast.assigned,
        case=cast.case,
        level=RiskLevel.HIGH,
        assessment_id="abc",
        assessed_at=assessed_at,
    )
    Case.objects.filter(pk=cast.case.pk).update(risk_level=RiskLevel.HIGH)
    client = login(cast.assigned)
    url = reverse("cases:risk", args=[cast.case.public_id])
    case = Case.objects.get(pk=cast.case.pk)
    response = client.post(url, {"risk_level": RiskLevel.MEDIUM, "reason": "", "version": 1})
    assert response.status_code == 200
    assert Case.objects.get(pk=case.pk).risk_level == RiskLevel.HIGH
    response = client.post(
        url,
        {"risk_level": RiskLevel.MEDIUM, "reason": "She has moved away.", "version": case.version},
    )
    assert response.status_code == 302
    change = RiskLevelChange.objects.filter(case=case).latest("at")
    assert change.below_assessment and change.assessed_level == RiskLevel.HIGH
    told = Notification.objects.filter(kind="risk_lowered", case=case)
    assert set(told.values_list("recipient_id", flat=True)) == {cast.supervisor.pk}
    # Raising it tells nobody.
    journey.risk_level_override(
        actor=cast.assigned, case=case, level=RiskLevel.HIGH, reason="Back up."
    )
    assert Notification.objects.filter(kind="risk_lowered").count() == 1


def test_the_case_page_says_where_the_risk_level_comes_from(cast: Cast, login):
    client = login(cast.assigned)
    page = client.get(reverse("cases:detail", args=[cast.case.public_id])).content.decode()
    assert "not yet assessed" in page
    journey.risk_level_override(
        actor=cast.assigned, case=cast.case, level=RiskLevel.HIGH, reason="Threats."
    )
    page = client.get(reverse("cases:detail", args=[cast.case.public_id])).content.decode()
    assert "Changed by hand by" in page and "Threats." in page


def test_intake_no_longer_asks_for_a_risk_band(cast: Cast, login):
    page = login(cast.assigned).get(reverse("cases:new")).content.decode()
    assert 'name="risk_level"' not in page


# --- The journey page and its trend ---------------------------------------------------------------


def test_the_journey_page_shows_episodes_outcomes_and_a_text_alternative(cast: Cast, login):
    case = _open(cast)
    journey.closure_submit(actor=cast.assigned, case=case, data=_outcomes(case))
    journey.case_reopen(actor=cast.assigned, case=case)
    response = login(cast.assigned).get(reverse("cases:journey", args=[case.public_id]))
    page = response.content.decode()
    assert "<svg" in page and 'role="img"' in page
    assert "Episode 2" in page and "Came back to the service" in page
    assert "2 episode(s) of support." in page
    assert AuditEvent.objects.filter(action="journey.view", case_id=case.pk).exists()


def test_the_timeline_shows_the_episodes(cast: Cast, login):
    case = _open(cast)
    journey.closure_submit(actor=cast.assigned, case=case, data=_outcomes(case))
    journey.case_reopen(actor=cast.assigned, case=case)
    page = login(cast.assigned).get(reverse("cases:timeline", args=[case.public_id]))
    body = page.content.decode()
    assert "Episode 1 closed" in body
    assert "Episode 2 began: the survivor came back" in body
