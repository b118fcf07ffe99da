"""The transfers section of the case page: where the case was transferred to (the sending case)
or where it came from (the new case), shown only when there is one or the case may be
transferred."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from caseflow import policy
from caseflow.cases.panels import may_have
from caseflow.transfers.models import Transfer


def case_facts() -> dict:
    return {
        "has_transfers_out": Exists(Transfer.objects.filter(case=OuterRef("pk"))),
        "has_transfer_in": Exists(Transfer.objects.filter(new_case=OuterRef("pk"))),
    }


def case_panel(request, case):
    out = (
        list(
            Transfer.objects.filter(case=case)
            .select_related("receiving_agency", "new_case")
            .order_by("-requested_at", "-pk")
        )
        if may_have(case, "has_transfers_out")
        else []
    )
    for transfer in out:
        transfer.case = case  # share the unwrapped data key
    came_from = (
        Transfer.objects.filter(new_case=case).select_related("agency").first()
        if may_have(case, "has_transfer_in")
        else None
    )
    can_transfer = policy.may_transfer(request.user, case)
    if not (out or came_from or can_transfer):
        return None
    return (
        "transfers/panel.html",
        {"transfers": out, "came_from": came_from, "can_transfer": can_transfer},
    )
