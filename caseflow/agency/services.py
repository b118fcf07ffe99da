"""Managing staff and teams (agency admins): never any case content."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from caseflow import policy
from caseflow.accounts.credentials import credentials_revoke
from caseflow.accounts.models import Membership, Team, User
from caseflow.audit.services import record


def _admin_agency(actor: User) -> int:
    if not policy.is_agency_admin(actor):
        raise PermissionDenied
    return actor.membership.agency_id


@transaction.atomic
def staff_save(
    *,
    actor: User,
    request: HttpRequest | None,
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
        old_role, old_active = None, None
    else:
        if user.membership.agency_id != agency_id:
            raise PermissionDenied
        old_role, old_active = user.membership.role, user.membership.is_active
    if user.pk == actor.pk and (data["role"] != old_role or not data["is_active"]):
        raise PermissionDenied("You cannot change your own role or deactivate yourself.")
    user.first_name = data["first_name"]
    user.last_name = data.get("last_name", "")
    user.email = data["email"]
    user.is_active = data["is_active"]
    password_changed = bool(data.get("password"))
    if password_changed:
        user.set_password(data["password"])
    user.save()
    if adding:
        Membership.objects.create(
            user=user, agency_id=agency_id, role=data["role"], is_active=data["is_active"]
        )
    else:
        Membership.objects.filter(user=user).update(role=data["role"], is_active=data["is_active"])
    if not adding and (password_changed or not data["is_active"] or old_role != data["role"]):
        # Every other session of this user ends at its next request.
        User.objects.filter(pk=user.pk).update(session_epoch=F("session_epoch") + 1)
    user.teams.set(teams)
    record(
        "staff.create" if adding else "staff.update",
        actor=actor,
        request=request,
        object_type="user",
        object_id=str(user.pk),
        agency_id=agency_id,
        detail={
            "role": data["role"],
            "previous_role": old_role,
            "active": data["is_active"],
            "previous_active": old_active,
            "teams": sorted(t.pk for t in teams),
            "password_changed": password_changed,
        },
    )
    if old_role is not None and old_role != data["role"]:
        record(
            "security.role_change",
            actor=actor,
            request=request,
            object_type="user",
            object_id=str(user.pk),
            agency_id=agency_id,
            detail={"from": old_role, "to": data["role"]},
        )
    return user


@transaction.atomic
def team_save(
    *,
    actor: User,
    request: HttpRequest | None,
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
        request=request,
        object_type="team",
        object_id=str(team.pk),
        agency_id=agency_id,
        detail={"added": sorted(after - before), "removed": sorted(before - after)},
    )
    return team


@transaction.atomic
def staff_second_factor_reset(*, actor: User, request: HttpRequest, user: User) -> None:
    """An agency admin clears a colleague's authenticator and recovery codes (phone and codes
    both lost). Their sessions end; at the next sign-in they enrol again."""
    if user.pk == actor.pk or not policy.agency_users(actor).filter(pk=user.pk).exists():
        raise PermissionDenied
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()
    User.objects.filter(pk=user.pk).update(session_epoch=F("session_epoch") + 1)
    credentials_revoke(actor=actor, user=user, request=request)
    record(
        "security.second_factor_reset",
        actor=actor,
        request=request,
        object_type="user",
        object_id=str(user.pk),
    )
