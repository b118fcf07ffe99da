"""Small-number protection for aggregate tables: primary and complementary suppression.

A report is a set of cells (counts, totals among them) and the sums that tie them together
("this total is the sum of those cells"), which anyone reading the report knows. Primary
suppression hides every count from 1 to ``threshold - 1``. Complementary suppression then hides
as few further cells as it can so that no hidden cell can be worked out from what is published:
a hidden cell is exposed when its value follows, by adding and subtracting, from the published
cells and the known sums; in linear-algebra terms, when its unit vector lies in the row space of
the sums restricted to the hidden cells. That test is done exactly, by row reduction in whole
numbers, block by block (cells tied by no chain of sums are independent). While complements are
chosen, each block's reduction is kept and brought up to date as each cell is hidden, and asked
what one more hidden cell would change without redoing it (:class:`_Reduction`).

Zero counts are published (a zero identifies no one), and never hidden as complements: a reader
knows counts are never negative, so a hidden zero inside a count of nothing, or among hidden
counts a reader works out add up to nothing, is known to be zero and protects nothing, and
whether it is can depend on a later release (a year's 0 tells every quarter's count of it).

Complements are chosen first for a reader who adds and subtracts (and knows that counts that add
up to nothing are each nothing). The release is then read as a reader who also knows bounds
reads it: every count is at least 0, and every "*" at least 1 (zeros are printed, so a hidden
count is not one). Such a reader solves for each hidden count's least and greatest value, a
linear programme (:func:`worked_out`, with the HiGHS solver): a small count whose least and
greatest whole values meet is told (two "*" that add up to 2 are each 1), and takes one more
complement, until none is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field


class Unchecked(RuntimeError):
    """The solver gave no answer for a part of a release, so what a reader could work out of
    it is not known: the release must not be given out. A fault of the solver, never of the
    counts (they are always one answer); pages say so in plain words and offer a retry."""


class Told(Unchecked):
    """A release whose small counts a reader still works out after suppression (a count no
    complement keeps hidden): it must not be given out. Unlike :class:`Unchecked`, trying again
    gives the same answer; pages say so in plain words."""


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
    column non-zero in its own row only (a fully reduced basis, as in a reduced row echelon
    form but with its pivots in no set order, each row scaled to whole numbers rather than to
    a 1 at its pivot).

    The rows are indexed by column, so that each step touches only the rows that hold the
    column it clears: a row's own columns name the basis rows it is cleared by (a fully reduced
    basis row holds no other row's pivot, so clearing one pivot brings in no other), and the
    new pivot's column names the basis rows it is cleared from. A row's pivot is any of its
    columns (the one fewest rows hold): whichever is chosen, each pivot column is non-zero in
    its own row only, which is all :func:`_exposed_by` asks of the basis, and the basis spans
    the rows."""
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

    #: How many rows hold each column: a row's pivot is its column held by fewest rows, so
    #: that a cell of one sum only (a breakdown's cell) is a pivot no other row must be cleared
    #: of, and a grid of sums reduces with little fill.
    held_by: dict[int, int] = {}
    for row in rows:
        for col in row:
            held_by[col] = held_by.get(col, 0) + 1

    for original in rows:
        row = original
        for pivot in sorted(col for col in original if col in basis):
            row = _eliminate(row, pivot, basis[pivot])
        if not row:
            continue
        pivot = min(row, key=lambda col: (held_by.get(col, 0), col))
        # Keep the basis fully reduced: clear the new pivot from the rows already in it.
        for p in sorted(holding.get(pivot, ())):
            put(p, _eliminate(take(p), pivot, row))
        put(pivot, row)
    return list(basis.items())


def _without(row: dict[int, int], cell: int) -> dict[int, int]:
    return {c: v for c, v in row.items() if c != cell}


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


def worked_out(
    values: Sequence[int],
    sums: Sequence[tuple[int, Sequence[int]]],
    hidden: Iterable[int],
    blocks: _Blocks | None = None,
    *,
    at_least_one: Iterable[int] = (),
    bounds: bool = True,
    asked: set[int] | None = None,
) -> set[int]:
    """The hidden cells a reader works out who also knows that counts are never negative, and
    that the hidden cells ``at_least_one`` names are not zero (a report that always prints its
    zeros says so of every "*" it prints): what :func:`exposed` finds and every hidden cell
    whose least and greatest values meet (:func:`_bounds_meet`: hidden counts that add up to
    nothing are each nothing, two printed "*" that add up to 2 are each 1, and whatever more
    the sums together bound), in turn until no more follows. A stricter reading than
    :func:`exposed`, used to check a release. ``blocks``: the grid's, with the reductions it
    keeps, when the caller has them. ``asked``: the cells whose bounds are solved for (every
    hidden cell when None; :func:`exposed` answers for all). Without ``bounds``, the reading
    complements are first chosen for: only a sum whose known total, less its known cells,
    leaves nothing tells that its hidden cells are each nothing."""
    unknown = set(hidden)
    least = set(at_least_one)
    found: set[int] = set()
    if blocks is None:
        blocks = _Blocks(len(values), sums)
    while True:
        found |= blocks.exposed(unknown)
        unknown -= found
        if bounds:
            pinned = _bounds_meet(values, blocks, unknown, least, asked)
        else:
            pinned = _nothing_left(values, sums, unknown)
        if not pinned:
            return found
        found |= pinned
        unknown -= pinned


def printed_stars(
    values: Sequence[int], hidden: Iterable[int], unpublished: Iterable[int] = ()
) -> set[int]:
    """The ``hidden`` cells a reader knows are not 0: each printed as "*", here or in an
    earlier release, where zeros are printed (a cell never published is not)."""
    never = set(unpublished)
    return {c for c in hidden if c not in never and values[c] > 0}


def _nothing_left(
    values: Sequence[int], sums: Sequence[tuple[int, Sequence[int]]], unknown: set[int]
) -> set[int]:
    """The ``unknown`` cells of a sum whose total is known and whose known cells leave nothing
    of it: counts that add up to nothing are each nothing."""
    out: set[int] = set()
    for total, members in sums:
        if total in unknown:
            continue
        left = [m for m in members if m in unknown]
        if left and all(values[m] == 0 for m in left):
            out.update(left)
    return out


