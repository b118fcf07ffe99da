"""Complementary suppression of the demo agencies' federal years, against working it out afresh.

    uv run python bench/suppression_demo.py [--rounds 3]

Seeds the demo (``caseflow.demo.seed``) into a scratch SQLite database under ``var/bench`` at
its first run, then releases each demo agency's two latest federal years that have ended (those
a report is given out for: FVPSA and HUD suppressed together with their quarters,
``reports.annual_release``) in turn: as caseflow does it (each block's reduction kept as
complements are hidden, ``suppression._Hiding``) and as its peer, the same suppression with
every question ("what is exposed if these cells are hidden?") worked out from scratch
(``suppression._Blocks.exposed``, the way it was done before). Prints each release's CPU time
(``time.process_time``, the best of ``--rounds``), the ratio of the two, and whether both hid
the same cells (they must). Small agencies are where suppression works
hardest: most of their cells are small, so most are hidden or chosen as complements.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import BENCH_VAR, _setup_django  # noqa: E402


class _Afresh:
    """The peer: every question worked out from scratch over the cells hidden so far."""

    def __init__(self, blocks, hidden) -> None:
        self.blocks = blocks
        self.hidden = set(hidden)

    def exposed(self) -> set[int]:
        return self.blocks.exposed(self.hidden)

    def exposed_with(self, cell: int) -> set[int]:
        return self.blocks.exposed(self.hidden | {cell})

    def tells_with(self, cell: int, cells) -> bool:
        return bool(self.exposed_with(cell) & set(cells))

    def hide(self, cell: int) -> None:
        self.hidden.add(cell)

    def hiding(self, *cells: int) -> _Afresh:
        return _Afresh(self.blocks, self.hidden | set(cells))

    def telling(self, cell: int) -> set[int]:
        # Every shown cell of the block: only those of the equation that tells ``cell`` can
        # keep it from being worked out, so suppression chooses the same pair.
        block = self.blocks.block[cell]
        return {c for c, b in enumerate(self.blocks.block) if b == block} - self.hidden


def _timed(release, rounds: int):
    best, out = None, None
    for _ in range(rounds):
        started = time.process_time()
        out = release()
        spent = time.process_time() - started
        best = spent if best is None else min(best, spent)
    return best, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    BENCH_VAR.mkdir(parents=True, exist_ok=True)
    _setup_django(f"sqlite:///{BENCH_VAR / 'demo.sqlite3'}")

    from django.core.management import call_command

    from caseflow.accounts.models import Agency
    from caseflow.cases.models import Case
    from caseflow.demo import seed
    from caseflow.lib import suppression
    from caseflow.reporting import reports

    call_command("migrate", interactive=False, verbosity=0)
    today = dt.date.today()
    if not Case.objects.exists():
        seed.seed()
    print("| agency, federal year | cells (hidden) | caseflow | worked out afresh | ratio | same |")
    print("|---|---|---|---|---|---|")
    # The two latest federal years a report is given out for (those that have ended): the
    # running year is never offered.
    years = [reports.federal_year_of(p.end) for p in reports.periods("federal_year", today)[:2]]
    for agency in Agency.objects.order_by("name"):
        for fy in years:
            ours, kept = _timed(lambda a=agency, y=fy: reports.annual_release(a.pk, y), args.rounds)
            with mock.patch.object(suppression, "_Hiding", _Afresh):
                peer, afresh = _timed(
                    lambda a=agency, y=fy: reports.annual_release(a.pk, y), args.rounds
                )
            cells = sum(r.cells for r in kept.values())
            hidden = sum(r.suppressed for r in kept.values())
            same = all(kept[k].csv_rows() == afresh[k].csv_rows() for k in kept)
            print(
                f"| {agency.name}, FY{fy} | {cells} ({hidden}) | {ours * 1000:.0f} ms "
                f"| {peer * 1000:.0f} ms | {ours / peer:.3f} | {'yes' if same else 'NO'} |"
            )
            if not same:
                return 1
    return 0


if __name__ == "__main__":
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    sys.exit(main())
