"""The terms of a co-parenting contact-boundary agreement, and which of them a contact event breaks.

This module is pure: plain frozen dataclasses and functions, no models, no database, no clock
(Django only translates its messages and names the weekdays). The
app stores an :class:`Agreement` version as JSON (:meth:`Agreement.to_dict` /
:meth:`Agreement.from_dict`) and, for every logged :class:`ContactEvent`, asks :func:`check` which
terms of the version in force (:func:`agreement_in_force`) it broke. Each broken term is one
:class:`Violation` whose ``message`` is written for the advocate and can go into the breach
register.

Conventions, chosen once and applied everywhere:

* Every time of day (windows, handover time) is wall-clock time in the survivor's IANA time zone
  (``Agreement.timezone``). Event instants are converted into that zone before they are compared,
  so "10:00 to 11:00" means 10:00 to 11:00 on the survivor's clock in winter and in summer.
* A :class:`Window` is a safe-contact window (:mod:`caseflow.lib.weekly_windows`) and means the
  same: half-open, ``[start, end)``: 10:00 is inside "10:00 to 11:00", 11:00 is not.
  ``end <= start`` means the window crosses midnight into the next day; ``days`` names the day on
  which it starts. ``end == start`` is refused as ambiguous.
* The effective period is half-open too: ``effective_from`` is in force, ``effective_to`` is not.
* Contact terms (channels, topics, time windows, frequency cap) govern contact between the parents:
  events of kind ``message``, ``call`` and ``in_person``. A ``handover`` event is judged by the
  handover protocol only, and a ``child_contact`` event by the child-contact windows only.
* An emergency topic exempts contact from the time windows, the frequency cap and the topic terms,
  and from nothing else: forbidden and non-permitted channels still apply, and so do the handover
  protocol and the child-contact windows.
* A channel that is forbidden is reported as forbidden even if it is also listed as permitted.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.utils.dates import WEEKDAYS
from django.utils.translation import gettext

from caseflow.lib import weekly_windows
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.lib.wallclock import DAY_NAMES, MONTH_NAMES

__all__ = [
    "Agreement",
    "Cap",
    "CapPeriod",
    "Channel",
    "Code",
    "ContactEvent",
    "Direction",
    "EventKind",
    "Handover",
    "Term",
    "TermsError",
    "Violation",
    "Window",
    "agreement_in_force",
    "check",
]


class TermsError(ValueError):
    """Bad agreement or event data. ``field`` is the dotted path of the offending value."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem

    def under(self, prefix: str) -> TermsError:
        """The same error, with its field path placed under ``prefix``."""
        return TermsError(f"{prefix}.{self.field}", self.problem)


class Channel(StrEnum):
    """How contact was made."""

    APP = "app"  # the named co-parenting app
    EMAIL = "email"
    TEXT = "text"
    PHONE = "phone"
    THIRD_PARTY = "third_party"
    SOLICITOR = "solicitor"
    IN_PERSON = "in_person"
    SOCIAL_MEDIA = "social_media"
    OTHER = "other"


class Direction(StrEnum):
    """Who contacted whom."""

    TO_SURVIVOR = "to_survivor"  # the other parent contacted the survivor
    FROM_SURVIVOR = "from_survivor"  # the survivor contacted the other parent


class EventKind(StrEnum):
    """What sort of contact event was logged."""

    MESSAGE = "message"
    CALL = "call"
    IN_PERSON = "in_person"
    HANDOVER = "handover"
    CHILD_CONTACT = "child_contact"


class CapPeriod(StrEnum):
    """The period a frequency cap counts over, in the survivor's local time."""

    DAY = "day"  # the local calendar day, midnight to midnight
    WEEK = "week"  # the local week, Monday to Sunday


class Term(StrEnum):
    """The agreement term a violation breaks (the names of the :class:`Agreement` fields)."""

    EFFECTIVE_PERIOD = "effective_period"
    FORBIDDEN_CHANNELS = "forbidden_channels"
    PERMITTED_CHANNELS = "permitted_channels"
    TIME_WINDOWS = "time_windows"
    FREQUENCY_CAP = "frequency_cap"
    PERMITTED_TOPICS = "permitted_topics"
    HANDOVER = "handover"
    CHILD_CONTACT_WINDOWS = "child_contact_windows"


class Code(StrEnum):
    """What exactly went wrong."""

    BEFORE_AGREEMENT = "before_agreement"
    AFTER_AGREEMENT = "after_agreement"
    FORBIDDEN_CHANNEL = "forbidden_channel"
    CHANNEL_NOT_PERMITTED = "channel_not_permitted"
    OUTSIDE_WINDOW = "outside_window"
    OVER_CAP = "over_cap"
    FORBIDDEN_TOPIC = "forbidden_topic"
    HANDOVER_MISSED = "handover_missed"
    HANDOVER_LATE = "handover_late"
    HANDOVER_DIRECT_CONTACT = "handover_direct_contact"
    CHILD_CONTACT_OUTSIDE_WINDOW = "child_contact_outside_window"


#: Kinds of event that are contact between the parents, governed by the contact terms.
CONTACT_KINDS = frozenset({EventKind.MESSAGE, EventKind.CALL, EventKind.IN_PERSON})