def _bounds_meet(
    values: Sequence[int],
    blocks: _Blocks,
    unknown: set[int],
    least: set[int],
    asked: set[int] | None = None,
) -> set[int]:
    """The ``unknown`` cells (of ``asked``, when given) whose value a reader pins down from
    the sums and the bounds: each hidden count is at least 0 (at least 1 when in ``least``), a
    cell of negative value is bounded by its sums only. Each cell's lowest and highest value
    over every filling-in of the hidden cells that meets the sums, as a reader with a linear
    programme finds them (HiGHS), rounded inwards to whole counts: a cell is pinned when they
    meet. Asked block by block, of the unknown cells of that block only (the sums of another
    hold none of them). Every solution the solver gives is a filling-in that meets the sums,
    so a cell seen at two whole values that far apart is not pinned, and is not asked of
    again."""
    out: set[int] = set()
    wanted = unknown if asked is None else unknown & asked
    by_block: dict[int, set[int]] = {}
    for c in wanted:
        if blocks.block[c] in blocks.equations:  # a cell in no sum is never worked out
            by_block.setdefault(blocks.block[c], set()).add(c)
    if not by_block:
        return out
    # A block's answers depend on its unknown cells and which of them are at least 1 only:
    # kept, for the blocks a reading asks again with nothing of theirs changed. And a cell not
    # pinned with fewer cells unknown is not pinned with more, each bounded no more
    # tightly: every filling-in of the fewer is one of the more (the cells now unknown too at
    # their true values, which meet their bounds), so each cell's least and greatest values
    # stay as far apart or further.
    if blocks._pinned_values is not values:
        blocks._pinned, blocks._free, blocks._pinned_values = {}, {}, values
    unknown_in: dict[int, set[int]] = {block: set() for block in by_block}
    for c in unknown:
        if blocks.block[c] in unknown_in:
            unknown_in[blocks.block[c]].add(c)
    for block, cells in by_block.items():
        inside = frozenset(unknown_in[block])
        at_least = inside & least
        answers = blocks._pinned.setdefault((block, inside, at_least), {})
        missing = cells - answers.keys()
        readings = blocks._free.setdefault(block, [])
        for fewer, bounded, free in reversed(readings):
            if not missing:
                break
            if fewer <= inside and at_least & fewer <= bounded and missing & free:
                answers.update((c, False) for c in missing & free)
                missing -= free
        if missing:
            told = _block_bounds_meet(values, blocks.equations[block], unknown, least, missing)
            answers.update((c, c in told) for c in missing)
            readings.append((inside, at_least, {c for c, pinned in answers.items() if not pinned}))
            del readings[:-_READINGS_KEPT]
        out |= {c for c in cells if answers[c]}
    return out


#: How many of a block's latest readings :func:`_bounds_meet` keeps to answer from.
_READINGS_KEPT = 8


#: How far a solver's value may stray from a whole count and still be read as it.
_SLACK = 1e-6


def _block_bounds_meet(
    values: Sequence[int],
    equations: Sequence[dict[int, int]],
    unknown: set[int],
    least: set[int],
    cells: set[int],
) -> set[int]:
    import highspy  # noqa: PLC0415 (the solver is loaded only when bounds are read)
    import numpy as np  # noqa: PLC0415

    answered = (
        highspy.HighsModelStatus.kOptimal,
        highspy.HighsModelStatus.kUnbounded,
        highspy.HighsModelStatus.kUnboundedOrInfeasible,
    )
    variables = sorted({c for eq in equations for c in eq if c in unknown})
    column = {c: i for i, c in enumerate(variables)}
    starts, rows, coefficients = [], [], []
    by_column: list[list[tuple[int, int]]] = [[] for _ in variables]
    right: list[float] = []
    for eq in equations:
        part = [(column[c], v) for c, v in eq.items() if c in column]
        if not part:
            continue
        for i, v in part:
            by_column[i].append((len(right), v))
        right.append(float(-sum(v * values[c] for c, v in eq.items() if c not in column)))
    position = 0
    for entries in by_column:
        starts.append(position)
        for r, v in entries:
            rows.append(r)
            coefficients.append(float(v))
        position += len(entries)
    starts.append(position)
    infinite = highspy.kHighsInf
    lp = highspy.HighsLp()
    lp.num_col_ = len(variables)
    lp.num_row_ = len(right)
    lp.col_cost_ = np.zeros(len(variables))
    lp.col_lower_ = np.array(
        [(1.0 if c in least else 0.0) if values[c] >= 0 else -infinite for c in variables]
    )
    lp.col_upper_ = np.full(len(variables), infinite)
    lp.row_lower_ = np.array(right)
    lp.row_upper_ = np.array(right)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(rows, dtype=np.int32)
    lp.a_matrix_.value_ = np.array(coefficients)
    solver = highspy.Highs()
    solver.setOptionValue("output_flag", False)
    solver.passModel(lp)
    seen_low = np.full(len(variables), np.inf)
    seen_high = np.full(len(variables), -np.inf)
    every = np.arange(len(variables), dtype=np.int32)
    cost = np.zeros(len(variables))

    def extreme(i: int | list[int], sign: float) -> float:
        """The lowest value of ``sign`` times variable ``i`` (or the sum of those ``i``
        lists), minus infinity when there is none."""
        cost[i] = sign
        solver.changeColsCost(len(variables), every, cost)
        cost[i] = 0.0
        solver.run()
        status = solver.getModelStatus()
        if status not in answered:
            # A start from the last solution (after an unbounded one) can leave the solver
            # unsure: asked again from scratch.
            solver.clearSolver()
            solver.run()
            status = solver.getModelStatus()
        if status == highspy.HighsModelStatus.kOptimal:
            solution = np.array(solver.getSolution().col_value)
            np.minimum(seen_low, solution, out=seen_low)
            np.maximum(seen_high, solution, out=seen_high)
            return float(solver.getInfo().objective_function_value)
        if status in (
            highspy.HighsModelStatus.kUnbounded,
            highspy.HighsModelStatus.kUnboundedOrInfeasible,
        ):
            return -math.inf
        raise Unchecked(f"bounds could not be read: {status}")

    def apart(low: float, high: float) -> bool:
        """Whether two whole counts lie between ``low`` and ``high``."""
        if math.isinf(low) or math.isinf(high):
            return low < high
        return math.floor(high + _SLACK) > math.ceil(low - _SLACK)

    # Two fillings-in far apart first (the asked cells' sum at its lowest, then at its
    # highest): most cells that are not pinned differ between them.
    if len(cells) > 1:
        extreme([column[c] for c in cells], 1.0)
        extreme([column[c] for c in cells], -1.0)
    out: set[int] = set()
    for c in sorted(cells):
        i = column[c]
        if apart(seen_low[i], seen_high[i]):
            continue  # seen at two whole values already
        low = extreme(i, 1.0)
        if apart(seen_low[i], seen_high[i]):
            continue
        high = -extreme(i, -1.0)
        if not apart(low, high):
            out.add(c)
    return out


