"""Benchmark the reminder sweep: N due check-ins claimed and notified.

Three ways over the same rows, in one run, on a scratch test database (SQLite by default, or the
PostgreSQL server of DATABASE_URL):

* ``sweep``  — caseflow's scheduler (batched claim, bulk notification rows, dispatch step);
               the delivery tasks are counted, not sent, so the broker is not measured;
* ``naive``  — a per-row loop: load each due check-in, create its notifications one by one,
               save it, one transaction per row;
* ``floor``  — set-based raw SQL: one INSERT ... SELECT of every notification and one UPDATE.

It prints the times, the ratios (naive/sweep, sweep/floor) and the process's resident memory
before and after the sweep, which stays flat: rows are claimed, notified and released batch by
batch, never loaded all at once.

    uv run python bench/sweep_bench.py --n 10000
    DATABASE_URL=postgres://... uv run python bench/sweep_bench.py --n 100000
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from django.db import connection, transaction
from django.utils import timezone

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def rss_mb() -> float:
    """Current resident set size (MB)."""
    with open("/proc/self/statm") as fh:
        pages = int(fh.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def populate(n: int, now: dt.datetime) -> None:
    from caseflow.accounts.models import Agency, Membership, Role, Team, User
    from caseflow.cases.models import Case, CaseAssignment
    from caseflow.checkins.models import CheckIn

    agency = Agency.objects.create(name="Bench agency", slug="bench")
    team = Team.objects.create(agency=agency, name="Bench team")
    advocates = []
    for i in range(50):
        user = User.objects.create(username=f"bench{i}", email=f"bench{i}@example.invalid")
        Membership.objects.create(user=user, agency=agency, role=Role.ADVOCATE)
        team.members.add(user)
        advocates.append(user)
    cases = []
    for i in range(500):
        case = Case.objects.create(
            agency=agency, team=team, reference=f"B-{i:05d}", primary_advocate=advocates[i % 50]
        )
        CaseAssignment.objects.create(case=case, user=advocates[i % 50])
        cases.append(case)
    due = now - dt.timedelta(minutes=5)
    batch = []
    for i in range(n):
        case = cases[i % len(cases)]
        batch.append(
            CheckIn(
                case=case,
                assignee_id=case.primary_advocate_id,
                due_at=due + dt.timedelta(microseconds=i),
                channel="phone",
            )
        )
        if len(batch) == 5000:
            CheckIn.objects.bulk_create(batch)
            batch = []
    CheckIn.objects.bulk_create(batch)


def reset() -> None:
    from caseflow.checkins.models import CheckIn
    from caseflow.inbox.models import Notification

    Notification.objects.all().delete()
    CheckIn.objects.update(reminder_stage=0, status="scheduled")


def run_sweep(now: dt.datetime) -> int:
    from caseflow.checkins import scheduler

    enqueued = 0

    def count(ids: list[int]) -> None:
        nonlocal enqueued
        enqueued += len(ids)

    result = scheduler.sweep(now, enqueue=count)
    assert result.checkins == enqueued // 2, (result, enqueued)
    return result.notifications


def run_naive(now: dt.datetime, limit: int | None = None) -> int:
    """The per-row loop over every due check-in, or over the first ``limit`` of them (a sample:
    its time per row is what bench/bench_sweep.py extrapolates from)."""
    from django.db import IntegrityError

    from caseflow.checkins.models import CheckIn
    from caseflow.inbox.models import Notification

    created = 0
    due = (
        CheckIn.objects.filter(status="scheduled", reminder_stage__lt=2, due_at__lte=now)
        .order_by("due_at")
        .values_list("pk", flat=True)
    )
    ids = list(due[:limit] if limit is not None else due)
    for pk in ids:
        with transaction.atomic():
            checkin = CheckIn.objects.select_related("case").get(pk=pk)
            for channel in ("in_app", "email"):
                try:
                    with transaction.atomic():
                        Notification.objects.create(
                            recipient_id=checkin.assignee_id,
                            channel=channel,
                            kind="checkin_due",
                            case=checkin.case,
                            key=f"checkin:{pk}:due",
                            text=f"Check-in due now on case {checkin.case.reference}.",
                            link=f"/cases/{checkin.case.public_id}/",
                            checkin=checkin,
                        )
                        created += 1
                except IntegrityError:
                    pass
            checkin.reminder_stage = 2
            checkin.save(update_fields=["reminder_stage"])
    return created


def run_floor(now: dt.datetime) -> int:
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute(
            """
            INSERT INTO checkins_notification
                (recipient_id, channel, kind, case_id, key, text, link, created_at, dropped,
                 checkin_id)
            SELECT ci.assignee_id, ch.channel, 'checkin_due', ci.case_id,
                   'checkin:' || ci.id || ':due',
                   'Check-in due now on case ' || c.reference || '.',
                   '/cases/' || c.public_id || '/', %s, '', ci.id
            FROM checkins_checkin ci
            JOIN cases_case c ON c.id = ci.case_id
            CROSS JOIN (SELECT 'in_app' AS channel UNION ALL SELECT 'email') ch
            WHERE ci.status = 'scheduled' AND ci.reminder_stage < 2 AND ci.due_at <= %s
            ON CONFLICT DO NOTHING
            """,
            [now, now],
        )
        created = cur.rowcount
        cur.execute(
            "UPDATE checkins_checkin SET reminder_stage = 2 "
            "WHERE status = 'scheduled' AND reminder_stage < 2 AND due_at <= %s",
            [now],
        )
    return created


def timed(func, now: dt.datetime) -> tuple[float, float, int]:
    """(wall seconds, this process's CPU seconds, notifications created)."""
    wall, cpu = time.perf_counter(), time.process_time()
    created = func(now)
    return time.perf_counter() - wall, time.process_time() - cpu, created


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000, help="due check-ins (100,000)")
    parser.add_argument("--skip-naive", action="store_true", help="leave out the per-row loop")
    args = parser.parse_args()

    # Django is configured here, not at import: bench/bench_sweep.py imports this module.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "caseflow.settings")
    import django
    from django.test.utils import setup_test_environment

    django.setup()
    setup_test_environment()
    if connection.vendor == "sqlite":
        # A file, not memory: an in-memory database would count its own rows as our RSS.
        scratch = Path(tempfile.mkdtemp(prefix="caseflow-bench-")) / "bench.sqlite3"
        connection.settings_dict.setdefault("TEST", {})["NAME"] = str(scratch)
    test_db = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        now = timezone.now()
        print(f"database: {connection.vendor} ({test_db}), due check-ins: {args.n:,}")
        t0 = time.perf_counter()
        populate(args.n, now)
        print(f"populated in {time.perf_counter() - t0:.1f}s")

        reset()
        rss_before, peak_before = rss_mb(), peak_mb()
        results = {"sweep": timed(run_sweep, now)}
        rss_after, peak_after = rss_mb(), peak_mb()
        reset()
        results["floor"] = timed(run_floor, now)
        if not args.skip_naive:
            reset()
            results["naive"] = timed(run_naive, now)
        print(f"{'':6} {'wall s':>8} {'cpu s':>8} {'notifications':>14}")
        for name, (wall, cpu, created) in results.items():
            print(f"{name:6} {wall:8.2f} {cpu:8.2f} {created:14,}")
        sweep = results["sweep"]
        if "naive" in results:
            naive = results["naive"]
            print(
                f"naive / sweep = {naive[0] / sweep[0]:.1f}x wall, {naive[1] / sweep[1]:.1f}x cpu"
            )
        floor = results["floor"]
        print(f"sweep / floor = {sweep[0] / floor[0]:.1f}x wall, {sweep[1] / floor[1]:.1f}x cpu")
        print(
            f"memory around the sweep: RSS {rss_before:.0f} -> {rss_after:.0f} MB, "
            f"peak {peak_before:.0f} -> {peak_after:.0f} MB"
        )
    finally:
        connection.creation.destroy_test_db(test_db, verbosity=0)


if __name__ == "__main__":
    main()