_CHANNEL_PHRASES = {
    Channel.APP: "through the co-parenting app",
    Channel.EMAIL: "by email",
    Channel.TEXT: "by text message",
    Channel.PHONE: "by phone",
    Channel.THIRD_PARTY: "through a third party",
    Channel.SOLICITOR: "through a solicitor",
    Channel.IN_PERSON: "in person",
    Channel.SOCIAL_MEDIA: "on social media",
    Channel.OTHER: "by another channel",
}
_CHANNEL_NAMES = {
    Channel.APP: "the co-parenting app",
    Channel.EMAIL: "email",
    Channel.TEXT: "text message",
    Channel.PHONE: "phone",
    Channel.THIRD_PARTY: "a third party",
    Channel.SOLICITOR: "a solicitor",
    Channel.IN_PERSON: "in person",
    Channel.SOCIAL_MEDIA: "social media",
    Channel.OTHER: "another channel",
}
_KIND_VERBS = {
    EventKind.MESSAGE: "Sent",
    EventKind.CALL: "Called",
    EventKind.IN_PERSON: _("Contact made"),
}
_FROM_WHOM = {
    Direction.TO_SURVIVOR: "from the other parent",
    Direction.FROM_SURVIVOR: "from the survivor",
}
#: Said after the survivor's own contact outside what was agreed: it is never a fault.
_SUPPORT = "That is common; it may be worth talking about support for moments like this."
_E = TypeVar("_E", bound=StrEnum)


# --------------------------------------------------------------------------------------------------
# Validation and parsing helpers. Each raises TermsError naming the field it was given.


def _enum(enum_cls: type[_E], value: Any, field_name: str, what: str) -> _E:
    """``value`` as a member of ``enum_cls`` (a member or its string value)."""
    if isinstance(value, str):
        try:
            return enum_cls(value)
        except ValueError:
            pass
    allowed = ", ".join(member.value for member in enum_cls)
    raise TermsError(field_name, f"unknown {what} {value!r} (expected one of: {allowed})")


def _int(value: Any, field_name: str, minimum: int) -> int:
    """``value`` as an ``int`` of at least ``minimum`` (booleans are refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TermsError(field_name, f"must be a whole number, not {value!r}")
    if value < minimum:
        raise TermsError(field_name, f"must be at least {minimum}, not {value}")
    return value


def _bool(value: Any, field_name: str) -> bool:
    if not isinstance(value, bool):
        raise TermsError(field_name, f"must be true or false, not {value!r}")
    return value


def _str(value: Any, field_name: str) -> str:
    if not isinstance(value, str):
        raise TermsError(field_name, f"must be a string, not {value!r}")
    return value


def _items(value: Any, field_name: str, what: str) -> list[Any]:
    """The items of a list, tuple or set (a bare string is refused: it is not a list of names)."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise TermsError(field_name, f"must be a list of {what}, not {value!r}")
    return list(value)


def _days(value: Any, field_name: str) -> frozenset[int]:
    """A non-empty set of weekdays, Monday = 0 to Sunday = 6."""
    days = frozenset(
        _weekday(day, field_name) for day in _items(value, field_name, "weekdays (0-6)")
    )
    if not days:
        raise TermsError(field_name, "must name at least one day (Monday = 0 to Sunday = 6)")
    return days


