"""The pattern in plain words: after how many of the last incidents each kind of mark followed
within a few days. Facts and counts only, never a score, a likelihood or a label of anyone.

Conventions (pure functions, no database, no clock):

- ``harms`` are the moments of harm (incidents), in any order; ``marks`` are ``(moment, kind
  key)`` pairs, in any order. Moments are aware datetimes.
- Only the ``last`` most recent harms are looked at ("the last 4 incidents").
- A mark *follows* a harm when it is at or after it, less than ``days`` days after it, and
  before the next harm (warmth after the second of two close incidents follows the second).
- A harm counts once per kind, however many marks of that kind followed it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

#: How soon after harm a mark counts as following it, and how many harms are looked at.
DAYS = 3
LAST = 4


@dataclass(frozen=True)
class Pattern:
    #: How many harms were looked at (at most ``last``).
    harms: int
    #: How many of them any mark followed.
    followed: int
    #: ``(kind key, how many of the harms it followed)``, most first; ties in first-seen order.
    by_kind: tuple[tuple[str, int], ...]
    days: int


def find_pattern(
    harms: Iterable[dt.datetime],
    marks: Iterable[tuple[dt.datetime, str]],
    *,
    days: int = DAYS,
    last: int = LAST,
) -> Pattern:
    """What followed each of the ``last`` most recent ``harms`` within ``days`` days."""
    ordered = sorted(harms)
    looked = ordered[-last:] if last > 0 else []
    window = dt.timedelta(days=days)
    sorted_marks = sorted(marks, key=lambda m: m[0])
    counts: dict[str, int] = {}
    followed = 0
    for index, harm in enumerate(looked):
        end = harm + window
        later = ordered[len(ordered) - len(looked) + index + 1 :]
        if later and later[0] < end:
            end = later[0]
        kinds: list[str] = []
        for moment, kind in sorted_marks:
            if harm <= moment < end and kind not in kinds:
                kinds.append(kind)
        if kinds:
            followed += 1
        for kind in kinds:
            counts[kind] = counts.get(kind, 0) + 1
    first_seen = list(counts)
    by_kind = tuple(sorted(counts.items(), key=lambda item: (-item[1], first_seen.index(item[0]))))
    return Pattern(harms=len(looked), followed=followed, by_kind=by_kind, days=days)


def pattern_lines(pattern: Pattern, labels: Mapping[str, str]) -> list[str]:
    """The pattern in the reader's language, one line per kind that followed harm: "An apology:
    after 4 of the last 4 incidents, within 3 days." Nothing when nothing followed."""
    if not pattern.followed:
        return []
    lines = []
    for kind, count in pattern.by_kind:
        label = labels.get(kind, "")
        if not label:
            continue
        if pattern.harms == 1:
            words = ngettext(
                "%(kind)s: after the one incident recorded, within %(days)s day.",
                "%(kind)s: after the one incident recorded, within %(days)s days.",
                pattern.days,
            )
        else:
            words = ngettext(
                "%(kind)s: after %(count)s of the last %(harms)s incidents, within %(days)s day.",
                "%(kind)s: after %(count)s of the last %(harms)s incidents, within %(days)s days.",
                pattern.days,
            )
        lines.append(
            words % {"kind": label, "count": count, "harms": pattern.harms, "days": pattern.days}
        )
    if len(lines) > 1 and pattern.harms > 1:
        lines.insert(
            0,
            gettext(
                "After %(followed)s of the last %(harms)s incidents, at least one of these "
                "within %(days)s days:"
            )
            % {"followed": pattern.followed, "harms": pattern.harms, "days": pattern.days},
        )
    return lines
