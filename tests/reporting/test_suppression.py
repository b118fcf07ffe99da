"""Complementary suppression: for random tables, no hidden cell follows from what is published.

The check here is independent of the module's own: it builds the whole system (every known sum
and every published cell as an equation over all cells) and asks, by the rank of the matrix in
exact rational arithmetic, whether a hidden cell's unit vector lies in its row space.
"""

from __future__ import annotations

from fractions import Fraction
from unittest import mock

import highspy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caseflow.lib import suppression
from caseflow.lib.suppression import Grid, exposed, suppress, worked_out


def _rank(rows: list[list[Fraction]]) -> int:
    m = [list(r) for r in rows]
    rank, cols = 0, len(m[0]) if m else 0
    for col in range(cols):
        pivot = next((i for i in range(rank, len(m)) if m[i][col] != 0), None)
        if pivot is None:
            continue
        m[rank], m[pivot] = m[pivot], m[rank]
        for i in range(len(m)):
            if i != rank and m[i][col] != 0:
                factor = m[i][col] / m[rank][col]
                m[i] = [a - factor * b for a, b in zip(m[i], m[rank], strict=True)]
        rank += 1
    return rank


def _derivable(grid: Grid, hidden: set[int]) -> set[int]:
    n = len(grid.values)
    rows = []
    for total, members in grid.sums:
        row = [Fraction(0)] * n
        row[total] += 1
        for m in members:
            row[m] -= 1
        rows.append(row)
    for c in range(n):
        if c not in hidden:
            row = [Fraction(0)] * n
            row[c] = Fraction(1)
            rows.append(row)
    base = _rank(rows)
    out = set()
    for c in hidden:
        unit = [Fraction(0)] * n
        unit[c] = Fraction(1)
        if _rank([*rows, unit]) == base:
            out.add(c)
    return out


def _table(values: list[list[int]], margins: bool = True) -> Grid:
    g = Grid()
    cells = [[g.cell(f"{i}:{j}", v) for j, v in enumerate(row)] for i, row in enumerate(values)]
    rows = [g.cell(f"{i}:*", sum(row)) for i, row in enumerate(values)]
    for i, t in enumerate(rows):
        g.sum(t, cells[i])
    if margins:
        cols = [g.cell(f"*:{j}", sum(row[j] for row in values)) for j in range(len(values[0]))]
        for j, t in enumerate(cols):
            g.sum(t, [row[j] for row in cells])
        grand = g.cell("*", sum(map(sum, values)))
        g.sum(grand, rows)
        g.sum(grand, cols)
    return g


tables = st.integers(1, 5).flatmap(
    lambda r: st.integers(1, 5).flatmap(
        lambda c: st.lists(
            st.lists(st.integers(0, 30), min_size=c, max_size=c), min_size=r, max_size=r
        )
    )
)


@settings(max_examples=150)
@given(tables, st.integers(2, 11))
def test_no_hidden_cell_of_a_two_way_table_can_be_worked_out(values, threshold):
    grid = _table(values)
    hidden = suppress(grid, threshold)
    small = {i for i, v in enumerate(grid.values) if 0 < v < threshold}
    assert small <= hidden
    assert not _derivable(grid, hidden)


@settings(max_examples=80)
@given(st.lists(st.lists(st.integers(0, 30), min_size=2, max_size=6), min_size=1, max_size=4))
def test_breakdowns_sharing_one_total_hide_nothing_that_follows(columns):
    """Several one-way breakdowns of the same people share their total (one cell)."""
    g = Grid()
    people = sum(columns[0])
    total = g.cell("served", people)
    for k, column in enumerate(columns):
        # Every breakdown counts the same people: scale the last cell to make it add up.
        column = [*column[:-1], max(0, people - sum(column[:-1]))]
        if sum(column) != people:
            continue
        g.sum(total, [g.cell(f"{k}:{i}", v) for i, v in enumerate(column)])
    hidden = suppress(g, 5)
    assert not _derivable(g, hidden)


def test_a_single_small_cell_takes_a_complement_with_it():
    grid = _table([[3, 10, 12]], margins=False)
    hidden = suppress(grid, 5)
    assert 0 in hidden and len(hidden) == 2
    assert not exposed(len(grid.values), grid.sums, hidden)


def test_a_complement_is_one_that_keeps_the_small_cell_from_being_worked_out():
    """The 2 is in a sum with two 10s; the first 10 is also in a sum of its own (10 + 20 =
    30), so hiding it alone would not help (it follows from that sum, and the 2 with it). The
    complement is the second 10, and nothing more hides."""
    g = Grid()
    small, first, second, other = g.cell("2", 2), g.cell("a", 10), g.cell("b", 10), g.cell("c", 20)
    g.sum(g.cell("total", 22), [small, first, second])
    g.sum(g.cell("other total", 30), [first, other])
    hidden = suppress(g, 5)
    assert hidden == {small, second}
    assert not _derivable(g, hidden)