def _weekday(value: Any, field_name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 6:
        raise TermsError(field_name, f"{value!r} is not a weekday (Monday = 0 to Sunday = 6)")
    return value


def _topics(value: Any, field_name: str) -> frozenset[str]:
    topics = frozenset(_str(topic, field_name) for topic in _items(value, field_name, "topics"))
    if "" in topics:
        raise TermsError(field_name, "a topic must not be empty")
    return topics


def _local_time(value: Any, field_name: str) -> dt.time:
    """A wall-clock time of day, without a time zone."""
    if isinstance(value, str):
        try:
            value = dt.time.fromisoformat(value)
        except ValueError:
            raise TermsError(field_name, f"{value!r} is not a time of day (HH:MM)") from None
    if not isinstance(value, dt.time):
        raise TermsError(field_name, f"must be a time of day (HH:MM), not {value!r}")
    if value.tzinfo is not None:
        raise TermsError(field_name, "must be a local time of day without a time zone")
    return value


def _aware(value: Any, field_name: str) -> dt.datetime:
    """A timezone-aware date and time (ISO 8601 strings are parsed)."""
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value)
        except ValueError:
            raise TermsError(field_name, f"{value!r} is not an ISO 8601 date and time") from None
    if not isinstance(value, dt.datetime):
        raise TermsError(field_name, f"must be a date and time, not {value!r}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise TermsError(field_name, "must include a time zone or UTC offset")
    return value


def _zone(value: Any, field_name: str) -> ZoneInfo:
    name = _str(value, field_name)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise TermsError(field_name, f"unknown IANA time zone {name!r}") from None


def _params(value: Any, field_name: str) -> dict[str, Any]:
    """A copy of a mapping of names to plain JSON values (strings, numbers, booleans, null, and
    lists and objects of them)."""
    if not isinstance(value, Mapping):
        raise TermsError(field_name, f"must be an object, not {value!r}")
    for key in value:
        if not isinstance(key, str):
            raise TermsError(field_name, f"names must be strings, not {key!r}")
    try:
        copied = json.loads(json.dumps(dict(value), allow_nan=False))
    except (TypeError, ValueError):
        raise TermsError(field_name, "must hold plain JSON values only") from None
    return copied


def _join(path: str, name: str) -> str:
    """``name`` placed under ``path`` (``path`` may be empty)."""
    return f"{path}.{name}" if path else name


def _reraise_under(exc: TermsError, path: str) -> TermsError:
    """``exc`` with its field placed under ``path``, for re-raising."""
    return exc.under(path) if path else exc


def _mapping(data: Any, path: str, label: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise TermsError(path or label, f"must be an object, not {data!r}")
    return data


def _check_keys(
    data: Mapping[str, Any], path: str, required: Iterable[str], optional: Iterable[str] = ()
) -> None:
    """Refuse unknown keys and missing required keys, naming them."""
    required = tuple(required)
    known = set(required) | set(optional)
    unknown = sorted(str(key) for key in data if key not in known)
    if unknown:
        expected = ", ".join(sorted(known))
        raise TermsError(_join(path, unknown[0]), f"unknown field (expected: {expected})")
    for key in required:
        if key not in data:
            raise TermsError(_join(path, key), "is required")


def _channel_map(value: Any, field_name: str) -> dict[Direction, frozenset[Channel]]:
    """Directions mapped to sets of channels; every direction is present in the result."""
    if not isinstance(value, Mapping):
        raise TermsError(field_name, f"must map directions to lists of channels, not {value!r}")
    result: dict[Direction, frozenset[Channel]] = {d: frozenset() for d in Direction}
    for key, channels in value.items():
        direction = _enum(Direction, key, field_name, "direction")
        path = f"{field_name}.{direction.value}"
        result[direction] = frozenset(
            _enum(Channel, channel, path, "channel")
            for channel in _items(channels, path, "channels")
        )
    return result


# --------------------------------------------------------------------------------------------------
# Formatting for advocates' messages. Fixed English names, not the process locale: deterministic.


def _fmt_date(day: dt.date) -> str:
    return f"{DAY_NAMES[day.weekday()]} {day.day} {MONTH_NAMES[day.month - 1]} {day.year}"


def _fmt_time(clock: dt.time) -> str:
    text = f"{clock.hour:02d}:{clock.minute:02d}"
    return f"{text}:{clock.second:02d}" if clock.second else text


def _fmt_when(local: dt.datetime) -> str:
    return f"{_fmt_time(local.time())} on {_fmt_date(local.date())}"


def _fmt_days(days: Iterable[int]) -> str:
    days = sorted(days)
    if len(days) == 7:
        return gettext("every day")
    # Django's own day names, in the reader's language.
    return ", ".join(str(WEEKDAYS[day]) for day in days)


def _fmt_windows(windows: Iterable[Window]) -> str:
    return "; ".join(window.describe() for window in windows)


def _fmt_minutes(delta: dt.timedelta) -> str:
    minutes = math.ceil(abs(delta).total_seconds() / 60)
    return "1 minute" if minutes == 1 else f"{minutes} minutes"


def _fmt_list(values: Iterable[str]) -> str:
    return ", ".join(values)


# The values a message was written from, as plain JSON (Violation.params).


def _when_params(local: dt.datetime, prefix: str = "") -> dict[str, str]:
    return {f"{prefix}time": _fmt_time(local.time()), f"{prefix}date": local.date().isoformat()}


def _window_params(windows: Iterable[Window]) -> list[dict[str, Any]]:
    return [
        {"days": sorted(w.days), "start": _fmt_time(w.start), "end": _fmt_time(w.end)}
        for w in windows
    ]


# --------------------------------------------------------------------------------------------------
# The model.


@dataclass(frozen=True)
class Window(weekly_windows.Window):
    """A weekly time window in the survivor's local time: a :class:`weekly_windows.Window`.

    ``days`` are the weekdays on which the window starts (Monday = 0 to Sunday = 6). ``start`` and
    ``end`` are local wall-clock times; the window is ``[start, end)``. When ``end <= start`` the
    window crosses midnight and ends on the following day (``end == start`` is refused).

    What an agreement's window means, and which wall times it contains, is the safe-window type's.
    An agreement's own are its checks (a :class:`TermsError` naming the field; times may carry
    seconds, given as ``time`` objects or ISO strings) and its stored form (ISO times such as
    ``"18:00:00"``, which agreement versions already hold).
    """

    def __post_init__(self) -> None:
        object.__setattr__(self, "days", _days(self.days, "days"))
        start = _local_time(self.start, "start")
        end = _local_time(self.end, "end")
        if end == start:
            raise TermsError("end", "must differ from start (a window cannot be empty or all day)")
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)

    def contains(self, local: dt.datetime) -> bool:
        """Whether a naive local wall-clock date and time falls inside the window."""
        if local.tzinfo is not None:
            raise ValueError("Window.contains takes a naive local wall-clock datetime")
        return self.contains_wall_time(local)

    def describe(self) -> str:
        """Plain English, e.g. ``Friday, Saturday 22:00 to 01:00 (next day)``."""
        crosses = self.crosses_midnight and self.end != dt.time(0)
        end = gettext("midnight") if self.end == dt.time(0) else _fmt_time(self.end)
        words = (
            gettext("%(days)s %(start)s to %(end)s (next day)")
            if crosses
            else gettext("%(days)s %(start)s to %(end)s")
        )
        return words % {"days": _fmt_days(self.days), "start": _fmt_time(self.start), "end": end}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict."""
        return {
            "days": sorted(self.days),
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
        }

    @classmethod
    def from_dict(cls, data: Any, *, path: str = "") -> Window:
        """Parse :meth:`to_dict` output; raise :class:`TermsError` for bad data.

        ``path`` is prefixed to the field named in errors (``time_windows[0]`` gives
        ``time_windows[0].days``).
        """
        data = _mapping(data, path, "window")
        _check_keys(data, path, required=("days", "start", "end"))
        try:
            return cls(days=data["days"], start=data["start"], end=data["end"])
        except TermsError as exc:
            raise _reraise_under(exc, path) from None


@dataclass(frozen=True)
class Cap:
    """At most ``limit`` messages per local ``per`` period, in one ``direction``."""

    limit: int
    per: CapPeriod
    direction: Direction = Direction.TO_SURVIVOR

    def __post_init__(self) -> None:
        object.__setattr__(self, "limit", _int(self.limit, "limit", minimum=0))
        object.__setattr__(self, "per", _enum(CapPeriod, self.per, "per", "period"))
        direction = _enum(Direction, self.direction, "direction", "direction")
        object.__setattr__(self, "direction", direction)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict."""
        return {"limit": self.limit, "per": self.per.value, "direction": self.direction.value}

    @classmethod
    def from_dict(cls, data: Any, *, path: str = "") -> Cap:
        """Parse :meth:`to_dict` output; raise :class:`TermsError` for bad data.

        ``direction`` may be left out (to_survivor). ``path`` prefixes the field named in errors.
        """
        data = _mapping(data, path, "cap")
        _check_keys(data, path, required=("limit", "per"), optional=("direction",))
        try:
            return cls(
                limit=data["limit"],
                per=data["per"],
                direction=data.get("direction", Direction.TO_SURVIVOR),
            )
        except TermsError as exc:
            raise _reraise_under(exc, path) from None


@dataclass(frozen=True)
class Handover:
    """The protocol for handing the children over.

    ``weekdays`` (Monday = 0) and ``time`` are in the survivor's local time. A handover more than
    ``tolerance_minutes`` before or after the scheduled time is late (or early); exactly the
    tolerance is fine. ``supervised`` and ``place`` are recorded for the advocate, not checked.
    """

    place: str
    weekdays: frozenset[int]
    time: dt.time
    tolerance_minutes: int = 15
    supervised: bool = False
    no_direct_contact: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "place", _str(self.place, "place"))
        object.__setattr__(self, "weekdays", _days(self.weekdays, "weekdays"))
        object.__setattr__(self, "time", _local_time(self.time, "time"))
        tolerance = _int(self.tolerance_minutes, "tolerance_minutes", minimum=0)
        object.__setattr__(self, "tolerance_minutes", tolerance)
        _bool(self.supervised, "supervised")
        _bool(self.no_direct_contact, "no_direct_contact")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict."""
        return {
            "place": self.place,
            "weekdays": sorted(self.weekdays),
            "time": self.time.isoformat(),
            "tolerance_minutes": self.tolerance_minutes,
            "supervised": self.supervised,
            "no_direct_contact": self.no_direct_contact,
        }

    @classmethod
    def from_dict(cls, data: Any, *, path: str = "") -> Handover:
        """Parse :meth:`to_dict` output; raise :class:`TermsError` for bad data.

        Only ``place``, ``weekdays`` and ``time`` are required. ``path`` prefixes error fields.
        """
        data = _mapping(data, path, "handover")
        _check_keys(
            data,
            path,
            required=("place", "weekdays", "time"),
            optional=("tolerance_minutes", "supervised", "no_direct_contact"),
        )
        try:
            return cls(
                place=data["place"],
                weekdays=data["weekdays"],
                time=data["time"],
                tolerance_minutes=data.get("tolerance_minutes", 15),
                supervised=data.get("supervised", False),
                no_direct_contact=data.get("no_direct_contact", False),
            )
        except TermsError as exc:
            raise _reraise_under(exc, path) from None


@dataclass(frozen=True)
class Agreement:
    """The terms in force for one version of a contact-boundary agreement.

    ``permitted_channels`` and ``forbidden_channels`` map each :class:`Direction` to a set of
    channels (after construction every direction is present, possibly with an empty set). When the
    permitted set for a direction is non-empty, a channel outside it is not permitted. A forbidden
    channel is always a breach, even on an emergency topic. An empty ``permitted_topics`` means any
    topic; an empty ``time_windows`` means any time; an empty ``child_contact_windows`` means child
    contact is not restricted in time.

    Instances are immutable but not hashable (the channel maps are dicts).
    """

    effective_from: dt.datetime
    timezone: str
    effective_to: dt.datetime | None = None
    permitted_channels: dict[Direction, frozenset[Channel]] = field(default_factory=dict)
    forbidden_channels: dict[Direction, frozenset[Channel]] = field(default_factory=dict)
    permitted_topics: frozenset[str] = frozenset()
    time_windows: tuple[Window, ...] = ()
    frequency_cap: Cap | None = None
    emergency_topics: frozenset[str] = frozenset()
    handover: Handover | None = None
    child_contact_windows: tuple[Window, ...] = ()

    def __post_init__(self) -> None:
        start = _aware(self.effective_from, "effective_from")
        object.__setattr__(self, "effective_from", start)
        if self.effective_to is not None:
            end = _aware(self.effective_to, "effective_to")
            if end <= start:
                raise TermsError("effective_to", "must be after effective_from")
            object.__setattr__(self, "effective_to", end)
        _zone(self.timezone, "timezone")
        for name in ("permitted_channels", "forbidden_channels"):
            object.__setattr__(self, name, _channel_map(getattr(self, name), name))
        for name in ("permitted_topics", "emergency_topics"):
            object.__setattr__(self, name, _topics(getattr(self, name), name))
        for name in ("time_windows", "child_contact_windows"):
            windows = tuple(_items(getattr(self, name), name, "windows"))
            for index, window in enumerate(windows):
                if not isinstance(window, Window):
                    raise TermsError(f"{name}[{index}]", f"must be a Window, not {window!r}")
            object.__setattr__(self, name, windows)
        if self.frequency_cap is not None and not isinstance(self.frequency_cap, Cap):
            raise TermsError("frequency_cap", f"must be a Cap, not {self.frequency_cap!r}")
        if self.handover is not None and not isinstance(self.handover, Handover):
            raise TermsError("handover", f"must be a Handover, not {self.handover!r}")

    @property
    def zone(self) -> ZoneInfo:
        """The survivor's time zone."""
        return ZoneInfo(self.timezone)

    def in_force_at(self, moment: dt.datetime) -> bool:
        """Whether ``moment`` (aware) lies in ``[effective_from, effective_to)``."""
        moment = _aware(moment, "moment")
        if moment < self.effective_from:
            return False
        return self.effective_to is None or moment < self.effective_to

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict (lists are sorted, so equal agreements give equal JSON)."""

        def channels(mapping: Mapping[Direction, frozenset[Channel]]) -> dict[str, list[str]]:
            return {
                direction.value: sorted(channel.value for channel in mapping[direction])
                for direction in Direction
            }

        return {
            "effective_from": self.effective_from.isoformat(),
            "effective_to": None if self.effective_to is None else self.effective_to.isoformat(),
            "timezone": self.timezone,
            "permitted_channels": channels(self.permitted_channels),
            "forbidden_channels": channels(self.forbidden_channels),
            "permitted_topics": sorted(self.permitted_topics),
            "time_windows": [window.to_dict() for window in self.time_windows],
            "frequency_cap": None if self.frequency_cap is None else self.frequency_cap.to_dict(),
            "emergency_topics": sorted(self.emergency_topics),
            "handover": None if self.handover is None else self.handover.to_dict(),
            "child_contact_windows": [window.to_dict() for window in self.child_contact_windows],
        }

    def to_json(self) -> str:
        """Canonical JSON text of :meth:`to_dict`."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Any) -> Agreement:
        """Parse :meth:`to_dict` output; raise :class:`TermsError` naming the bad field.

        ``effective_from`` and ``timezone`` are required; every other field may be left out and
        takes its default. Unknown fields are refused.
        """
        data = _mapping(data, "", "agreement")
        _check_keys(
            data,
            "",
            required=("effective_from", "timezone"),
            optional=(
                "effective_to",
                "permitted_channels",
                "forbidden_channels",
                "permitted_topics",
                "time_windows",
                "frequency_cap",
                "emergency_topics",
                "handover",
                "child_contact_windows",
            ),
        )

        def windows(name: str) -> tuple[Window, ...]:
            items = _items(data.get(name, []), name, "windows")
            return tuple(
                Window.from_dict(item, path=f"{name}[{index}]") for index, item in enumerate(items)
            )

        cap = data.get("frequency_cap")
        handover = data.get("handover")
        return cls(
            effective_from=data["effective_from"],
            effective_to=data.get("effective_to"),
            timezone=data["timezone"],
            permitted_channels=data.get("permitted_channels", {}),
            forbidden_channels=data.get("forbidden_channels", {}),
            permitted_topics=data.get("permitted_topics", []),
            time_windows=windows("time_windows"),
            frequency_cap=None if cap is None else Cap.from_dict(cap, path="frequency_cap"),
            emergency_topics=data.get("emergency_topics", []),
            handover=None if handover is None else Handover.from_dict(handover, path="handover"),
            child_contact_windows=windows("child_contact_windows"),
        )


