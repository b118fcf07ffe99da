"""Demo data for integrations: the admin has registered the county hotline's platform (it sends
referrals to the North team; one has just arrived, waiting to be assigned) and the state
coalition's data system (it reads the funder figures); an old website form was revoked; the
on-call system is subscribed to referrals and breaches (its address is fictional, so each
delivery waits to be sent again, as the page shows)."""

from __future__ import annotations

import datetime as dt

from caseflow import policy
from caseflow.accounts.models import User
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
        kinds=[EventKind.REFERRAL_RECEIVED, EventKind.BREACH_RECORDED],
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