def test_when_no_one_cell_keeps_it_hidden_each_sum_that_gives_it_away_gives_one():
    """The 2 is in three sums, each giving it away: no one complement is enough. The first is
    the 6 of the first sum; then a cell of each of the other two sums (the 20 and the 30), not
    the 7 beside the 6, whose sum no longer gives the 2 away."""
    g = Grid()
    small = g.cell("2", 2)
    six, seven, twenty, thirty = (
        g.cell(k, v) for k, v in (("6", 6), ("7", 7), ("20", 20), ("30", 30))
    )
    g.sum(g.cell("15", 15), [small, six, seven])
    g.sum(g.cell("22", 22), [small, twenty])
    g.sum(g.cell("32", 32), [small, thirty])
    hidden = suppress(g, 5)
    assert hidden == {small, six, twenty, thirty}
    assert not _derivable(g, hidden)


def test_a_table_without_small_cells_is_published_whole():
    grid = _table([[6, 10], [12, 7]])
    assert suppress(grid, 5) == set()


def test_the_module_and_the_independent_check_agree_on_an_exposed_cell():
    grid = _table([[3, 10], [8, 9]])
    only_primary = {0}
    assert _derivable(grid, only_primary) == {0}
    assert exposed(len(grid.values), grid.sums, only_primary) == {0}


def test_cells_never_shown_are_protected_only_when_small_and_fixed_cells_are_never_complements():
    # An earlier release published a = 7 and hid b = 3 (with its complement c = 6) from t = 16.
    # A later report publishes y = a + d, where d = 2 is never shown.
    g = Grid()
    a, b, c = g.cell("a", 7), g.cell("b", 3), g.cell("c", 6)
    t = g.cell("t", 16)
    g.sum(t, [a, b, c])
    y = g.cell("y", 9)
    d = g.cell("d", 2)
    g.sum(y, [a, d], link=True)
    hidden = suppress(g, 5, unpublished=[d], fixed=[a, b, c, t], fixed_hidden=[b, c])
    # Publishing y would give d = y - a: y is hidden, and none of the earlier cells is touched.
    assert y in hidden and a not in hidden and t not in hidden
    assert not exposed(len(g.values), g.sums, hidden) & {b, c, d}
    # A large difference may be worked out: y is then published.
    g2 = Grid()
    a2 = g2.cell("a", 7)
    y2, d2 = g2.cell("y", 19), g2.cell("d", 12)
    g2.sum(y2, [a2, d2], link=True)
    assert suppress(g2, 5, unpublished=[d2], fixed=[a2]) == {d2}


def _several_tables(draw_values: list[list[list[int]]], links: list[tuple[int, int]]) -> Grid:
    """Several two-way tables in one grid (independent blocks), some tied together by a link
    between a cell of one and a cell of another (which joins their blocks)."""
    g = Grid()
    for t, values in enumerate(draw_values):
        cells = [[g.cell(f"{t}|{i}:{j}", v) for j, v in enumerate(r)] for i, r in enumerate(values)]
        rows = [g.cell(f"{t}|{i}:*", sum(r)) for i, r in enumerate(values)]
        for i, total in enumerate(rows):
            g.sum(total, cells[i])
        if len(values) > 1:
            grand = g.cell(f"{t}|*", sum(map(sum, values)))
            g.sum(grand, rows)
    n = len(g.values)
    for k, (x, y) in enumerate(links):
        a, b = x % n, y % n
        if a == b:
            continue
        # a = b + d: d is a new cell, so the grid keeps adding up.
        d = g.cell(f"link{k}", g.values[a] - g.values[b])
        g.sum(a, [b, d], link=True)
    return g


def test_a_complement_is_taken_only_from_the_block_of_the_cell_it_keeps_hidden():
    """Four tables, the second and the fourth tied by a link (one block), the third a block of
    its own (4 + 5 + 1 + 11 = 21), where the 1 hides with the 4. The fourth's second row is a
    single 1 (its total the same 1), which no one cell keeps hidden: complements are then
    chosen from the sums of the cells already hidden, and only of its own block. The third
    table's 5 and 11 are in sums with hidden cells too, but hiding them cannot keep a cell of
    another block from being worked out: they stay published."""
    g = _several_tables(
        [[[4, 8, 10, 4]], [[12, 5]], [[4, 5, 1, 11]], [[2, 11, 6], [1]]], [(59, 167)]
    )
    third = {g.keys[f"2|0:{j}"] for j in range(4)} | {g.keys["2|0:*"]}
    hidden = suppress(g, 2)
    assert hidden & third == {g.keys["2|0:0"], g.keys["2|0:2"]}
    assert hidden == {g.keys[k] for k in ("2|0:0", "2|0:2", "3|0:0", "3|1:0", "3|0:*", "3|1:*")}
    small = {c for c, v in enumerate(g.values) if 0 < v < 2}
    assert small <= hidden and not _derivable(g, hidden) & small


grids = st.builds(
    _several_tables,
    st.lists(
        st.lists(st.lists(st.integers(0, 12), min_size=1, max_size=4), min_size=1, max_size=3),
        min_size=1,
        max_size=5,
    ),
    st.lists(st.tuples(st.integers(0, 200), st.integers(0, 200)), max_size=3),
)


class _OneBlock(suppression._Blocks):
    """The whole grid as one system, as suppression worked before it was split by block."""

    def __init__(self, n, sums):
        self.n, self.all_sums = n, list(sums)
        self.block = [0] * n
        self.equations = {0: suppression._equations(self.all_sums)} if self.all_sums else {}
        self._keep_answers()

    def exposed(self, hidden):
        return exposed(self.n, self.all_sums, set(hidden))

    def exposed_without(self, hidden, cell):
        return self.exposed(set(hidden) - {cell})


