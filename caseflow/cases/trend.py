"""The trend across a survivor's whole journey: one picture per case, drawn on the server as SVG,
with the same facts as a table beside it.

Episodes are bands, the risk level a step line (from its recorded sources), and the counts per
week come from the parts of caseflow that keep them (incidents, the other party's breaches,
check-in outcomes), each a :class:`TrendSource` of a feature of the case
(:mod:`caseflow.cases.features`). A source answers with the moments of its records
in a range, each with a category, in a fixed number of queries.

Numbers that are not counts (the survivor's own ratings of how safe she feels) come from a
:class:`TrendLine`: ``(moment, series, number)``, each series on its own scale. A column shows
the mean of a series' numbers in it; a column without any is a gap the line steps over.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from caseflow.cases import features
from caseflow.cases.models import Case, Episode, RiskLevel, RiskLevelChange

#: The most columns the picture draws; a longer journey counts several weeks per column.
MAX_COLUMNS = 78


@dataclass(frozen=True)
class TrendSource:
    kind: str
    #: What a row of the picture shows ("Incidents", "The other party's breaches").
    label: Any
    #: fetch(case, since) -> [(moment, category)] for records from ``since`` (aware datetime).
    fetch: Callable[[Case, dt.datetime], list[tuple[dt.datetime, str]]]
    #: category -> (label, colour), in the order they are stacked.
    categories: dict[str, tuple[Any, str]]
    order: int = 50
    #: summary(case, since) -> lines in words the source adds after its own count line (facts
    #: and counts only, in the reader's language), in a fixed number of queries. Optional.
    summary: Callable[[Case, dt.datetime], list[str]] | None = None


@dataclass(frozen=True)
class Series:
    label: Any
    colour: str
    low: int
    high: int


@dataclass(frozen=True)
class TrendLine:
    kind: str
    #: What the row shows ("Her own rating").
    label: Any
    #: fetch(case, since) -> [(moment, series code, number)] from ``since`` (aware datetime).
    fetch: Callable[[Case, dt.datetime], list[tuple[dt.datetime, str, int]]]
    #: series code -> :class:`Series`, in the order they are listed.
    series: dict[str, Series]
    order: int = 50


def registered_lines() -> list[TrendLine]:
    """Every feature's trend lines, by ``(order, kind)``."""
    return sorted(features.members(lambda f: f.trend_lines), key=lambda s: (s.order, s.kind))


def registered_sources() -> list[TrendSource]:
    """Every feature's trend sources, by ``(order, kind)``."""
    return sorted(features.members(lambda f: f.trend), key=lambda s: (s.order, s.kind))


RISK_Y: dict[str, int] = {
    RiskLevel.UNKNOWN: 0,
    RiskLevel.STANDARD: 1,
    RiskLevel.MEDIUM: 2,
    RiskLevel.HIGH: 3,
}
RISK_COLOUR = {
    RiskLevel.UNKNOWN: "#6c757d",
    RiskLevel.STANDARD: "#146c43",
    RiskLevel.MEDIUM: "#8a6100",
    RiskLevel.HIGH: "#b02a37",
}


@dataclass
class Column:
    start: dt.date
    end: dt.date  # exclusive
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    #: line kind -> series -> the numbers in the column.
    values: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    risk: str = RiskLevel.UNKNOWN
    episode: int | None = None

    def total(self, kind: str) -> int:
        return sum(self.counts.get(kind, {}).values())


@dataclass
class Trend:
    columns: list[Column]
    weeks_per_column: int
    episodes: list[dict]
    rows: list[dict]
    svg: dict
    summary: list[str]
    totals: list[dict]