@dataclass(frozen=True)
class ContactEvent:
    """One logged contact: when (aware), how, which way, about what, and what sort.

    ``handover_missed`` and ``direct_contact_at_handover`` only make sense for events of kind
    ``handover`` and are refused on any other kind.
    """

    occurred_at: dt.datetime
    channel: Channel
    direction: Direction
    topic: str
    kind: EventKind
    handover_missed: bool = False
    direct_contact_at_handover: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "occurred_at", _aware(self.occurred_at, "occurred_at"))
        object.__setattr__(self, "channel", _enum(Channel, self.channel, "channel", "channel"))
        direction = _enum(Direction, self.direction, "direction", "direction")
        object.__setattr__(self, "direction", direction)
        object.__setattr__(self, "topic", _str(self.topic, "topic"))
        object.__setattr__(self, "kind", _enum(EventKind, self.kind, "kind", "kind"))
        for name in ("handover_missed", "direct_contact_at_handover"):
            if _bool(getattr(self, name), name) and self.kind is not EventKind.HANDOVER:
                raise TermsError(name, "only applies to events of kind 'handover'")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict."""
        return {
            "occurred_at": self.occurred_at.isoformat(),
            "channel": self.channel.value,
            "direction": self.direction.value,
            "topic": self.topic,
            "kind": self.kind.value,
            "handover_missed": self.handover_missed,
            "direct_contact_at_handover": self.direct_contact_at_handover,
        }

    @classmethod
    def from_dict(cls, data: Any) -> ContactEvent:
        """Parse :meth:`to_dict` output; raise :class:`TermsError` naming the bad field."""
        data = _mapping(data, "", "event")
        _check_keys(
            data,
            "",
            required=("occurred_at", "channel", "direction", "topic", "kind"),
            optional=("handover_missed", "direct_contact_at_handover"),
        )
        return cls(
            occurred_at=data["occurred_at"],
            channel=data["channel"],
            direction=data["direction"],
            topic=data["topic"],
            kind=data["kind"],
            handover_missed=data.get("handover_missed", False),
            direct_contact_at_handover=data.get("direct_contact_at_handover", False),
        )


@dataclass(frozen=True)
class Violation:
    """One broken term: which term, a machine code, and a plain-English message for the advocate.

    ``params`` holds the values the message was written from, as plain JSON values (times as
    ``"HH:MM"``, dates as ISO ``"YYYY-MM-DD"``, counts as ints, channels, directions and kinds by
    their codes, weekdays as 0-6), so the finding can be written again in the reader's language.
    The ``message`` stays the record; ``params`` is not part of a violation's equality, and a
    violation stored before it existed has none (empty).
    """

    term: Term
    code: Code
    message: str
    params: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "term", _enum(Term, self.term, "term", "term"))
        object.__setattr__(self, "code", _enum(Code, self.code, "code", "code"))
        _str(self.message, "message")
        object.__setattr__(self, "params", _params(self.params, "params"))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict (``params`` only when there are any)."""
        data: dict[str, Any] = {
            "term": str(self.term),
            "code": str(self.code),
            "message": self.message,
        }
        if self.params:
            data["params"] = dict(self.params)
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Violation:
        """Parse :meth:`to_dict` output; raise :class:`TermsError` naming the bad field.

        ``params`` may be left out (a violation stored before it existed)."""
        data = _mapping(data, "", "violation")
        _check_keys(data, "", required=("term", "code", "message"), optional=("params",))
        return cls(
            term=data["term"],
            code=data["code"],
            message=data["message"],
            params=data.get("params") or {},
        )


