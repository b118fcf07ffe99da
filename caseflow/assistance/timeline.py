"""Payments on the case timeline: what was paid for, how much, and where it has got to (no
payee's name)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from caseflow.assistance.models import Payment
from caseflow.cases.timeline import SURVIVOR, Entry, Query, Source, about, key_of, newest
from caseflow.lib.i18n import gettext_lazy
from caseflow.lib.money import money

PAYMENT = "assistance_payment"
PEOPLE = frozenset({SURVIVOR})


def payments(case, query: Query) -> list[Entry]:
    if not about(query, PEOPLE):
        return []
    qs = Payment.objects.filter(case=case).select_related("funding_source")
    entries = []
    for row in newest(qs, query, PAYMENT, "created_at"):
        row.case = case
        entries.append(
            Entry(
                at=row.created_at,
                kind=PAYMENT,
                key=key_of(row.pk),
                title=_("Payment: %(purpose)s, %(amount)s")
                % {"purpose": row.get_purpose_display(), "amount": money(row.amount, row.currency)},
                people=PEOPLE,
                url=reverse("assistance:payment", args=[case.public_id, row.public_id]),
                facts=(
                    (_("Paid to"), row.get_payee_kind_display()),
                    (_("Paid from"), row.funding_source.name),
                    (_("Now"), row.get_state_display()),
                ),
            )
        )
    return entries


SOURCES = (
    Source(
        kind=PAYMENT,
        label=gettext_lazy("Financial assistance"),
        fetch=payments,
        model=Payment,
        order=67,
        categories=frozenset({"narratives"}),
    ),
)