def _components(n: int, sums: Sequence[tuple[int, Sequence[int]]]) -> list[int]:
    """Each cell's block: one cell of it, the same for every cell tied to it by a chain of
    sums."""
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
    return [root(c) for c in range(n)]


class _Blocks:
    """The grid's sums split into independent blocks: cells tied to one another by a chain of
    sums are in one block, and no sum holds cells of two blocks. A hidden cell's value follows
    from its own block's sums or from none (the equations of two blocks share no unknown), so
    :meth:`exposed` row-reduces each block on its own, and a block again only when its hidden
    cells change: the same answer as :func:`exposed` over the whole grid, block by block."""

    def __init__(self, n: int, sums: Sequence[tuple[int, Sequence[int]]]) -> None:
        self.block = _components(n, sums)
        self.equations: dict[int, list[dict[int, int]]] = {}
        for (total, _members), equation in zip(sums, _equations(sums), strict=True):
            self.equations.setdefault(self.block[total], []).append(equation)
        self._keep_answers()

    def _keep_answers(self) -> None:
        """What is kept of the answers given, as nothing yet."""
        self._exposed: dict[tuple[int, frozenset[int]], frozenset[int]] = {}
        #: Each block's reduction for a set of its cells hidden, as first made: shared by every
        #: :class:`_Hiding` of that set, which copies it before hiding a cell in it.
        self._reduced: dict[tuple[int, frozenset[int]], _Reduction] = {}
        #: Whether each cell asked of is pinned by its bounds (:func:`_bounds_meet`), by its
        #: block's unknown cells and those of them at least 1, for the values last asked of.
        self._pinned: dict[tuple[int, frozenset[int], frozenset[int]], dict[int, bool]] = {}
        self._pinned_values: Sequence[int] | None = None
        #: Each block's latest readings: its unknown cells, those of them at least 1, and the
        #: cells found not pinned (:func:`_bounds_meet`).
        self._free: dict[int, list[tuple[frozenset[int], frozenset[int], set[int]]]] = {}
        #: Each block's reduced basis (by pivot) for the hidden cells it was last asked of, and
        #: the one for those cells less the one last shown (asked of next when it stays shown).
        self._basis: dict[int, dict[frozenset[int], dict[int, dict[int, int]]]] = {}

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

    def exposed_without(self, hidden: set[int], cell: int) -> set[int]:
        """As :meth:`exposed` of ``hidden`` less ``cell`` (a hidden cell shown), from the
        reduced basis of ``cell``'s block with it hidden rather than a reduction afresh: showing
        a cell drops its column from the basis. A column that is no row's pivot leaves every
        pivot in its own row only, so the rows that held it are what they were less it; the
        pivot of a row it was the pivot of moves to another column of that row, cleared from
        the other rows that hold it (a row of that cell only told its value: it goes)."""
        block = self.block[cell]
        if block not in self.equations:
            return self.exposed(hidden - {cell})
        cells = frozenset(c for c in hidden if self.block[c] == block)
        basis = self._basis.get(block, {}).get(cells)
        if basis is None:
            restricted = [
                {c: v for c, v in eq.items() if c in cells} for eq in self.equations[block]
            ]
            basis = dict(_reduced_basis([r for r in restricted if r]))
        rows = {pivot: row for pivot, row in basis.items() if cell not in row}
        rows |= {pivot: _without(row, cell) for pivot, row in basis.items() if cell in row}
        own = rows.pop(cell, None)
        if own:  # ``cell`` was its pivot: another of its columns is
            pivot = min(own)
            for p, row in rows.items():
                if pivot in row:
                    rows[p] = _eliminate(row, pivot, own)
            rows[pivot] = own
        # Rows are never changed in place, only replaced: both bases keep theirs.
        self._basis[block] = {cells: basis, cells - {cell}: rows}
        found = {pivot for pivot, row in rows.items() if len(row) == 1}
        others = self.exposed({c for c in hidden if self.block[c] != block})
        return found | others


