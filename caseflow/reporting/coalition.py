"""A coalition's roll-up: the same funder report for each member agency, each one suppressed as
that agency gives it out (:func:`reports.release`), then added up cell by cell.

Only what an agency's own report publishes is added: a cell the agency's report hides adds
nothing, and the sum says so ("+": at least this many, some agencies' small counts left out;
"*": every agency's count hidden). So the total holds no count an agency's report would hide,
and no agency's small numbers can be found from it, by subtracting one total from another or
otherwise: anything the roll-up adds was already published by the agency itself. Rows are
matched by their label and sections by their heading, in the reader's language (an agency's
report may list rows another's has not: a language nobody there speaks, a category of its own).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from caseflow.reporting import reports
from caseflow.reporting.reports import FunderReport, Period


@dataclass
class Cell:
    """One published figure of the roll-up: the sum of the agencies' published counts, and how
    many agencies' counts were hidden in their own report and so left out."""

    total: int = 0
    left_out: int = 0
    added: int = 0

    @property
    def text(self) -> str:
        if self.left_out and not self.added:
            return "*"
        return f"{self.total}+" if self.left_out else str(self.total)


@dataclass
class RolledSection:
    title: str
    code: str
    columns: list[str]
    rows: dict[str, list[Cell]] = field(default_factory=dict)
    corner: str = ""


@dataclass
class RolledUp:
    slug: str
    title: str
    period: Period
    agencies: int
    sections: list[RolledSection]
    #: Hidden cells of the agencies' own reports, left out of the sums (their count, no more).
    suppressed: int = 0

    @property
    def cells(self) -> int:
        return sum(len(cells) for s in self.sections for cells in s.rows.values())

    @property
    def partial(self) -> int:
        """Figures of the roll-up that leave some agency's hidden count out."""
        return sum(1 for s in self.sections for cs in s.rows.values() for c in cs if c.left_out)

    def table(self, section: RolledSection) -> list[tuple[str, list[Cell]]]:
        return list(section.rows.items())

    def csv_rows(self) -> list[list[str]]:
        out: list[list[str]] = [
            [self.title],
            [_("Member agencies added up"), str(self.agencies)],
            [key_words()],
            [],
        ]
        for section in self.sections:
            out.append([section.code or section.title])
            out.append([section.corner, *section.columns])
            for label, cells in section.rows.items():
                out.append([label, *(c.text for c in cells)])
            out.append([])
        return out


def key_words() -> str:
    """What the marks mean, in the reader's language."""
    return _(
        "Each agency's small counts are hidden in its own report before the figures are added. "
        "A figure ending in + leaves out the small counts some agencies' reports hide; "
        "* means every agency's count was hidden."
    )


def rollup(slug: str, agency_ids: list[int], period: Period) -> RolledUp:
    """Report ``slug`` for ``period``, of each agency of ``agency_ids`` as it gives it out,
    added up."""
    kind = reports.REPORTS[slug]
    sections: dict[str, RolledSection] = {}
    suppressed = 0
    for agency_id in agency_ids:
        report = reports.release(slug, agency_id, period)
        suppressed += report.suppressed
        _add(sections, report)
    return RolledUp(
        slug, str(kind.title), period, len(agency_ids), list(sections.values()), suppressed
    )


def _add(sections: dict[str, RolledSection], report: FunderReport) -> None:
    for section in report.sections:
        if section.figures or section.own:
            continue  # an average, a median or an agency's own records is not added up
        key = section.code or section.title
        rolled = sections.get(key)
        if rolled is None:
            rolled = sections[key] = RolledSection(
                section.title, section.code, [], corner=section.corner
            )
        # Columns matched by name too: a breakdown's columns may differ between agencies.
        where = []
        for column in section.columns:
            if column not in rolled.columns:
                rolled.columns.append(column)
            where.append(rolled.columns.index(column))
        for cells in rolled.rows.values():
            cells.extend(Cell() for _c in range(len(rolled.columns) - len(cells)))
        for row, (label, shown) in zip(section.rows, report.table(section), strict=True):
            if all(c in report.about for c in row.cells):
                continue  # a figure about a group (Q22c's average) is not added up either
            cells = rolled.rows.setdefault(label, [Cell() for _c in rolled.columns])
            for at, one in zip(where, shown, strict=True):
                if one.value is None:
                    cells[at].left_out += 1
                else:
                    cells[at].total += one.value
                    cells[at].added += 1
