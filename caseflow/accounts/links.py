"""One-time links with which a person sets their own password: the enrolment link a new member
of staff receives, and the reset link an agency admin sends. Nobody else ever chooses or sees
the password.

A link's token is Django's password-reset token with caseflow's own salt: it is computed from
the account's password hash, last sign-in and session epoch, so it is stored nowhere, stops
working once the password is set (single use), when the person signs out everywhere, and after
``PASSWORD_RESET_TIMEOUT``. It is made and e-mailed by a task (the request only records the
intent, with the account's id), and the access logs mask it (``SECRET_PATHS``).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext

from caseflow.accounts import backends
from caseflow.accounts import second_factor as sf
from caseflow.accounts.credentials import credentials_revoke
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.lib.i18n import language_of

#: The token in the URL is swapped for this word (the token moves into the session) before the
#: form is shown, so the page's own address, its referrer and any later log line hold no secret.
SET_PASSWORD = "set-password"
SESSION_TOKEN = "caseflow_account_link_token"


class AccountLinkTokens(PasswordResetTokenGenerator):
    key_salt = "caseflow.accounts.links.AccountLinkTokens"

    def _make_hash_value(self, user, timestamp: int) -> str:  # type: ignore[no-untyped-def]
        login_at = "" if user.last_login is None else user.last_login.replace(microsecond=0)
        return f"{user.pk}{user.password}{login_at}{user.session_epoch}{timestamp}{user.is_active}"


tokens = AccountLinkTokens()


def link_path(user: User) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse("accounts:link", args=[uid, tokens.make_token(user)])


def user_of(uidb64: str) -> User | None:
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode())
    except (TypeError, ValueError, OverflowError, UnicodeDecodeError):
        return None
    return User.objects.filter(pk=pk, is_active=True).first()


def link_valid(user: User | None, token: str) -> bool:
    return user is not None and tokens.check_token(user, token)


def link_send(*, user_id: int) -> bool:
    """E-mail a fresh link to the account's own address. The message names no person and no
    case. False when the account is gone, deactivated or has no address."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.email:
        return False
    hours = settings.PASSWORD_RESET_TIMEOUT // 3600
    first = not user.has_usable_password() and user.last_login is None
    with translation.override(language_of(user)):
        subject = (
            gettext("caseflow: set up your account")
            if first
            else gettext("caseflow: choose a new password")
        )
        opening = (
            gettext("An account on caseflow is ready for you.")
            if first
            else gettext("Your password was reset.")
        )
        body = (
            opening
            + "\n\n"
            + gettext(
                "Open this link within %(hours)s hours to choose your password (it works once):"
            )
            % {"hours": hours}
            + f"\n{settings.CASEFLOW_BASE_URL}{link_path(user)}\n\n"
            + gettext(
                "Then you set up the authenticator app on your phone, if you have not already."
            )
            + "\n"
            + gettext("If you did not expect this message, tell your supervisor.")
            + "\n"
        )
    send_mail(subject=subject, message=body, from_email=None, recipient_list=[user.email])
    return True


@transaction.atomic
def password_set_by_link(*, request: HttpRequest, user: User, password: str) -> None:
    """The person chose their password through a valid link: every other session and credential
    of theirs ends, and this browser is signed in with the password step done (the second
    factor comes next)."""
    user.set_password(password)
    user.session_epoch = F("session_epoch") + 1
    user.save(update_fields=["password", "session_epoch"])
    user.refresh_from_db(fields=["session_epoch"])
    credentials_revoke(actor=user, user=user)
    login(request, user, backend=backends.BACKEND)
    sf.session_start(request, user)
    record("security.password_set_by_link", actor=user)
    signed_in(request=request, user=user)


def signed_in(*, request: HttpRequest, user: User) -> None:
    """After a password step: the first sign-in since an admin reset the account is recorded
    on its own, so it stands out on the person's activity page."""
    if user.reset_at is None:
        return
    record(
        "security.login_after_reset",
        actor=user,
        detail={"reset_at": user.reset_at.isoformat(timespec="seconds")},
    )
    User.objects.filter(pk=user.pk).update(reset_at=None)
    user.reset_at = None


def mark_reset(user: User) -> None:
    """An admin reset the account's password or second factor: the next sign-in is flagged."""
    now = timezone.now()
    User.objects.filter(pk=user.pk).update(reset_at=now)
    user.reset_at = now