class _Reduction:
    """One block's equations reduced for a set of hidden cells that only grows, as suppression
    hides complements one at a time: what :func:`_exposed_by` works out from scratch, kept up
    to date by a few row operations for each cell hidden, and answering "what would be exposed
    if this cell were hidden too" without any.

    The rows are whole equations (published cells included), combined so that each hidden
    pivot is non-zero in its own row only; a row with no hidden cell left is kept too (a sum
    of published cells alone, until one of them is hidden). Published cells are known, so
    what a row says of the hidden cells is its hidden part; the hidden parts of the pivot rows
    are a fully reduced basis of what the equations say of them, and those of the other rows
    are empty. A hidden cell is exposed exactly when its pivot row's hidden part is that cell
    alone (:func:`_exposed_by`).

    Hiding a published cell ``c``: if a row with no hidden cell holds it, that row's hidden
    part becomes ``c`` alone (``c`` is exposed), it becomes ``c``'s pivot row, and ``c`` is
    cleared from every other row with it, which leaves their hidden parts as they were.
    Otherwise no row changes: the pivot rows holding ``c`` gain it in their hidden parts (their
    pivots are no longer alone there), and the basis stays fully reduced (``c`` is no pivot)."""

    def __init__(self, equations: Iterable[dict[int, int]], hidden: Iterable[int]) -> None:
        self.hidden = set(hidden)
        self.rows: dict[int, dict[int, int]] = {}
        #: Each row's pivot, None for a row with no hidden cell.
        self.pivot_of: dict[int, int | None] = {}
        #: Each pivot's row.
        self.row_of: dict[int, int] = {}
        #: Each cell's rows.
        self.holding: dict[int, set[int]] = {}
        #: The columns whose ``holding`` set this reduction may change in place: a copy shares
        #: the others with the reduction it was copied from until it changes one (rows are
        #: never changed in place, only replaced, so they are shared as they are).
        self._own: set[int] | None = None
        self._exposed: set[int] | None = None
        for n, equation in enumerate(equations):
            self._insert(n, equation)

    def _holding_of(self, col: int) -> set[int]:
        """``col``'s rows, to change: this reduction's own set."""
        rids = self.holding.get(col)
        if rids is None:
            rids = self.holding[col] = set()
            if self._own is not None:
                self._own.add(col)
        elif self._own is not None and col not in self._own:
            rids = self.holding[col] = set(rids)
            self._own.add(col)
        return rids

    def _put(self, rid: int, row: dict[int, int], pivot: int | None) -> None:
        self.rows[rid] = row
        self.pivot_of[rid] = pivot
        if pivot is not None:
            self.row_of[pivot] = rid
        if self._own is None:  # every set is this one's own (the common case, made once)
            holding = self.holding
            for col in row:
                rids = holding.get(col)
                if rids is None:
                    holding[col] = {rid}
                else:
                    rids.add(rid)
        else:
            for col in row:
                self._holding_of(col).add(rid)

    def _take(self, rid: int) -> dict[int, int]:
        row = self.rows.pop(rid)
        pivot = self.pivot_of.pop(rid)
        if pivot is not None:
            del self.row_of[pivot]
        if self._own is None:
            holding = self.holding
            for col in row:
                holding[col].discard(rid)  # put with the row
        else:
            for col in row:
                self._holding_of(col).discard(rid)
        return row

    def _clear(self, col: int, by: dict[int, int]) -> None:
        """Clear ``col`` from every row that holds it, by ``by`` (a row not among them whose
        hidden part is ``col`` alone, or whose pivot ``col`` is): a pivot row keeps its pivot,
        and a row left with nothing is dropped."""
        for rid in sorted(self.holding.get(col, ())):
            pivot = self.pivot_of[rid]
            row = _eliminate(self._take(rid), col, by)
            if row:
                self._put(rid, row, pivot)

    def _insert(self, rid: int, equation: dict[int, int]) -> None:
        row = equation
        # Clearing a pivot brings in no other (a pivot row holds no other row's pivot).
        for pivot in sorted(c for c in equation if c in self.row_of):
            row = _eliminate(row, pivot, self.rows[self.row_of[pivot]])
        if not row:
            return
        hidden = [c for c in row if c in self.hidden]
        if not hidden:
            self._put(rid, row, None)
            return
        pivot = min(hidden)
        self._clear(pivot, row)  # only pivot rows can hold a hidden cell
        self._put(rid, row, pivot)

    def exposed(self) -> set[int]:
        """The hidden cells whose value follows from the equations (:func:`_exposed_by`)."""
        if self._exposed is None:
            self._exposed = {
                pivot
                for pivot, rid in self.row_of.items()
                if all(c == pivot or c not in self.hidden for c in self.rows[rid])
            }
        return self._exposed

    def exposed_with(self, cell: int) -> set[int]:
        """What :meth:`exposed` would be with ``cell`` hidden too, changing nothing."""
        if cell in self.hidden:
            return self.exposed()
        holders = self.holding.get(cell, set())
        if any(self.pivot_of[rid] is None for rid in holders):
            return self.exposed() | {cell}
        return self.exposed() - {self.pivot_of[rid] for rid in holders}

    def copy(self) -> _Reduction:
        """The same reduction, to hide cells in without changing this one: its rows are
        shared, and each cell's set of rows until one of the two changes it (this one, from
        now on, copies a set before changing it too)."""
        other = _Reduction((), self.hidden)
        other.rows = dict(self.rows)
        other.pivot_of = dict(self.pivot_of)
        other.row_of = dict(self.row_of)
        other.holding = dict(self.holding)
        other._own = set()
        self._own = set()
        other._exposed = None if self._exposed is None else set(self._exposed)
        return other

    def pivot_row(self, cell: int) -> dict[int, int]:
        """The row whose pivot hidden ``cell`` is."""
        return self.rows[self.row_of[cell]]

    def hide(self, cell: int) -> None:
        if cell in self.hidden:
            return
        if self._exposed is not None:
            self._exposed = self.exposed_with(cell)
        self.hidden.add(cell)
        free = sorted(r for r in self.holding.get(cell, ()) if self.pivot_of[r] is None)
        if free:
            rid = free[0]
            row = self._take(rid)
            self._clear(cell, row)
            self._put(rid, row, cell)


class _Hiding:
    """The cells hidden so far and what they leave exposed, block by block (:class:`_Blocks`),
    each block's equations reduced once (:class:`_Reduction`) and kept up to date as cells are
    hidden. A copy (:meth:`hiding`) shares each block's reduction with this one until either
    hides a cell of that block, which first copies it."""

    def __init__(self, blocks: _Blocks, hidden: Iterable[int]) -> None:
        self.blocks = blocks
        self.hidden = set(hidden)
        self._reductions: dict[int, _Reduction] = {}
        #: The blocks whose reduction is this one's alone, to change in place.
        self._mine: set[int] = set()
        #: What every block leaves exposed, once asked (until a cell is hidden).
        self._all: set[int] | None = None
        by_block: dict[int, set[int]] = {}
        for c in self.hidden:
            by_block.setdefault(blocks.block[c], set()).add(c)
        for block, equations in blocks.equations.items():
            cells = by_block.get(block)
            if cells:
                # Shared with every other of the same cells hidden (the loop of
                # :func:`suppress` starts again with most blocks as they were): not this one's
                # alone, so copied before a cell is hidden in it.
                key = (block, frozenset(cells))
                reduction = blocks._reduced.get(key)
                if reduction is None:
                    reduction = blocks._reduced[key] = _Reduction(equations, cells)
                self._reductions[block] = reduction

    def _of(self, cell: int) -> _Reduction | None:
        block = self.blocks.block[cell]
        if block not in self.blocks.equations:
            return None  # a cell in no sum is never worked out
        if block not in self._reductions:
            self._reductions[block] = _Reduction(self.blocks.equations[block], ())
            self._mine.add(block)
        return self._reductions[block]

    def _exposed_all(self) -> set[int]:
        if self._all is None:
            self._all = set()
            for reduction in self._reductions.values():
                self._all |= reduction.exposed()
        return self._all

    def exposed(self) -> set[int]:
        return set(self._exposed_all())

    def exposed_with(self, cell: int) -> set[int]:
        """What :meth:`exposed` would be with ``cell`` hidden too (the blocks are disjoint:
        only ``cell``'s own block's part changes)."""
        reduction = self._of(cell)
        if reduction is None:
            return self.exposed()
        return (self._exposed_all() - reduction.exposed()) | reduction.exposed_with(cell)

    def tells_with(self, cell: int, cells: Iterable[int]) -> bool:
        """Whether any of ``cells`` would be exposed with ``cell`` hidden too (what
        :meth:`exposed_with` answers, asked of a few cells)."""
        reduction = self._of(cell)
        if reduction is None:
            return any(c in self._exposed_all() for c in cells)
        block = self.blocks.block[cell]
        told = reduction.exposed_with(cell)
        return any(
            c in told if self.blocks.block[c] == block else c in self._exposed_all() for c in cells
        )

    def hide(self, cell: int) -> None:
        self.hidden.add(cell)
        reduction = self._of(cell)
        if reduction is None or cell in reduction.hidden:
            return
        block = self.blocks.block[cell]
        if block not in self._mine:
            reduction = self._reductions[block] = reduction.copy()
            self._mine.add(block)
        if self._all is not None:
            self._all = (self._all - reduction.exposed()) | reduction.exposed_with(cell)
        reduction.hide(cell)

    def hiding(self, *cells: int) -> _Hiding:
        """The same with ``cells`` hidden too, this one unchanged: every block's reduction is
        shared, and copied by the first of the two to hide a cell in it."""
        other = _Hiding(self.blocks, ())
        other.hidden = set(self.hidden)
        other._reductions = dict(self._reductions)
        other._all = set(self._exposed_all())
        self._mine = set()
        for cell in cells:
            other.hide(cell)
        return other

    def telling(self, cell: int) -> set[int]:
        """The shown cells of the equation that tells hidden ``cell``'s value: the only cells
        whose hiding can keep it from being worked out."""
        reduction = self._of(cell)
        if reduction is None or cell not in reduction.row_of:
            return set()
        return {c for c in reduction.pivot_row(cell) if c not in reduction.hidden}