class _WorkedOutAgain:
    """What suppression hides as cells are hidden one by one, worked out from scratch each time
    (:func:`exposed` over the whole grid), as it was before it kept its reduction."""

    def __init__(self, blocks, hidden):
        self.blocks = blocks
        self.hidden = set(hidden)

    def exposed(self):
        return self.blocks.exposed(self.hidden)

    def exposed_with(self, cell):
        return self.blocks.exposed(self.hidden | {cell})

    def tells_with(self, cell, cells):
        return bool(self.exposed_with(cell) & set(cells))

    def hide(self, cell):
        self.hidden.add(cell)

    def hiding(self, *cells):
        return _WorkedOutAgain(self.blocks, self.hidden | set(cells))

    def telling(self, cell):
        # Every shown cell of the block: only those of the equation that tells ``cell`` can
        # keep it from being worked out, so suppression chooses the same.
        block = self.blocks.block[cell]
        return {c for c, b in enumerate(self.blocks.block) if b == block} - self.hidden


@settings(max_examples=150)
@given(grids, st.data())
def test_each_block_on_its_own_exposes_what_the_whole_grid_does(grid, data):
    n = len(grid.values)
    hidden = data.draw(st.sets(st.integers(0, n - 1)))
    blocks = suppression._Blocks(n, grid.sums)
    assert blocks.exposed(hidden) == exposed(n, grid.sums, hidden) == _derivable(grid, hidden)
    # Asked again (the answer kept for a block whose hidden cells did not change): the same.
    assert blocks.exposed(hidden) == exposed(n, grid.sums, hidden)


@settings(max_examples=150)
@given(grids, st.data())
def test_showing_a_hidden_cell_exposes_what_a_reduction_afresh_does(grid, data):
    """Each hidden cell shown again, from the kept basis of its block: what a reduction worked
    out from scratch without it exposes (and the independent check), its block's basis kept
    and the others' answers too."""
    n = len(grid.values)
    hidden = data.draw(st.sets(st.integers(0, n - 1), min_size=1))
    blocks = suppression._Blocks(n, grid.sums)
    for cell in sorted(hidden):
        without = hidden - {cell}
        assert blocks.exposed_without(hidden, cell) == exposed(n, grid.sums, without)
        assert blocks.exposed_without(hidden, cell) == _derivable(grid, without)
    # Shown one after another, each asked of the basis the one before left.
    left = set(hidden)
    for cell in sorted(hidden):
        assert blocks.exposed_without(left, cell) == exposed(n, grid.sums, left - {cell})
        left.discard(cell)


def _options(grid: Grid, threshold: int, data) -> dict:
    """A release's options drawn for ``grid``: some of its links never published, and up to
    three cells fixed by an earlier release (hidden there when small)."""
    n = len(grid.values)
    links = [c for k, c in grid.keys.items() if k.startswith("link")]
    unpublished = data.draw(st.sets(st.sampled_from(links))) if links else set()
    fixed = data.draw(st.sets(st.integers(0, n - 1), max_size=3))
    fixed_hidden = {c for c in fixed if 0 < grid.values[c] < threshold}
    return {"unpublished": unpublished, "fixed": fixed, "fixed_hidden": fixed_hidden}


@settings(max_examples=150)
@given(grids, st.integers(2, 11), st.data())
def test_suppression_block_by_block_hides_what_the_whole_grid_does(grid, threshold, data):
    options = _options(grid, threshold, data)
    by_block = suppress(grid, threshold, **options)
    with mock.patch.object(suppression, "_Blocks", _OneBlock):
        whole = suppress(grid, threshold, **options)
    assert by_block == whole


@settings(max_examples=150)
@given(grids, st.data())
def test_the_kept_reduction_exposes_what_one_worked_out_afresh_does(grid, data):
    """As cells are hidden one by one, the kept reduction answers as a reduction worked out from
    scratch (and as the independent check), both for the cells hidden and for one more."""
    n = len(grid.values)
    hidden = data.draw(st.sets(st.integers(0, n - 1)))
    state = suppression._Hiding(suppression._Blocks(n, grid.sums), hidden)
    more = data.draw(st.lists(st.integers(0, n - 1), max_size=8))
    checked = 0
    for cell in more:
        assert state.exposed_with(cell) == exposed(n, grid.sums, hidden | {cell})
        asked = data.draw(st.sets(st.integers(0, n - 1), max_size=3))
        told = exposed(n, grid.sums, hidden | {cell})
        assert state.tells_with(cell, asked) == bool(told & asked)
        # A copy with more hidden (shared with this one until either changes): hiding in it,
        # and then in this one, leaves each as a reduction afresh of its own cells.
        trial_cells = data.draw(st.lists(st.integers(0, n - 1), max_size=3))
        trial = state.hiding(*trial_cells)
        then = data.draw(st.integers(0, n - 1))
        trial.hide(then)
        assert trial.exposed() == exposed(n, grid.sums, hidden | {*trial_cells, then})
        hidden.add(cell)
        state.hide(cell)
        assert state.exposed() == exposed(n, grid.sums, hidden)
        trial.hide(cell)
        assert trial.exposed() == exposed(n, grid.sums, hidden | {*trial_cells, then})
        checked += 1
    assert checked == len(more)
    assert state.exposed() == _derivable(grid, hidden)


