"""Managing staff and teams (agency admins): never any case content.

An agency admin never chooses or sees anyone's password: a new member of staff is created
without one and receives an enrolment link, and a reset sends a link (see
:mod:`caseflow.accounts.links`). Granting a casework role and every password or second-factor
reset tell the person and their teams' supervisors (in the app and by e-mail, no personal data),
and the person's next sign-in is flagged on their activity page.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_noop, ngettext
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from caseflow import policy
from caseflow.accounts import links
from caseflow.accounts.credentials import credentials_revoke
from caseflow.accounts.models import (
    Agency,
    Membership,
    ProviderGroup,
    Role,
    Team,
    User,
    lists_show_initials,
    set_lists_show_initials,
)
from caseflow.audit.services import record
from caseflow.cases.drafts import drafts_forget_user
from caseflow.cases.reassign import open_primary_cases
from caseflow.inbox.models import NotificationChannel
from caseflow.inbox.services import notify
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.outbox.services import enqueue

SEND_LINK = "caseflow.accounts.tasks.send_account_link"

#: What the person and their supervisors are told, per kind of change (no personal data).
_TOLD = {
    "casework_role": (
        gettext_noop(
            "You were given a casework role on caseflow. If you did not expect this, tell your "
            "supervisor."
        ),
        gettext_noop(
            "A member of your team was given a casework role by an agency admin. Please check it "
            "was expected."
        ),
    ),
    "password_reset": (
        gettext_noop(
            "Your caseflow password was reset: choose a new one with the link sent to you by "
            "e-mail. If you did not ask for this, tell your supervisor."
        ),
        gettext_noop(
            "An agency admin reset the password of a member of your team. Please check it was "
            "expected."
        ),
    ),
    "second_factor_reset": (
        gettext_noop(
            "Your caseflow second factor was reset: set up your authenticator app at your next "
            "sign-in. If you did not ask for this, tell your supervisor."
        ),
        gettext_noop(
            "An agency admin reset the second factor of a member of your team. Please check it was "
            "expected."
        ),
    ),
}


def _team_supervisors(user: User) -> list[User]:
    return list(
        User.objects.filter(
            teams__in=user.teams.all(),
            is_active=True,
            membership__role=Role.SUPERVISOR,
            membership__is_active=True,
        )
        .exclude(pk=user.pk)
        .distinct()
    )


def _tell(user: User, change: str) -> None:
    """Tell the person and their teams' supervisors, in the app and by e-mail."""
    to_person, to_supervisors = _TOLD[change]
    key = f"account:{change}:{user.pk}:{timezone.now():%Y%m%dT%H%M%S.%f}"
    supervisors = _team_supervisors(user)
    for channel in (NotificationChannel.IN_APP, NotificationChannel.EMAIL):
        notify(
            recipients=[user],
            kind="account_change",
            case=None,
            key=key,
            message=to_person,
            channel=channel,
            link=reverse("accounts:security"),
        )
        notify(
            recipients=supervisors,
            kind="account_change",
            case=None,
            key=key,
            message=to_supervisors,
            channel=channel,
            link=reverse("audit:user", args=[user.pk]),
        )


def _admin_agency(actor: User) -> int:
    if not policy.is_agency_admin(actor):
        raise PermissionDenied
    return actor.membership.agency_id


