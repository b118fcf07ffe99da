"""The reminder sweep over N due check-ins against a naive per-row loop and a raw-SQL floor
(both from bench/sweep_bench.py), with the sweep's memory at N and at N/10.

It runs on rows of its own: N check-ins copied from seeded ones (each keeps its case, assignee and
encrypted note), due five minutes before a "now" a year in the past, before any seeded check-in,
so that no seeded row is due at that time. Before each timed run the copies are made due again
and their notifications removed; at the end both are deleted, so the database is as seeded.

The naive loop costs milliseconds a row (about 15 minutes for 100,000 on PostgreSQL here), so it
runs on the first ``--naive-sample`` due rows (10,000 by default) when N is larger, and its
times and statement count are extrapolated per item to N; the table's peer name and the notes
say so, with the per-item times measured.
"""

from __future__ import annotations

import datetime as dt
import gc
import statistics
import time

from django.db import connection, transaction
from django.utils import timezone

from bench.harness import BenchContext, Row, peak_memory
from bench.sweep_bench import rss_mb, run_floor, run_naive
from caseflow.checkins import scheduler
from caseflow.checkins.models import CheckIn, CheckInStatus
from caseflow.inbox.models import Notification

#: Each run sweeps every due row (seconds to minutes at 100,000): a few rounds are enough.
ROUNDS = 3
COPIED = ("case_id", "agency_id", "channel", "assignee_id", "note", "created_by_id")


def _make_due(n: int, now: dt.datetime) -> int:
    """Insert ``n`` due check-ins copied from seeded ones; return the id they start after."""
    first = CheckIn.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    table = CheckIn._meta.db_table
    with connection.cursor() as cur:
        cur.execute(
            f"SELECT {', '.join(COPIED)} FROM {table} ci WHERE status = %s AND EXISTS "
            "(SELECT 1 FROM cases_case c WHERE c.id = ci.case_id AND c.status IN (%s, %s)) "
            "ORDER BY id LIMIT 2000",
            [CheckInStatus.DONE, "referral", "active"],
        )
        templates = cur.fetchall()
    if not templates:
        raise SystemExit("no seeded check-ins on open cases to copy: seed with seed_scale")
    due = now - dt.timedelta(minutes=5)
    columns = [*COPIED, "due_at", "status", "outcome", "reminder_stage", "created_at", "version"]
    insert = (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})"
    )
    with transaction.atomic(), connection.cursor() as cur:
        for start in range(0, n, 5000):
            cur.executemany(
                insert,
                [
                    (
                        *templates[i % len(templates)],
                        due + dt.timedelta(microseconds=i),
                        CheckInStatus.SCHEDULED,
                        "",
                        0,
                        now,
                        1,
                    )
                    for i in range(start, min(n, start + 5000))
                ],
            )
    return first


def _statements(run) -> int:
    """SQL statements ``run`` sends (counted, not kept: the naive loop sends tens of thousands)."""
    sent = 0

    def count(execute, sql, params, many, context):
        nonlocal sent
        sent += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        run()
    return sent


def _reset(first: int, limit: int | None = None) -> None:
    """Make the copies due again (only the first ``limit`` of them if given)."""
    Notification.objects.filter(checkin_id__gt=first).delete()
    mine = CheckIn.objects.filter(pk__gt=first)
    if limit is not None:
        CheckIn.objects.filter(pk__gt=first).update(reminder_stage=2)
        last = mine.order_by("pk").values_list("pk", flat=True)[limit - 1]
        mine = mine.filter(pk__lte=last)
    mine.update(reminder_stage=0, status=CheckInStatus.SCHEDULED)


