"""The survivor's journey on a phone (375 px): a re-referred survivor's earlier case is offered
at intake and reopened, with its plan and breaches still there; a high-risk case is closed only
once a supervisor approves, and the outcomes recorded at closure show on the journey page."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.cases import journey
from caseflow.cases.models import (
    AbuseChange,
    Case,
    CaseStatus,
    Episode,
    EpisodeStart,
    FeelsSafer,
    PartyRole,
    PlanExitCheck,
    RiskLevel,
)
from caseflow.safety import services as safety_services
from tests import factories as f
from tests.agreements.helpers import make_agreement, record_breach
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PHONE = {"width": 375, "height": 812}


def _fits(tab, name: str) -> None:
    width = tab.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name} scrolls sideways at 375 px ({width} px wide)"
    tab.check(f"journey-{name}")


def _earlier_case(cast) -> Case:
    """A closed case of the survivor's, with a safety plan and a breach of the other party's."""
    case = f.open_case(
        cast.team1,
        [cast.assigned],
        reference="CASE-EARLIER",
        opened_at=timezone.now() - dt.timedelta(days=90),
    )
    f.add_party(case, PartyRole.SURVIVOR, full_name="Jesse Imaginary", date_of_birth="1988-08-08")
    safety_services.plan_save(
        actor=cast.assigned,
        case=case,
        expected_version=0,
        content={"leaving": "Go to her sister's by taxi."},
    )
    start = timezone.localdate() - dt.timedelta(days=60)
    agreement = make_agreement(case, cast.assigned, start=start)
    record_breach(
        agreement,
        cast.assigned,
        timezone.now() - dt.timedelta(days=20),
    )
    journey.closure_submit(
        actor=cast.assigned,
        case=case,
        data={
            "reason": journey.closure_reasons(case.agency_id).get(standard="survivor_choice"),
            "plan_check": PlanExitCheck.REVIEWED,
            "abuse_change": AbuseChange.UNCHANGED,
            "feels_safer": FeelsSafer.A_LITTLE,
        },
    )
    case.refresh_from_db()
    assert case.status == CaseStatus.CLOSED
    return case


def test_a_re_referred_survivor_is_offered_the_earlier_case_and_it_is_reopened(
    new_tab, live_server, cast
):
    earlier = _earlier_case(cast)
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto("/cases/new/")
    page.get_by_label("Survivor's full name").fill("Jesse Imaginary")
    page.get_by_label("Survivor's date of birth").fill("1988-08-08")
    page.get_by_label("Referral summary").fill("Referred again by the police.")
    page.get_by_role("button", name="Open case").click()

    offer = page.get_by_role("alert").filter(has_text="already be known")
    expect(offer).to_contain_text("CASE-EARLIER")
    _fits(tab, "intake-offer")
    offer.get_by_role("button", name="Reopen CASE-EARLIER").click()

    expect(page.get_by_role("heading", level=1)).to_contain_text("CASE-EARLIER")
    expect(page.get_by_role("status").first).to_contain_text("everything from before is on it")
    assert Case.objects.filter(agency=cast.agency, reference__startswith="CF-").count() == 0
    episode = Episode.objects.filter(case=earlier).order_by("-number").first()
    assert (episode.number, episode.start) == (2, EpisodeStart.REREFERRAL)
    main = page.locator("main")
    expect(main).to_contain_text("2 of 2")
    expect(main).to_contain_text("Referred again by the police.")
    _fits(tab, "reopened-case")

    # The earlier plan is still there.
    page.get_by_role("region", name="Safety plan and risk").get_by_role(
        "link", name="Safety plan", exact=True
    ).click()
    expect(page.locator("main")).to_contain_text("Go to her sister's by taxi.")

    # The whole journey: both episodes, and the other party's breach of the earlier one.
    tab.goto(f"/cases/{earlier.public_id}/journey/")
    main = page.locator("main")
    expect(main).to_contain_text("Referred again")
    expect(main).to_contain_text("The survivor's choice")
    expect(
        page.get_by_role("img", name="Episodes, risk level and what happened per week")
    ).to_be_visible()
    expect(main).to_contain_text("The other party's breaches: 1 in all")
    _fits(tab, "journey-page")


def test_a_high_risk_case_closes_only_with_a_supervisors_approval(new_tab, live_server, cast):
    journey.risk_level_override(
        actor=cast.assigned,
        case=cast.case,
        level=RiskLevel.HIGH,
        reason="Threats after the hearing.",
    )
    from caseflow.casework.models import Need, NeedStatus
    from tests.casework.helpers import make_need

    housing = make_need(cast.case, cast.assigned, kind="housing")
    money = make_need(cast.case, cast.assigned, kind="money")
    advocate = new_tab(viewport=PHONE)
    page = advocate.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    advocate.goto(f"/cases/{cast.case.public_id}/")
    page.get_by_role("link", name="Close the case…").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Closing the case")
    expect(page.locator("main")).to_contain_text("needs a supervisor's approval")
    _fits(advocate, "closure-form")
    page.get_by_label("Why is the case closing?").select_option(label="Goals met")
    page.get_by_label("Safety plan at closure").select_option(label="Reviewed with the survivor")
    page.get_by_label("What the survivor can do if things change").fill("Call the duty line.")
    page.get_by_label("Since the start of support, the abuse has").select_option(label="Reduced")
    page.get_by_label("Does the survivor feel safer?").select_option(label="Yes")
    page.get_by_label("Quality of life now").select_option(label="Good")
    # Which of the survivor's needs were met: housing was, money is still open.
    needs = page.get_by_role("group", name="Which of the survivor's needs were met?")
    needs.get_by_label("Housing (identified)").check()
    page.get_by_role("button", name="Ask a supervisor to approve the closure").click()
    expect(page.get_by_role("status").first).to_contain_text("waiting for a supervisor's approval")
    assert Case.objects.get(pk=cast.case.pk).status != CaseStatus.CLOSED
    _fits(advocate, "closure-waiting")

    supervisor = new_tab(viewport=PHONE)
    page = supervisor.page
    sign_in(page, live_server, "supervisor", f.PASSWORD)
    # The supervisor's home starts with what waits for their decision.
    waiting = page.get_by_role("region", name="Decisions waiting")
    expect(waiting).to_contain_text("High-risk closures waiting for your approval")
    _fits(supervisor, "decisions-waiting")
    waiting.get_by_role("link", name="Decide CASE-1").click()
    expect(page.locator("main")).to_contain_text("Goals met")
    expect(page.locator("main")).to_contain_text("Housing")
    _fits(supervisor, "closure-approval")
    # Approving needs the supervisor's reason: without one, the case stays open and says so.
    page.get_by_role("button", name="Approve and close the case").click()
    expect(page.locator("#comment-error")).to_have_text(
        "Give your reason for approving the closure."
    )
    assert Case.objects.get(pk=cast.case.pk).status != CaseStatus.CLOSED
    page.get_by_label("Your reason (needed to approve or to return it)").fill(
        "Safety plan reviewed with the survivor; the duty line knows the case."
    )
    page.get_by_role("button", name="Approve and close the case").click()
    expect(page.get_by_role("status").first).to_contain_text("Closure approved")
    assert Case.objects.get(pk=cast.case.pk).status == CaseStatus.CLOSED
    # The closure page keeps who approved it and why.
    supervisor.goto(f"/cases/{cast.case.public_id}/close/")
    approved = page.get_by_role("region", name="Closure approved")
    expect(approved).to_contain_text("Their reason")
    expect(approved).to_contain_text("Safety plan reviewed with the survivor")

    # The outcomes recorded at closure, against the start.
    supervisor.goto(f"/cases/{cast.case.public_id}/journey/")
    episode = page.locator("article.episode").first
    expect(episode).to_contain_text("Reduced")
    expect(episode).to_contain_text("High → High")
    expect(episode).to_contain_text("Approved by")
    expect(episode).to_contain_text("Needs met")
    assert Need.objects.get(pk=housing.pk).status == NeedStatus.MET
    assert Need.objects.get(pk=money.pk).status == NeedStatus.IDENTIFIED
    _fits(supervisor, "closed-journey")
