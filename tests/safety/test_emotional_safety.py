"""Emotional safety in the plan: triggers and what helps, people to reach out to instead of the
other party, ways to delay contact, re-reading the factual record, and the options for staying.
Versioned and encrypted like the rest of the plan; printed when written, left out when empty."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from caseflow.safety import sections, services
from caseflow.safety.forms import PlanForm
from caseflow.safety.models import SafetyPlanVersion
from tests.conftest import Cast

pytestmark = pytest.mark.django_db

EMOTIONAL = {
    "triggers": "Sunday evenings; a walk with her sister helps.",
    "reach_out": "Her sister, any time.",
    "delay_contact": "Wait an hour before answering.",
    "factual_record": "The dated list at the office.",
    "staying": "Safe room: the kitchen, by the back door.",
}


def save(cast: Cast, expected: int, **content):
    return services.plan_save(
        actor=cast.assigned,
        case=cast.case,
        expected_version=expected,
        content=content,
    )


def test_the_sections_sit_beside_physical_safety():
    keys = [s.key for s in sections.SECTIONS]
    assert set(sections.EMOTIONAL_KEYS) <= set(keys)
    assert keys.index("emergency_numbers") < keys.index("triggers") < keys.index("barriers")
    normal = sections.normalise({"triggers": "  Sundays  "})
    assert normal["triggers"] == "Sundays" and normal["staying"] == ""


def test_each_section_is_versioned_and_diffed(cast: Cast):
    save(cast, 0, home="Front room.")
    save(cast, 1, home="Front room.", **EMOTIONAL)
    first, second = SafetyPlanVersion.objects.filter(plan__case=cast.case).order_by("number")
    first.case = second.case = cast.case
    changed = sections.changed_sections(first.content, second.content)
    assert changed == list(sections.EMOTIONAL_KEYS)
    diff = {d.key: d for d in sections.diff(first.content, second.content)}
    assert ("+", EMOTIONAL["reach_out"]) in diff["reach_out"].lines
    assert not diff["home"].changed


def test_the_sections_are_encrypted_with_the_plan(cast: Cast):
    save(cast, 0, **EMOTIONAL)
    with connection.cursor() as cur:
        cur.execute("SELECT content FROM safety_safetyplanversion")
        (raw,) = cur.fetchone()
    assert "back door" not in raw and "Sunday" not in raw
    content = services.plan_content(services.plan_of(cast.case))
    assert {key: content[key] for key in EMOTIONAL} == EMOTIONAL


def test_the_form_writes_and_reads_every_section():
    data = {"version": "0", **EMOTIONAL}
    form = PlanForm(data)
    assert form.is_valid(), form.errors
    content = form.content()
    assert {key: content[key] for key in EMOTIONAL} == EMOTIONAL
    initial = PlanForm.initial_for(content, 1)
    assert {key: initial[key] for key in EMOTIONAL} == EMOTIONAL


def test_safe_print_shows_written_sections_and_leaves_out_empty_ones(cast: Cast, login):
    save(cast, 0, triggers=EMOTIONAL["triggers"], staying=EMOTIONAL["staying"])
    client = login(cast.assigned)
    body = client.get(reverse("safety:plan_print", args=[cast.case.public_id])).content.decode()
    assert EMOTIONAL["triggers"] in body and EMOTIONAL["staying"] in body
    assert 'id="sec-triggers"' in body and 'id="sec-staying"' in body
    assert 'id="sec-reach_out"' not in body and 'id="sec-delay_contact"' not in body
    # The paper carries no web address: the link to the needs page is left off it.
    assert "/needs/" not in body


def test_the_plan_page_links_the_barriers_to_the_structured_needs(cast: Cast, login):
    save(cast, 0, barriers={"housing": "Tenancy in his name."})
    client = login(cast.assigned)
    body = client.get(reverse("safety:plan", args=[cast.case.public_id])).content.decode()
    assert "Tenancy in his name." in body
    assert reverse("casework:needs", args=[cast.case.public_id]) in body


def test_a_stale_save_names_an_emotional_section_in_words(cast: Cast):
    save(cast, 0, home="Front room.")
    save(cast, 1, home="Front room.", triggers=EMOTIONAL["triggers"])
    with pytest.raises(services.StalePlan) as caught:
        save(cast, 1, home="Back room.")
    assert "Triggers and what helps" in caught.value.message


def test_the_case_export_rows_name_the_sections_in_words(cast: Cast):
    from caseflow.safety.packs import safety_plan_rows

    save(cast, 0, **EMOTIONAL)
    rows = dict(safety_plan_rows(cast.case))
    assert rows["People to reach out to instead"] == EMOTIONAL["reach_out"]
    assert all(type(label) is str for label in rows)
