"""Second factor: TOTP devices, one-time recovery codes, verification and re-authentication.

Devices are django-otp's (``otp_totp`` for the authenticator app, ``otp_static`` for recovery
codes). django-otp keeps static tokens in clear text, so caseflow stores only a digest of each
recovery code in the token column: a copy of the database gives nobody a usable code.
"""

from __future__ import annotations

import base64
import hashlib
import secrets

import django_otp
from django.conf import settings
from django.contrib.auth import logout
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from caseflow.accounts.credentials import credentials_revoke
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.lib.i18n import gettext_lazy as _

RECOVERY_CODE_COUNT = 10
TOTP_NAME = _("Authenticator app")
RECOVERY_NAME = _("Recovery codes")

# Session keys: when the password was accepted, when the user was last seen, and when the user
# last gave their password and second factor together.
AUTH_AT = "caseflow_auth_at"
SEEN_AT = "caseflow_seen_at"
RECENT_AUTH_AT = "caseflow_recent_auth_at"
SESSION_EPOCH = "session_epoch"
REAUTH_FAILURES = "caseflow_reauth_failures"
REAUTH_FAILURE_LIMIT = 5
# Set when the agency's identity provider said, in the ID token, that it checked a second factor.
PROVIDER_MFA = "caseflow_provider_mfa"


def now_ts() -> float:
    return timezone.now().timestamp()


# -- who needs what ---------------------------------------------------------------------------
def demo_exempt(user: User) -> bool:
    """Demo accounts on the embedded demo only: both the process flag (set by ``manage.py
    demo``, which refuses to run on a production database) and the account's own flag (set
    only by the demo seed) are needed."""
    if not (settings.DEMO_MODE and settings.EMBEDDED) or user.is_superuser:
        return False
    membership = user.membership_or_none
    if membership is None:
        seat = user.coalition_seat_or_none
        return bool(seat and seat.demo_account)
    return membership.demo_account


def second_factor_done(request: HttpRequest) -> bool:
    user = request.user
    # django-otp's middleware gives the user ``is_verified``.
    verified = user.is_authenticated and user.is_verified()  # type: ignore[union-attr,attr-defined]
    if user.is_authenticated and request.session.get(PROVIDER_MFA):
        return True
    return bool(verified or (user.is_authenticated and demo_exempt(user)))


def has_device(user: User) -> bool:
    return TOTPDevice.objects.devices_for_user(user, confirmed=True).exists()


def recovery_codes_left(user: User) -> int:
    return StaticToken.objects.filter(device__user=user, device__confirmed=True).count()


def _digest(code: str) -> str:
    """The stored form of a recovery code (80 random bits, so an unkeyed digest is enough)."""
    normal = "".join(ch for ch in code.lower() if ch.isalnum())
    raw = hashlib.sha256(b"caseflow-recovery:" + normal.encode()).digest()
    return base64.b32encode(raw).decode()[:16].lower()


def _new_code() -> str:
    raw = base64.b32encode(secrets.token_bytes(10)).decode().lower()
    return "-".join(raw[i : i + 4] for i in range(0, 16, 4))


# -- session bookkeeping ---------------------------------------------------------------------
def session_start(request: HttpRequest, user: User) -> None:
    """Called right after a password sign-in (the session key has just been rotated)."""
    now = now_ts()
    request.session[SESSION_EPOCH] = user.session_epoch
    request.session[AUTH_AT] = now
    request.session[SEEN_AT] = now
    if demo_exempt(user):
        request.session[RECENT_AUTH_AT] = now


def mark_recent_auth(request: HttpRequest) -> None:
    request.session[RECENT_AUTH_AT] = now_ts()


def recently_authenticated(request: HttpRequest) -> bool:
    at = request.session.get(RECENT_AUTH_AT)
    if at is None or not second_factor_done(request):
        return False
    return now_ts() - float(at) <= settings.RECENT_AUTH_MINUTES * 60