def _refuse_leaving_cases_without_primary(user: User, data: dict[str, Any]) -> None:
    """No open case is left without an active primary advocate: someone who is the primary
    advocate of open cases keeps a casework role and stays active until their cases are handed
    over (``cases.reassign``)."""
    leaving = not data["is_active"] or data["role"] not in policy.CASEWORK_ROLES
    if not leaving:
        return
    held = open_primary_cases(user)
    count = held.count()
    if count:
        restricted = held.filter(restricted=True).count()
        words = [
            ngettext(
                "This member of staff is the primary advocate of %(count)s open case. Their "
                "team's supervisor hands it to someone else first, from Reassign cases; then "
                "this change can be saved.",
                "This member of staff is the primary advocate of %(count)s open cases. Their "
                "team's supervisor hands them to someone else first, from Reassign cases; then "
                "this change can be saved.",
                count,
            )
            % {"count": count}
        ]
        if restricted:
            words.append(
                ngettext(
                    "%(restricted)s of them is restricted: a supervisor on its access list hands "
                    "it over.",
                    "%(restricted)s of them are restricted: a supervisor on each one's access "
                    "list hands it over.",
                    restricted,
                )
                % {"restricted": restricted}
            )
        raise ValidationError(" ".join(words), code="open_cases")


@transaction.atomic
def staff_save(
    *,
    actor: User,
    user: User | None,
    data: dict[str, Any],
    teams: Iterable[Team],
) -> User:
    agency_id = _admin_agency(actor)
    teams = list(teams)
    if any(t.agency_id != agency_id for t in teams):
        raise PermissionDenied
    adding = user is None
    if user is None:
        user = User(username=data["username"])
        # Nobody knows a password for it: the person chooses one through their link.
        user.set_unusable_password()
        old_role, old_active = None, None
    else:
        if user.membership.agency_id != agency_id:
            raise PermissionDenied
        old_role, old_active = user.membership.role, user.membership.is_active
    if user.pk == actor.pk and (data["role"] != old_role or not data["is_active"]):
        raise PermissionDenied(_("You cannot change your own role or deactivate yourself."))
    if not adding:
        _refuse_leaving_cases_without_primary(user, data)
    user.first_name = data["first_name"]
    user.last_name = data.get("last_name", "")
    user.email = data["email"]
    user.is_active = data["is_active"]
    user.save()
    if adding:
        Membership.objects.create(
            user=user, agency_id=agency_id, role=data["role"], is_active=data["is_active"]
        )
    else:
        Membership.objects.filter(user=user).update(role=data["role"], is_active=data["is_active"])
    if not adding and (not data["is_active"] or old_role != data["role"]):
        # Every other session of this user ends at its next request.
        User.objects.filter(pk=user.pk).update(session_epoch=F("session_epoch") + 1)
    if not adding and not data["is_active"]:
        drafts_forget_user(actor=actor, user=user)
    user.teams.set(teams)
    record(
        "staff.create" if adding else "staff.update",
        actor=actor,
        object_type="user",
        object_id=str(user.pk),
        agency_id=agency_id,
        detail={
            "role": data["role"],
            "previous_role": old_role,
            "active": data["is_active"],
            "previous_active": old_active,
            "teams": sorted(t.pk for t in teams),
            "link_sent": adding,
        },
    )
    if adding:
        enqueue(SEND_LINK, user_id=user.pk)
    if old_role is not None and old_role != data["role"]:
        record(
            "security.role_change",
            actor=actor,
            object_type="user",
            object_id=str(user.pk),
            agency_id=agency_id,
            detail={"from": old_role, "to": data["role"]},
        )
    if data["role"] in policy.CASEWORK_ROLES and old_role not in policy.CASEWORK_ROLES:
        _tell(user, "casework_role")
    return user


@transaction.atomic
def team_save(
    *,
    actor: User,
    team: Team | None,
    name: str,
    members: Iterable[User],
) -> Team:
    agency_id = _admin_agency(actor)
    members = list(members)
    if any(m.membership.agency_id != agency_id for m in members):
        raise PermissionDenied
    adding = team is None
    if team is None:
        team = Team(agency_id=agency_id)
    elif team.agency_id != agency_id:
        raise PermissionDenied
    team.name = name
    team.save()
    before = set(team.members.values_list("pk", flat=True))
    team.members.set(members)
    after = {m.pk for m in members}
    record(
        "team.create" if adding else "team.update",
        actor=actor,
        object_type="team",
        object_id=str(team.pk),
        agency_id=agency_id,
        detail={"added": sorted(after - before), "removed": sorted(before - after)},
    )
    return team


