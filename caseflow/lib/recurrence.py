"""Recurring check-ins: RFC 5545 recurrence rules, expanded in the survivor's time zone.

Pure Python (no Django, no database). :func:`validate_rule` accepts or refuses an ``RRULE``
value such as ``FREQ=WEEKLY;BYDAY=MO,TH;COUNT=10``; :func:`occurrences` expands one (through
:mod:`dateutil.rrule`); :func:`describe_rule` describes one in short English for the UI.

Conventions: a rule starts at ``dtstart_local``, a naive wall time in the survivor's IANA zone,
and every occurrence keeps that wall time across DST changes. A wall time that does not exist
(spring forward) moves forward by the gap; an ambiguous one (fall back) is its first
(``fold=0``) instance. Check-ins recur at most daily. Ranges are half-open, ``[start, end)``,
given as aware instants; results are aware UTC instants. Every problem with a rule is a
:class:`RecurrenceError` whose message can be shown to the advocate.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

from dateutil.rrule import rrule, rrulestr

from caseflow.lib import wallclock
from caseflow.lib.wallclock import DAY_NAMES, MONTH_NAMES

__all__ = [
    "MAX_OCCURRENCES",
    "RecurrenceError",
    "describe_rule",
    "occurrences",
    "validate_rule",
]

#: The most occurrences :func:`occurrences` returns for one call.
MAX_OCCURRENCES = 1000


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


def validate_rule(rule: str, dtstart_local: datetime | None = None) -> None:
    """Raise :class:`RecurrenceError` unless ``rule`` is an acceptable RRULE.

    With ``dtstart_local`` also reject a rule that never produces an occurrence from that start.
    """
    parts = _rule_parts(rule)
    if dtstart_local is not None:
        wallclock.require_naive(dtstart_local)
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
    wallclock.require_naive(dtstart_local)
    wallclock.require_aware(start, "start")
    wallclock.require_aware(end, "end")
    zone = wallclock.zone(tz)
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
        text += " in " + _join_words([MONTH_NAMES[n - 1] for n in _numbers(parts["BYMONTH"])])
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