def reminder_sweep(ctx: BenchContext) -> list[Row]:
    n = ctx.sweep_items
    now = timezone.now() - dt.timedelta(days=365)
    started = time.perf_counter()
    first = _make_due(n, now)
    setup = time.perf_counter() - started
    made = {}

    def sweep():
        result = scheduler.sweep(now, enqueue=lambda ids: None)
        if result.checkins != made["n"]:
            raise AssertionError(f"the sweep claimed {result.checkins}, not {made['n']}")

    # The naive loop costs milliseconds a row: on a large N it runs on a sample of the due rows
    # and its time is extrapolated per item (the sweep and the floor always run on all N).
    sample = min(n, ctx.naive_sample)
    scale_naive = n / sample

    def naive():
        run_naive(now, limit=sample if sample < n else None)

    def floor():
        run_floor(now)

    runners = [sweep, naive, floor]
    samples: list[list[float]] = [[] for _ in runners]
    rounds, warmup = min(ctx.iterations, ROUNDS), min(ctx.warmup, 1)
    rss = []
    try:
        made["n"] = n
        for i in range(warmup + rounds):
            shift = i % len(runners)
            for k in [*range(shift, len(runners)), *range(shift)]:
                _reset(first)
                gc.collect()
                rss_before = rss_mb()
                t0 = time.perf_counter()
                runners[k]()
                elapsed = time.perf_counter() - t0
                if k == 0:
                    rss.append((rss_before, rss_mb()))
                if i >= warmup:
                    samples[k].append(elapsed)
        queries = []
        for run in runners:
            _reset(first)
            queries.append(_statements(run))
        _reset(first)
        peak_n = peak_memory(sweep)
        made["n"] = max(1, n // 10)
        _reset(first, limit=made["n"])
        peak_tenth = peak_memory(sweep)
    finally:
        Notification.objects.filter(checkin_id__gt=first).delete()
        CheckIn.objects.filter(pk__gt=first).delete()
    naive_measured = list(samples[1])
    if sample < n:
        samples[1] = [t * scale_naive for t in samples[1]]
        queries[1] = round(queries[1] * scale_naive)
    naive_name = (
        "naive per-row loop"
        if sample == n
        else f"naive per-row loop, EXTRAPOLATED from {sample:,} rows"
    )
    rows = [
        Row(
            operation=f"reminder sweep ({n:,} due check-ins)",
            peer=name,
            caseflow_seconds=samples[0],
            peer_seconds=samples[k],
            caseflow_queries=queries[0],
            peer_queries=queries[k],
            max_ratio=target,
        )
        for k, name, target in (
            (1, naive_name, 0.067),
            (2, "floor: INSERT ... SELECT + UPDATE", 2.0),
        )
    ]
    naive_per_item = statistics.median(naive_measured) / sample
    sweep_per_item = rows[0].caseflow_p50 / n
    if sample < n:
        rows[0].notes.append(
            f"naive loop run on a sample of {sample:,} of the {n:,} due rows (--naive-sample): "
            f"{naive_per_item * 1000:.2f} ms per item measured; its p50/p95 and SQL count in the "
            f"table are that sample's x{scale_naive:g} (extrapolated, not measured at {n:,})"
        )
    rows[0].notes.append(
        f"per item: sweep {sweep_per_item * 1000:.3f} ms, naive {naive_per_item * 1000:.2f} ms, "
        f"ratio per item {sweep_per_item / naive_per_item:.3f} "
        f"({naive_per_item / sweep_per_item:.1f}x faster)"
    )
    rows[0].notes += [
        f"{rounds} rounds after {warmup} warm-up, each on the {n:,} due rows made due again "
        f"(untimed) before every run; copying them took {setup:.1f}s",
        "target: at least 15x faster than the naive loop, i.e. ratio <= 0.067; the sweep "
        "includes its dispatch step (delivery tasks counted, not sent)",
        f"sweep peak Python allocation {peak_n / 2**20:.1f} MB at {n:,} due, "
        f"{peak_tenth / 2**20:.1f} MB at {made['n']:,}; process RSS around the timed sweeps "
        + ", ".join(f"{a:.0f} -> {b:.0f} MB" for a, b in rss),
    ]
    return rows


#: Runs after every other module (bench/run.py): it writes and deletes rows of its own.
RUN_LAST = True
BENCHMARKS = [reminder_sweep]
