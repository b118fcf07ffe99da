"""Server-rendered bar charts of a report's breakdowns (SVG; the table is the alternative)."""

from __future__ import annotations

from dataclasses import dataclass

from caseflow.reporting.reports import FunderReport, Section

WIDTH, LABEL_W, BAR_H, GAP = 320, 120, 16, 6


@dataclass
class Bar:
    label: str
    text: str
    y: int
    w: int
    text_x: int
    text_y: int


@dataclass
class Chart:
    width: int
    height: int
    left: int
    bars: list[Bar]


def bar_chart(report: FunderReport, section: Section) -> Chart | None:
    """One bar per row but the total; a suppressed cell has no bar, only its text."""
    if section.figures or section.own:
        return None  # an average beside a median, or a project's identifiers, is not a chart
    body = section.rows[:-1] if section.has_total else section.rows
    # An average beside counts (Q22c, Q22f) is days, not people: no bar.
    body = [row for row in body if not all(c in report.about for c in row.cells)]
    rows = [(row.label, report.shown(row.cells[section.chart_column])) for row in body]
    if not rows:
        return None
    peak = max((s.value or 0 for _l, s in rows), default=0) or 1
    span = WIDTH - LABEL_W - 40
    bars = []
    for i, (label, shown) in enumerate(rows):
        y = i * (BAR_H + GAP) + GAP
        w = round(span * (shown.value or 0) / peak)
        short = label if len(label) <= 18 else label[:17] + "…"
        bars.append(Bar(short, shown.text, y, w, LABEL_W + w + 4, y + BAR_H - 4))
    return Chart(WIDTH, len(rows) * (BAR_H + GAP) + GAP, LABEL_W, bars)
