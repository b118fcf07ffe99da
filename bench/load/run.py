"""Load test: gunicorn + PostgreSQL + Redis + a Celery worker (with beat) on loopback, driven
by locust (``bench/load/locustfile.py``), at 1, 2 and 4 web processes, bounded in time.

    uv run python bench/load/run.py [--web 1 2 4] [--users 8] [--seconds 30] [--scale 0.01]
        [--warmup 0] [--profile]

Uses the PostgreSQL benchmark database of ``bench/run.py`` (seeded with ``seed_scale`` at the
first run; ``$BENCH_POSTGRES_URL``), Redis ``$LOAD_REDIS_URL`` (default db 4). While locust
runs, PostgreSQL's ``pg_stat_activity`` is sampled every 10 ms: the share of in-flight requests
waiting on a lock, and on an advisory lock (the audit sequencer's is the only one requests
could meet), is printed with throughput, p50/p95 and the machine's CPU use. After each run the
audit log must verify (``verify_audit``: the sequencer caught up, the chain and tree whole).

gunicorn runs with caseflow's configuration (``gunicorn.conf.py``: each worker warmed up before
its first request) and takes each request's CPU time by page (``bench/load/gunicorn_bench.py``),
printed after the run. ``--warmup N`` first runs the same load for N seconds, not measured: what
a worker does once (the first visit to each case page, statements compiled for a new number of
ids) is then behind it, as in a worker that has served for hours. ``--profile`` profiles each
page in the workers (cProfile) and prints each page's top entries.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import DEFAULT_PG, _keys  # noqa: E402

PORT = 8790


def _cpu_times() -> tuple[int, int]:
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields), idle


def _tree_cpu(root: int) -> float:
    """CPU seconds (user + system) used so far by process ``root`` and its children."""
    ticks = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    stats: dict[int, list[str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        stats[pid] = fields
        children.setdefault(int(fields[1]), []).append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            total += (int(stats[pid][11]) + int(stats[pid][12])) / ticks
        todo.extend(children.get(pid, []))
    return total


class Sampler(threading.Thread):
    """Samples the requests PostgreSQL is serving, and those waiting on a lock."""

    def __init__(self, url: str, dbname: str) -> None:
        super().__init__(daemon=True)
        self.url, self.dbname = url, dbname
        self.stop = threading.Event()
        self.samples = self.active = self.lock_waits = self.advisory_waits = 0

    def run(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            while not self.stop.is_set():
                row = conn.execute(
                    "SELECT count(*) FILTER (WHERE state = 'active'),"
                    " count(*) FILTER (WHERE wait_event_type = 'Lock'),"
                    " count(*) FILTER (WHERE wait_event_type = 'Lock' AND wait_event = 'advisory')"
                    " FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()"
                    " AND backend_type = 'client backend'",
                    [self.dbname],
                ).fetchone()
                self.samples += 1
                self.active += row[0]
                self.lock_waits += row[1]
                self.advisory_waits += row[2]
                time.sleep(0.01)


def _env(url: str, redis: str, var: Path) -> dict[str, str]:
    env = {**os.environ, **_keys()}
    env.update(
        DATABASE_URL=url,
        REDIS_URL=redis,
        HTTPS="0",
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        LOG_LEVEL="WARNING",
        STATIC_ROOT=str(var / "static"),
        CASEFLOW_VAR_DIR=str(var),
        AUDIT_HEAD_SINK=str(var / "audit-heads.jsonl"),
        # Heads shipped during a short run too, so that the verify after it checks against one.
        AUDIT_HEAD_SECONDS="10",
        DJANGO_SETTINGS_MODULE="caseflow.settings",
        PYTHONUNBUFFERED="1",
    )
    return env


def _prepare(args, env: dict[str, str], sessions: Path) -> None:
    """Seed if needed (bench/run.py's way) and sign people in: a session per person."""
    subprocess.run(
        [
            sys.executable,
            "bench/run.py",
            "--db",
            "postgres",
            "--scale",
            str(args.scale),
            "--only",
            "nothing-to-run",
            "--iterations",
            "1",
        ],
        cwd=ROOT,
        check=False,
        env={k: v for k, v in os.environ.items()},
    )
    # As in production: static files collected, served by WhiteNoise from the manifest.
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        check=True,
        env=env,
    )
    subprocess.run(
        [sys.executable, "bench/load/sessions.py", str(args.users), str(sessions)],
        cwd=ROOT,
        check=True,
        env=env,
    )


