"""Safety pages as users drive them: the plan form, stale saves, versions, diffs, review, print,
assessments and the case-page panel."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case
from caseflow.cases.panels import panel_facts, remember_facts
from caseflow.cases.selectors import case_page_facts
from caseflow.safety import services
from caseflow.safety.models import RiskAssessment, SafetyPlan, SafetyPlanVersion
from tests.conftest import Cast, canary

pytestmark = pytest.mark.django_db


def url(name: str, cast: Cast, *args) -> str:
    return reverse(f"safety:{name}", args=[cast.case.public_id, *args])


def plan_post(version: int, **fields) -> dict:
    return {"version": version, **fields}


def test_writing_and_reading_the_plan(cast: Cast, login):
    client = login(cast.assigned)
    assert client.get(url("plan_edit", cast)).status_code == 200
    response = client.post(
        url("plan_edit", cast),
        plan_post(
            0,
            home="Keep the phone by the door.",
            go_bag=["id", "keys"],
            order_1_court="Family Court",
            order_1_reference="FC-1",
            order_1_granted="2026-01-01",
            order_1_expires="2026-07-01",
            barrier_housing="Tenancy in his name.",
        ),
    )
    assert response.status_code == 302
    assert response["Location"] == url("plan", cast)
    page = client.get(url("plan", cast)).content.decode()
    for text in ("Keep the phone by the door.", "Spare keys", "FC-1", "Tenancy in his name."):
        assert text in page
    actions = list(AuditEvent.objects.filter(case_id=cast.case.pk).values_list("action", flat=True))
    assert actions[-3:] == ["plan.view", "plan.save", "plan.view"]


def test_a_bad_date_on_the_plan_form_is_a_form_error_and_nothing_is_saved(cast: Cast, login):
    client = login(cast.assigned)
    response = client.post(
        url("plan_edit", cast),
        plan_post(0, home="x", order_1_court="Family Court", order_1_expires="2026-02-31"),
    )
    assert response.status_code == 200
    assert "Enter a valid date." in response.content.decode()
    response = client.post(
        url("plan_edit", cast),
        plan_post(
            0,
            order_1_court="Family Court",
            order_1_granted="2026-05-01",
            order_1_expires="2026-04-01",
        ),
    )
    assert "The expiry date is before the date it was granted." in response.content.decode()
    response = client.post(url("plan_edit", cast), plan_post(0, order_1_reference="FC-9"))
    assert "Name the court that made this order." in response.content.decode()
    response = client.post(url("plan_edit", cast), plan_post(0, home="x" * 4001))
    assert response.status_code == 200
    assert not SafetyPlan.objects.exists()


def test_a_stale_save_through_the_form_is_refused_with_the_changed_sections(cast: Cast, login):
    services.plan_save(
        actor=cast.assigned,
        case=cast.case,
        expected_version=0,
        content={"pets": "cat"},
    )
    # Both open version 1. The supervisor saves first.
    supervisor = login(cast.supervisor)
    assert (
        supervisor.post(
            url("plan_edit", cast), plan_post(1, pets="cat", home="New locks.")
        ).status_code
        == 302
    )
    advocate = login(cast.assigned)
    response = advocate.post(url("plan_edit", cast), plan_post(1, pets="dog", home="Old text"))
    body = response.content.decode()
    assert response.status_code == 409
    assert "Nothing was saved" in body and "now version 2" in body
    assert "Sections changed since you opened it: Safety at home." in body
    assert "dog" in body  # the advocate's own text is still in the form
    assert url("plan_diff", cast) + "?a=1&amp;b=2" in body
    plan = services.plan_of(cast.case)
    assert plan.version == 2
    assert services.plan_content(plan) == services.plan_content(plan, 2)
    assert services.plan_content(plan)["home"] == "New locks."
    assert services.plan_content(plan)["pets"] == "cat"


def test_version_pages_and_diff(cast: Cast, login):
    for n, home in enumerate(["Leave by the back door.", "Leave by the front door."]):
        services.plan_save(
            actor=cast.assigned,
            case=cast.case,
            expected_version=n,
            content={"home": home},
        )
    client = login(cast.supervisor)
    page = client.get(url("plan", cast)).content.decode()
    assert "Version 1" in page and "Version 2" in page
    first = client.get(url("plan_version", cast, 1)).content.decode()
    assert "Leave by the back door." in first and "Leave by the front door." not in first
    assert client.get(url("plan_version", cast, 3)).status_code == 404
    diff = client.get(url("plan_diff", cast)).content.decode()  # default: the last two
    assert "Leave by the back door." in diff and "Leave by the front door." in diff
    assert re.search(r"Safety at home\s*<span class=\"badge text-bg-warning\">changed", diff)
    assert client.get(url("plan_diff", cast) + "?a=1&b=7").status_code == 404
    bad = client.get(url("plan_diff", cast) + "?a=x&b=2")
    assert bad.status_code == 200 and "Enter a whole number." in bad.content.decode()
    assert AuditEvent.objects.filter(action="plan.diff.view", case_id=cast.case.pk).count() == 1


def test_mark_reviewed_through_the_page(cast: Cast, login):
    client = login(cast.assigned)
    response = client.post(url("plan_review", cast))
    assert response.status_code == 302
    assert not SafetyPlan.objects.exists()
    services.plan_save(actor=cast.assigned, case=cast.case, expected_version=0, content={})
    assert client.post(url("plan_review", cast), {"review_by": "2020-01-01"}).status_code == 302
    assert SafetyPlan.objects.get().last_reviewed_at is None
    client.post(url("plan_review", cast), {"review_by": "not a date"})
    assert SafetyPlan.objects.get().last_reviewed_at is None
    client.post(url("plan_review", cast))
    plan = SafetyPlan.objects.get()
    assert plan.last_reviewed_by == cast.assigned


def test_safe_print_leaves_out_sections_and_names_no_agency(cast: Cast, login):
    services.plan_save(
        actor=cast.assigned,
        case=cast.case,
        expected_version=0,
        content={"home": "Front room is safest.", "pets": "Dog to neighbour."},
    )
    client = login(cast.assigned)
    response = client.get(url("plan_print", cast) + "?omit=pets&omit=barriers")
    body = response.content.decode()
    assert response.status_code == 200
    assert "Front room is safest." in body and "Dog to neighbour." not in body
    # What is printed: the page without its asset links (the privacy key's script and styles).
    printed = re.sub(r"<(script|link)\b[^>]*>", "", body)
    assert cast.agency.name not in printed and "caseflow" not in printed.lower()
    assert cast.case.reference not in body
    assert "css/print.css" in body and "style=" not in body
    # A neutral title, on the page and the tab; empty sections are left off the paper.
    assert "<title>Notes</title>" in body and "Safety plan" not in printed
    assert "Nothing recorded" not in body and 'id="sec-leaving"' not in body
    assert 'id="sec-home"' in body
    assert "data-privacy-screen" in body
    event = AuditEvent.objects.get(action="plan.print")
    assert event.detail == {"version": 1, "omitted": ["barriers", "pets"]}
    chosen = client.get(url("plan_print", cast) + "?title=Shopping+list").content.decode()
    assert "<title>Shopping list</title>" in chosen


def test_assessment_through_the_form_needs_a_reason_for_an_override(cast: Cast, login, sample):
    client = login(cast.assigned)
    new = url("assessment_new", cast, sample.pk)
    page = client.get(new).content.decode()
    assert "weapon" in page and 'name="item_strangulation"' in page
    response = client.post(new, {"item_stalking": "yes", "override_band": "high"})
    assert response.status_code == 200
    assert "Give the reason for overriding the band" in response.content.decode()
    assert client.post(new, {"override_band": ""}).status_code == 200  # nothing answered
    assert not RiskAssessment.objects.exists()
    response = client.post(
        new,
        {
            "item_stalking": "yes",
            "item_isolation": "no",
            "override_band": "high",
            "override_reason": "Threats made yesterday.",
        },
    )
    assessment = RiskAssessment.objects.get()
    assert response["Location"] == url("assessment", cast, assessment.public_id)
    assert assessment.answers == {"stalking": True, "isolation": False}
    assert assessment.effective_band == "high"
    detail = client.get(response["Location"]).content.decode()
    assert "Threats made yesterday." in detail and "Not answered" in detail
    listing = client.get(url("assessments", cast)).content.decode()
    assert "override; scored standard" in listing


def test_a_question_asking_for_the_survivors_words_has_a_box_to_write_them(
    cast: Cast, login, sample
):
    client = login(cast.assigned)
    new = url("assessment_new", cast, sample.pk)
    page = client.get(new).content.decode()
    # Only the question that asks for the survivor's own words offers a box.
    assert page.count('name="words_') == 1
    assert 'name="words_survivor_fears_serious_harm"' in page
    said = "He told me nobody would find me. " + canary(cast.case)
    response = client.post(
        new, {"item_survivor_fears_serious_harm": "yes", "words_survivor_fears_serious_harm": said}
    )
    assessment = RiskAssessment.objects.get()
    assert assessment.answers["_words"] == {"survivor_fears_serious_harm": said}
    assert assessment.answers["survivor_fears_serious_harm"] is True
    # Stored encrypted with the rest of the answers.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT answers FROM safety_riskassessment WHERE id = %s", [assessment.pk])
        assert canary(cast.case) not in str(cursor.fetchone()[0])
    detail = client.get(response["Location"]).content.decode()
    assert "He told me nobody would find me." in detail


def test_an_instrument_of_another_agency_is_not_found(cast: Cast, login):
    from tests.safety.conftest import import_shipped

    foreign = import_shipped("caseflow-sample.yaml", agency=cast.foreign_case.agency)
    client = login(cast.assigned)
    assert client.get(url("assessment_new", cast, foreign.pk)).status_code == 404
    assert client.get(url("assessment_new", cast, 99999)).status_code == 404


def test_case_page_panel_shows_plan_review_and_risk_trend(cast: Cast, login, sample):
    services.plan_save(actor=cast.assigned, case=cast.case, expected_version=0, content={})
    for answers in (
        {"stalking": True},
        {"abuse_escalating": True, "recent_separation": True, "threats_to_kill": True},
        {"strangulation": True},
    ):
        services.assessment_record(
            actor=cast.assigned, case=cast.case, instrument=sample, answers=answers
        )
    client = login(cast.assigned)
    body = client.get(reverse("cases:detail", args=[cast.case.public_id])).content.decode()
    assert "Safety plan and risk" in body
    assert "Version 1, saved" in body and "Not yet reviewed" in body
    assert "Standard → Medium → High" in body
    assert "<svg" in body and "style=" not in body.split('id="safety-h"')[1].split("</section>")[0]


def test_pages_of_a_case_without_a_plan(cast: Cast, login):
    client = login(cast.assigned)
    assert "no safety plan yet" in client.get(url("plan", cast)).content.decode()
    assert client.get(url("plan_print", cast)).status_code == 200
    assert client.get(url("plan_diff", cast)).status_code == 200
    assert client.get(url("plan_version", cast, 1)).status_code == 404
    assert SafetyPlanVersion.objects.count() == 0


def test_case_panel_query_count_does_not_grow_with_assessments(
    cast: Cast, sample, django_assert_num_queries
):
    from caseflow.safety.panels import case_panel

    services.plan_save(actor=cast.assigned, case=cast.case, expected_version=0, content={})
    services.assessment_record(
        actor=cast.assigned,
        case=cast.case,
        instrument=sample,
        answers={"stalking": True},
    )
    # A fresh instance, as a request has: nothing is cached on it.
    fresh = Case.objects.get(pk=cast.case.pk)
    with django_assert_num_queries(2):
        case_panel(None, fresh)
    for _ in range(8):
        services.assessment_record(
            actor=cast.assigned,
            case=cast.case,
            instrument=sample,
            answers={"stalking": True},
        )
    fresh = Case.objects.get(pk=cast.case.pk)
    with django_assert_num_queries(2):
        _, context = case_panel(None, fresh)
    assert len(context["trend"]) == 6
    # After the case page's facts query (plan row loaded with it), only the bands are queried.
    case = Case.objects.get(pk=cast.case.pk)
    remember_facts(case, case_page_facts(case, *panel_facts()))
    with django_assert_num_queries(1):
        _, with_facts = case_panel(None, case)
    assert with_facts["trend"] == context["trend"]
    assert with_facts["plan"].pk == context["plan"].pk