@settings(max_examples=150)
@given(grids, st.integers(2, 11), st.data())
def test_suppression_with_its_kept_reduction_hides_what_working_it_out_afresh_does(
    grid, threshold, data
):
    options = _options(grid, threshold, data)
    kept = suppress(grid, threshold, **options)
    with mock.patch.object(suppression, "_Hiding", _WorkedOutAgain):
        afresh = suppress(grid, threshold, **options)
    assert kept == afresh
    if not options["fixed"]:  # a cell an earlier release published may give one away
        assert not {c for c in _derivable(grid, kept) if 0 < grid.values[c] < threshold}


@settings(max_examples=200)
@given(grids, st.integers(2, 11))
def test_every_complement_is_needed(grid, threshold):
    """Read as counts that are never negative, no hidden cell but the small ones can be shown
    again: without any one complement, a small count could be worked out (by the independent
    check). Read also knowing that every "*" is at least 1, suppression hides those and, where
    that reader pins a small count down by its bounds, more; neither reader (the independent
    one, one sum at a time, nor the module's, who solves for each count's bounds) then tells a
    small count, and each cell added is needed by the module's reader. A complement of the
    first reading is printed only where that reader works it out all the same."""
    linear = suppress(grid, threshold, read_bounds=False)
    small = {c for c, v in enumerate(grid.values) if 0 < v < threshold}
    assert small <= linear and not _derivable(grid, linear)
    for cell in linear - small:
        assert _derivable(grid, linear - {cell}) & small
    hidden = suppress(grid, threshold)
    for cell in linear - hidden:
        assert cell in worked_out(grid.values, grid.sums, hidden | {cell}, at_least_one=hidden)
    assert not _read_as_counts(grid, hidden, hidden) & small
    assert not worked_out(grid.values, grid.sums, hidden, at_least_one=hidden) & small
    for cell in hidden - linear:
        rest = hidden - {cell}
        assert worked_out(grid.values, grid.sums, rest, at_least_one=rest) & small


def test_a_count_two_sums_bound_together_is_told_though_neither_bounds_it_alone():
    """Hidden a, b and c, each printed "*" (so at least 1), and e, a count never published (so
    at least 0), with a + b = 3, b + c = 3 and a + c + e = 3 printed. No one sum pins a count:
    each leaves a (or c) 1 or 2. Together they do: the first two make a and c equal, and the
    third leaves e = 3 - 2a, never below 0 only when a is 1. A reader who solves for each
    count's least and greatest value finds it, as every filling-in in whole counts agrees; one
    who reads a sum at a time does not."""
    g = Grid()
    a, b, c, e = (g.cell(k, v) for k, v in (("a", 1), ("b", 2), ("c", 1), ("e", 1)))
    g.sum(g.cell("a+b", 3), [a, b])
    g.sum(g.cell("b+c", 3), [b, c])
    g.sum(g.cell("a+c+e", 3), [a, c, e])
    hidden, printed = {a, b, c, e}, {a, b, c}
    fillings = [
        (x, y, z, w)
        for x in range(1, 4)
        for y in range(1, 4)
        for z in range(1, 4)
        for w in range(4)
        if x + y == 3 and y + z == 3 and x + z + w == 3
    ]
    assert fillings == [(1, 2, 1, 1)]
    assert not exposed(len(g.values), g.sums, hidden)
    assert not _read_as_counts(g, hidden, printed)
    assert worked_out(g.values, g.sums, hidden, at_least_one=printed) == hidden
    # Knowing only that counts are never negative, a may be 0 (and e 3): nothing is told.
    assert not worked_out(g.values, g.sums, hidden)
    # Released with e never published, at a threshold of 3: the small counts take complements
    # until that reader tells none of them.
    released = suppress(g, 3, unpublished=[e])
    assert released > hidden
    stars = released - {e}
    assert not worked_out(g.values, g.sums, released, at_least_one=stars) & printed


@settings(max_examples=80, deadline=None)
@given(grids, st.data())
def test_answers_kept_between_readings_are_those_read_afresh(grid, data):
    """Readings of one grid in turn, its cells hidden growing and shrinking as suppression
    hides and shows them, and "*" bounds varying: each block's answers kept (its reduction,
    what its bounds pin, and what a reading of fewer cells unknown found not pinned) give
    what a reading afresh gives."""
    n = len(grid.values)
    shared = suppression._Blocks(n, grid.sums)
    hidden: set[int] = set()
    for _ in range(data.draw(st.integers(1, 6))):
        more = data.draw(st.sets(st.integers(0, n - 1), max_size=4))
        fewer = data.draw(st.sets(st.sampled_from(sorted(hidden)), max_size=2)) if hidden else set()
        hidden = (hidden | more) - fewer
        positive = sorted(c for c in hidden if grid.values[c] > 0)
        least = data.draw(st.sets(st.sampled_from(positive))) if positive else set()
        asked = data.draw(st.none() | st.sets(st.integers(0, n - 1)))
        kept = worked_out(grid.values, grid.sums, hidden, shared, at_least_one=least, asked=asked)
        afresh = worked_out(grid.values, grid.sums, hidden, at_least_one=least, asked=asked)
        assert kept == afresh
        state = suppression._Hiding(shared, hidden)
        assert state.exposed() == exposed(n, grid.sums, hidden)
        # Hiding in it leaves the reduction kept for those cells as it was.
        state.hide(data.draw(st.integers(0, n - 1)))
        assert suppression._Hiding(shared, hidden).exposed() == exposed(n, grid.sums, hidden)


