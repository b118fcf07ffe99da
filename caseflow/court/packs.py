"""What court hearings contribute to referral packs and case exports: under "court orders" (the
court and its date identify the family's proceedings, so they leave only under a release that
names that category), each hearing's kind, time, court and outcome, and the orders it made by the
safety plan's own numbering (the orders themselves are the safety plan's rows)."""

from __future__ import annotations

from django.utils import timezone

from caseflow.cases.models import Case
from caseflow.court.models import Hearing
from caseflow.court.orders import plan_orders

Rows = list[tuple[str, str]]


def hearing_rows(case: Case) -> Rows:
    hearings = list(Hearing.objects.filter(case=case).order_by("starts_at", "pk"))
    if not hearings:
        return []
    numbers = {order.key: n for n, order in enumerate(plan_orders(case), start=1)}
    rows: Rows = []
    for number, hearing in enumerate(hearings, start=1):
        hearing.case = case
        label = f"Court hearing {number}"
        rows.append((f"{label}: kind", str(hearing.get_kind_display())))
        rows.append((f"{label}: when", f"{timezone.localtime(hearing.starts_at):%Y-%m-%d %H:%M}"))
        rows.append((f"{label}: court", hearing.court or "—"))
        rows.append((f"{label}: outcome", str(hearing.get_outcome_display()) or "—"))
        made = [f"Protective order {numbers[key]}" for key in hearing.orders if key in numbers]
        if made:
            rows.append((f"{label}: orders made", ", ".join(made)))
    return rows