# --------------------------------------------------------------------------------------------------
# Deciding.


def agreement_in_force(event_time: dt.datetime, versions: Sequence[Agreement]) -> Agreement | None:
    """The version whose effective period contains ``event_time``, or ``None``.

    When several versions contain it, the one with the latest ``effective_from`` wins; on a tie,
    the one that comes last in ``versions``.
    """
    event_time = _aware(event_time, "event_time")
    chosen: Agreement | None = None
    for version in versions:
        if version.in_force_at(event_time) and (
            chosen is None or version.effective_from >= chosen.effective_from
        ):
            chosen = version
    return chosen


def check(
    event: ContactEvent, agreement: Agreement, prior_events: Sequence[ContactEvent] = ()
) -> list[Violation]:
    """The terms of ``agreement`` that ``event`` breaks, in a fixed order; empty if none.

    ``prior_events`` are the events logged before this one, used for the frequency cap. Entries
    that occurred after ``event`` are ignored and one entry equal to ``event`` itself is skipped, so
    the whole log may be passed; entries at exactly the same instant as ``event`` are counted.

    If the event falls outside the agreement's effective period, the only violation returned is
    ``before_agreement`` or ``after_agreement``: no other term was in force.
    """
    zone = agreement.zone
    local = event.occurred_at.astimezone(zone)
    if event.occurred_at < agreement.effective_from:
        start = agreement.effective_from.astimezone(zone)
        return [
            Violation(
                Term.EFFECTIVE_PERIOD,
                Code.BEFORE_AGREEMENT,
                f"Happened at {_fmt_when(local)}, before this agreement took effect at "
                f"{_fmt_when(start)} ({agreement.timezone} time); none of its terms applied yet.",
                {
                    **_when_params(local),
                    **_when_params(start, "start_"),
                    "timezone": agreement.timezone,
                },
            )
        ]
    if agreement.effective_to is not None and event.occurred_at >= agreement.effective_to:
        end = agreement.effective_to.astimezone(zone)
        return [
            Violation(
                Term.EFFECTIVE_PERIOD,
                Code.AFTER_AGREEMENT,
                f"Happened at {_fmt_when(local)}, after this agreement ended at "
                f"{_fmt_when(end)} ({agreement.timezone} time); its terms no longer applied.",
                {
                    **_when_params(local),
                    **_when_params(end, "end_"),
                    "timezone": agreement.timezone,
                },
            )
        ]

    violations: list[Violation] = []
    if event.kind in CONTACT_KINDS:
        emergency = event.topic in agreement.emergency_topics
        violations.extend(_channel_violations(event, agreement))
        if not emergency:
            violations.extend(_window_violations(event, agreement, local))
            violations.extend(_cap_violations(event, agreement, local, prior_events))
            violations.extend(_topic_violations(event, agreement))
    elif event.kind is EventKind.HANDOVER:
        violations.extend(_handover_violations(event, agreement, local))
    elif event.kind is EventKind.CHILD_CONTACT:
        violations.extend(_child_contact_violations(agreement, local))
    return violations


