"""Demo data for the second factor: one supervisor signs in with an authenticator app (her
secret and recovery codes are in var/demo-users.json, so a tester can add her to an app); every
other demo account is marked as a demo account and, while ``manage.py demo`` runs, skips the
second factor under the demo banner."""

from __future__ import annotations

import base64

from django_otp.plugins.otp_totp.models import TOTPDevice

from caseflow.accounts import second_factor as sf
from caseflow.accounts.models import Membership
from caseflow.audit.services import record

ENROLLED = "nadia.supervisor"


def seed_demo(context) -> None:
    agencies = {u.membership.agency_id for people in context.staff.values() for u in people}
    Membership.objects.filter(agency_id__in=agencies).update(demo_account=True)
    user = next(u for people in context.staff.values() for u in people if u.username == ENROLLED)
    Membership.objects.filter(user=user).update(demo_account=False)
    device = TOTPDevice.objects.create(user=user, name=sf.TOTP_NAME, confirmed=True)
    codes = sf._recovery_codes_replace(user)
    record(
        "security.device_enrolled",
        actor=user,
        object_type="otpdevice",
        object_id=str(device.pk),
        detail={"demo": True},
    )
    for login in getattr(context, "logins", []):
        if login.username == ENROLLED:
            login.totp_secret = base64.b32encode(device.bin_key).decode()
            login.recovery_codes = codes