# -- enrolment -------------------------------------------------------------------------------
def device_pending(user: User) -> TOTPDevice:
    """The unconfirmed authenticator the user is enrolling, created on first ask."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("pk").first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=TOTP_NAME, confirmed=False)
    return device


def device_pending_or_none(user: User) -> TOTPDevice | None:
    return TOTPDevice.objects.filter(user=user, confirmed=False).order_by("pk").first()


def _recovery_codes_replace(user: User) -> list[str]:
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=RECOVERY_NAME, confirmed=True)
    codes = [_new_code() for _ in range(RECOVERY_CODE_COUNT)]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=_digest(c)) for c in codes)
    return codes


@transaction.atomic
def device_enrol(*, actor: User, request: HttpRequest, token: str) -> list[str] | None:
    """Confirm the pending authenticator with a code from it. On success the new device
    replaces any earlier one, fresh recovery codes are returned (to be shown once), and the
    session counts as verified. ``None`` when the code is wrong."""
    device = device_pending_or_none(actor)
    if device is None or not device.verify_token(token.strip()):
        record("security.second_factor_failed", actor=actor, detail={"step": "enrol"})
        return None
    TOTPDevice.objects.filter(user=actor).exclude(pk=device.pk).delete()
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    codes = _recovery_codes_replace(actor)
    django_otp.login(request, device)
    mark_recent_auth(request)
    record(
        "security.device_enrolled",
        actor=actor,
        object_type="otpdevice",
        object_id=str(device.pk),
    )
    return codes


@transaction.atomic
def recovery_codes_regenerate(*, actor: User, request: HttpRequest) -> list[str]:
    if not has_device(actor):
        raise ValueError("no authenticator enrolled")
    codes = _recovery_codes_replace(actor)
    record("security.recovery_codes_regenerated", actor=actor)
    return codes


# -- verification ----------------------------------------------------------------------------
def _match(user: User, token: str):
    """The device that accepts ``token`` (an authenticator code or a recovery code), else None."""
    token = token.strip()
    digits = token.replace(" ", "")
    if digits.isdigit():
        for device in TOTPDevice.objects.devices_for_user(user, confirmed=True):
            if device.verify_token(digits):
                return device
        return None
    for device in StaticDevice.objects.devices_for_user(user, confirmed=True):
        if device.verify_token(_digest(token)):
            return device
    return None


@transaction.atomic
def second_factor_verify(*, actor: User, request: HttpRequest, token: str) -> bool:
    device = _match(actor, token)
    if device is None:
        record("security.second_factor_failed", actor=actor, detail={"step": "verify"})
        return False
    django_otp.login(request, device)
    mark_recent_auth(request)
    if isinstance(device, StaticDevice):
        record(
            "security.recovery_code_used",
            actor=actor,
            detail={"left": recovery_codes_left(actor)},
        )
    else:
        record("security.second_factor_verified", actor=actor)
    return True


@transaction.atomic
def reauthenticate(*, actor: User, request: HttpRequest, password: str, token: str) -> bool:
    """Password and second factor again. Demo-exempt accounts give the password only."""
    ok = actor.check_password(password)
    if ok and not demo_exempt(actor):
        device = _match(actor, token)
        ok = device is not None
        if ok and isinstance(device, StaticDevice):
            record(
                "security.recovery_code_used",
                actor=actor,
                detail={"left": recovery_codes_left(actor), "step": "reauth"},
            )
    if not ok:
        failures = request.session.get(REAUTH_FAILURES, 0) + 1
        request.session[REAUTH_FAILURES] = failures
        record("security.reauth_failed", actor=actor, detail={"n": failures})
        if failures >= REAUTH_FAILURE_LIMIT:
            # Someone at an open session guessing the password: the session ends.
            record("session.revoked", actor=actor, detail={"reason": "reauth"})
            logout(request)
        return False
    request.session.pop(REAUTH_FAILURES, None)
    mark_recent_auth(request)
    record("security.reauth", actor=actor)
    return True


# -- ending sessions -------------------------------------------------------------------------
@transaction.atomic
def sessions_end_all(*, actor: User, request: HttpRequest) -> None:
    """Log out everywhere: every session of the user, this one included, ends now."""
    User.objects.filter(pk=actor.pk).update(session_epoch=F("session_epoch") + 1)
    credentials_revoke(actor=actor, user=actor)
    record("security.logout_everywhere", actor=actor)
    logout(request)


@transaction.atomic
def password_change(*, actor: User, request: HttpRequest, password: str) -> None:
    """A new password ends every other session; this one carries on."""
    actor.set_password(password)
    actor.session_epoch = F("session_epoch") + 1
    actor.save(update_fields=["password", "session_epoch"])
    actor.refresh_from_db(fields=["session_epoch"])
    request.session[SESSION_EPOCH] = actor.session_epoch
    from django.contrib.auth import update_session_auth_hash

    update_session_auth_hash(request, actor)
    credentials_revoke(actor=actor, user=actor)
    record("security.password_changed", actor=actor)