def _three_sums() -> tuple[Grid, set[int], set[int]]:
    """The grid of the test above: hidden a, b, c (printed "*") and e; the reader tells all."""
    g = Grid()
    a, b, c, e = (g.cell(k, v) for k, v in (("a", 1), ("b", 2), ("c", 1), ("e", 1)))
    g.sum(g.cell("a+b", 3), [a, b])
    g.sum(g.cell("b+c", 3), [b, c])
    g.sum(g.cell("a+c+e", 3), [a, c, e])
    return g, {a, b, c, e}, {a, b, c}


def test_a_count_free_with_more_hidden_is_read_again_with_fewer_or_tighter_bounds():
    """What a reading found not pinned is kept for readings with more cells unknown, never
    for one with fewer, nor with a "*" bound the first did not have: the three sums above,
    with the first total hidden too, leave a free (1 or 2); shown again, a is pinned (1); and
    with no "*" read at first, nothing is pinned until the "*" are read."""
    g, hidden, printed = _three_sums()
    total = g.keys["a+b"]
    shared = suppression._Blocks(len(g.values), g.sums)
    assert not worked_out(g.values, g.sums, hidden | {total}, shared, at_least_one=printed)
    assert worked_out(g.values, g.sums, hidden, shared, at_least_one=printed) == hidden
    again = suppression._Blocks(len(g.values), g.sums)
    assert not worked_out(g.values, g.sums, hidden, again)
    assert worked_out(g.values, g.sums, hidden, again, at_least_one=printed) == hidden


def test_a_solver_that_gives_no_answer_stops_the_release():
    """Should the solver answer neither a least value nor that there is none, what a reader
    tells is not known: reading, and so releasing, fails (the pages say so), rather than a
    release going out unchecked."""
    g, hidden, printed = _three_sums()
    with mock.patch.object(
        highspy.Highs, "getModelStatus", lambda self: highspy.HighsModelStatus.kSolveError
    ):
        with pytest.raises(suppression.Unchecked):
            worked_out(g.values, g.sums, hidden, at_least_one=printed)
        with pytest.raises(suppression.Unchecked):
            suppress(g, 3)


def test_a_solver_unsure_once_is_asked_again_from_scratch():
    """A solver left unsure by a start from its last answer is asked again afresh: the reading
    is the one it gives when sure."""
    g, hidden, printed = _three_sums()
    sure = highspy.Highs.getModelStatus
    answers = iter([highspy.HighsModelStatus.kSolveError])

    def unsure_once(self):
        return next(answers, None) or sure(self)

    with mock.patch.object(highspy.Highs, "getModelStatus", unsure_once):
        assert worked_out(g.values, g.sums, hidden, at_least_one=printed) == hidden
    assert next(answers, None) is None  # the unsure answer was given


def test_a_zero_inside_a_count_of_nothing_is_never_a_complement():
    """Two rows, 0 + 6 + 6 + 1 = 13 and 0 + 0 + 0 + 6 = 6, with their column totals: the 1 is
    hidden with a complement in its row and in its column. The first column is 0 + 0 = 0:
    hiding its two zeros (as suppression once did) keeps the 1 hidden in the sums' eyes, but a
    reader who knows counts are never negative knows both are 0 and works out the 1. No zero
    is taken: the 1 hides with a 6 of its row and the two columns' totals."""
    g = _table([[0, 6, 6, 1], [0, 0, 0, 6]])
    hidden = suppress(g, 3)
    assert hidden == {g.keys[k] for k in ("0:2", "0:3", "*:2", "*:3")}
    assert not _derivable(g, hidden)
    assert worked_out(g.values, g.sums, hidden) == _read_as_counts(g, hidden) == set()
    # As it was: the first column's zeros hidden, and the 1 told.
    before = {g.keys[k] for k in ("0:0", "0:3", "1:0", "1:3")}
    assert not _derivable(g, before)
    assert worked_out(g.values, g.sums, before) == {g.keys[k] for k in ("0:0", "1:0", "0:3", "1:3")}


def _read_as_counts(grid: Grid, hidden: set[int], at_least_one: set[int] = frozenset()) -> set[int]:
    """The hidden cells a reader works out who knows that counts are never negative, and that
    the cells ``at_least_one`` names are not zero, by the independent check: what follows from
    the sums, then every hidden cell of a sum whose known total less its known cells leaves no
    more than its hidden cells' least values add up to (each is at its least: nothing, or 1),
    in turn until nothing more follows."""
    unknown = set(hidden)
    while True:
        unknown -= _derivable(grid, unknown)
        pinned = set()
        for total, members in grid.sums:
            left = [m for m in members if m in unknown]
            if total in unknown or not left:
                continue
            if all(grid.values[m] == (m in at_least_one) for m in left):
                pinned.update(left)
        if not pinned:
            return set(hidden) - unknown
        unknown -= pinned


#: Two-way tables with their margins, most of their counts zero.
sparse_tables = st.integers(1, 4).flatmap(
    lambda r: st.integers(1, 5).flatmap(
        lambda c: st.lists(
            st.lists(st.sampled_from([0, 0, 0, 1, 2, 3, 6, 9]), min_size=c, max_size=c),
            min_size=r,
            max_size=r,
        )
    )
)