@transaction.atomic
def staff_second_factor_reset(*, actor: User, user: User) -> None:
    """An agency admin clears a colleague's authenticator and recovery codes (phone and codes
    both lost). Their sessions end; at the next sign-in they enrol again."""
    if user.pk == actor.pk or not policy.agency_users(actor).filter(pk=user.pk).exists():
        raise PermissionDenied
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()
    User.objects.filter(pk=user.pk).update(session_epoch=F("session_epoch") + 1)
    credentials_revoke(actor=actor, user=user)
    links.mark_reset(user)
    record(
        "security.second_factor_reset",
        actor=actor,
        object_type="user",
        object_id=str(user.pk),
    )
    _tell(user, "second_factor_reset")


@transaction.atomic
def staff_password_reset(*, actor: User, user: User) -> None:
    """The person's password stops working, their sessions and feed links end, and they are
    e-mailed a link to choose a new one (also how a new member of staff gets a fresh enrolment
    link). The admin never learns or sets the password."""
    if user.pk == actor.pk or not policy.agency_users(actor).filter(pk=user.pk).exists():
        raise PermissionDenied
    user.set_unusable_password()
    user.session_epoch = F("session_epoch") + 1
    user.save(update_fields=["password", "session_epoch"])
    user.refresh_from_db(fields=["session_epoch"])
    credentials_revoke(actor=actor, user=user)
    links.mark_reset(user)
    record(
        "security.password_reset",
        actor=actor,
        object_type="user",
        object_id=str(user.pk),
        agency_id=user.membership.agency_id,
    )
    enqueue(SEND_LINK, user_id=user.pk)
    _tell(user, "password_reset")


@transaction.atomic
def agency_time_zone_save(*, actor: User, time_zone: str) -> Agency:
    """Set where the admin's agency works (the one time rule: see ``accounts.zones``)."""
    agency_id = _admin_agency(actor)
    agency = Agency.objects.select_for_update().get(pk=agency_id)
    before = agency.time_zone
    agency.time_zone = time_zone
    agency.save(update_fields=["time_zone"])
    record(
        "agency.time_zone",
        actor=actor,
        object_type="agency",
        object_id=str(agency.pk),
        agency_id=agency_id,
        detail={"before": before, "after": time_zone},
    )
    return agency


@transaction.atomic
def agency_list_initials_save(*, actor: User, initials: bool) -> None:
    """Whether the admin's agency's case lists show survivors' initials instead of names."""
    agency_id = _admin_agency(actor)
    before = lists_show_initials(agency_id)
    set_lists_show_initials(agency_id, initials)
    record(
        "agency.list_initials",
        actor=actor,
        object_type="agency",
        object_id=str(agency_id),
        agency_id=agency_id,
        detail={"before": before, "after": initials},
    )


@transaction.atomic
def provider_group_add(*, actor: User, name: str, role: str, team: Team | None) -> ProviderGroup:
    """Staff in provider group ``name`` get ``role`` (and ``team``) from their next sign-in."""
    agency_id = _admin_agency(actor)
    if team is not None and team.agency_id != agency_id:
        raise PermissionDenied
    group = ProviderGroup.objects.create(agency_id=agency_id, name=name, role=Role(role), team=team)
    record(
        "security.provider_groups_change",
        actor=actor,
        object_type="providergroup",
        object_id=str(group.pk),
        detail={"change": "add", "role": group.role},
    )
    return group


@transaction.atomic
def provider_group_delete(*, actor: User, group_id: int) -> bool:
    agency_id = _admin_agency(actor)
    deleted, _ = ProviderGroup.objects.filter(agency_id=agency_id, pk=group_id).delete()
    if deleted:
        record(
            "security.provider_groups_change",
            actor=actor,
            object_type="providergroup",
            object_id=str(group_id),
            detail={"change": "delete"},
        )
    return bool(deleted)
