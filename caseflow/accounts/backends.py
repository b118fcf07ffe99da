"""Who is signed in, read with SQL built once per process.

Every request of a signed-in person loads its user (Django's ``ModelBackend.get_user``, a
``get()`` by primary key), its membership with the agency, and the second factor verified in its
session (django-otp's ``Device.from_persistent_id``, a ``first()`` by id): the same statements
every time, each built and compiled by the ORM again (about 0.3 and 0.4 ms of CPU). Here they
are the statements those send, compiled once (:mod:`caseflow.lib.compiled`), the user's joined
to its membership and agency so that one statement reads all three; what is checked of the rows
is unchanged: an inactive user is nobody, and django-otp's middleware still refuses a device of
another user or one not confirmed.

``AUTHENTICATION_BACKENDS`` names :class:`AccountBackend` where Django's ``ModelBackend`` stood:
it signs people in with the password exactly as Django's does (it is the same class but for
``get_user``).
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.db.models import QuerySet
from django_otp.middleware import OTPMiddleware
from django_otp.models import Device

from caseflow.lib.compiled import CompiledQuery

#: The backend's path, as sessions keep it and ``login(..., backend=...)`` names it.
BACKEND = "caseflow.accounts.backends.AccountBackend"

#: What ``get()`` asks at most (it reads 21 rows to say "more than one").
_MAX_GET_RESULTS = 21


def _user_by_pk(*, pk: int) -> QuerySet[Any]:
    """What ``User._default_manager.get(pk=pk)`` sends (``get()`` clears the ordering), with the
    user's membership and its agency joined: every request reads them next (the membership
    middleware and the agency's time zone), and they come in the same statement."""
    return (
        get_user_model()
        ._default_manager.select_related("membership__agency")
        .filter(pk=pk)
        .order_by()[:_MAX_GET_RESULTS]
    )


_USER_BY_PK: CompiledQuery[Any] | None = None


class AccountBackend(ModelBackend):
    """Django's ``ModelBackend``, its ``get_user`` run with the compiled statement."""

    def get_user(self, user_id: Any) -> Any:
        global _USER_BY_PK
        model = get_user_model()
        if _USER_BY_PK is None:
            _USER_BY_PK = CompiledQuery(model, _user_by_pk, pk="int")
        found = _USER_BY_PK.rows(pk=user_id)
        if len(found) > 1:  # as ``get()``; the primary key makes it impossible
            raise model.MultipleObjectsReturned
        if not found:
            return None
        user = found[0]
        return user if self.user_can_authenticate(user) else None


def _device_first(device_cls: type[Device]) -> Any:
    def build(*, pk: int) -> QuerySet[Any]:
        # ``Device._filter_persistent_id(...).first()``: by id, by primary key unless ordered.
        found = device_cls.objects.filter(id=pk)
        return (found if found.ordered else found.order_by("pk"))[:1]

    return build


_DEVICE_BY_ID: dict[type[Device], CompiledQuery[Any]] = {}


def device_from_persistent_id(persistent_id: str) -> Device | None:
    """``Device.from_persistent_id(persistent_id)`` (not for verifying a token), compiled: the
    device the id names, or None for an id that names no device model or no row."""
    try:
        model_label, device_id = persistent_id.rsplit("/", 1)
        app_label, model_name = model_label.split(".")
        device_cls = apps.get_model(app_label, model_name)
        pk = int(device_id)
    except (ValueError, LookupError):
        return None
    if not issubclass(device_cls, Device):
        return None
    compiled = _DEVICE_BY_ID.get(device_cls)
    if compiled is None:
        compiled = _DEVICE_BY_ID.setdefault(
            device_cls, CompiledQuery(device_cls, _device_first(device_cls), pk="int")
        )
    found = compiled.rows(pk=pk)
    return found[0] if found else None


class CompiledOTPMiddleware(OTPMiddleware):
    """django-otp's middleware, the session's device loaded by :func:`device_from_persistent_id`;
    the device is then bound to the user and checked confirmed by django-otp as before."""

    def _device_from_persistent_id(self, persistent_id: str) -> Any:
        return device_from_persistent_id(self._normalize_persistent_id(persistent_id))
