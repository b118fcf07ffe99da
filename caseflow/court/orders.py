"""The protective orders a hearing made, linked rather than copied.

Protective orders are recorded once, in the safety plan (``caseflow.safety``, the plan's
"protective orders" section). A hearing keeps a key per order it made: a digest of the order's
court, reference and date granted, so a later plan version that keeps the order keeps the link,
and the key itself tells a reader of the form nothing.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from caseflow.cases.models import Case
from caseflow.safety.services import plan_content, plan_of


@dataclass(frozen=True)
class PlanOrder:
    key: str
    #: "Court · reference · granted 3 Jan 2026", for the reader of the case.
    label: str


def order_key(order: dict[str, Any]) -> str:
    raw = "\x1f".join(
        (order.get("court", ""), order.get("reference", ""), order.get("granted", ""))
    )
    return hashlib.sha256(raw.encode()).hexdigest()[:20]


def plan_orders(case: Case) -> list[PlanOrder]:
    """The protective orders in the case's current safety plan (decrypted: a case page's read)."""
    content = plan_content(plan_of(case))
    found = []
    for order in content["protective_orders"]:
        parts = [order["court"], order["reference"], order["granted"]]
        found.append(PlanOrder(order_key(order), " · ".join(p for p in parts if p) or "—"))
    return found


def linked_orders(case: Case, keys: list[str]) -> tuple[list[PlanOrder], int]:
    """The plan's orders among ``keys``, and how many keys no longer match an order in the
    current plan (changed or taken out of it since)."""
    by_key = {order.key: order for order in plan_orders(case)} if keys else {}
    found = [by_key[key] for key in keys if key in by_key]
    return found, len(keys) - len(found)