def _monday(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


def build(case: Case, episodes: list[Episode], *, today: dt.date | None = None) -> Trend:
    """The case's trend, from the first episode's opening (or the case's) to today."""
    zone = timezone.get_current_timezone()
    today = today or timezone.localdate()
    first_day = min(
        [timezone.localtime(e.opened_at, zone).date() for e in episodes]
        + [timezone.localtime(case.opened_at, zone).date()]
    )
    # Records dated before the referral (an incident she told us about) are on the picture too,
    # up to a year before it.
    sources = registered_sources()
    since = dt.datetime.combine(first_day - dt.timedelta(days=365), dt.time.min, tzinfo=zone)
    fetched = {source.kind: source.fetch(case, since) for source in sources}
    said = {source.kind: source.summary(case, since) for source in sources if source.summary}
    lines = registered_lines()
    measured = {line.kind: line.fetch(case, since) for line in lines}
    earliest = [
        timezone.localtime(moment, zone).date() for rows in fetched.values() for moment, _ in rows
    ] + [timezone.localtime(point[0], zone).date() for rows in measured.values() for point in rows]
    start = _monday(min([first_day, today, *earliest]))
    weeks = (_monday(today) - start).days // 7 + 1
    per = max(1, math.ceil(weeks / MAX_COLUMNS))
    count = math.ceil(weeks / per)
    columns = [
        Column(
            start + dt.timedelta(weeks=i * per),
            start + dt.timedelta(weeks=(i + 1) * per),
        )
        for i in range(count)
    ]

    def slot(moment: dt.datetime) -> int | None:
        day = timezone.localtime(moment, zone).date()
        index = (day - start).days // (7 * per)
        return index if 0 <= index < count else None

    for source in sources:
        for moment, category in fetched[source.kind]:
            index = slot(moment)
            if index is not None:
                bucket = columns[index].counts.setdefault(source.kind, {})
                bucket[category] = bucket.get(category, 0) + 1
    for line in lines:
        for moment, code, number in measured[line.kind]:
            index = slot(moment)
            if index is not None and code in line.series:
                kept = columns[index].values.setdefault(line.kind, {})
                kept.setdefault(code, []).append(number)
    # The risk level in force at the end of each column.
    changes = list(RiskLevelChange.objects.filter(case=case).order_by("at", "pk"))
    level: str = RiskLevel.UNKNOWN
    pointer = 0
    for column in columns:
        edge = dt.datetime.combine(column.end, dt.time.min, tzinfo=zone)
        while pointer < len(changes) and changes[pointer].at < edge:
            level = changes[pointer].level
            pointer += 1
        column.risk = level
    # Which episode each column belongs to (the latest one open in it).
    episode_rows = []
    for episode in episodes:
        opened = timezone.localtime(episode.opened_at, zone).date()
        closed = timezone.localtime(episode.closed_at, zone).date() if episode.closed_at else None
        for column in columns:
            if opened < column.end and (closed is None or closed >= column.start):
                column.episode = episode.number
        first = slot(episode.opened_at) or 0
        last = slot(episode.closed_at) if episode.closed_at else count - 1
        episode_rows.append(
            {
                "episode": episode,
                "first": first,
                "last": count - 1 if last is None else last,
            }
        )
    return _draw(case, columns, per, episode_rows, sources, lines, said)


# Drawing ----------------------------------------------------------------------------------------

LEFT, WIDTH = 150, 640
ROW = 46
#: A line of numbers is drawn taller than a row of counts, so that a change of one shows.
LINE_ROW = 80
GAP = 10


def _mean(numbers: list[int]) -> float:
    return sum(numbers) / len(numbers)


def _number(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def _draw(
    case: Case,
    columns: list[Column],
    per: int,
    episodes: list[dict],
    sources: list[TrendSource],
    lines: Sequence[TrendLine] = (),
    said: dict[str, list[str]] | None = None,
) -> Trend:
    step = (WIDTH - LEFT - 10) / max(len(columns), 1)
    rows: list[dict] = []
    top = 26
    # Episodes.
    bands = []
    for index, item in enumerate(episodes):
        episode = item["episode"]
        x = LEFT + item["first"] * step
        w = max((item["last"] - item["first"] + 1) * step, 2)
        bands.append(
            {
                "x": round(x, 1),
                "w": round(w, 1),
                "shade": "#dbe7f5" if index % 2 == 0 else "#e9e2f3",
                "label": gettext("Episode %(number)s") % {"number": episode.number},
                "tx": round(x + 3, 1),
            }
        )
    # Risk step line.
    risk_top = top
    points = []
    for i, column in enumerate(columns):
        y = risk_top + ROW - 6 - RISK_Y[RiskLevel(column.risk)] * ((ROW - 12) / 3)
        points.append((LEFT + i * step, y))
        points.append((LEFT + (i + 1) * step, y))
    risk_path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    rows.append({"label": gettext("Risk level"), "y": risk_top, "kind": "risk"})
    top += ROW + GAP
    # Lines of numbers, each series on its own scale.
    line_rows = []
    for line in lines:
        drawn = []
        for code, series in line.series.items():
            marks: list[dict[str, Any]] = []
            for i, column in enumerate(columns):
                numbers = column.values.get(line.kind, {}).get(code)
                if not numbers:
                    continue
                value = _mean(numbers)
                share = (value - series.low) / max(series.high - series.low, 1)
                marks.append(
                    {
                        "x": round(LEFT + (i + 0.5) * step, 1),
                        "y": round(top + LINE_ROW - 4 - share * (LINE_ROW - 8), 1),
                        "title": f"{series.label}: {_number(value)} ({series.low}–{series.high})",
                    }
                )
            if marks:
                drawn.append(
                    {
                        "label": str(series.label),
                        "colour": series.colour,
                        "low": series.low,
                        "high": series.high,
                        "path": " ".join(f"{p['x']},{p['y']}" for p in marks),
                        "points": marks,
                    }
                )
        scales = {(d["low"], d["high"]) for d in drawn}
        ticks = []
        if len(scales) == 1:  # one scale for every series: its ends beside the row
            ((low, high),) = scales
            ticks = [(str(high), top + 8), (str(low), top + LINE_ROW - 1)]
        line_rows.append(
            {
                "label": str(line.label),
                "y": top,
                "base": top + LINE_ROW,
                "series": drawn,
                "ticks": ticks,
            }
        )
        top += LINE_ROW + GAP
    # Count rows.
    count_rows = []
    for source in sources:
        peak = max((c.total(source.kind) for c in columns), default=0)
        bars = []
        if peak:
            for i, column in enumerate(columns):
                base: float = top + ROW
                for category, (cat_label, colour) in source.categories.items():
                    n = column.counts.get(source.kind, {}).get(category, 0)
                    if not n:
                        continue
                    h = (ROW - 4) * n / peak
                    base -= h
                    bars.append(
                        {
                            "x": round(LEFT + i * step + 0.5, 1),
                            "y": round(base, 1),
                            "w": round(max(step - 1, 1), 1),
                            "h": round(h, 1),
                            "colour": colour,
                            "title": f"{cat_label}: {n}",
                        }
                    )
        count_rows.append(
            {
                "label": str(source.label),
                "y": top,
                "peak": peak,
                "bars": bars,
                "base": top + ROW,
                "legend": [(str(label), colour) for label, colour in source.categories.values()],
            }
        )
        top += ROW + GAP
    height = top + 22
    svg = {
        "width": WIDTH,
        "height": height,
        "left": LEFT,
        "right": WIDTH - 10,
        "bands": bands,
        "band_height": height - 40,
        "risk_path": risk_path,
        "risk_y": risk_top,
        "risk_labels": [
            (str(RiskLevel(level).label), round(risk_top + ROW - 6 - y * ((ROW - 12) / 3) + 4, 1))
            for level, y in RISK_Y.items()
            if level != RiskLevel.UNKNOWN
        ],
        "rows": count_rows,
        "lines": line_rows,
        "first": columns[0].start if columns else None,
        "last": (columns[-1].end - dt.timedelta(days=1)) if columns else None,
        "axis_y": height - 8,
    }
    totals = []
    for item in episodes:
        episode = item["episode"]
        span = columns[item["first"] : item["last"] + 1]
        totals.append(
            {
                "episode": episode,
                "risk_start": RiskLevel(span[0].risk).label if span else "",
                "risk_end": RiskLevel(span[-1].risk).label if span else "",
                "counts": [
                    {
                        "label": str(source.label),
                        "parts": [
                            (
                                str(cat_label),
                                sum(c.counts.get(source.kind, {}).get(cat, 0) for c in span),
                            )
                            for cat, (cat_label, _colour) in source.categories.items()
                        ],
                    }
                    for source in sources
                ],
            }
        )
    summary = _summary(columns, episodes, sources, said or {}) + _line_summary(columns, lines)
    return Trend(columns, per, episodes, rows, svg, summary, totals)


def _line_summary(columns: list[Column], lines: Sequence[TrendLine]) -> list[str]:
    result = []
    for line in lines:
        said = False
        for code, series in line.series.items():
            means = [
                _mean(c.values[line.kind][code])
                for c in columns
                if c.values.get(line.kind, {}).get(code)
            ]
            if not means:
                continue
            said = True
            result.append(
                gettext(
                    "%(line)s, %(series)s: %(first)s at first, %(now)s most recently "
                    "(%(low)s to %(high)s)."
                )
                % {
                    "line": str(line.label),
                    "series": str(series.label).lower(),
                    "first": _number(means[0]),
                    "now": _number(means[-1]),
                    "low": series.low,
                    "high": series.high,
                }
            )
        if not said:
            result.append(gettext("%(label)s: none recorded.") % {"label": str(line.label)})
    return result


def _summary(
    columns: list[Column],
    episodes: list[dict],
    sources: list[TrendSource],
    said: dict[str, list[str]],
) -> list[str]:
    lines = []
    lines.append(
        gettext("%(count)s episode(s) of support.") % {"count": len(episodes)}
        if episodes
        else gettext("No episode of support is recorded.")
    )
    if columns:
        levels = [c.risk for c in columns]
        if all(level == RiskLevel.UNKNOWN for level in levels):
            lines.append(gettext("The risk level has not yet been assessed."))
        else:
            first = next(level for level in levels if level != RiskLevel.UNKNOWN)
            lines.append(
                gettext("Risk level: %(first)s at first, %(now)s now.")
                % {
                    "first": RiskLevel(first).label.lower(),
                    "now": RiskLevel(levels[-1]).label.lower(),
                }
            )
    for source in sources:
        total = sum(c.total(source.kind) for c in columns)
        busiest = max(columns, key=lambda c: c.total(source.kind), default=None)
        if total and busiest is not None:
            lines.append(
                gettext("%(label)s: %(total)s in all, most in the week of %(week)s (%(most)s).")
                % {
                    "label": str(source.label),
                    "total": total,
                    "week": f"{busiest.start:%d %b %Y}",
                    "most": busiest.total(source.kind),
                }
            )
        else:
            lines.append(gettext("%(label)s: none recorded.") % {"label": str(source.label)})
        lines.extend(said.get(source.kind, []))
    return lines
