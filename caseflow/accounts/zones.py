"""The one time rule: staff enter and read times in their agency's time zone.

The agency admin sets the zone (``Agency.time_zone``); ``settings.STAFF_TIME_ZONE`` is the
default for an agency that has not chosen one and for pages nobody is signed in to.
:class:`caseflow.middleware.AgencyTimeZoneMiddleware` activates the zone for each request, so
templates' dates and forms' date-time inputs are read and shown in it; :func:`current` answers
"where do the staff of this request work" anywhere below the view (the today queue's day);
:func:`agency_today` is the agency's day, whichever zone the request runs in.
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import zoneinfo
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext

from caseflow.lib.i18n import gettext_lazy as _

_current: contextvars.ContextVar[zoneinfo.ZoneInfo | None] = contextvars.ContextVar(
    "caseflow_staff_zone", default=None
)


def is_valid(name: str) -> bool:
    if not name:
        return False
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return False
    return True


def default_zone() -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(settings.STAFF_TIME_ZONE)


def agency_zone(agency: Any) -> zoneinfo.ZoneInfo:
    """The agency's zone, or the default when it has none (or an unknown one)."""
    name = getattr(agency, "time_zone", "") or ""
    return zoneinfo.ZoneInfo(name) if is_valid(name) else default_zone()


def agency_today(agency: Any) -> dt.date:
    """Today in the agency's calendar: the date now in the agency's zone, which near midnight is
    not UTC's date (the night that starts this evening, the latest day a record may carry)."""
    return timezone.now().astimezone(agency_zone(agency)).date()


def user_zone(user: Any) -> zoneinfo.ZoneInfo:
    """Where ``user`` works: their agency's zone (the default for operators and strangers)."""
    if user is None or not getattr(user, "is_authenticated", False) or user.is_superuser:
        return default_zone()
    membership = user.membership_or_none
    if membership is None:
        return default_zone()
    return agency_zone(membership.agency)


def current() -> zoneinfo.ZoneInfo:
    """The zone activated for this request (or task), else the default."""
    return _current.get() or default_zone()


def activate(zone: zoneinfo.ZoneInfo) -> contextvars.Token:
    timezone.activate(zone)
    return _current.set(zone)


def deactivate(token: contextvars.Token) -> None:
    _current.reset(token)
    timezone.deactivate()


@contextlib.contextmanager
def using(zone: zoneinfo.ZoneInfo):
    """Work as staff in ``zone`` do (a task or the demo acting for one agency)."""
    previous = timezone.get_current_timezone() if _current.get() is not None else None
    token = activate(zone)
    try:
        yield zone
    finally:
        _current.reset(token)
        if previous is None:
            timezone.deactivate()
        else:
            timezone.activate(previous)


def zone_words(zone: zoneinfo.ZoneInfo | None = None) -> str:
    """A zone as a person reads it: "America/Chicago" becomes "America/Chicago" without
    underscores ("America/New York")."""
    return (zone or current()).key.replace("_", " ")


def your_time(extra: str = "") -> str:
    """The help text of a time staff enter: in their own (the agency's) time."""
    words = gettext("Your time (%(zone)s).") % {"zone": zone_words()}
    return f"{words} {extra}".strip()


#: The zones an agency admin chooses from, with the words people use for them (the agencies
#: caseflow serves work in the UK, Ireland, North America, Australia and New Zealand). An
#: agency whose zone is not here keeps it (:func:`zone_choices`); an operator can set any zone.
COMMON_ZONES: tuple[tuple[str, str], ...] = (
    ("Europe/London", _("United Kingdom (London)")),
    ("Europe/Dublin", _("Ireland (Dublin)")),
    ("America/New_York", _("US Eastern time (New York)")),
    ("America/Chicago", _("US Central time (Chicago)")),
    ("America/Denver", _("US Mountain time (Denver)")),
    ("America/Phoenix", _("US Mountain time, no daylight saving (Arizona)")),
    ("America/Los_Angeles", _("US Pacific time (Los Angeles)")),
    ("America/Anchorage", _("Alaska (Anchorage)")),
    ("Pacific/Honolulu", _("Hawaii (Honolulu)")),
    ("America/Puerto_Rico", _("Puerto Rico (San Juan)")),
    ("America/Halifax", _("Canada Atlantic time (Halifax)")),
    ("America/Toronto", _("Canada Eastern time (Toronto)")),
    ("America/Winnipeg", _("Canada Central time (Winnipeg)")),
    ("America/Edmonton", _("Canada Mountain time (Edmonton)")),
    ("America/Vancouver", _("Canada Pacific time (Vancouver)")),
    ("Australia/Sydney", _("Australia Eastern time (Sydney)")),
    ("Australia/Adelaide", _("Australia Central time (Adelaide)")),
    ("Australia/Perth", _("Australia Western time (Perth)")),
    ("Pacific/Auckland", _("New Zealand (Auckland)")),
)


def zone_choices(keep: str = "") -> list[tuple[str, str]]:
    """The choices of the agency's time-zone picker: :data:`COMMON_ZONES`, and ``keep`` (the
    agency's present zone) when it is a real zone not among them, so saving the form never
    changes a zone nobody touched."""
    choices = list(COMMON_ZONES)
    if keep and is_valid(keep) and keep not in dict(choices):
        choices.insert(0, (keep, zone_words(zoneinfo.ZoneInfo(keep))))
    return choices
