"""Small-number protection for aggregate tables: primary and complementary suppression.

A report is a set of cells (counts, totals among them) and the sums that tie them together
("this total is the sum of those cells"), which anyone reading the report knows. Primary
suppression hides every count from 1 to ``threshold - 1``. Complementary suppression then hides
as few further cells as it can so that no hidden cell can be worked out from what is published:
a hidden cell is exposed when its value follows, by adding and subtracting, from the published
cells and the known sums; in linear-algebra terms, when its unit vector lies in the row space of
the sums restricted to the hidden cells. That test is done exactly, with rational arithmetic.

Zero counts are published (a zero identifies no one); bounds from counts being non-negative are
outside this model.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass
class Grid:
    """The cells of one report and the sums between them. Cells are added by key, so a total
    shown in several breakdowns of the report (people served) is one cell."""

    values: list[int] = field(default_factory=list)
    keys: dict[str, int] = field(default_factory=dict)
    #: (total cell, member cells): value[total] == sum(value[m] for m in members).
    sums: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    totals: set[int] = field(default_factory=set)

    def cell(self, key: str, value: int) -> int:
        if key in self.keys:
            index = self.keys[key]
            if self.values[index] != value:
                raise ValueError(f"cell {key!r} given two values")
            return index
        self.keys[key] = len(self.values)
        self.values.append(int(value))
        return self.keys[key]

    def sum(self, total: int, members: Iterable[int], *, link: bool = False) -> None:
        """``total`` is the sum of ``members``. A ``link`` ties two releases together (a year's
        count is a quarter's plus the rest); it does not make ``total`` a total when complements
        are chosen."""
        members = tuple(members)
        if self.values[total] != sum(self.values[m] for m in members):
            raise ValueError("a total is not the sum of its cells")
        self.sums.append((total, members))
        if not link:
            self.totals.add(total)


def _equations(n: int, sums: Sequence[tuple[int, Sequence[int]]]) -> list[dict[int, Fraction]]:
    rows = []
    for total, members in sums:
        row: dict[int, Fraction] = {total: Fraction(1)}
        for m in members:
            row[m] = row.get(m, Fraction(0)) - 1
        rows.append({k: v for k, v in row.items() if v != 0})
    return rows


def _reduced_basis(rows: list[dict[int, Fraction]]) -> list[tuple[int, dict[int, Fraction]]]:
    """Row-reduce sparse rows: a list of (pivot column, row with a 1 at its pivot)."""
    basis: list[tuple[int, dict[int, Fraction]]] = []
    for original in rows:
        row = dict(original)
        for pivot, prow in basis:
            factor = row.get(pivot)
            if factor:
                for col, v in prow.items():
                    new = row.get(col, Fraction(0)) - factor * v
                    if new:
                        row[col] = new
                    else:
                        row.pop(col, None)
        if not row:
            continue
        pivot = min(row)
        scale = row[pivot]
        row = {c: v / scale for c, v in row.items()}
        # Keep the basis fully reduced: clear the new pivot from the rows already in it.
        for i, (p, prow) in enumerate(basis):
            factor = prow.get(pivot)
            if factor:
                updated = dict(prow)
                for col, v in row.items():
                    new = updated.get(col, Fraction(0)) - factor * v
                    if new:
                        updated[col] = new
                    else:
                        updated.pop(col, None)
                basis[i] = (p, updated)
        basis.append((pivot, row))
    return basis


def exposed(n: int, sums: Sequence[tuple[int, Sequence[int]]], hidden: set[int]) -> set[int]:
    """The hidden cells whose value follows from the published cells and the sums."""
    if not hidden:
        return set()
    # Published cells are known: what is left of each sum is an equation in hidden cells only.
    rows = [{c: v for c, v in row.items() if c in hidden} for row in _equations(n, sums)]
    basis = _reduced_basis([r for r in rows if r])
    out = set()
    for cell in hidden:
        vector = {cell: Fraction(1)}
        for pivot, prow in basis:
            factor = vector.get(pivot)
            if factor:
                for col, v in prow.items():
                    new = vector.get(col, Fraction(0)) - factor * v
                    if new:
                        vector[col] = new
                    else:
                        vector.pop(col, None)
        if not vector:
            out.add(cell)
    return out


def suppress(
    grid: Grid,
    threshold: int,
    *,
    unpublished: Iterable[int] = (),
    fixed: Iterable[int] = (),
    fixed_hidden: Iterable[int] = (),
) -> set[int]:
    """The cells to hide: every count in 1..threshold-1, and complements until none of them can
    be worked out. Complements are taken from the sums that expose a cell, the smallest count
    first, a total last.

    For releases that must be read together (a year and its quarters, two reports of one
    period): ``unpublished`` cells are never shown (the finer groups two breakdowns are made
    of, the difference between a year's count and a quarter's); working one out is harmless
    unless its value is small (1..threshold-1, either sign). ``fixed`` cells were decided by an
    earlier release: those in ``fixed_hidden`` stay hidden, the others are published, and none
    is chosen as a complement. The answer holds every hidden cell, the unpublished and the fixed
    hidden ones included."""
    n = len(grid.values)
    never = set(unpublished)
    frozen = set(fixed) | never
    held = set(fixed_hidden)
    hidden = (
        {i for i, v in enumerate(grid.values) if 0 < v < threshold and i not in frozen}
        | never
        | held
    )
    touching: dict[int, list[int]] = {}
    for s, (total, members) in enumerate(grid.sums):
        for c in (total, *members):
            touching.setdefault(c, []).append(s)

    def rank(c: int) -> tuple[int, int, int, int]:
        value = grid.values[c]
        return (c in grid.totals, value == 0, value, c)

    # What the fixed and unpublished cells give away whatever is hidden: hiding it is no use.
    given = exposed(n, grid.sums, hidden | (set(range(n)) - frozen)) if frozen else set()

    def protected(c: int) -> bool:
        if c in given:
            return False
        return c not in frozen or 0 < abs(grid.values[c]) < threshold

    def free(cells: Iterable[int]) -> set[int]:
        return {c for c in cells if c not in hidden and c not in frozen and c not in given}

    def neighbours(cells: Iterable[int]) -> set[int]:
        return {
            c
            for h in cells
            for s in touching.get(h, [])
            for c in (grid.sums[s][0], *grid.sums[s][1])
        }

    def complement(cell: int) -> int | None:
        candidates = free(neighbours([cell]))
        if not candidates:
            # Exposed through a chain of sums: the nearest cells along the chain first, the
            # smallest of them whose hiding keeps ``cell`` from being worked out.
            seen, ring = {cell}, {cell}
            for _step in range(4):
                ring = neighbours(ring) - seen
                seen |= ring
                for c in sorted(free(ring), key=rank):
                    if cell not in exposed(n, grid.sums, hidden | {c}):
                        return c
            # Otherwise: hide the smallest cell any hidden cell's sums hold.
            candidates = free(
                c
                for h in hidden
                for s in touching.get(h, [])
                for c in (grid.sums[s][0], *grid.sums[s][1])
            )
        if not candidates:
            candidates = free(range(n))
        return min(candidates, key=rank) if candidates else None

    while True:
        open_cells = {c for c in exposed(n, grid.sums, hidden) if protected(c)}
        if not open_cells:
            return hidden
        # One complement at a time, for the first exposed cell: as few hidden as it can.
        chosen = complement(min(open_cells))
        if chosen is None:
            return hidden
        hidden.add(chosen)