def _channel_violations(event: ContactEvent, agreement: Agreement) -> list[Violation]:
    how = f"{_KIND_VERBS[event.kind]} {_CHANNEL_PHRASES[event.channel]}"
    whom = _FROM_WHOM[event.direction]
    params: dict[str, Any] = {
        "kind": event.kind.value,
        "channel": event.channel.value,
        "direction": event.direction.value,
    }
    own = event.direction is Direction.FROM_SURVIVOR
    if event.channel in agreement.forbidden_channels[event.direction]:
        message = (
            f"The survivor got in touch outside what was agreed: "
            f"{_CHANNEL_PHRASES[event.channel]}. {_SUPPORT}"
            if own
            else f"{how}, which the agreement forbids {whom}."
        )
        return [Violation(Term.FORBIDDEN_CHANNELS, Code.FORBIDDEN_CHANNEL, message, params)]
    permitted = agreement.permitted_channels[event.direction]
    if permitted and event.channel not in permitted:
        allowed = [channel for channel in Channel if channel in permitted]
        names = _fmt_list(_CHANNEL_NAMES[channel] for channel in allowed)
        message = (
            f"The survivor got in touch outside what was agreed: {_CHANNEL_PHRASES[event.channel]} "
            f"(the ways chosen: {names}). {_SUPPORT}"
            if own
            else f"{how}, which is not a channel the agreement permits {whom} (permitted: {names})."
        )
        return [
            Violation(
                Term.PERMITTED_CHANNELS,
                Code.CHANNEL_NOT_PERMITTED,
                message,
                {**params, "permitted": [channel.value for channel in allowed]},
            )
        ]
    return []


