"""Small-number protection for aggregate tables: primary and complementary suppression.

A report is a set of cells (counts, totals among them) and the sums that tie them together
("this total is the sum of those cells"), which anyone reading the report knows. Primary
suppression hides every count from 1 to ``threshold - 1``. Complementary suppression then hides
as few further cells as it can so that no hidden cell can be worked out from what is published:
a hidden cell is exposed when its value follows, by adding and subtracting, from the published
cells and the known sums; in linear-algebra terms, when its unit vector lies in the row space of
the sums restricted to the hidden cells. That test is done exactly, by row reduction in whole
numbers, block by block (cells tied by no chain of sums are independent).

Zero counts are published (a zero identifies no one); bounds from counts being non-negative are
outside this model.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


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


def _equations(sums: Sequence[tuple[int, Sequence[int]]]) -> list[dict[int, int]]:
    """Each sum as an equation: its cells' integer coefficients (none zero)."""
    rows = []
    for total, members in sums:
        row: dict[int, int] = {total: 1}
        for m in members:
            row[m] = row.get(m, 0) - 1
        rows.append({k: v for k, v in row.items() if v != 0})
    return rows


def _eliminate(row: dict[int, int], pivot: int, by: dict[int, int]) -> dict[int, int]:
    """``row`` with its ``pivot`` column cleared by a multiple of ``by`` (whose pivot it is),
    in whole numbers: ``by[pivot] * row - row[pivot] * by``, divided by the gcd of what is
    left. The same row, up to a non-zero factor, as the rational ``row - row[pivot] /
    by[pivot] * by``."""
    scale, factor = by[pivot], row[pivot]
    out = {col: scale * v for col, v in row.items()}
    for col, v in by.items():
        new = out.get(col, 0) - factor * v
        if new:
            out[col] = new
        else:
            out.pop(col, None)
    common = math.gcd(*out.values())
    if common > 1:
        out = {col: v // common for col, v in out.items()}
    return out


def _reduced_basis(rows: list[dict[int, int]]) -> list[tuple[int, dict[int, int]]]:
    """Row-reduce sparse integer rows, exactly: a list of (pivot column, row), each pivot
    column non-zero in its own row only (reduced row echelon form, each row scaled to whole
    numbers rather than to a 1 at its pivot).

    The rows are indexed by column, so that each step touches only the rows that hold the
    column it clears: a row's own columns name the basis rows it is cleared by (a fully reduced
    basis row holds no other row's pivot, so clearing one pivot brings in no other), and the
    new pivot's column names the basis rows it is cleared from. The basis is the same as when
    every row is tried in turn (a reduced row echelon form is unique, up to each row's sign)."""
    basis: dict[int, dict[int, int]] = {}
    #: Each column's basis rows (by pivot) that hold it.
    holding: dict[int, set[int]] = {}

    def put(pivot: int, row: dict[int, int]) -> None:
        basis[pivot] = row
        for col in row:
            holding.setdefault(col, set()).add(pivot)

    def take(pivot: int) -> dict[int, int]:
        row = basis.pop(pivot)
        for col in row:
            holding[col].discard(pivot)
        return row

    for original in rows:
        row = original
        for pivot in sorted(col for col in original if col in basis):
            row = _eliminate(row, pivot, basis[pivot])
        if not row:
            continue
        pivot = min(row)
        # Keep the basis fully reduced: clear the new pivot from the rows already in it.
        for p in sorted(holding.get(pivot, ())):
            put(p, _eliminate(take(p), pivot, row))
        put(pivot, row)
    return list(basis.items())


def _exposed_by(equations: Iterable[dict[int, int]], hidden: set[int]) -> set[int]:
    """The hidden cells whose value follows from ``equations`` once the published cells are
    known. Published cells are known: what is left of each equation is in hidden cells only.
    A cell's unit vector lies in the row space of a fully reduced basis exactly when one of
    its rows is that cell alone (in such a basis, a combination of rows holds each row's pivot
    with that row's weight, so it is one cell only when it is one row, of one cell)."""
    rows = [{c: v for c, v in row.items() if c in hidden} for row in equations]
    basis = _reduced_basis([r for r in rows if r])
    return {pivot for pivot, row in basis if len(row) == 1}


def exposed(n: int, sums: Sequence[tuple[int, Sequence[int]]], hidden: set[int]) -> set[int]:
    """The hidden cells whose value follows from the published cells and the sums."""
    if not hidden:
        return set()
    return _exposed_by(_equations(sums), hidden)


class _Blocks:
    """The grid's sums split into independent blocks: cells tied to one another by a chain of
    sums are in one block, and no sum holds cells of two blocks. A hidden cell's value follows
    from its own block's sums or from none (the equations of two blocks share no unknown), so
    :meth:`exposed` row-reduces each block on its own, and a block again only when its hidden
    cells change: the same answer as :func:`exposed` over the whole grid, block by block."""

    def __init__(self, n: int, sums: Sequence[tuple[int, Sequence[int]]]) -> None:
        parent = list(range(n))

        def root(c: int) -> int:
            while parent[c] != c:
                parent[c] = parent[parent[c]]
                c = parent[c]
            return c

        for total, members in sums:
            top = root(total)
            for m in members:
                other = root(m)
                if other != top:
                    parent[other] = top
        self.block = [root(c) for c in range(n)]
        self.equations: dict[int, list[dict[int, int]]] = {}
        for (total, _members), equation in zip(sums, _equations(sums), strict=True):
            self.equations.setdefault(self.block[total], []).append(equation)
        self._exposed: dict[tuple[int, frozenset[int]], frozenset[int]] = {}

    def exposed(self, hidden: Iterable[int]) -> set[int]:
        """As :func:`exposed` over the whole grid."""
        by_block: dict[int, set[int]] = {}
        for c in hidden:
            block = self.block[c]
            if block in self.equations:  # a cell in no sum is never worked out
                by_block.setdefault(block, set()).add(c)
        out: set[int] = set()
        for block, cells in by_block.items():
            key = (block, frozenset(cells))
            found = self._exposed.get(key)
            if found is None:
                found = frozenset(_exposed_by(self.equations[block], cells))
                self._exposed[key] = found
            out |= found
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
    blocks = _Blocks(n, grid.sums)
    touching: dict[int, list[int]] = {}
    for s, (total, members) in enumerate(grid.sums):
        for c in (total, *members):
            touching.setdefault(c, []).append(s)

    def rank(c: int) -> tuple[int, int, int, int]:
        value = grid.values[c]
        return (c in grid.totals, value == 0, value, c)

    # What the fixed and unpublished cells give away whatever is hidden: hiding it is no use.
    given = blocks.exposed(hidden | (set(range(n)) - frozen)) if frozen else set()

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
                    if cell not in blocks.exposed(hidden | {c}):
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
        open_cells = {c for c in blocks.exposed(hidden) if protected(c)}
        if not open_cells:
            return hidden
        # One complement at a time, for the first exposed cell: as few hidden as it can.
        chosen = complement(min(open_cells))
        if chosen is None:
            return hidden
        hidden.add(chosen)
