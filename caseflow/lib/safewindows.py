"""Safe-contact windows and recurring check-ins, computed in the survivor's time zone.

A survivor's safe-contact profile says *when* it is safe to contact them as a list of weekly
windows in their own IANA time zone ("Mon-Fri 09:00-11:30", "Fri 22:00-01:00"). This module is
pure Python (no Django, no database) and answers the questions the rest of caseflow asks:

* :func:`parse_windows` / :func:`format_windows` read and write the advocate-friendly text form;
  :class:`Window` is the stored form (``Window.to_dict`` / ``Window.from_dict``).
* :func:`is_safe` says whether an instant falls inside a window. It converts the instant to the
  survivor's local wall time and compares wall times, so on a spring-forward day a local time
  that does not exist is never inside, and on a fall-back day an instant in the repeated hour is
  inside whenever its wall time is.
* :func:`window_occurrences` gives the concrete UTC intervals of the windows, and
  :func:`next_safe_slot` the earliest instant at which a contact of a given length fits wholly
  inside them. Both are built from exactly the same set of instants that :func:`is_safe`
  accepts: a window starting at a non-existent local time starts when the clocks jump forward,
  a window starting at an ambiguous local time starts at its first (``fold=0``) instance, and
  every instant inside an interval is safe.
* :func:`occurrences` expands an RFC 5545 ``RRULE`` (through :mod:`dateutil.rrule`) for
  recurring check-ins, keeping the local wall time across DST changes; :func:`describe_rule`
  describes a rule in short English for the UI.

Instants are aware :class:`~datetime.datetime` objects; results are always in UTC.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dateutil.rrule import rrule, rrulestr

__all__ = [
    "MAX_OCCURRENCES",
    "MAX_WINDOWS",
    "RecurrenceError",
    "Window",
    "WindowSyntaxError",
    "describe_rule",
    "format_windows",
    "is_safe",
    "next_safe_slot",
    "occurrences",
    "parse_windows",
    "validate_rule",
    "window_occurrences",
]

#: The most windows one safe-contact profile may hold.
MAX_WINDOWS = 20
#: The most occurrences :func:`occurrences` returns for one call.
MAX_OCCURRENCES = 1000

DAY_ABBREVIATIONS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

_DAY_LOOKUP: dict[str, int] = {name.lower(): i for i, name in enumerate(DAY_ABBREVIATIONS)} | {
    name.lower(): i for i, name in enumerate(DAY_NAMES)
}
_DAY_GROUPS: dict[str, frozenset[int]] = {
    "daily": frozenset(range(7)),
    "everyday": frozenset(range(7)),
    "every day": frozenset(range(7)),
    "weekdays": frozenset(range(5)),
    "weekends": frozenset({5, 6}),
}
_DASHES = "-\u2013\u2014"  # hyphen, en dash, em dash (pasted from word processors)
_TIME_RANGE_RE = re.compile(rf"^(\d{{1,2}}:\d{{2}})\s*[{_DASHES}]\s*(\d{{1,2}}:\d{{2}})$")
_TIME_RE = re.compile(r"^(\d{1,2}):(\d{2})$")
_EXAMPLE = "for example 'Mon-Fri 09:00-11:30'"


# --------------------------------------------------------------------------------------------
# Windows: data


@dataclass(frozen=True)
class Window:
    """A weekly safe window in the survivor's local time.

    ``days`` are the weekdays (Monday=0 ... Sunday=6) on which the window *starts*. When
    ``end <= start`` the window crosses midnight and ends on the following day, so
    ``Window({4}, time(22), time(1))`` runs from Friday 22:00 to Saturday 01:00. The window is
    half-open: it includes ``start`` and excludes ``end``. Times are whole minutes.
    """

    days: frozenset[int]
    start: time
    end: time

    def __post_init__(self) -> None:
        days = frozenset(self.days)
        if not days:
            raise ValueError("a window needs at least one day")
        for day in days:
            if type(day) is not int or not 0 <= day <= 6:
                raise ValueError(f"invalid day {day!r}: days are whole numbers 0 (Monday) to 6")
        for label, value in (("start", self.start), ("end", self.end)):
            if not isinstance(value, time) or value.tzinfo is not None:
                raise ValueError(f"window {label} must be a naive datetime.time")
            if value.second or value.microsecond:
                raise ValueError(f"window {label} must be a whole minute")
        if self.start == self.end:
            raise ValueError("a window's start and end must differ")
        object.__setattr__(self, "days", days)
        object.__setattr__(self, "start", self.start.replace(fold=0))
        object.__setattr__(self, "end", self.end.replace(fold=0))

    @property
    def crosses_midnight(self) -> bool:
        """Whether the window ends on the day after the one it starts on."""
        return self.end <= self.start

    def contains_wall_time(self, wall: datetime) -> bool:
        """Whether the naive local wall time ``wall`` is inside this window."""
        moment = wall.time().replace(fold=0)
        day = wall.weekday()
        if not self.crosses_midnight:
            return day in self.days and self.start <= moment < self.end
        if day in self.days and moment >= self.start:
            return True
        return (day - 1) % 7 in self.days and moment < self.end

    def local_span(self, day: date) -> tuple[datetime, datetime]:
        """The naive local (start, end) of this window's occurrence that starts on ``day``."""
        end_day = day + timedelta(days=1) if self.crosses_midnight else day
        return datetime.combine(day, self.start), datetime.combine(end_day, self.end)

    def to_dict(self) -> dict[str, Any]:
        """The stored form: ``{"days": [0, 4], "start": "09:00", "end": "11:30"}``."""
        return {
            "days": sorted(self.days),
            "start": self.start.strftime("%H:%M"),
            "end": self.end.strftime("%H:%M"),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Window:
        """Build a window from its stored form; raise ``ValueError`` if it is malformed."""
        if not isinstance(data, Mapping):
            raise ValueError("a window must be a mapping with 'days', 'start' and 'end'")
        missing = {"days", "start", "end"} - set(data)
        if missing:
            raise ValueError(f"window is missing {', '.join(sorted(missing))}")
        days = data["days"]
        if isinstance(days, str | bytes) or not isinstance(days, Iterable):
            raise ValueError("window 'days' must be a list of numbers 0 (Monday) to 6")
        for name in ("start", "end"):
            if not isinstance(data[name], str):
                raise ValueError(f"window '{name}' must be a string HH:MM")
        return cls(
            days=frozenset(days),
            start=_parse_time(data["start"], allow_24=False),
            end=_parse_time(data["end"], allow_24=True),
        )


class WindowSyntaxError(ValueError):
    """A line of safe-window text could not be read. ``line`` is its 1-based number."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


# --------------------------------------------------------------------------------------------
# Windows: text form


def parse_windows(text: str) -> list[Window]:
    """Read safe windows written one per line, such as ``Mon-Fri 09:00-11:30``.

    Days are three-letter or full English names in any case, separated by commas or spaces;
    ranges such as ``Sat-Mon`` wrap around the week; ``daily``, ``weekdays`` and ``weekends``
    are accepted. Times are ``HH:MM`` (``24:00`` is allowed as an end). An end at or before the
    start crosses midnight. Blank lines are ignored; line numbers in errors count them.

    Raises :class:`WindowSyntaxError` naming the line and the problem.
    """
    windows: list[Window] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if len(windows) == MAX_WINDOWS:
            raise WindowSyntaxError(number, f"too many windows (at most {MAX_WINDOWS})")
        windows.append(_parse_line(line, number))
    return windows


def format_windows(windows: Iterable[Window]) -> str:
    """Write windows as canonical text, one per line, that :func:`parse_windows` reads back."""
    return "\n".join(
        f"{_format_days(w.days)} {w.start.strftime('%H:%M')}-{w.end.strftime('%H:%M')}"
        for w in windows
    )


def _parse_line(line: str, number: int) -> Window:
    first_digit = re.search(r"\d", line)
    if first_digit is None:
        raise WindowSyntaxError(number, f"no time range found; write a window {_EXAMPLE}")
    days_text = line[: first_digit.start()].strip()
    times_text = line[first_digit.start() :].strip()
    if not days_text:
        raise WindowSyntaxError(number, f"no days given; start the line with days, {_EXAMPLE}")
    try:
        days = _parse_days(days_text)
    except ValueError as exc:
        raise WindowSyntaxError(number, str(exc)) from None
    match = _TIME_RANGE_RE.match(times_text)
    if match is None:
        raise WindowSyntaxError(
            number, f"cannot read the time range '{times_text}'; write it as HH:MM-HH:MM"
        )
    try:
        start = _parse_time(match.group(1), allow_24=False)
        end = _parse_time(match.group(2), allow_24=True)
    except ValueError as exc:
        raise WindowSyntaxError(number, str(exc)) from None
    if start == end:
        raise WindowSyntaxError(
            number,
            f"start and end are the same time ({match.group(1)}-{match.group(2)}); a window "
            "must be longer than zero and shorter than 24 hours",
        )
    return Window(days=days, start=start, end=end)


def _parse_time(text: str, *, allow_24: bool) -> time:
    """``HH:MM`` to a time; ``24:00`` (only where ``allow_24``) means midnight at the end."""
    match = _TIME_RE.match(text.strip())
    if match is None:
        raise ValueError(f"bad time '{text}': write times as HH:MM, for example 09:30")
    hours, minutes = int(match.group(1)), int(match.group(2))
    if allow_24 and hours == 24 and minutes == 0:
        return time(0, 0)
    if hours > 23 or minutes > 59:
        raise ValueError(f"bad time '{text}': hours run 00-23 and minutes 00-59")
    return time(hours, minutes)


def _parse_days(text: str) -> frozenset[int]:
    if text.lower() in _DAY_GROUPS:
        return _DAY_GROUPS[text.lower()]
    normalised = re.sub(rf"\s*[{_DASHES}]\s*", "-", text)
    days: set[int] = set()
    for item in re.split(r"[,\s]+", normalised):
        if not item:
            continue
        if item.lower() in _DAY_GROUPS:
            days |= _DAY_GROUPS[item.lower()]
            continue
        if "-" in item:
            ends = item.split("-")
            if len(ends) != 2 or not all(ends):
                raise ValueError(f"cannot read the day range '{item}'; write it like Mon-Fri")
            first, last = _day_number(ends[0]), _day_number(ends[1])
            day = first
            days.add(day)
            while day != last:
                day = (day + 1) % 7
                days.add(day)
        else:
            days.add(_day_number(item))
    if not days:
        raise ValueError(f"no days given; start the line with days, {_EXAMPLE}")
    return frozenset(days)


def _day_number(name: str) -> int:
    try:
        return _DAY_LOOKUP[name.lower()]
    except KeyError:
        raise ValueError(
            f"unknown day '{name}' (use Mon, Tue, Wed, Thu, Fri, Sat, Sun or full names)"
        ) from None


def _format_days(days: frozenset[int]) -> str:
    if len(days) == 7:
        return "daily"
    run_starts = [d for d in range(7) if d in days and (d - 1) % 7 not in days]
    if len(run_starts) == 1 and len(days) >= 3:
        # One unbroken run, possibly wrapping round the weekend: "Sat-Mon".
        first = run_starts[0]
        last = (first + len(days) - 1) % 7
        return f"{DAY_ABBREVIATIONS[first]}-{DAY_ABBREVIATIONS[last]}"
    items: list[str] = []
    day = 0
    while day < 7:
        if day not in days:
            day += 1
            continue
        last = day
        while last + 1 < 7 and last + 1 in days:
            last += 1
        if last - day >= 2:
            items.append(f"{DAY_ABBREVIATIONS[day]}-{DAY_ABBREVIATIONS[last]}")
        else:
            items.extend(DAY_ABBREVIATIONS[d] for d in range(day, last + 1))
        day = last + 1
    return ",".join(items)


# --------------------------------------------------------------------------------------------
# Windows: instants


def is_safe(moment: datetime, windows: Iterable[Window], tz: str) -> bool:
    """Whether the aware instant ``moment`` falls inside one of ``windows``.

    The instant is converted to local wall time in ``tz`` and compared with the windows' wall
    times, so DST is handled by the time zone database.
    """
    _require_aware(moment, "moment")
    wall = moment.astimezone(_zone(tz)).replace(tzinfo=None, fold=0)
    return any(window.contains_wall_time(wall) for window in windows)


def window_occurrences(
    start: datetime, end: datetime, windows: Iterable[Window], tz: str
) -> list[tuple[datetime, datetime]]:
    """The UTC ``(start, end)`` intervals of window occurrences overlapping ``[start, end)``.

    Intervals are not clipped to the range; overlapping or touching intervals are merged and
    the result is sorted. An instant is inside an interval exactly when :func:`is_safe` says it
    is safe, so one occurrence can become two intervals on a fall-back day (its wall times occur
    twice) or shrink or vanish on a spring-forward day.
    """
    _require_aware(start, "start")
    _require_aware(end, "end")
    if end <= start:
        return []
    return _safe_intervals(start.astimezone(UTC), end.astimezone(UTC), list(windows), _zone(tz))


def next_safe_slot(
    after: datetime,
    windows: Iterable[Window],
    tz: str,
    duration: timedelta = timedelta(0),
    horizon_days: int = 14,
) -> datetime | None:
    """The earliest UTC instant at or after ``after`` at which a contact of ``duration`` fits.

    The contact ``[slot, slot + duration)`` must lie wholly inside the safe intervals of
    :func:`window_occurrences` (windows that overlap or touch count as one). The slot must start
    within ``horizon_days`` days of ``after``; ``None`` if there is none.
    """
    _require_aware(after, "after")
    if duration < timedelta(0):
        raise ValueError("duration must not be negative")
    if horizon_days <= 0:
        raise ValueError("horizon_days must be positive")
    after_utc = after.astimezone(UTC)
    limit = after_utc + timedelta(days=horizon_days)
    for begin, finish in _safe_intervals(after_utc, limit + duration, list(windows), _zone(tz)):
        slot = max(begin, after_utc)
        if slot >= limit:
            break
        if slot < finish and slot + duration <= finish:
            return slot
    return None


def _safe_intervals(
    lo: datetime, hi: datetime, windows: Sequence[Window], zone: ZoneInfo
) -> list[tuple[datetime, datetime]]:
    """Merged aware-UTC intervals of safe instants that overlap ``[lo, hi)`` (both aware UTC)."""
    if not windows:
        return []
    lo_naive = lo.replace(tzinfo=None)
    hi_naive = hi.replace(tzinfo=None)
    # Occurrences last less than 24 hours and offsets are within +-26 hours, so these margins
    # cover every occurrence that can overlap the range, whole.
    segments = _offset_segments(zone, lo_naive - timedelta(days=5), hi_naive + timedelta(days=5))
    day = lo.astimezone(zone).date() - timedelta(days=2)
    last_day = hi.astimezone(zone).date() + timedelta(days=1)
    pieces: list[tuple[datetime, datetime]] = []
    while day <= last_day:
        weekday = day.weekday()
        for window in windows:
            if weekday not in window.days:
                continue
            local_start, local_end = window.local_span(day)
            for begin, finish in _utc_pieces(local_start, local_end, segments):
                if begin < hi_naive and finish > lo_naive:
                    pieces.append((begin, finish))
        day += timedelta(days=1)
    return [(a.replace(tzinfo=UTC), b.replace(tzinfo=UTC)) for a, b in _merge(pieces)]


_Segment = tuple[datetime, datetime, timedelta]
_EPOCH = datetime(1970, 1, 1)
_PROBE_STEP = 3600  # seconds; no zone changes its offset twice (and back) within an hour


def _offset_segments(zone: ZoneInfo, lo: datetime, hi: datetime) -> list[_Segment]:
    """Split the naive-UTC range ``[lo, hi)`` into ``(start, end, utc_offset)`` segments.

    zoneinfo does not publish its transitions, so they are found by probing every hour and
    bisecting to the second where the offset changes.
    """

    def offset(ts: int) -> timedelta:
        value = datetime.fromtimestamp(ts, zone).utcoffset()
        assert value is not None
        return value

    lo_ts = math.floor((lo - _EPOCH).total_seconds())
    hi_ts = math.ceil((hi - _EPOCH).total_seconds())
    bounds = [lo_ts]
    offsets = [offset(lo_ts)]
    ts = lo_ts
    while ts < hi_ts:
        probe = min(ts + _PROBE_STEP, hi_ts)
        if offset(probe) == offsets[-1]:
            ts = probe
            continue
        same, changed = ts, probe  # offset(same) is the current one, offset(changed) is not
        while changed - same > 1:
            middle = (same + changed) // 2
            if offset(middle) == offsets[-1]:
                same = middle
            else:
                changed = middle
        bounds.append(changed)
        offsets.append(offset(changed))
        ts = changed
    bounds.append(hi_ts)
    return [
        (_EPOCH + timedelta(seconds=bounds[i]), _EPOCH + timedelta(seconds=bounds[i + 1]), off)
        for i, off in enumerate(offsets)
    ]


def _utc_pieces(
    local_start: datetime, local_end: datetime, segments: Sequence[_Segment]
) -> list[tuple[datetime, datetime]]:
    """Naive-UTC pieces of the instants whose wall time lies in ``[local_start, local_end)``.

    Within a segment of constant offset, wall time is UTC plus the offset, so the piece is the
    local range shifted by the offset and clipped to the segment.
    """
    pieces = []
    for seg_start, seg_end, off in segments:
        begin = max(local_start - off, seg_start)
        finish = min(local_end - off, seg_end)
        if begin < finish:
            pieces.append((begin, finish))
    return pieces


def _merge(pieces: list[tuple[datetime, datetime]]) -> list[tuple[datetime, datetime]]:
    merged: list[tuple[datetime, datetime]] = []
    for begin, finish in sorted(pieces):
        if merged and begin <= merged[-1][1]:
            if finish > merged[-1][1]:
                merged[-1] = (merged[-1][0], finish)
        else:
            merged.append((begin, finish))
    return merged


# --------------------------------------------------------------------------------------------
# Recurrence (RFC 5545 RRULE)


class RecurrenceError(ValueError):
    """A recurrence rule is malformed, not allowed, or expands to too many occurrences."""


_RULE_PARTS = (
    "FREQ",
    "UNTIL",
    "COUNT",
    "INTERVAL",
    "BYSECOND",
    "BYMINUTE",
    "BYHOUR",
    "BYDAY",
    "BYMONTHDAY",
    "BYYEARDAY",
    "BYWEEKNO",
    "BYMONTH",
    "BYSETPOS",
    "WKST",
)
_FREQ_NOUNS = {"DAILY": "day", "WEEKLY": "week", "MONTHLY": "month", "YEARLY": "year"}
_TOO_FREQUENT = ("HOURLY", "MINUTELY", "SECONDLY")
_WEEKDAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
_BYDAY_RE = re.compile(r"^([+-]?\d{1,2})?([A-Z]{2})$")
# (lowest, highest, negative values allowed)
_NUMBER_LISTS = {
    "BYSECOND": (0, 59, False),
    "BYMINUTE": (0, 59, False),
    "BYHOUR": (0, 23, False),
    "BYMONTHDAY": (1, 31, True),
    "BYYEARDAY": (1, 366, True),
    "BYWEEKNO": (1, 53, True),
    "BYMONTH": (1, 12, False),
    "BYSETPOS": (1, 366, True),
}
_MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def validate_rule(rule: str, dtstart_local: datetime | None = None) -> None:
    """Raise :class:`RecurrenceError` unless ``rule`` is an acceptable RRULE.

    With ``dtstart_local`` also reject a rule that never produces an occurrence from that start.
    """
    parts = _rule_parts(rule)
    if dtstart_local is not None:
        _require_naive(dtstart_local)
        _check_ever_occurs(parts, dtstart_local)


def occurrences(
    rule: str, dtstart_local: datetime, tz: str, start: datetime, end: datetime
) -> list[datetime]:
    """Aware UTC instants of the occurrences of ``rule`` that fall in ``[start, end)``.

    ``rule`` is an RRULE such as ``FREQ=WEEKLY;BYDAY=MO,TH;COUNT=10`` (an ``RRULE:`` prefix is
    accepted); ``dtstart_local`` is the naive local wall time of the first occurrence in ``tz``
    (as in dateutil, it is itself an occurrence only if it matches the rule). Occurrences keep
    their wall time across DST; a wall time that does not exist (spring forward) moves forward
    by the gap, and an ambiguous one (fall back) is its first instance. ``UNTIL`` may be a UTC
    time (``...Z``, compared as an instant), a local time, or a date (inclusive).

    Raises :class:`RecurrenceError` for a bad rule, for one that never occurs, or when more
    than :data:`MAX_OCCURRENCES` occurrences fall in the range (ask for a shorter range).
    """
    _require_naive(dtstart_local)
    _require_aware(start, "start")
    _require_aware(end, "end")
    zone = _zone(tz)
    parts = _rule_parts(rule)
    _check_ever_occurs(parts, dtstart_local)
    if end <= start:
        return []
    expansion = rrulestr(_rule_text(parts, without=("UNTIL",)), dtstart=dtstart_local)
    assert isinstance(expansion, rrule)
    until_ok, until_wall = _until_filter(parts.get("UNTIL"), zone)
    lo = start.astimezone(zone).replace(tzinfo=None) - timedelta(days=1)
    hi = end.astimezone(zone).replace(tzinfo=None) + timedelta(days=1)
    if until_wall is not None:
        hi = min(hi, until_wall + timedelta(days=1))
    found: set[datetime] = set()
    for wall in expansion.xafter(lo, inc=True):
        if wall > hi:
            break
        instant = wall.replace(tzinfo=zone, fold=0).astimezone(UTC)
        if start <= instant < end and until_ok(wall, instant):
            found.add(instant)
            if len(found) > MAX_OCCURRENCES:
                raise RecurrenceError(
                    f"more than {MAX_OCCURRENCES} occurrences in the requested period; "
                    "ask for a shorter period"
                )
    return sorted(found)


def describe_rule(rule: str) -> str:
    """A short English description of ``rule``, e.g. "every week on Monday and Thursday, 10 times".

    Raises :class:`RecurrenceError` if the rule is not acceptable.
    """
    parts = _rule_parts(rule)
    freq = parts["FREQ"]
    noun = _FREQ_NOUNS[freq]
    interval = int(parts.get("INTERVAL", "1"))
    text = f"every {noun}" if interval == 1 else f"every {interval} {noun}s"
    if "BYMONTH" in parts:
        text += " in " + _join_words([_MONTH_NAMES[n - 1] for n in _numbers(parts["BYMONTH"])])
    if "BYWEEKNO" in parts:
        weeks = [_ordinal_words(n) for n in _numbers(parts["BYWEEKNO"])]
        text += f" in the {_join_words(weeks)} week of the year"
    if "BYYEARDAY" in parts:
        year_days = [_ordinal_words(n) for n in _numbers(parts["BYYEARDAY"])]
        text += f" on the {_join_words(year_days)} day of the year"
    if "BYMONTHDAY" in parts:
        month_days = [_ordinal_words(n) for n in _numbers(parts["BYMONTHDAY"])]
        text += f" on the {_join_words(month_days)} day of the month"
    if "BYDAY" in parts:
        text += " on " + _describe_days(parts["BYDAY"])
    times = _describe_times(parts)
    if times:
        text += " " + times
    if "BYSETPOS" in parts:
        positions = [_ordinal_words(n) for n in _numbers(parts["BYSETPOS"])]
        text += f", only the {_join_words(positions)} of those in each {noun}"
    if "COUNT" in parts:
        count = int(parts["COUNT"])
        text += ", once" if count == 1 else f", {count} times"
    if "UNTIL" in parts:
        text += ", until " + _describe_until(parts["UNTIL"])
    return text


def _rule_parts(rule: str) -> dict[str, str]:
    """Split and validate an RRULE into ``{NAME: VALUE}`` (upper case)."""
    if not isinstance(rule, str):
        raise RecurrenceError("the recurrence rule must be text")
    body = rule.strip()
    if body.upper().startswith("RRULE:"):
        body = body[len("RRULE:") :].strip()
    if not body:
        raise RecurrenceError("the recurrence rule is empty")
    if "\n" in body or "\r" in body or ":" in body:
        raise RecurrenceError("give a single RRULE value such as FREQ=WEEKLY;BYDAY=MO")
    parts: dict[str, str] = {}
    for chunk in body.split(";"):
        chunk = chunk.strip()
        if not chunk:
            continue
        name, equals, value = chunk.partition("=")
        name, value = name.strip().upper(), value.strip().upper()
        if not equals or not name or not value:
            raise RecurrenceError(f"cannot read '{chunk}': expected NAME=VALUE")
        if name not in _RULE_PARTS:
            raise RecurrenceError(f"unknown rule part '{name}'")
        if name in parts:
            raise RecurrenceError(f"{name} is given twice")
        parts[name] = value
    _check_parts(parts)
    try:
        rrulestr(_rule_text(parts, without=("UNTIL",)), dtstart=datetime(2000, 1, 1))
    except (ValueError, TypeError) as exc:  # a backstop: our own checks should come first
        raise RecurrenceError(f"invalid recurrence rule: {exc}") from None
    return parts


def _check_parts(parts: dict[str, str]) -> None:
    freq = parts.get("FREQ")
    if freq is None:
        raise RecurrenceError("the rule needs a FREQ (DAILY, WEEKLY, MONTHLY or YEARLY)")
    if freq in _TOO_FREQUENT:
        raise RecurrenceError(
            f"FREQ={freq} is not allowed: check-ins may recur at most daily "
            "(use FREQ=DAILY, WEEKLY, MONTHLY or YEARLY)"
        )
    if freq not in _FREQ_NOUNS:
        raise RecurrenceError(f"unknown FREQ '{freq}' (use DAILY, WEEKLY, MONTHLY or YEARLY)")
    for name in ("COUNT", "INTERVAL"):
        if name in parts and (not parts[name].isdigit() or int(parts[name]) < 1):
            raise RecurrenceError(f"{name} must be a whole number of at least 1")
    if "COUNT" in parts and "UNTIL" in parts:
        raise RecurrenceError("use COUNT or UNTIL, not both")
    if "UNTIL" in parts:
        _parse_until(parts["UNTIL"])
    for name, (lowest, highest, negatives) in _NUMBER_LISTS.items():
        if name in parts:
            _numbers(parts[name], name=name, lowest=lowest, highest=highest, negatives=negatives)
    if "WKST" in parts and parts["WKST"] not in _WEEKDAY_CODES:
        raise RecurrenceError(f"invalid WKST '{parts['WKST']}' (use MO, TU, ... SU)")
    positioned = False
    if "BYDAY" in parts:
        for _, position in _byday_entries(parts["BYDAY"]):
            positioned = positioned or position is not None
    # RFC 5545 section 3.3.10 restrictions, so that stored rules mean the same to every client.
    if positioned and freq not in ("MONTHLY", "YEARLY"):
        raise RecurrenceError(
            "BYDAY with a position (like 1MO or -1FR) needs FREQ=MONTHLY or FREQ=YEARLY"
        )
    if positioned and "BYWEEKNO" in parts:
        raise RecurrenceError("BYDAY with a position cannot be combined with BYWEEKNO")
    if "BYWEEKNO" in parts and freq != "YEARLY":
        raise RecurrenceError("BYWEEKNO needs FREQ=YEARLY")
    if "BYYEARDAY" in parts and freq != "YEARLY":
        raise RecurrenceError("BYYEARDAY needs FREQ=YEARLY")
    if "BYMONTHDAY" in parts and freq == "WEEKLY":
        raise RecurrenceError("BYMONTHDAY cannot be used with FREQ=WEEKLY")
    if "BYSETPOS" in parts and not any(
        name.startswith("BY") and name != "BYSETPOS" for name in parts
    ):
        raise RecurrenceError("BYSETPOS needs another BY... part to choose from")


def _numbers(
    value: str,
    *,
    name: str = "",
    lowest: int = -(10**6),
    highest: int = 10**6,
    negatives: bool = True,
) -> list[int]:
    numbers = []
    for item in value.split(","):
        item = item.strip()
        if not re.fullmatch(r"[+-]?\d{1,4}", item):
            raise RecurrenceError(f"invalid {name} value '{item}': expected whole numbers")
        number = int(item)
        magnitude = abs(number)
        if (number < 0 and not negatives) or not lowest <= magnitude <= highest:
            allowed = f"{lowest}..{highest}" + (f" or -{highest}..-{lowest}" if negatives else "")
            raise RecurrenceError(f"invalid {name} value '{item}': allowed {allowed}")
        numbers.append(number)
    return numbers


def _byday_entries(value: str) -> list[tuple[str, int | None]]:
    entries: list[tuple[str, int | None]] = []
    for item in value.split(","):
        item = item.strip()
        match = _BYDAY_RE.match(item)
        if match is None or match.group(2) not in _WEEKDAY_CODES:
            raise RecurrenceError(f"invalid day '{item}' in BYDAY (use MO, TU, ... SU or 1MO)")
        position = int(match.group(1)) if match.group(1) else None
        if position is not None and not 1 <= abs(position) <= 53:
            raise RecurrenceError(f"invalid position in BYDAY '{item}': allowed 1..53 or -53..-1")
        entries.append((match.group(2), position))
    return entries


def _parse_until(value: str) -> date | datetime:
    """``20251231`` (a date), ``20251231T170000`` (local) or ``20251231T170000Z`` (UTC)."""
    try:
        if re.fullmatch(r"\d{8}", value):
            return datetime.strptime(value, "%Y%m%d").date()
        if re.fullmatch(r"\d{8}T\d{6}", value):
            return datetime.strptime(value, "%Y%m%dT%H%M%S")
        if re.fullmatch(r"\d{8}T\d{6}Z", value):
            return datetime.strptime(value, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    except ValueError:
        pass
    raise RecurrenceError(
        f"invalid UNTIL '{value}': use a date like 20251231 or a UTC time like 20251231T170000Z"
    )


def _until_filter(
    value: str | None, zone: ZoneInfo
) -> tuple[Callable[[datetime, datetime], bool], datetime | None]:
    """A predicate ``(wall, instant) -> bool`` for UNTIL, and the latest wall time it allows."""
    if value is None:
        return (lambda wall, instant: True), None
    until = _parse_until(value)
    if isinstance(until, datetime) and until.tzinfo is not None:
        return (lambda wall, instant: instant <= until), until.astimezone(zone).replace(tzinfo=None)
    if isinstance(until, datetime):
        return (lambda wall, instant: wall <= until), until
    last_day = until
    return (lambda wall, instant: wall.date() <= last_day), datetime.combine(last_day, time.max)


def _rule_text(parts: Mapping[str, str], *, without: tuple[str, ...] = ()) -> str:
    return ";".join(f"{name}={value}" for name, value in parts.items() if name not in without)


_CYCLE_YEARS = 400  # the Gregorian calendar (leap years and weekdays) repeats every 400 years


def _check_ever_occurs(parts: Mapping[str, str], dtstart_local: datetime) -> None:
    if not _ever_occurs(_rule_text(parts, without=("COUNT", "UNTIL")), dtstart_local):
        raise RecurrenceError("this rule never produces an occurrence (for example 30 February)")


@lru_cache(maxsize=1024)
def _ever_occurs(rule_text: str, dtstart_local: datetime) -> bool:
    """Whether an unbounded rule has an occurrence within 400 years of its start.

    dateutil searches an impossible rule up to the year 9999, which takes seconds. The rule is
    moved forward by whole 400-year cycles (which changes neither weekdays nor leap years) so
    that the search stops after 400 to 800 years.
    """
    cycles = max(0, (9999 - _CYCLE_YEARS - dtstart_local.year) // _CYCLE_YEARS)
    shifted = dtstart_local.replace(year=dtstart_local.year + cycles * _CYCLE_YEARS)
    return rrulestr(rule_text, dtstart=shifted).after(shifted, inc=True) is not None


def _describe_days(value: str) -> str:
    entries = _byday_entries(value)
    codes = [code for code, position in entries if position is None]
    if len(codes) == len(entries):
        chosen = set(codes)
        if chosen == set(_WEEKDAY_CODES[:5]):
            return "weekdays"
        if chosen == set(_WEEKDAY_CODES[5:]):
            return "Saturday and Sunday"
        ordered = sorted(chosen, key=_WEEKDAY_CODES.index)
        return _join_words([DAY_NAMES[_WEEKDAY_CODES.index(c)] for c in ordered])
    words = []
    for code, position in entries:
        name = DAY_NAMES[_WEEKDAY_CODES.index(code)]
        words.append(name if position is None else f"the {_ordinal_words(position)} {name}")
    return _join_words(words)


def _describe_times(parts: Mapping[str, str]) -> str:
    hours = _numbers(parts["BYHOUR"]) if "BYHOUR" in parts else []
    minutes = _numbers(parts["BYMINUTE"]) if "BYMINUTE" in parts else []
    if hours and minutes:
        return "at " + _join_words([f"{h:02d}:{m:02d}" for h in hours for m in minutes])
    if hours:
        return "in the " + _join_words([f"{h:02d}:00" for h in hours]) + " hour"
    if minutes:
        return "at minute " + _join_words([str(m) for m in minutes]) + " of the hour"
    return ""


def _describe_until(value: str) -> str:
    until = _parse_until(value)
    if not isinstance(until, datetime):
        return until.isoformat()
    text = until.strftime("%Y-%m-%d %H:%M")
    return text + " UTC" if until.tzinfo is not None else text


def _ordinal_words(number: int) -> str:
    """1 -> "first", 15 -> "15th", -1 -> "last", -2 -> "second to last"."""
    names = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}
    if number == -1:
        return "last"
    if number < 0:
        return f"{_ordinal_words(-number)} to last"
    if number in names:
        return names[number]
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def _join_words(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


# --------------------------------------------------------------------------------------------
# Helpers


@lru_cache(maxsize=256)
def _zone(tz: str) -> ZoneInfo:
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise ValueError(f"unknown time zone {tz!r}") from None


def _require_aware(value: datetime, name: str) -> None:
    if not isinstance(value, datetime):
        raise TypeError(f"{name} must be a datetime")
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} must be timezone-aware")


def _require_naive(value: datetime) -> None:
    if not isinstance(value, datetime):
        raise TypeError("dtstart_local must be a datetime")
    if value.tzinfo is not None:
        raise ValueError("dtstart_local must be a naive local wall time (no tzinfo)")