@settings(max_examples=300)
@given(st.one_of(grids, sparse_tables.map(_table)), st.integers(2, 6), st.data())
def test_a_reader_who_knows_counts_are_never_negative_works_out_nothing_small(
    grid, threshold, data
):
    """No hidden zero a reader knows is zero protects a small count. Whatever the earlier
    release fixed and whatever is never shown, no small count (nor a small link never shown)
    can be worked out by a reader who knows counts are never negative, unless it could be
    whatever were hidden; the module's reading (which solves for each count's bounds) finds at
    least what the independent one (one sum at a time) does."""
    options = _options(grid, threshold, data)
    hidden = suppress(grid, threshold, **options)
    told = worked_out(grid.values, grid.sums, hidden)
    assert _read_as_counts(grid, hidden) <= told
    n = len(grid.values)
    never = set(options["unpublished"]) | set(options["fixed_hidden"])
    frozen = set(options["fixed"]) | set(options["unpublished"])
    # Whatever were hidden: every cell an earlier release did not fix but the zeros, always shown.
    hideable = {c for c in range(n) if c not in frozen and grid.values[c] != 0}
    given = _read_as_counts(grid, never | hideable)
    # Small: a count from 1 to the threshold, or a link never shown small either way.
    small = {
        c
        for c, v in enumerate(grid.values)
        if (0 < v < threshold or (c in options["unpublished"] and 0 < -v < threshold))
        and (c not in options["fixed"] or c in options["fixed_hidden"])
    }
    assert small <= hidden
    assert not (told & small) - given
    assert not {c for c in hidden - never if grid.values[c] == 0}


def test_a_complement_that_later_ones_keep_hidden_is_shown_again():
    """A table of two rows, 2 + 8 = 10 and 2 = 2, adding up to 12. The first 2 is hidden with
    its complement 8 (the smallest cell of its row that is no total); the second row's 2 is its
    own total, so the 10 is hidden to keep it (12 - 10 = 2) from being worked out. Then the 8
    keeps nothing hidden that the 10 does not: 2 + 8 = 10 and 10 + 2 = 12 leave both 2s
    unknown with it published. It is shown again."""
    g = _several_tables([[[2, 8], [2]]], [])
    hidden = suppress(g, 5)
    assert hidden == {g.keys[k] for k in ("0|0:0", "0|1:0", "0|0:*", "0|1:*")}
    assert not _derivable(g, hidden)


def test_a_zero_two_sums_fix_is_shown_though_no_complement_could_keep_it_hidden():
    """A count of 1 that is also a total of its own (8 = 4), and the same total of it and a
    zero (8 = 4 + 11): the zero can be worked out whatever is hidden. Suppression once stopped
    there with every cell hidden; the zero is shown, and what is hidden is what the 1s need:
    the 1s themselves, and the total of the row that would tell one of them (3 = 0 + 1 + 2,
    its 2 told by 2 = 0 + 2, and a zero never a complement)."""
    g = Grid()
    for i, value in enumerate([0, 0, 0, 0, 1, 0, 2, 0, 1, 2, 3, 0]):
        g.cell(f"c{i}", value)
    for total, members in [
        (7, (0, 1, 2, 3)),
        (8, (4,)),
        (9, (5, 6)),
        (10, (7, 8, 9)),
        (8, (4, 11)),
    ]:
        g.sum(total, members)
    hidden = suppress(g, 2)
    assert hidden == {4, 8, 10}
    assert not _derivable(g, hidden)
    assert not worked_out(g.values, g.sums, hidden)


def test_when_no_one_cell_keeps_a_count_hidden_two_are_found_together():
    """One row, 3 + 12 + 7 = 22, its total tied to two of its cells by two more sums: 22 = 12 +
    10 and 22 = 7 + 15. No one cell keeps the 3 from being worked out (each of the 12, the 7 and
    the 22 is told by a sum of published cells), and hiding one at a time, the smallest first,
    ends with the whole row hidden, its total too. The 12 and the 10 together keep it: 3 + 12 =
    22 - 7 and 12 + 10 = 22 leave three counts unknown in two equations."""
    g = _several_tables([[[3, 12, 7]]], [(3, 1), (3, 2)])
    assert (g.values[g.keys["link0"]], g.values[g.keys["link1"]]) == (10, 15)
    hidden = suppress(g, 5)
    assert hidden == {g.keys[k] for k in ("0|0:0", "0|0:1", "link0")}
    assert not _derivable(g, hidden)


def _printed_twice(values: list[list[int]]) -> Grid:
    """A table with its margins, and a copy of it whose every cell is tied equal to the
    table's (one count printed in two questions)."""
    g = _table(values)
    n = len(g.values)
    for key, cell in list(g.keys.items()):
        g.cell(f"copy|{key}", g.values[cell])
    for total, members in list(g.sums):
        g.sum(total + n, [m + n for m in members])
    for cell in range(n):
        g.sum(cell, [cell + n], link=True)
    return g