def _wait_for(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)  # noqa: S310 - loopback
            return
        except Exception:  # noqa: BLE001
            time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer")


def _stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _aggregate(prefix: Path) -> dict[str, str]:
    with open(f"{prefix}_stats.csv") as fh:
        rows = list(csv.DictReader(fh))
    return next(r for r in rows if r["Name"] == "Aggregated")


def _locust(args, env: dict[str, str], sessions: Path, prefix: Path, seconds: int) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "locust",
            "-f",
            str(ROOT / "bench/load/locustfile.py"),
            "--headless",
            "-u",
            str(args.users),
            "-r",
            str(args.users),
            "-t",
            f"{seconds}s",
            "--host",
            f"http://127.0.0.1:{PORT}",
            "--csv",
            str(prefix),
            "--only-summary",
            "--loglevel",
            "WARNING",
        ],
        cwd=ROOT,
        env={**env, "LOAD_SESSIONS": str(sessions)},
        check=False,
        stdout=subprocess.DEVNULL,
    )


def run_one(args, env, sessions: Path, var: Path, web: int, url: str, dbname: str) -> dict:
    measured = var / f"measure-{web}"
    pages = var / f"pages-{web}"
    worker_env = {**env, "LOAD_MEASURE_FROM": str(measured), "LOAD_PAGES": str(pages)}
    if args.profile:
        worker_env["LOAD_PROFILE"] = str(var / f"profile-{web}")
    gunicorn = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "caseflow.wsgi",
            "-w",
            str(web),
            "-b",
            f"127.0.0.1:{PORT}",
            "--access-logfile",
            "/dev/null",
            "--error-logfile",
            str(var / f"gunicorn-{web}.log"),
            "-c",
            str(ROOT / "bench/load/gunicorn_bench.py"),
        ],
        cwd=ROOT,
        env=worker_env,
    )
    try:
        _wait_for(f"http://127.0.0.1:{PORT}/health/")
        if args.warmup:
            _locust(args, env, sessions, var / f"warmup-{web}", args.warmup)
        measured.touch()
        sampler = Sampler(url, dbname)
        prefix = var / f"locust-{web}"
        cpu0 = _cpu_times()
        web0, started = _tree_cpu(gunicorn.pid), time.monotonic()
        sampler.start()
        _locust(args, env, sessions, prefix, args.seconds)
        sampler.stop.set()
        sampler.join()
        cpu1 = _cpu_times()
        web_cpu = (_tree_cpu(gunicorn.pid) - web0) / (time.monotonic() - started)
    finally:
        _stop(gunicorn)
    total, idle = cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]
    agg = _aggregate(prefix)
    verify = subprocess.run(
        [sys.executable, "manage.py", "verify_audit"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    in_flight = max(sampler.samples * args.users, 1)
    return {
        "web": web,
        "users": args.users,
        "requests": int(agg["Request Count"]),
        "failures": int(agg["Failure Count"]),
        "rps": float(agg["Requests/s"]),
        "p50": float(agg["50%"]),
        "p95": float(agg["95%"]),
        "cpu": 1 - idle / total if total else 0.0,
        "web_cpu": web_cpu,
        "lock_wait": sampler.lock_waits / in_flight,
        "advisory_wait": sampler.advisory_waits / in_flight,
        "db_active": sampler.active / max(sampler.samples, 1),
        "verify": (verify.stdout or verify.stderr).strip().splitlines()[-1],
        "verified": verify.returncode == 0,
        "pages": _pages(pages),
    }


def _pages(prefix: Path) -> dict[str, tuple[int, float]]:
    """The workers' requests and CPU seconds by page (``gunicorn_bench.py``), added up."""
    found: dict[str, list[float]] = {}
    for path in prefix.parent.glob(f"{prefix.name}.*"):
        for page, (count, spent) in json.loads(path.read_text()).items():
            mine = found.setdefault(page, [0, 0.0])
            mine[0] += count
            mine[1] += spent
    return {page: (int(count), spent) for page, (count, spent) in found.items()}


def _print_pages(r: dict) -> None:
    pages = r["pages"]
    count = sum(n for n, _s in pages.values())
    spent = sum(s for _n, s in pages.values())
    print(f"\nweb={r['web']}: CPU per request in the workers, by page")
    print("| page | requests | CPU per request |")
    print("|---|---|---|")
    for page, (n, s) in sorted(pages.items(), key=lambda kv: -kv[1][0]):
        print(f"| {page} | {n} | {s / n * 1000:.1f} ms |")
    if count:
        print(f"| all | {count} | {spent / count * 1000:.1f} ms |")


def _print_profiles(var: Path) -> None:
    """Each page's profile (``--profile``), its workers' together, by own and by cumulative
    time."""
    import pstats

    by_page: dict[str, list[str]] = {}
    for path in sorted(var.glob("profile-*.*.*")):
        by_page.setdefault(path.name.split(".")[1], []).append(str(path))
    for page, files in by_page.items():
        print(f"\n--- profile of {page}")
        stats = pstats.Stats(*files)
        stats.strip_dirs().sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(40)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--web", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--users", type=int, default=8)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--scale", type=float, default=0.01)
    parser.add_argument(
        "--warmup",
        type=int,
        default=0,
        help="seconds of the same load first, not measured",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="profile each page in the web workers (cProfile) and print its top entries",
    )
    args = parser.parse_args()
    url = os.environ.get("BENCH_POSTGRES_URL", DEFAULT_PG)
    dbname = url.rsplit("/", 1)[-1]
    redis = os.environ.get("LOAD_REDIS_URL", "redis://127.0.0.1:6379/4")
    var = Path(tempfile.mkdtemp(prefix="caseflow-load-"))
    (var / "static").mkdir()
    env = _env(url, redis, var)
    sessions = var / "sessions.json"
    _prepare(args, env, sessions)
    worker_log = (var / "worker.log").open("w")  # noqa: SIM115 - closed after the worker
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "caseflow",
            "worker",
            "--beat",
            "--pool=solo",
            "--loglevel=WARNING",
            f"--schedule={var / 'celerybeat-schedule'}",
        ],
        cwd=ROOT,
        env=env,
        stdout=worker_log,
        stderr=subprocess.STDOUT,
    )
    results = []
    try:
        for web in args.web:
            results.append(run_one(args, env, sessions, var, web, url, dbname))
            r = results[-1]
            print(
                f"web={web}: {r['rps']:.1f} req/s, p50 {r['p50']:.0f} ms, p95 {r['p95']:.0f} ms,"
                f" lock wait {r['lock_wait']:.1%}, verify: {r['verify']}",
                flush=True,
            )
    finally:
        _stop(worker)
        worker_log.close()
    print()
    print(
        "| web processes | users | requests | errors | req/s | p50 ms | p95 ms | CPU busy |"
        " web processes' CPU, cores |"
        " waiting on any lock | on the audit (advisory) lock | requests in PostgreSQL |"
        " chain verifies |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r['web']} | {r['users']} | {r['requests']} | {r['failures']} | {r['rps']:.1f} |"
            f" {r['p50']:.0f} | {r['p95']:.0f} | {r['cpu']:.0%} | {r['web_cpu']:.2f} |"
            f" {r['lock_wait']:.1%} |"
            f" {r['advisory_wait']:.1%} | {r['db_active']:.2f} |"
            f" {'yes' if r['verified'] else 'NO'} |"
        )
    for r in results:
        _print_pages(r)
    if args.profile:
        _print_profiles(var)
    print(f"\nlogs: {var}")
    return 0 if all(r["verified"] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
