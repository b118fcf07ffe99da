"""Demo data for financial assistance: Riverside (a UK service) pays in pounds from two funds
with a £150 approval limit, Hillview (a US programme) in dollars from VOCA, FVPSA and a local
fund with a $200 limit. Several open cases get hotel nights, changed locks and transport, some
with a receipt; one payment of hotel nights above the limit waits for the supervisor's approval
on their today queue, and one was approved. Payees are fictional. Everything goes through the
assistance services."""

from __future__ import annotations

import datetime as dt
import struct
import zlib
from decimal import Decimal

from caseflow.accounts.models import Agency, Role
from caseflow.assistance import services
from caseflow.cases import evidence as files
from caseflow.cases.models import CaseStatus

#: (purpose, payee kind, payee, amount, days ago, details)
PAYMENTS = (
    (
        "hotel",
        "hotel",
        "Station Hotel (fictional)",
        "95.00",
        12,
        "One night while the locks are changed",
    ),
    (
        "security",
        "locksmith",
        "Quickfix Locks (fictional)",
        "120.00",
        11,
        "Front and back door locks",
    ),
    (
        "transport",
        "transport",
        "City Cabs (fictional)",
        "28.40",
        9,
        "Taxi to the refuge with the children",
    ),
    ("food", "shop", "Market Foods (fictional)", "40.00", 8, "Food vouchers for the week"),
    ("transport", "survivor", "", "12.60", 5, "Bus fares to court"),
    (
        "phone",
        "shop",
        "Phone Corner (fictional)",
        "25.00",
        3,
        "A new phone the other party does not know",
    ),
)


def _admin(agency: Agency):
    return next(
        (
            m.user
            for m in agency.memberships.select_related("user")
            if m.role == Role.AGENCY_ADMIN and m.user.is_active
        ),
        None,
    )


def receipt_png(width: int = 64, height: int = 96) -> bytes:
    """A pale grey page standing in for a photo of a receipt (fictional)."""
    raw = b"".join(b"\x00" + bytes(200 + (x + y) % 40 for x in range(width)) for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def _receipt() -> list[files.CheckedFile]:
    return [files.check_file("receipt-placeholder.png", receipt_png())]


def seed_demo(context) -> None:
    today = context.now.date()
    plans = (
        (
            "north",
            "GBP",
            Decimal("150.00"),
            ("Local authority emergency fund", "Charity hardship fund"),
        ),
        ("hillview", "USD", Decimal("200.00"), ("VOCA", "FVPSA", "County emergency fund")),
    )
    for team_key, currency, limit, funds in plans:
        if not context.staff.get(team_key):
            continue
        agency = context.staff[team_key][0].membership.agency
        admin = _admin(agency)
        if admin is None:
            continue
        services.settings_save(actor=admin, currency=currency, approval_limit=limit)
        sources = [services.funding_source_add(actor=admin, name=name) for name in funds]
        cases = [
            c
            for c in context.cases
            if c.agency_id == agency.pk
            and c.status != CaseStatus.CLOSED
            and not c.restricted
            and c.primary_advocate_id
        ][:4]
        for n, case in enumerate(cases):
            advocate = case.primary_advocate
            for i, (purpose, kind, payee, amount, ago, details) in enumerate(PAYMENTS):
                if (i + n) % 2:
                    continue
                services.payment_record(
                    actor=advocate,
                    case=case,
                    amount=Decimal(amount),
                    currency=currency,
                    purpose=purpose,
                    payee_kind=kind,
                    payee_name=payee,
                    funding_source=sources[(i + n) % len(sources)],
                    paid_on=today - dt.timedelta(days=ago + n),
                    details=details,
                    receipts=_receipt() if i in (0, 1) else (),
                )
        if not cases:
            continue
        # Three hotel nights, above the limit: one waits for the supervisor, one was approved.
        for case, approve in ((cases[0], False), (cases[-1], True)):
            approver = next(
                (u for u in case.team.supervisors() if u.pk != case.primary_advocate_id), None
            )
            if approve and (case is cases[0] or approver is None):
                continue
            payment = services.payment_record(
                actor=case.primary_advocate,
                case=case,
                amount=Decimal("285.00"),
                currency=currency,
                purpose="hotel",
                payee_kind="hotel",
                payee_name="Riverside Lodge (fictional)",
                funding_source=sources[0],
                paid_on=today - dt.timedelta(days=1 + approve),
                details="Three nights until the refuge place is free",
                receipts=_receipt(),
            )
            if approve and approver is not None:
                services.payment_decide(actor=approver, payment=payment, approve=True)
