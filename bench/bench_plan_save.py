"""Safety-plan save (encryption with the case key + a new immutable version + its audit event)
against a plain model save of the plan row (no encryption, no version, no audit)."""

from __future__ import annotations

from django.db import transaction

from bench.harness import BenchContext, Peer, Row, compare, scale_cast
from caseflow.safety import services as safety
from caseflow.safety.models import SafetyPlan

CONTENT = {
    "safe_contacts": "Sister (code word: parcel). Duty line after 6 pm.",
    "leaving": "Bag at the neighbour's; taxi number saved under 'Dentist'.",
}


def plan_save(ctx: BenchContext) -> list[Row]:
    cast = scale_cast()
    case = cast.typical.assigned_cases.filter(status__in=("referral", "active")).first()
    state = {"version": safety.plan_of(case).version if safety.plan_of(case) else 0, "n": 0}

    def caseflow_save():
        state["n"] += 1
        with transaction.atomic():
            safety.plan_save(
                actor=cast.typical,
                case=case,
                expected_version=state["version"],
                content={**CONTENT, "home": f"Door chain fitted, visit {state['n']}"},
            )
        state["version"] += 1

    caseflow_save()  # the plan exists before timing
    plan = SafetyPlan.objects.get(case=case)

    def plain_save():
        with transaction.atomic():
            plan.save(update_fields=["review_by"])

    return compare(
        ctx,
        "safety-plan save (encrypt + version + audit)",
        caseflow_save,
        [Peer("plain model save of the plan row", plain_save)],
    )


BENCHMARKS = [plan_save]