def _window_violations(
    event: ContactEvent, agreement: Agreement, local: dt.datetime
) -> list[Violation]:
    windows = agreement.time_windows
    wall = local.replace(tzinfo=None)
    if not windows or any(window.contains(wall) for window in windows):
        return []
    return [
        Violation(
            Term.TIME_WINDOWS,
            Code.OUTSIDE_WINDOW,
            f"{_KIND_VERBS[event.kind]} at {_fmt_when(local)} ({agreement.timezone} time), "
            f"outside the agreed contact times ({_fmt_windows(windows)}).",
            {
                "kind": event.kind.value,
                **_when_params(local),
                "timezone": agreement.timezone,
                "windows": _window_params(windows),
            },
        )
    ]


def _period(day: dt.date, per: CapPeriod) -> tuple[dt.date, dt.date]:
    """First and last local date of the cap period containing ``day``."""
    if per is CapPeriod.DAY:
        return day, day
    monday = day - dt.timedelta(days=day.weekday())
    return monday, monday + dt.timedelta(days=6)


def _cap_violations(
    event: ContactEvent,
    agreement: Agreement,
    local: dt.datetime,
    prior_events: Sequence[ContactEvent],
) -> list[Violation]:
    cap = agreement.frequency_cap
    if cap is None or event.kind is not EventKind.MESSAGE or event.direction is not cap.direction:
        return []
    zone = agreement.zone
    first, last = _period(local.date(), cap.per)
    count = 1  # this event
    skipped_self = False
    for prior in prior_events:
        if not skipped_self and prior == event:
            skipped_self = True
            continue
        if (
            prior.kind is EventKind.MESSAGE
            and prior.direction is cap.direction
            and prior.topic not in agreement.emergency_topics
            and agreement.effective_from <= prior.occurred_at <= event.occurred_at
            and first <= prior.occurred_at.astimezone(zone).date() <= last
        ):
            count += 1
    if count <= cap.limit:
        return []
    if cap.per is CapPeriod.DAY:
        period = f"on {_fmt_date(first)}"
        allowance = f"at most {cap.limit} a day"
    else:
        period = f"in the week beginning {_fmt_date(first)}"
        allowance = f"at most {cap.limit} a week"
    if cap.direction is Direction.FROM_SURVIVOR:
        message = (
            f"The survivor got in touch more often than agreed: message number {count} {period} "
            f"({agreement.timezone} time), where {allowance.removeprefix('at most ')} was "
            f"agreed. {_SUPPORT}"
        )
    else:
        message = (
            f"This was message number {count} {_FROM_WHOM[cap.direction]} {period} "
            f"({agreement.timezone} time); the agreement allows {allowance}."
        )
    return [
        Violation(
            Term.FREQUENCY_CAP,
            Code.OVER_CAP,
            message,
            {
                "count": count,
                "direction": cap.direction.value,
                "per": cap.per.value,
                "start_date": first.isoformat(),
                "limit": cap.limit,
                "timezone": agreement.timezone,
            },
        )
    ]