def test_a_table_printed_twice_hides_in_each_copy_what_it_hides_alone():
    """A complement is hidden with its copies: hiding a cell whose copy is printed keeps
    nothing hidden. The table 0 + 8 + 6 and 1 + 15 + 8 alone hides four cells: the 1 (with its
    column's total, 0 + 1), the 8 beside it, and that 8's column's total (14). Printed twice,
    each copy hides the same four. Chosen one cell at a time, each copy hid six (its first
    row's 8 and 6 and the 23 too)."""
    values = [[0, 8, 6], [1, 15, 8]]
    alone = _table(values)
    hidden_alone = suppress(alone, 5)
    assert {k for k, c in alone.keys.items() if c in hidden_alone} == {"1:0", "*:0", "1:2", "*:2"}
    g = _printed_twice(values)
    n = len(alone.values)
    assert g.keys["copy|0:0"] == g.keys["0:0"] + n
    hidden = suppress(g, 5)
    assert hidden == hidden_alone | {c + n for c in hidden_alone}
    assert not _derivable(g, hidden)


def _with_derived(grid: Grid, parts: list[list[int]]) -> tuple[Grid, dict[int, tuple[int, ...]]]:
    """``grid`` and, added to it, a cell for each list of its cells: their sum, in no sum."""
    out = Grid(list(grid.values), dict(grid.keys), list(grid.sums), set(grid.totals))
    derived = {}
    for k, cells in enumerate(parts):
        cells = sorted(set(cells))
        derived[out.cell(f"derived:{k}", sum(grid.values[c] for c in cells))] = tuple(cells)
    return out, derived


@settings(max_examples=200)
@given(st.one_of(grids, sparse_tables.map(_table)), st.integers(2, 6), st.data())
def test_sums_of_cells_published_after_suppression_tell_a_reader_nothing_new(grid, threshold, data):
    """A breakdown whose cells are sums of the grid's is left out of suppression and published
    where a reader works it out already: with its sums known and its published cells read,
    the reader (the independent check, knowing counts are never negative) works out no cell of
    the grid they did not before, and none of its hidden cells but the small ones."""
    n = len(grid.values)
    parts = data.draw(
        st.lists(st.lists(st.integers(0, n - 1), min_size=1, max_size=4), min_size=1, max_size=5)
    )
    options = _options(grid, threshold, data)
    hidden = suppress(grid, threshold, **options)
    before = _read_as_counts(grid, hidden)
    with_them, derived = _with_derived(grid, parts)
    # Given to suppression as the report gives them (fixed: neither hidden nor complements, in
    # no sum), they change nothing it hides.
    fixed = set(options["fixed"]) | set(derived)
    assert suppress(with_them, threshold, **{**options, "fixed": fixed}) == hidden
    published = suppression.telling_nothing_new(
        with_them.values, with_them.sums, hidden, derived, threshold
    )
    assert published <= set(derived)
    assert derived  # the loop below runs
    for cell, cells in derived.items():
        with_them.sum(cell, cells, link=True)
        small = 0 < with_them.values[cell] < threshold
        if small:
            assert cell not in published
        elif not set(cells) & hidden:
            assert cell in published  # the sum of published cells is published
    kept = hidden | (set(derived) - published)
    after = _read_as_counts(with_them, kept)
    assert after & set(range(n)) == before
    # A hidden one is worked out only where it is hidden for being small (what it adds up is
    # told by the grid itself): every other is published.
    assert all(0 < with_them.values[c] < threshold for c in after & (set(derived) - published))


def test_a_sum_of_a_hidden_cell_and_a_published_one_stays_hidden_unless_worked_out():
    """A table 3 + 10 + 12 = 25: the 3 hides with the 10. The sum of the 3 and the 12 would tell
    the 3, so it is hidden; the sum of the 3 and the 10 is 25 less 12, and is published; the sum
    of the 10 and the 12 is published as any sum of published cells is not (the 10 is hidden):
    it is 25 less the 3, so it too would tell the 3."""
    grid = _table([[3, 10, 12]], margins=False)
    hidden = suppress(grid, 5)
    assert hidden == {grid.keys["0:0"], grid.keys["0:1"]}
    first, second, third, total = (grid.keys[k] for k in ("0:0", "0:1", "0:2", "0:*"))
    with_them, derived = _with_derived(grid, [[first, third], [first, second], [second, third]])
    published = suppression.telling_nothing_new(
        with_them.values, with_them.sums, hidden, derived, 5
    )
    three_and_twelve, three_and_ten, ten_and_twelve = derived
    assert published == {three_and_ten}
    assert with_them.values[three_and_ten] == with_them.values[total] - with_them.values[third]
    # A small sum is hidden even when it is worked out (no count from 1 to 4 is printed).
    small, derived = _with_derived(grid, [[first]])
    assert not suppression.telling_nothing_new(small.values, small.sums, hidden, derived, 5)


def _year_beside_its_quarters() -> tuple[Grid, dict[str, int]]:
    """A year's 10 aged 18 to 24 and 12 aged 25 or over (22 served), hidden, beside two
    quarters' published 7 and 10 of the 18 to 24 and 12 of the older: the links (the year's
    count less a quarter's: 3, 0 and 0) never published. Counts are never negative, so the 10
    is at least the second quarter's 10 and the 12 at least 12: a reader of bounds pins both,
    and the 3 (a link, kept only from a reader who subtracts); that reader works out none."""
    grid = Grid()
    young = [("young", 10), ("q_young", 7), ("link", 3), ("q2_young", 10), ("link2", 0)]
    older = [("older", 12), ("q_older", 12), ("link_older", 0), ("served", 22), ("others", 5)]
    cell = {k: grid.cell(k, v) for k, v in young + older}
    grid.sum(cell["served"], [cell["young"], cell["older"]])
    grid.sum(cell["young"], [cell["q_young"], cell["link"]], link=True)
    grid.sum(cell["young"], [cell["q2_young"], cell["link2"]], link=True)
    grid.sum(cell["older"], [cell["q_older"], cell["link_older"]], link=True)
    return grid, cell