#: How many sums from a count pinned by its bounds :func:`suppress` reads to choose the
#: complement that unpins it.
UNPIN_STEPS = 3
#: How many of the smallest candidates :func:`suppress` tries as the first of a pair.
PAIR_TRIES = 8
#: The most cells a complement is hidden as, itself and the copies of it not yet hidden (a count
#: printed in more places is a headline, such as the people served: hidden with every copy, it
#: is seldom the complement to choose).
COPIES_AT_MOST = 8
#: How many of the smallest candidates with copies :func:`suppress` tries, hidden with them.
COPY_TRIES = 4


def suppress(
    grid: Grid,
    threshold: int,
    *,
    unpublished: Iterable[int] = (),
    fixed: Iterable[int] = (),
    fixed_hidden: Iterable[int] = (),
    read_bounds: bool = True,
) -> set[int]:
    """The cells to hide: every count in 1..threshold-1, and complements until none of them can
    be worked out. Complements are taken from the sums that expose a cell: the smallest count
    (a total last) whose hiding keeps that cell, and itself, from being worked out; else one
    hidden with its copies (the cells sums make equal to it: one hidden while its copy is
    printed keeps nothing hidden); else one that keeps that cell alone or, when no one cell
    does, the smallest of a sum that gives it away on its own.

    For releases that must be read together (a year and its quarters, two reports of one
    period): ``unpublished`` cells are never shown (the finer groups two breakdowns are made
    of, the difference between a year's count and a quarter's); working one out is harmless
    unless its value is small (1..threshold-1, either sign). ``fixed`` cells were decided by an
    earlier release: those in ``fixed_hidden`` stay hidden, the others are published, and none
    is chosen as a complement. The answer holds every hidden cell, the unpublished and the fixed
    hidden ones included.

    Read first as a reader who knows counts are never negative; then, unless ``read_bounds``
    is False, also as one who solves for each hidden count's bounds knowing that a printed "*"
    is never 0 (zeros are printed): a small count that reader pins down takes one more
    complement (:func:`worked_out`). Last, a complement a reader works out all the same is
    printed (:func:`known_shown`)."""
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
    component = _components(n, grid.sums)
    touching: dict[int, list[int]] = {}
    for s, (total, members) in enumerate(grid.sums):
        for c in (total, *members):
            touching.setdefault(c, []).append(s)

    # Copies: cells a sum makes equal (a sum of one cell, or of one and zeros). Hiding one and
    # not the others keeps nothing hidden, so a complement is hidden with its copies.
    same = _components(
        n,
        [
            (t, counted)
            for t, m in grid.sums
            if len(counted := [c for c in m if grid.values[c] != 0]) == 1
        ],
    )
    classes: dict[int, list[int]] = {}
    for c in range(n):
        classes.setdefault(same[c], []).append(c)

    def rank(c: int) -> tuple[int, int, int]:
        return (c in grid.totals, grid.values[c], c)

    def class_rank(c: int) -> tuple[int, int, int]:
        """:func:`rank` of ``c`` and its copies: a total if any of them is one."""
        return (any(x in grid.totals for x in classes[same[c]]), grid.values[c], same[c])

    #: The zeros never shown (unpublished, or kept hidden by an earlier release) that a reader
    #: knows are zero: read as known (below).
    nothing: set[int] = set()
    #: The cells that could be hidden: neither fixed nor zero (zeros are always shown).
    hideable = {c for c in range(n) if c not in frozen and grid.values[c] != 0}

    def giving() -> set[int]:
        """What the fixed and unpublished cells and the zeros give away whatever is hidden:
        hiding it is no use. Without fixed or unpublished cells in a sum, only zeros are (a
        fixed cell in no sum, such as a derived count, gives nothing away)."""
        if not any(c in touching for c in frozen):
            return set()
        return blocks.exposed((hidden | hideable) - nothing)

    given = giving()

    def guarded(c: int) -> bool:
        """Whether ``c`` is kept from a reader of bounds: as :func:`protected`, and a small
        count the sums give away whatever is hidden too (what they give away reading the zeros
        read as known, :func:`giving`; a reader of bounds who does not see those zeros may
        not work it out, and a complement can keep it from him)."""
        return c not in frozen or 0 < abs(grid.values[c]) < threshold

    def protected(c: int) -> bool:
        return c not in given and guarded(c)

    def stars(cells: Iterable[int]) -> set[int]:
        return printed_stars(grid.values, cells, never)

    def free(cells: Iterable[int]) -> set[int]:
        """The cells that may be hidden as complements: never a zero (see the module)."""
        return {c for c in cells if c in hideable and c not in hidden and c not in given}

    def neighbours(cells: Iterable[int]) -> set[int]:
        return {
            c
            for h in cells
            for s in touching.get(h, [])
            for c in (grid.sums[s][0], *grid.sums[s][1])
        }

    def complement(cell: int) -> tuple[int, ...] | None:
        candidates = free(neighbours([cell]))
        if not candidates:
            # Exposed through a chain of sums: the nearest cells along the chain first, the
            # smallest of them whose hiding keeps ``cell`` from being worked out.
            seen, ring = {cell}, {cell}
            for _step in range(4):
                ring = neighbours(ring) - seen
                seen |= ring
                near = sorted(free(ring), key=rank)
                found = best_keeping(cell, near)
                if found is not None:
                    return found
                for c in near:
                    if not state.tells_with(c, (cell,)):
                        return (c,)
            # Otherwise: hide the smallest cell any hidden cell's sums hold, of the cell's own
            # block (no cell of another can keep it from being worked out).
            block = component[cell]
            candidates = free(
                c
                for h in hidden
                if component[h] == block
                for s in touching.get(h, [])
                for c in (grid.sums[s][0], *grid.sums[s][1])
            )
        if not candidates:
            candidates = free(c for c in range(n) if component[c] == component[cell])
        ordered = sorted(candidates, key=rank)
        # The smallest whose hiding keeps ``cell`` from being worked out, and itself too (a
        # complement a reader works out needs complements of its own); one with no copies to
        # hide with it first, else the smallest hidden with its copies; else the smallest that
        # keeps ``cell`` alone.
        found = best_keeping(cell, ordered)
        if found is not None:
            return found
        helpful = next((c for c in ordered if not state.tells_with(c, (cell,))), None)
        if helpful is not None:
            return (helpful,)
        # No one cell does, and hiding one of a sum that gives it away alone did not either:
        # the two that do, the larger of them as small as can be.
        if cell in tried:
            both = pair(cell, ordered)
            if both is not None:
                return both
        tried.add(cell)
        # Nor two: the smallest of a sum that gives ``cell`` away on its own (every other cell
        # of it shown), else the smallest of all.
        alone = free(
            c
            for s in touching.get(cell, [])
            if all(m == cell or m not in hidden for m in (grid.sums[s][0], *grid.sums[s][1]))
            for c in (grid.sums[s][0], *grid.sums[s][1])
        )
        pool = sorted(alone, key=rank) or ordered
        return (pool[0],) if pool else None

    def with_copies(c: int) -> tuple[int, ...] | None:
        """``c`` and the copies of it not yet hidden, or None when one of them cannot be."""
        others = [x for x in classes[same[c]] if x != c and x not in hidden]
        if any(x not in hideable or x in given for x in others):
            return None
        return (c, *others)

    def keeps(cell: int, together: tuple[int, ...]) -> bool:
        """Whether hiding ``together`` (a cell and its copies not yet hidden, from
        :func:`with_copies`) keeps ``cell`` from being worked out, and them too."""
        first, *rest = together
        trial = state.hiding(*rest) if rest else state
        return not trial.tells_with(first, (cell, *together))

    def best_keeping(cell: int, ordered: list[int]) -> tuple[int, ...] | None:
        """The first of ``ordered`` with no copies to hide that keeps ``cell`` from being worked
        out, and itself too (:func:`keeps`); else the first of the few with fewest copies to
        hide with it that does, hidden with them."""
        with_others = []
        for c in ordered:
            together = with_copies(c)
            if together is None:
                continue
            if len(together) == 1:
                if keeps(cell, together):
                    return together
            elif len(together) <= COPIES_AT_MOST:
                with_others.append(together)
        # Fewer copies to hide first (a count printed in fewer places), then one that is no
        # total anywhere, the smallest.
        with_others.sort(key=lambda together: (len(together), class_rank(together[0])))
        for together in with_others[:COPY_TRIES]:
            if keeps(cell, together):
                return together
        return None

    def pair(cell: int, ordered: list[int]) -> tuple[int, int] | None:
        """Two cells whose hiding together keeps ``cell`` from being worked out and exposes
        nothing more, when no one cell does: each of the few smallest candidates hidden in
        turn (in a copy of the block's reduction), then the smallest cell of the row that
        then tells ``cell``. The pair whose larger cell is the smallest."""
        before = state.exposed()
        best: tuple[tuple[int, int, int], tuple[int, int]] | None = None
        for first in ordered[:PAIR_TRIES]:
            if best is not None and rank(first) >= best[0]:
                break  # every pair from here has a larger cell
            trial = state.hiding(first)
            for second in sorted(free(trial.telling(cell)), key=rank):
                after = trial.exposed_with(second)
                if after <= before - {cell}:
                    worse = max(rank(first), rank(second))
                    if best is None or worse < best[0]:
                        best = (worse, (first, second))
                    break
        return best[1] if best is not None else None

    def with_their_copies(hidden: set[int]) -> set[int]:
        """``hidden`` and every copy of a complement in it that can hide and, hidden, is not
        worked out from the rest (hiding it would keep nothing): a complement keeps nothing
        hidden while a copy of it is printed, whatever the sums say (they may make the two
        equal only through a count never published, which a reader may guess is nothing).
        Hiding more never tells more."""
        out = set(hidden)
        todo = [c for c in hidden if c not in own]
        while todo:
            for x in classes[same[todo.pop()]]:
                if x in out or x not in hideable or x in given:
                    continue
                if x not in blocks.exposed(out | {x}):
                    out.add(x)
                    todo.append(x)
        return out

    #: The sums near a cell :func:`reads` reads, with their cells and blocks (whose answers
    #: are kept), by those sums.
    nearby: dict[frozenset[int], tuple[list[tuple[int, tuple[int, ...]]], set[int], _Blocks]] = {}

    def reads(cells: set[int], around: int, asked: set[int] | None = None) -> set[int]:
        """What a reader works out of ``cells`` hidden (:func:`worked_out`), each printed one
        not zero, from the sums near ``around`` (within :data:`UNPIN_STEPS` sums of it): a
        reading of fewer sums tells no more than one of all, and is asked again of all of them
        once complements are chosen (in :func:`suppress`'s loop)."""
        ring: set[int] = {around}
        near: set[int] = set()
        for _step in range(UNPIN_STEPS):
            step = {s for c in ring for s in touching.get(c, ())} - near
            near |= step
            ring = {c for i in step for c in (grid.sums[i][0], *grid.sums[i][1])}
        key = frozenset(near)
        if key not in nearby:
            local = [grid.sums[i] for i in sorted(near)]
            inside = {c for total, members in local for c in (total, *members)}
            nearby[key] = (local, inside, _Blocks(len(grid.values), local))
        local, inside, local_blocks = nearby[key]
        unknown = cells & inside
        return worked_out(
            grid.values,
            local,
            unknown,
            local_blocks,
            at_least_one=stars(unknown),
            asked=asked,
        )

    def unpin(cell: int) -> tuple[int, ...] | None:
        """The complement that keeps ``cell``, pinned by its bounds (:func:`_bounds_meet`), from
        being worked out: of the cells its sums hold, then of theirs, the smallest whose
        hiding (with its copies) leaves neither it nor ``cell`` worked out. When no one cell
        does, the smallest its sums hold: a reader who works it out is kept from it by the
        complements chosen for it in turn (it is one hidden for its own sake from then on).
        Each is asked of ``cell``'s own block only (a reader of another learns nothing of
        it)."""
        block = blocks.block[cell]
        local = {c for c in hidden | nothing if blocks.block[c] == block}
        seen, ring = {cell}, {cell}
        first: tuple[int, ...] | None = None
        for _step in range(2):
            ring = neighbours(ring) - seen
            seen |= ring
            for c in sorted(free(ring), key=rank)[:PAIR_TRIES]:
                together = with_copies(c)
                if together is None:
                    continue
                first = first or together
                told = reads(local | set(together), cell, {cell, c})
                if cell not in told and c not in told:
                    return together
        return first

    def sought_now() -> set[int]:
        """The cells hidden for their own sake that a reader of bounds must not work out."""
        return {c for c in first if guarded(c)}

    def bounded_reading(cells: set[int], asked: set[int]) -> set[int]:
        """What a reader of bounds works out (of ``asked``, by bounds) with ``cells`` hidden,
        and the zeros read as known read as he reads them (hidden, at least 0)."""
        return worked_out(
            grid.values,
            grid.sums,
            cells | nothing,
            blocks,
            at_least_one=stars(cells),
            asked=asked,
        )

    def shown_again(hidden: set[int]) -> set[int]:
        """``hidden`` less the complements added once a "*" was read as never 0 that no cell
        needs: one chosen for a count, or for a zero read as known, may be kept hidden by
        those chosen after it, and a zero read as known may be one the reader no longer works
        out once more is hidden. Each is shown again with its copies, the largest first, when
        a reader who reads those zeros as he can (hidden, at least 0) then works out nothing
        more of what is hidden for its own sake: asked first of the sums near it
        (:func:`reads`), then of the whole grid. The complements of the first reading stay."""
        added = hidden - kept - first
        if not added:
            return hidden

        sought = sought_now()

        def told(cells: set[int]) -> set[int]:
            return bounded_reading(cells, sought) & sought

        def near(cells: set[int], c: int) -> set[int]:
            return reads(cells | nothing, c, sought) & sought

        before = told(hidden)
        for c in sorted(added, key=lambda c: (-grid.values[c], c)):
            if c not in hidden:
                continue  # shown with another
            # Shown with its copies, and only with them: one printed shows them all.
            group = {x for x in classes[same[c]] if x in hidden}
            if not group <= added:
                continue
            if not near(hidden - group, c) <= near(hidden, c):
                continue
            after = told(hidden - group)
            if after <= before:
                hidden, before = hidden - group, after
        return hidden

    def known_shown(hidden: set[int]) -> set[int]:
        """``hidden`` less the complements a reader works out all the same (by the sums, or
        by their bounds too, where that tells no more of what is hidden for its own sake):
        each keeps nothing hidden, and printing a value that already follows from what is
        printed tells nothing (but to a reader who only subtracts, so none beside a small
        count told all the same is). A value pinned by bounds only once rounded to a whole count
        could tell more printed, so the release is read again, and only what the sums tell
        is printed if it then tells more."""
        complements = {c for c in hidden if c not in frozen and c not in first}
        if not complements:
            return hidden
        sought = sought_now()
        told = bounded_reading
        before = told(hidden, sought) & sought
        # Not one that shares a sum with a small count told all the same (:data:`stuck`):
        # printed, it would tell that count to a reader who only subtracts.
        known = (told(hidden, complements) & complements) - neighbours(before)
        if known and told(hidden - known, sought) & sought <= before:
            # Nor to a reader who only adds and subtracts (a count told all the same is pinned
            # by bounds, and printing what pins it may tell it to him).
            plain = worked_out(
                grid.values, grid.sums, (hidden - known) | nothing, blocks, bounds=False
            )
            if not plain & sought - worked_out(
                grid.values, grid.sums, hidden | nothing, blocks, bounds=False
            ):
                return hidden - known
        return hidden - ((blocks.exposed(hidden | nothing) & complements) - neighbours(before))

    def in_vain(hidden: set[int]) -> set[int]:
        """``hidden`` less the complements chosen for counts that are pinned all the same
        (:data:`stuck`), when without them a reader of bounds works out nothing more of what is
        hidden for its own sake."""
        vain = {c for cell in stuck for c in tried_for.get(cell, ())} - first - kept
        if not vain:
            return hidden
        sought = sought_now()
        if bounded_reading(hidden - vain, sought) & sought <= bounded_reading(hidden, sought):
            return hidden - vain
        return hidden

    #: The complements chosen for each count pinned by its bounds.
    tried_for: dict[int, set[int]] = {}
    #: The small counts pinned by their bounds that no complement :func:`unpin` finds unpins.
    stuck: set[int] = set()
    #: Whether the loop reads counts as never 0 where printed as "*" (after a first reading
    #: without), and the complements that first reading needs.
    bounded = False
    kept: set[int] = set()
    #: The cells a complement was chosen for when no one cell kept them from being worked out.
    tried: set[int] = set()
    #: The cells hidden for their own sake, before any complement.
    own = set(hidden)
    first = set(own)
    chosen_in_turn: list[int] = []
    last: _Hiding | None = None
    while True:
        # Starting over with cells only added (complements that unpin a count), the last
        # state with them hidden too tells what is exposed; made afresh only when a complement
        # is to be chosen from it (its reductions then as ever, for the same choice).
        quick = None
        if last is not None and last.hidden <= hidden:
            quick = last.hiding(*(hidden - last.hidden))
            if any(protected(c) for c in quick.exposed()):
                quick = None
        state = quick if quick is not None else _Hiding(blocks, hidden)
        while True:
            open_cells = {c for c in state.exposed() if protected(c)}
            if not open_cells:
                break
            # One complement at a time, for the first exposed cell: as few hidden as it can.
            chosen = complement(min(open_cells))
            if chosen is None:
                # Every cell that could hide does; some can be worked out whatever is hidden
                # (from zeros two sums both hold): the complements no cell needs are shown
                # below.
                break
            for c in chosen:
                hidden.add(c)
                chosen_in_turn.append(c)
                state.hide(c)
        last = state
        # A complement chosen to unpin a count (below) is kept as one hidden for its own sake,
        # and one the reading without bounds needed stays hidden.
        left = [c for c in chosen_in_turn if c not in own and c not in kept]
        hidden = _needed(blocks, hidden, left, own, protected, grid.values) | kept
        # Read as a reader reads counts: never negative (the zeros still hidden, unpublished or
        # kept hidden by an earlier release, that a reader knows are zero are read as known
        # and complements chosen again), then also a "*" never zero (zeros are printed): a
        # small count pinned by its bounds (two "*" that add up to 2) takes a complement from
        # a sum that pins it; until a reader works out nothing small. The complements of the
        # first reading are all kept while the second reads (hiding more never tells more),
        # and at the end only those a reader works out all the same are printed
        # (:func:`known_shown`).
        for reading in ("plain", "bounded") if not bounded else ("bounded",):
            # The bounded reading reads the zeros read as known as a reader does: hidden, at
            # least 0 (he may no longer work them out once more is hidden).
            told = worked_out(
                grid.values,
                grid.sums,
                hidden | nothing if reading == "bounded" else hidden,
                blocks,
                at_least_one=stars(hidden),
                bounds=reading == "bounded",
                asked=sought_now(),
            )
            told -= nothing
            zeros = {c for c in told if grid.values[c] == 0}
            # Zeros read as known tell a count hidden for its own sake: read as known, and
            # complements chosen again.
            zeros_tell = bool(zeros) and any(c in own and protected(c) for c in told)
            if zeros_tell:
                break
            if not bounded:
                if not read_bounds:
                    return with_their_copies(hidden) | nothing
                bounded = True
                kept = hidden - own
        if zeros_tell:
            nothing |= zeros
            hidden -= zeros
            given = giving()
            continue
        # Only a count hidden for its own sake needs unpinning: a complement pinned down keeps
        # nothing hidden, and what a reader works out from it is read in the same reading.
        pinned = sorted(
            c
            for c in told - blocks.exposed(hidden | nothing)
            if c in first and guarded(c) and c not in stuck
        )
        # One at a time: a complement chosen for one may unpin the next.
        unpinning: set[int] = set()
        for cell in pinned:
            if unpinning and cell not in reads(hidden | nothing, cell, {cell}):
                continue
            together = unpin(cell)
            if together is None:
                stuck.add(cell)
            else:
                unpinning.update(together)
                hidden |= set(together)
                tried_for.setdefault(cell, set()).update(together)
        if not unpinning:
            return known_shown(with_their_copies(shown_again(in_vain(hidden)))) | nothing
        own |= unpinning


