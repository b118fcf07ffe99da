"""Web-process CPU per page: the load test's pages through the test client, one process.

    uv run python bench/page_cpu.py [--db sqlite|postgres] [--scale 0.1] [--requests 40]
        [--rounds 3] [--profile PAGE] [--page PAGE ...]

Uses ``bench/run.py``'s scratch database (seeded at its first run). Each page is requested
``--requests`` times after three warm-up requests, as the typical advocate (the case page, the
home page, the case list, the timeline) or the first team's supervisor (the audit pages), and
the CPU time of the process (``time.process_time``) per request is printed, the best of
``--rounds`` rounds, with the statements a request sends. ``--profile PAGE`` runs that page
under cProfile instead and prints its top entries by cumulative and by own time.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import _database_url, _seed_if_needed, _setup_django  # noqa: E402


def _pages(cast) -> dict[str, tuple[object, str]]:
    from caseflow.cases.models import Case, CaseStatus

    open_ = (CaseStatus.REFERRAL, CaseStatus.ACTIVE)
    mine = Case.objects.filter(status__in=open_, restricted=False, assignments__user=cast.typical)
    case = mine.order_by("pk").values_list("public_id", flat=True)[1]
    team = Case.objects.filter(status__in=open_, restricted=False, team__members=cast.supervisor)
    seen = team.order_by("pk").values_list("public_id", flat=True)[0]
    return {
        "case": (cast.typical, f"/cases/{case}/"),
        "home": (cast.typical, "/"),
        "list": (cast.typical, "/cases/"),
        "timeline": (cast.typical, f"/cases/{case}/timeline/"),
        "supervisor-case": (cast.supervisor, f"/cases/{seen}/"),
        "supervisor-home": (cast.supervisor, "/"),
        "audit": (cast.supervisor, "/audit/"),
        "accessed": (cast.supervisor, f"/audit/cases/{seen}/access/"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--scale", type=float, default=0.1)
    parser.add_argument("--tier", default="base")
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--page", nargs="+")
    parser.add_argument("--profile")
    parser.add_argument("--reseed", action="store_true")
    args = parser.parse_args(argv)
    _setup_django(_database_url(args))
    _seed_if_needed(args)

    from bench.harness import client_for, count_queries, get, scale_cast

    pages = _pages(scale_cast())
    clients = {user.pk: client_for(user) for user, _ in pages.values()}
    chosen = [args.profile] if args.profile else (args.page or list(pages))
    runners = {
        name: get(clients[user.pk], url) for name, (user, url) in pages.items() if name in chosen
    }
    for run in runners.values():
        for _ in range(3):
            run()
    if args.profile:
        profile = cProfile.Profile(time.process_time)
        run = runners[args.profile]
        profile.enable()
        for _ in range(args.requests):
            run()
        profile.disable()
        profile.dump_stats(str(ROOT / "var" / "bench" / f"{args.profile}.prof"))
        stats = pstats.Stats(profile).strip_dirs()
        stats.sort_stats("cumulative").print_stats(60)
        stats.sort_stats("tottime").print_stats(40)
        return 0
    print(f"load average {os.getloadavg()[0]:.1f} at start")
    best: dict[str, float] = {}
    for _ in range(args.rounds):
        for name, run in runners.items():
            started = time.process_time()
            for _ in range(args.requests):
                run()
            spent = (time.process_time() - started) / args.requests
            best[name] = min(best.get(name, spent), spent)
    for name, run in runners.items():
        print(f"{name:16} {best[name] * 1000:6.1f} ms CPU  {count_queries(run):3d} statements")
    print(f"load average {os.getloadavg()[0]:.1f} at end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