def _topic_violations(event: ContactEvent, agreement: Agreement) -> list[Violation]:
    permitted = agreement.permitted_topics
    if not permitted or event.topic in permitted:
        return []
    about = f"about {event.topic!r}" if event.topic else "with no topic recorded"
    return [
        Violation(
            Term.PERMITTED_TOPICS,
            Code.FORBIDDEN_TOPIC,
            f"Contact {about}, which is not a topic the agreement permits "
            f"(permitted: {_fmt_list(sorted(permitted))}).",
            {"topic": event.topic, "permitted": sorted(permitted)},
        )
    ]


def _handover_violations(
    event: ContactEvent, agreement: Agreement, local: dt.datetime
) -> list[Violation]:
    handover = agreement.handover
    if handover is None:
        return []
    place = f" at {handover.place}" if handover.place else ""
    on_day = {"place": handover.place, "date": local.date().isoformat()}
    violations: list[Violation] = []
    if event.handover_missed:
        violations.append(
            Violation(
                Term.HANDOVER,
                Code.HANDOVER_MISSED,
                f"The handover{place} due on {_fmt_date(local.date())} was missed.",
                on_day,
            )
        )
    else:
        late = _handover_timing(handover, agreement, event, local, place)
        if late is not None:
            violations.append(late)
    if event.direct_contact_at_handover and handover.no_direct_contact:
        violations.append(
            Violation(
                Term.HANDOVER,
                Code.HANDOVER_DIRECT_CONTACT,
                f"The parents had direct contact at the handover{place} on "
                f"{_fmt_date(local.date())}, which the agreement rules out.",
                on_day,
            )
        )
    return violations


def _handover_timing(
    handover: Handover,
    agreement: Agreement,
    event: ContactEvent,
    local: dt.datetime,
    place: str,
) -> Violation | None:
    """A ``handover_late`` violation, or ``None`` when within tolerance of a scheduled handover.

    The scheduled handovers on the local day before, of and after the event are considered, so
    a handover near midnight is judged against the right day; differences are real elapsed time.
    """
    zone = agreement.zone
    moment = event.occurred_at.astimezone(dt.UTC)
    tolerance = dt.timedelta(minutes=handover.tolerance_minutes)
    offsets: list[dt.timedelta] = []
    for shift in (-1, 0, 1):
        day = local.date() + dt.timedelta(days=shift)
        if day.weekday() in handover.weekdays:
            scheduled = dt.datetime.combine(day, handover.time, tzinfo=zone).astimezone(dt.UTC)
            offsets.append(moment - scheduled)
    if any(abs(offset) <= tolerance for offset in offsets):
        return None
    allowed = f"allowed: {handover.tolerance_minutes} minutes either way"
    params: dict[str, Any] = {
        "place": handover.place,
        **_when_params(local),
        "timezone": agreement.timezone,
        "agreed_time": _fmt_time(handover.time),
    }
    if local.weekday() not in handover.weekdays:
        return Violation(
            Term.HANDOVER,
            Code.HANDOVER_LATE,
            f"Handover{place} at {_fmt_when(local)} ({agreement.timezone} time), which is not "
            f"an agreed handover day (agreed: {_fmt_days(handover.weekdays)} at "
            f"{_fmt_time(handover.time)}).",
            {**params, "agreed_days": sorted(handover.weekdays)},
        )
    nearest = min(offsets, key=lambda offset: (abs(offset), offset))
    early_or_late = "after" if nearest > dt.timedelta(0) else "before"
    return Violation(
        Term.HANDOVER,
        Code.HANDOVER_LATE,
        f"Handover{place} at {_fmt_when(local)} ({agreement.timezone} time), "
        f"{_fmt_minutes(nearest)} {early_or_late} the agreed time of "
        f"{_fmt_time(handover.time)} ({allowed}).",
        {
            **params,
            "minutes": math.ceil(abs(nearest).total_seconds() / 60),
            "early": nearest <= dt.timedelta(0),
            "tolerance": handover.tolerance_minutes,
        },
    )


def _child_contact_violations(agreement: Agreement, local: dt.datetime) -> list[Violation]:
    windows = agreement.child_contact_windows
    wall = local.replace(tzinfo=None)
    if not windows or any(window.contains(wall) for window in windows):
        return []
    return [
        Violation(
            Term.CHILD_CONTACT_WINDOWS,
            Code.CHILD_CONTACT_OUTSIDE_WINDOW,
            f"Contact with the children at {_fmt_when(local)} ({agreement.timezone} time), "
            f"outside the agreed child-contact times ({_fmt_windows(windows)}).",
            {
                **_when_params(local),
                "timezone": agreement.timezone,
                "windows": _window_params(windows),
            },
        )
    ]