def test_a_sum_only_bounds_pin_is_published_to_a_reader_who_only_subtracts_never():
    """The older plus 5 others (17) is pinned by bounds: printed, it would tell one who only
    subtracts the 12 older, so the 10 young and the link's 3. Published for a reader of bounds
    (who knows it already), not for one who only subtracts."""
    grid, cell = _year_beside_its_quarters()
    hidden = {cell[k] for k in ("young", "older", "link", "link2", "link_older")}
    assert not worked_out(grid.values, grid.sums, hidden, bounds=False)
    assert cell["link"] in worked_out(grid.values, grid.sums, hidden)
    plus = grid.cell("older+others", 17)
    derived = {plus: (cell["older"], cell["others"])}
    told = suppression.telling_nothing_new
    assert told(grid.values, grid.sums, hidden, derived, 5) == {plus}
    assert told(grid.values, grid.sums, hidden, derived, 5, bounds=False) == set()
    grid.sum(plus, derived[plus], link=True)
    assert cell["link"] in worked_out(grid.values, grid.sums, hidden, bounds=False)


def test_a_report_prints_no_derived_count_that_tells_a_year_less_a_quarter():
    """The report's own choice (``Builder.suppressed``), suppression having hidden the year's
    counts as above: the sum that bounds pin stays hidden, and a reader who only subtracts
    works out no small count."""
    from caseflow.reporting import reports

    builder = reports.Builder()
    grid, cell = _year_beside_its_quarters()
    builder.grid = grid
    plus = builder.derive("older+others", [cell["older"], cell["others"]])
    hidden = {cell[k] for k in ("young", "older", "link", "link2", "link_older")}
    with mock.patch.object(reports, "suppress", return_value=set(hidden)):
        chosen = builder.suppressed(
            unpublished={cell["link"], cell["link2"], cell["link_older"]},
            fixed={cell["q_young"], cell["q2_young"], cell["q_older"]},
        )
    assert plus in chosen
    assert not worked_out(grid.values, grid.sums, chosen, bounds=False)


def _copies(grid: Grid) -> dict[int, set[int]]:
    """Each cell's copies: the cells a chain of sums of one non-zero cell makes equal to it."""
    linked: dict[int, set[int]] = {c: {c} for c in range(len(grid.values))}
    for total, members in grid.sums:
        counted = [m for m in members if grid.values[m] != 0]
        if len(counted) == 1:
            group = linked[total] | linked[counted[0]]
            for c in group:
                linked[c] = group
    return linked


@settings(max_examples=150)
@given(grids, st.integers(2, 11), st.data())
def test_no_complement_is_hidden_while_a_copy_that_could_hide_is_printed(grid, threshold, data):
    """A complement's copies hide with it, unless one cannot (fixed, or a zero) or would be
    worked out hidden (hiding it keeps nothing): a copy printed beside a hidden complement
    tells it, even where the sums make the two equal only through a count never published."""
    options = _options(grid, threshold, data)
    hidden = suppress(grid, threshold, **options)
    small = {c for c, v in enumerate(grid.values) if 0 < v < threshold}
    own = small | options["unpublished"] | options["fixed_hidden"]
    copies = _copies(grid)
    for cell in hidden - own:
        for copy in copies[cell] - hidden:
            assert (
                copy in options["fixed"]
                or grid.values[copy] == 0
                or copy in _derivable(grid, hidden | {copy})
            )


def test_a_copy_through_a_count_never_published_hides_with_its_complement():
    """Q18's 9 leavers with no income, of whom 7 are counted in Q19a (worked out from its 20
    and 13) and 2, never published, are not; Q16's 9 with no income hold Q18's and those who
    said they had $0, none here, never published either. Q18's 9 hides to keep the 2 from
    being told, in a column of 30 beside 15 and two 3s (hidden for their own sake). Printed,
    Q16's 9 would tell it to a reader who guesses that no one said $0: it hides too, though
    the sums alone keep it unknown."""
    g = Grid()
    q18, x, rest = g.cell("q18", 9), g.cell("x", 7), g.cell("rest", 2)
    total, others = g.cell("q19a", 20), g.cell("q19a:others", 13)
    q16, zero = g.cell("q16", 9), g.cell("q16:rest", 0)
    column = [g.cell("leavers", 30), q18, g.cell("earned", 15), g.cell("dnc", 3)]
    g.cell("other", 3)
    g.sum(q18, [x, rest], link=True)
    g.sum(total, [x, others])
    g.sum(q16, [q18, zero], link=True)
    g.sum(column[0], [*column[1:], g.keys["other"]])
    hidden = suppress(g, 5, unpublished=[x, rest, zero])
    assert {q18, q16} <= hidden
    assert not _derivable(g, hidden) & {rest}
    # Were it worked out hidden (its own total printed beside a printed part), it would stay.
    g.sum(g.cell("q16:total", 15), [q16, g.cell("q16:more", 6)])
    hidden = suppress(g, 5, unpublished=[x, rest, zero])
    assert q18 in hidden and q16 not in hidden
    assert q16 in _derivable(g, hidden | {q16})