def telling_nothing_new(
    values: Sequence[int],
    sums: Sequence[tuple[int, Sequence[int]]],
    hidden: Iterable[int],
    derived: Mapping[int, Sequence[int]],
    threshold: int,
    *,
    bounds: bool = True,
) -> set[int]:
    """The cells of ``derived`` to publish after suppression: each is the sum of its cells of
    the grid (``derived[cell]``, no derived cell among them), is itself in no sum of ``sums``,
    was left out of suppression, and is published only when a reader who knows that counts are
    never negative already works its value out from what is published (:func:`worked_out`; a
    reader of bounds unless ``bounds`` is False: then one who only adds and subtracts), and it
    is not itself a count from 1 to ``threshold - 1``. Publishing them tells that reader
    nothing: no hidden cell can be worked out that could not be without them, so adding such a
    breakdown to a report changes nothing else in it (a table of sums of another's cells, which
    would otherwise be tied to them and could take complements of its own). A value a reader of
    bounds works out may tell one who only subtracts what only bounds told before."""
    hidden = set(hidden)
    for cell, parts in derived.items():
        if values[cell] != sum(values[p] for p in parts):
            raise ValueError("a derived cell is not the sum of its cells")
    told = {cell for cell, parts in derived.items() if not hidden.intersection(parts)}
    rest = {cell: tuple(parts) for cell, parts in derived.items() if cell not in told}
    if rest:
        # Only the blocks the undecided cells are tied to (with their definitions) matter.
        every = [*sums, *rest.items()]
        block = _components(len(values), every)
        theirs = {block[cell] for cell in rest}
        local = [s for s in every if block[s[0]] in theirs]
        cells = {c for total, members in local for c in (total, *members)}
        told |= set(rest) & worked_out(values, local, (hidden & cells) | set(rest), bounds=bounds)
    return {cell for cell in told if not 0 < values[cell] < threshold}


def _needed(
    blocks: _Blocks,
    hidden: set[int],
    chosen_in_turn: list[int],
    own: set[int],
    protected: Callable[[int], bool],
    values: Sequence[int],
) -> set[int]:
    """The hidden cells less the complements no cell needs. A complement chosen early may be
    kept hidden by those chosen after it: each is shown again when, without it, no cell hidden
    for its own sake can be worked out, and with it any other complement that could then be
    (hiding a cell that can be worked out keeps nothing hidden), until every one left is
    needed. The largest are tried first."""
    left = sorted((c for c in chosen_in_turn if c in hidden), key=lambda c: -values[c])
    while True:
        needed = []
        for cell in left:
            if cell not in hidden:
                continue  # shown with another
            without = hidden - {cell}
            opened = blocks.exposed_without(hidden, cell)
            if any(c in own and protected(c) for c in opened):
                needed.append(cell)
            else:
                hidden = without - (opened - own)
        if needed == [c for c in left if c in hidden]:
            return hidden
        left = [c for c in needed if c in hidden]
