"""Agency admins never choose or see a password: new staff and resets get a one-time link, and
the person chooses their own. Every reset and every casework role granted is told to the
person and their supervisors, audited, and the next sign-in stands out on the activity page."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from caseflow.accounts import links
from caseflow.accounts.models import Role, User
from caseflow.accounts.tasks import send_account_link
from caseflow.audit.models import AuditEvent
from caseflow.inbox.models import Notification
from caseflow.lib.logging_filters import redact_paths
from caseflow.outbox.models import Intent
from tests import factories as f
from tests.accounts.flows import password_login
from tests.conftest import Cast, verified_session

pytestmark = pytest.mark.django_db

NEW_STAFF = {
    "username": "new.advocate",
    "first_name": "New",
    "last_name": "Advocate",
    "email": "new@example.invalid",
    "role": Role.ADVOCATE,
    "is_active": "on",
}
CHOSEN = "a-password-she-chose-herself"


def _mailed_link(user: User) -> str:
    """Run the intent the request recorded (as the worker would) and read the link it mailed."""
    intent = Intent.objects.get(task="caseflow.accounts.tasks.send_account_link")
    assert intent.kwargs == {"user_id": user.pk}  # the token is never in the outbox
    mail.outbox.clear()
    assert send_account_link(**intent.kwargs) is True
    (message,) = mail.outbox
    assert message.to == [user.email]
    assert user.first_name not in message.body and user.last_name not in message.body
    found = re.search(r"https?://[^/\s]+(/accounts/link/\S+)", message.body)
    assert found, message.body
    return found.group(1)


def _choose_password(client: Client, path: str, password: str = CHOSEN):
    opened = client.get(path)
    assert opened.status_code == 302
    form_url = opened["Location"]
    assert links.SET_PASSWORD in form_url and path.split("/")[-2] not in form_url
    assert client.get(form_url).status_code == 200
    return client.post(form_url, {"new_password": password, "new_password_again": password})


def test_new_staff_have_no_password_until_they_follow_their_link(cast: Cast, login):
    admin = login(cast.agency_admin)
    response = admin.post(
        reverse("agency:staff_new"),
        {**NEW_STAFF, "teams": [cast.team1.pk], "password": "the-admins-own-choice-1"},
    )
    assert response.status_code == 302
    person = User.objects.get(username="new.advocate")
    # The admin cannot choose it (a password in the POST is ignored) and nobody knows one.
    assert not person.has_usable_password()
    assert not person.check_password("the-admins-own-choice-1")
    assert 'type="password"' not in admin.get(reverse("agency:staff_new")).content.decode()
    listed = admin.get(reverse("agency:staff_list")).content.decode()
    assert listed.count("Link sent; no password chosen yet") == 1

    path = _mailed_link(person)
    newcomer = Client()
    done = _choose_password(newcomer, path)
    assert done.status_code == 302 and done["Location"] == reverse("accounts:second_factor")
    person.refresh_from_db()
    assert person.check_password(CHOSEN)
    # Signed in with the password step done: the next stop is setting up the authenticator.
    assert newcomer.get(reverse("accounts:second_factor"))["Location"] == reverse("accounts:enrol")
    assert newcomer.get(reverse("accounts:enrol")).status_code == 200
    assert AuditEvent.objects.filter(
        action="security.password_set_by_link", actor_id=person.pk
    ).exists()
    # The link works once.
    again = Client().get(path)
    assert again.status_code == 200 and "no longer works" in again.content.decode()


def test_a_link_expires(cast: Cast, login, settings):
    login(cast.agency_admin).post(reverse("agency:staff_new"), NEW_STAFF)
    person = User.objects.get(username="new.advocate")
    path = _mailed_link(person)
    later = timezone.now() + dt.timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT + 60)
    with time_machine.travel(later, tick=False):
        response = Client().get(path)
    assert response.status_code == 200 and "no longer works" in response.content.decode()
    tampered = path.rstrip("/")[:-3] + "abc/"
    assert "no longer works" in Client().get(tampered).content.decode()
    # The form address without a token in the session is refused too.
    form_url = reverse("accounts:link", args=[path.split("/")[3], links.SET_PASSWORD])
    posted = Client().post(form_url, {"new_password": CHOSEN, "new_password_again": CHOSEN})
    assert "no longer works" in posted.content.decode()
    person.refresh_from_db()
    assert not person.has_usable_password()


def test_a_mismatched_password_is_a_form_error(cast: Cast, login):
    login(cast.agency_admin).post(reverse("agency:staff_new"), NEW_STAFF)
    person = User.objects.get(username="new.advocate")
    client = Client()
    form_url = client.get(_mailed_link(person))["Location"]
    response = client.post(form_url, {"new_password": CHOSEN, "new_password_again": "other"})
    assert response.status_code == 200
    assert "The two passwords are not the same" in response.content.decode()
    short = client.post(form_url, {"new_password": "short", "new_password_again": "short"})
    assert "too short" in short.content.decode()
    person.refresh_from_db()
    assert not person.has_usable_password()


def test_a_password_reset_sends_a_link_tells_everyone_and_flags_the_next_sign_in(cast: Cast, login):
    target = cast.same_team
    theirs = Client()
    verified_session(theirs, target)
    admin = login(cast.agency_admin)
    # The edit form has no password field; the reset is its own button.
    page = admin.get(reverse("agency:staff_edit", args=[target.pk])).content.decode()
    assert 'type="password"' not in page and "Send a password link" in page

    response = admin.post(reverse("agency:staff_password_reset", args=[target.pk]))
    assert response.status_code == 302
    target.refresh_from_db()
    assert not target.check_password(f.PASSWORD)  # the old password no longer works
    assert theirs.get(reverse("dashboard")).status_code == 302  # signed out everywhere
    event = AuditEvent.objects.get(action="security.password_reset", object_id=str(target.pk))
    assert event.actor_id == cast.agency_admin.pk

    told = set(Notification.objects.values_list("recipient__username", "channel"))
    assert told == {
        (name, channel) for name in ("same_team", "supervisor") for channel in ("in_app", "email")
    }
    for note in Notification.objects.all():
        assert "same_team" not in note.text and target.first_name not in note.text

    client = Client()
    assert _choose_password(client, _mailed_link(target)).status_code == 302
    flagged = AuditEvent.objects.filter(action="security.login_after_reset", actor_id=target.pk)
    assert flagged.count() == 1
    # Only the first sign-in after the reset is flagged.
    password_login(Client(), "same_team", CHOSEN)
    assert flagged.count() == 1

    activity = login(cast.supervisor).get(reverse("audit:user", args=[target.pk]))
    assert "Signed in after a reset" in activity.content.decode()
    other = login(cast.supervisor).get(reverse("audit:user", args=[cast.assigned.pk]))
    assert "Signed in after a reset" not in other.content.decode()


def test_a_second_factor_reset_is_told_and_flags_the_next_sign_in(cast: Cast, login):
    target = cast.same_team
    admin = login(cast.agency_admin)
    url = reverse("agency:staff_second_factor_reset", args=[target.pk])
    assert admin.post(url).status_code == 302
    recipients = set(Notification.objects.values_list("recipient__username", flat=True))
    assert recipients == {"same_team", "supervisor"}
    assert Notification.objects.filter(channel="email").count() == 2
    assert password_login(Client(), "same_team").status_code == 302
    assert AuditEvent.objects.filter(
        action="security.login_after_reset", actor_id=target.pk
    ).exists()


def test_granting_a_casework_role_is_told(cast: Cast, login):
    target = cast.auditor
    cast.team1.members.add(target)
    admin = login(cast.agency_admin)
    data = {**NEW_STAFF, "username": target.username, "email": target.email}
    data.update(role=Role.SUPERVISOR, teams=[cast.team1.pk])
    assert admin.post(reverse("agency:staff_edit", args=[target.pk]), data).status_code == 302
    recipients = set(Notification.objects.values_list("recipient__username", "channel"))
    assert recipients == {
        (name, channel) for name in ("auditor", "supervisor") for channel in ("in_app", "email")
    }
    Notification.objects.all().delete()
    # A change between casework roles, or none, tells nobody again.
    data["role"] = Role.ADVOCATE
    admin.post(reverse("agency:staff_edit", args=[target.pk]), data)
    assert not Notification.objects.exists()


def test_the_link_token_never_reaches_an_access_log(cast: Cast, login):
    login(cast.agency_admin).post(reverse("agency:staff_new"), NEW_STAFF)
    path = _mailed_link(User.objects.get(username="new.advocate"))
    token = path.rstrip("/").split("/")[-1]
    line = redact_paths(f'"GET {path} HTTP/1.1" 302 0 "https://example.org{path}"')
    assert token not in line and "/[redacted]/" in line


@pytest.mark.demo
def test_the_demo_shows_a_new_starter_and_a_reset(db):
    from caseflow.demo import seed

    seed.seed()
    starter = User.objects.get(username="fay.advocate")
    assert not starter.has_usable_password()
    assert Intent.objects.filter(kwargs={"user_id": starter.pk}).exists()
    assert User.objects.get(username="ben.advocate").reset_at is not None
    told = Notification.objects.filter(
        kind="account_change", recipient__username="nadia.supervisor"
    )
    assert told.count() == 4  # the new casework role and the reset, in the app and by e-mail
