"""Weekly safe-contact windows, computed in the survivor's time zone.

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

A window is half-open (it includes ``start`` and excludes ``end``), belongs to the day it
starts on, and crosses midnight when ``end <= start``. Instants are aware
:class:`~datetime.datetime` objects; results are always in UTC. Recurring check-ins (RFC 5545
rules) are :mod:`caseflow.lib.recurrence`.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from caseflow.lib import wallclock
from caseflow.lib.wallclock import DAY_NAMES

__all__ = [
    "DAY_ABBREVIATIONS",
    "DAY_NAMES",
    "MAX_WINDOWS",
    "Window",
    "WindowSyntaxError",
    "format_windows",
    "is_safe",
    "next_safe_slot",
    "parse_windows",
    "window_occurrences",
]

#: The most windows one safe-contact profile may hold.
MAX_WINDOWS = 20

DAY_ABBREVIATIONS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")

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
    wallclock.require_aware(moment, "moment")
    wall = moment.astimezone(wallclock.zone(tz)).replace(tzinfo=None, fold=0)
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
    wallclock.require_aware(start, "start")
    wallclock.require_aware(end, "end")
    if end <= start:
        return []
    return _safe_intervals(
        start.astimezone(UTC), end.astimezone(UTC), list(windows), wallclock.zone(tz)
    )


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
    wallclock.require_aware(after, "after")
    if duration < timedelta(0):
        raise ValueError("duration must not be negative")
    if horizon_days <= 0:
        raise ValueError("horizon_days must be positive")
    after_utc = after.astimezone(UTC)
    limit = after_utc + timedelta(days=horizon_days)
    for begin, finish in _safe_intervals(
        after_utc, limit + duration, list(windows), wallclock.zone(tz)
    ):
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
    bisecting to the second where the offset changes (:func:`_transitions`), for the whole UTC
    days around the range, once per process: a page asks about the three weeks from now, which
    are the same days all day long.
    """
    lo_ts = math.floor((lo - _EPOCH).total_seconds())
    hi_ts = math.ceil((hi - _EPOCH).total_seconds())
    first, changes = _transitions(zone, lo_ts // _DAY * _DAY, hi_ts // _DAY * _DAY + _DAY)
    bounds = [lo_ts]
    offsets = [first]
    for at, offset in changes:
        if at <= lo_ts:
            offsets[0] = offset  # in force at ``lo`` already
        elif at <= hi_ts:
            bounds.append(at)
            offsets.append(offset)
    bounds.append(hi_ts)
    return [
        (_EPOCH + timedelta(seconds=bounds[i]), _EPOCH + timedelta(seconds=bounds[i + 1]), off)
        for i, off in enumerate(offsets)
    ]


_DAY = 86_400


@functools.lru_cache(maxsize=1024)
def _transitions(
    zone: ZoneInfo, lo_ts: int, hi_ts: int
) -> tuple[timedelta, tuple[tuple[int, timedelta], ...]]:
    """The UTC offset of ``zone`` at ``lo_ts`` and each change of it in ``(lo_ts, hi_ts]``: the
    first second of the new offset (POSIX seconds) and the offset."""

    def offset(ts: int) -> timedelta:
        value = datetime.fromtimestamp(ts, zone).utcoffset()
        assert value is not None
        return value

    first = current = offset(lo_ts)
    changes: list[tuple[int, timedelta]] = []
    ts = lo_ts
    while ts < hi_ts:
        probe = min(ts + _PROBE_STEP, hi_ts)
        if offset(probe) == current:
            ts = probe
            continue
        same, changed = ts, probe  # offset(same) is the current one, offset(changed) is not
        while changed - same > 1:
            middle = (same + changed) // 2
            if offset(middle) == current:
                same = middle
            else:
                changed = middle
        current = offset(changed)
        changes.append((changed, current))
        ts = changed
    return first, tuple(changes)


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
