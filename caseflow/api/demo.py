"""Demo data for integrations: the admin has registered the county hotline's platform (it sends
referrals to the North team; one has just arrived, waiting to be assigned) and the state
coalition's data system (it reads the funder figures); an old website form was revoked; the
on-call system is subscribed to referrals, breaches and high-risk cases without a plan (its
address is fictional, so each delivery waits to be sent again, as the page shows). A co-parenting
app's export has been sent for one North case with an active agreement: the other party's
messages wait for the advocate's review, the survivor's own reply is recorded as within or
outside what was agreed."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.agreements.models import AgreementStatus, ContactAgreement
from caseflow.api import services
from caseflow.outbox.events import EventKind


def seed_demo(context) -> None:
    admin = User.objects.get(username="ada.admin")
    north = context.staff["north"][0].teams.get(name="North team")
    year = context.now + dt.timedelta(days=365)
    hotline, _key = services.integration_register(
        actor=admin,
        name="County hotline platform",
        scopes=[policy.SCOPE_REFERRALS_WRITE, policy.SCOPE_CASES_SUMMARY],
        team=north,
        expires_at=year,
        allowed_addresses="203.0.113.0/24",
        rate_per_minute=30,
    )
    services.integration_register(
        actor=admin,
        name="State coalition data system",
        scopes=[policy.SCOPE_REPORTS],
        team=None,
        expires_at=year,
    )
    old, _old_key = services.integration_register(
        actor=admin,
        name="Old website form",
        scopes=[policy.SCOPE_REFERRALS_WRITE],
        team=north,
        expires_at=year,
    )
    services.integration_revoke(actor=admin, integration=old)
    subscription, _secret = services.webhook_subscribe(
        actor=admin,
        url="https://on-call.demo.invalid/caseflow",
        kinds=[
            EventKind.REFERRAL_RECEIVED,
            EventKind.BREACH_RECORDED,
            EventKind.HIGH_RISK_WITHOUT_PLAN,
        ],
    )
    answer = services.referral_create(
        actor=hotline.account,
        integration=hotline,
        data={
            "survivor": {"full_name": "Juniper Demo-Caller", "phone": "555-0100"},
            "summary": "Called the hotline late at night; asks for a call back on weekdays.",
        },
        idempotency_key="hotline-demo-0001",
    )
    services.webhook_fanout(
        kind=EventKind.REFERRAL_RECEIVED,
        agency_id=subscription.agency_id,
        case_public_id=answer.body["id"],
        at=context.now.isoformat(),
    )
    _contact_export(context, admin, north, year)
    services.high_risk_sweep(now=context.now)


def _contact_export(context, admin: User, north, year: dt.datetime) -> None:
    """The co-parenting app's export of last Monday evening, sent for a North case."""
    agreement = (
        ContactAgreement.objects.filter(
            case__team=north, case__restricted=False, status=AgreementStatus.ACTIVE
        )
        .select_related("case")
        .order_by("pk")
        .first()
    )
    if agreement is None:
        return
    app, _key = services.integration_register(
        actor=admin,
        name="Co-parenting app export",
        scopes=[policy.SCOPE_CONTACTS_WRITE],
        team=north,
        expires_at=year,
    )
    zone = ZoneInfo("Europe/London")
    today = context.now.astimezone(zone).date()
    monday = today - dt.timedelta(days=today.weekday() + 7)

    def at(hour: int, minute: int) -> dt.datetime:
        return dt.datetime.combine(monday, dt.time(hour, minute), zone)

    services.contact_events_record(
        actor=app.account,
        integration=app,
        public_id=agreement.case.public_id,
        data={
            "events": [
                {
                    "message_id": "demo-app-5101",
                    "occurred_at": at(18, 15),
                    "sender": "other_party",
                    "topic": "school",
                    "text": "Can you confirm the school trip form is signed?",
                },
                {
                    "message_id": "demo-app-5102",
                    "occurred_at": at(18, 40),
                    "sender": "survivor",
                    "topic": "school",
                    "text": "Yes, it is in the bag.",
                },
                {
                    "message_id": "demo-app-5103",
                    "occurred_at": at(23, 5),
                    "sender": "other_party",
                    "topic": "holidays",
                    "text": "We need to talk about the summer. Call me.",
                },
            ]
        },
    )
