"""Run every benchmark in bench/ against its peers, on a scratch database seeded at scale.

    uv run python bench/run.py [--tier base] [--scale S] [--db sqlite|postgres] [--only NAME]
                               [--iterations N] [--warmup N] [--sweep-items N]
                               [--naive-sample N] [--reseed]

SQLite: var/bench/<tier>-<scale>.sqlite3. PostgreSQL: $BENCH_POSTGRES_URL, by default
postgres://postgres@127.0.0.1:5432/caseflow_bench (created if missing). The database is seeded
with ``manage.py seed_scale`` the first time; its keys live in var/bench/keys.env.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import secrets
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH_VAR = ROOT / "var" / "bench"
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/caseflow_bench"


def _keys() -> dict[str, str]:
    """Stable keys for the scratch databases (their data keys are wrapped with them)."""
    path = BENCH_VAR / "keys.env"
    if not path.exists():
        from cryptography.fernet import Fernet

        BENCH_VAR.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(
                f"SECRET_KEY={secrets.token_urlsafe(50)}\n"
                f"FIELD_ENCRYPTION_KEYS={Fernet.generate_key().decode()}\n"
                f"BLIND_INDEX_KEY={secrets.token_urlsafe(32)}\n"
            )
    pairs = (line.partition("=") for line in path.read_text().splitlines() if "=" in line)
    keys = {name.strip(): value.strip() for name, _, value in pairs}
    if "AUDIT_SIGNING_KEY" not in keys:
        import base64

        keys["AUDIT_SIGNING_KEY"] = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()
        with path.open("a") as fh:
            fh.write(f"AUDIT_SIGNING_KEY={keys['AUDIT_SIGNING_KEY']}\n")
    # Heads shipped from the scratch databases stay beside them.
    keys.setdefault("AUDIT_HEAD_SINK", str(BENCH_VAR / "audit-heads.jsonl"))
    return keys


def _database_url(args) -> str:
    if args.db == "sqlite":
        BENCH_VAR.mkdir(parents=True, exist_ok=True)
        path = BENCH_VAR / f"{args.tier}-{args.scale:g}.sqlite3"
        if args.reseed:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
        return f"sqlite:///{path}"
    url = os.environ.get("BENCH_POSTGRES_URL", DEFAULT_PG)
    _ensure_postgres_database(url, drop=args.reseed)
    return url


def _ensure_postgres_database(url: str, drop: bool) -> None:
    import psycopg
    from psycopg import sql

    base, _, name = url.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if exists and drop:
            conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
            exists = None
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def _setup_django(database_url: str) -> None:
    os.environ.update(_keys())
    os.environ["DATABASE_URL"] = database_url
    os.environ["HTTPS"] = "0"  # the test client speaks plain HTTP
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    (BENCH_VAR / "static").mkdir(parents=True, exist_ok=True)
    os.environ["STATIC_ROOT"] = str(BENCH_VAR / "static")  # no collectstatic needed
    os.environ["DJANGO_SETTINGS_MODULE"] = "caseflow.settings"
    sys.path.insert(0, str(ROOT))
    import django
    from django.conf import settings

    django.setup()
    settings.ROOT_URLCONF = "bench.urls"
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.DEBUG = False
    # No collectstatic for a benchmark: plain static storage (pages render the same tags).
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


def _seed_if_needed(args) -> None:
    from django.core.management import call_command

    from caseflow.cases.models import Case
    from caseflow.demo.scale import plan_for

    call_command("migrate", interactive=False, verbosity=0)
    plan = plan_for(args.tier, args.scale)
    existing = Case.objects.count()
    if existing == 0:
        started = time.perf_counter()
        call_command("seed_scale", tier=args.tier, scale=args.scale)
        print(f"seeded in {time.perf_counter() - started:.1f}s\n")
    elif existing != plan.cases:
        raise SystemExit(
            f"the scratch database holds {existing} cases, not the {plan.cases} of tier "
            f"{args.tier} x{args.scale:g}: run again with --reseed"
        )


def _machine() -> str:
    from django.db import connection

    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute("SHOW server_version")
            db = f"PostgreSQL {cur.fetchone()[0]}"
        else:
            cur.execute("SELECT sqlite_version()")
            db = f"SQLite {cur.fetchone()[0]}"
    mem = ""
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        kib = int(meminfo.read_text().split()[1])
        mem = f", {kib / 1024 / 1024:.1f} GiB RAM"
    load = ", load average {:.1f} {:.1f} {:.1f} at start".format(*os.getloadavg())
    return (
        f"{os.cpu_count()} CPUs{mem}, {platform.system()} {platform.machine()}, "
        f"Python {platform.python_version()}, {db}{load}"
    )


def _benchmarks(only: str | None):
    modules = [
        importlib.import_module(f"bench.{path.stem}")
        for path in sorted((ROOT / "bench").glob("bench_*.py"))
    ]
    # Modules that write and remove rows of their own (RUN_LAST) come after the others.
    for module in sorted(modules, key=lambda m: getattr(m, "RUN_LAST", False)):
        path = Path(module.__file__)
        for func in getattr(module, "BENCHMARKS", []):
            name = f"{path.stem.removeprefix('bench_')}.{func.__name__}"
            if only is None or only in name:
                yield name, func


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tier", choices=("base", "stretch"), default="base")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--only", help="run only benchmarks whose module.name contains this")
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument(
        "--sweep-items",
        type=int,
        default=100_000,
        help="due check-ins for the reminder sweep at scale 1 (multiplied by --scale)",
    )
    parser.add_argument(
        "--naive-sample",
        type=int,
        default=10_000,
        help="due check-ins the naive per-row sweep runs on (not scaled); its time is "
        "extrapolated per item to the full count when smaller (default 10,000)",
    )
    parser.add_argument(
        "--reseed", action="store_true", help="drop the scratch database and seed it again"
    )
    args = parser.parse_args(argv)

    _setup_django(_database_url(args))
    _seed_if_needed(args)

    from bench.harness import BenchContext, table

    ctx = BenchContext(
        iterations=args.iterations,
        warmup=args.warmup,
        tier=args.tier,
        scale=args.scale,
        sweep_items=max(1, round(args.sweep_items * args.scale)),
        naive_sample=max(1, args.naive_sample),
    )
    print(f"caseflow benchmarks: tier {args.tier} x{args.scale:g} on {args.db}")
    print(f"machine: {_machine()}")
    print(f"{ctx.iterations} timed iterations after {ctx.warmup} warm-up, interleaved\n")
    rows = []
    for name, func in _benchmarks(args.only):
        started = time.perf_counter()
        produced = func(ctx)
        print(f"{name}: {time.perf_counter() - started:.1f}s", file=sys.stderr)
        rows.extend(produced)
    if not rows:
        print("no benchmark matched")
        return 1
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
