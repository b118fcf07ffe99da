"""Transfers in, for the receiving agency's supervisors' "Decisions waiting"
(``CaseFeature.decisions``): the sending agency's name, the date and the link where the answer is
given. One query; nothing of the sending case."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Window
from django.urls import reverse

from caseflow import policy
from caseflow.cases.decisions import SHOWN, Group, Item
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.transfers.models import Transfer, TransferState


def transfers_in(user: Any) -> Group:
    group = Group(
        "transfers_in",
        _("Cases other services ask you to take on"),
        _("Answer"),
        more_link=reverse("transfers:incoming"),
        more_words=_("Every transfer from other services, answered or not"),
    )
    agency_id = policy.transfer_deciding_agency(user)
    if agency_id is None:
        return group
    rows = list(
        Transfer.objects.filter(receiving_agency_id=agency_id, state=TransferState.REQUESTED)
        .annotate(total=Window(Count("pk")))
        .select_related("agency")
        .only("public_id", "requested_at", "agency__name")
        .order_by("requested_at", "pk")[:SHOWN]
    )
    group.total = rows[0].total if rows else 0
    group.items = [
        Item(t.agency.name, t.requested_at, reverse("transfers:decide", args=[t.public_id]))
        for t in rows
    ]
    return group
