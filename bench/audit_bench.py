"""Audit benchmarks: prints ratios, not a test.

    uv run python bench/audit_bench.py [--events 1000000] [--requests 100]

1. Viewing one case page with and without its audit event (ratio).
2. ``verify_audit`` over N events against a floor in the same run: a raw cursor reading every row
   and one SHA-256 per row (ratio).
3. "Who accessed case X" (the audit workspace page) against the Django admin's changelist of
   AuditEvent filtered the same way, on a throwaway AdminSite registered here only (ratio).

It seeds its own data into a scratch database it creates and removes: a temporary SQLite file by
default, or, when DATABASE_URL names a PostgreSQL server, a database ``<name>_audit_bench`` on it
(SECRET_KEY, FIELD_ENCRYPTION_KEYS and BLIND_INDEX_KEY must then be set too).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import os
import statistics
import sys
import tempfile
import time
import types
import warnings
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000, help="audit events to seed")
    parser.add_argument("--requests", type=int, default=100, help="page views per measurement")
    parser.add_argument("--cases", type=int, default=20_000, help="distinct case ids in events")
    parser.add_argument("--verify-runs", type=int, default=2, help="runs of verify and its floor")
    return parser.parse_args()


def scratch_database() -> tuple[str, object]:
    """Point Django at a fresh scratch database; returns (description, cleanup)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url:
        tmp = tempfile.TemporaryDirectory(prefix="caseflow-audit-bench-")
        os.environ["CASEFLOW_VAR_DIR"] = tmp.name
        return f"SQLite {tmp.name}/caseflow.sqlite3", tmp.cleanup
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/") + "_audit_bench"
    admin_url = urlunparse(parts._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = urlunparse(parts._replace(path="/" + name))

    def drop() -> None:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')

    return f"PostgreSQL database {name}", drop


def interleaved(first, second, repeat: int) -> tuple[float, float]:
    """Median seconds of each of two functions, run alternately (after one warm-up each), so
    that both see the same load on a shared machine."""
    first(), second()
    a, b = [], []
    for _ in range(repeat):
        for fn, samples in ((first, a), (second, b)):
            start = time.perf_counter()
            fn()
            samples.append(time.perf_counter() - start)
    return statistics.median(a), statistics.median(b)


def main() -> None:
    args = parse_args()
    where, cleanup = scratch_database()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "caseflow.settings")
    os.environ["LOG_LEVEL"] = "ERROR"
    warnings.filterwarnings("ignore", message="No directory at")
    import django

    django.setup()
    try:
        run(args, where)
    finally:
        cleanup()


def seed_staff_and_cases():
    from caseflow.accounts.models import Agency, Membership, Role, Team, User
    from caseflow.cases import journey

    agency = Agency.objects.create(name="Bench agency", slug="bench")
    team = Team.objects.create(agency=agency, name="Bench team")

    def person(username, role, superuser=False):
        if superuser:
            return User.objects.create_superuser(username, f"{username}@bench.invalid", "x" * 16)
        user = User.objects.create_user(username, f"{username}@bench.invalid", "x" * 16)
        Membership.objects.create(user=user, agency=agency, role=role)
        team.members.add(user)
        return user

    advocate = person("advocate", Role.ADVOCATE)
    auditor = person("auditor", Role.AUDITOR)
    operator = person("operator", None, superuser=True)
    cases = [
        journey.case_open(
            actor=advocate,
            team=team,
            survivor={"full_name": f"Bench Person {i}", "date_of_birth": "1990-01-01"},
            other_party={"full_name": f"Bench Other {i}", "date_of_birth": "1985-01-01"},
            risk_level="medium",
            summary="A fictional benchmark case.",
        )
        for i in range(5)
    ]
    return advocate, auditor, operator, cases


def seed_events(count: int, case_x, real_cases, users, spread: int) -> None:
    """Append ``count`` chained events after the current head, in bulk."""
    import random

    from django.db import connection, transaction

    from caseflow.audit import sequencer
    from caseflow.audit.chain import event_hash
    from caseflow.audit.models import AuditEvent

    rng = random.Random(3)
    sequencer.sequence_pending()
    seq = AuditEvent.objects.order_by("-seq").values_list("seq", flat=True).first() or 0
    pos, prev = sequencer.chain_end()
    start = dt.datetime.now(dt.UTC) - dt.timedelta(days=90)
    step = dt.timedelta(days=90) / max(count, 1)
    actions = ["case.view"] * 6 + ["case.list", "case.update", "party.update", "security.login"]
    case_ids = [c.pk for c in real_cases] + list(range(1_000_000, 1_000_000 + spread))
    batch = []
    # About one event in ten thousand is a read of case X: ~100 at a million.
    x_every = 10_000
    for i in range(count):
        seq, pos = seq + 1, pos + 1
        actor = users[i % len(users)]
        if i % x_every == x_every // 2:
            action, case_id = "case.view", case_x.pk
        else:
            action = actions[rng.randrange(len(actions))]
            case_id = None if action in ("case.list", "security.login") else rng.choice(case_ids)
        row = {
            "seq": seq,
            "at": start + step * i,
            "actor_id": actor.pk,
            "actor_role": "advocate",
            "agency_id": case_x.agency_id,
            "case_id": case_id,
            "action": action,
            "object_type": "case" if case_id else "",
            "object_id": "",
            "request_id": f"{rng.getrandbits(64):016x}",
            "ip": "192.0.2.10",
            "detail": {"fields": ["summary"]} if action.endswith("update") else {},
        }
        digest = event_hash(prev, row)
        batch.append(AuditEvent(pos=pos, prev_hash=prev, hash=digest, **row))
        prev = digest
        if len(batch) == 10_000:
            with transaction.atomic():
                AuditEvent.objects.bulk_create(batch)
            batch = []
    if batch:
        with transaction.atomic():
            AuditEvent.objects.bulk_create(batch)
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute(
                "SELECT setval(pg_get_serial_sequence('audit_auditevent', 'seq'), MAX(seq))"
                " FROM audit_auditevent"
            )
    # The events were written already placed in the chain; the tree gets their leaves.
    sequencer.sequence_pending(batch=20_000)


def floor_verify() -> int:
    """The least any verifier must do: read every row in order and hash it once."""
    from django.db import connection

    rows = 0
    prev = b"0" * 64
    cursor = connection.chunked_cursor()
    try:
        cursor.execute(
            "SELECT seq, at, actor_id, actor_role, agency_id, case_id, action, object_type,"
            " object_id, request_id, ip, detail, prev_hash, hash FROM audit_auditevent"
            " WHERE pos IS NOT NULL ORDER BY pos"
        )
        while True:
            chunk = cursor.fetchmany(5000)
            if not chunk:
                break
            for row in chunk:
                prev = hashlib.sha256(prev + repr(row[:12]).encode()).hexdigest().encode()
                rows += 1
    finally:
        cursor.close()
    return rows


def client_for(user):
    """Signed in through the second factor, as bench/run.py's benchmarks are."""
    from bench.harness import client_for as signed_in

    return signed_in(user)


def audit_event_admin():
    """The stock admin of AuditEvent an agency would set up (with a "reads" filter so that the
    changelist can be filtered the way the audit workspace filters). Also used by bench/peers.py."""
    from django.contrib import admin

    class ReadsFilter(admin.SimpleListFilter):
        title = "kind"
        parameter_name = "kind"

        def lookups(self, request, model_admin):
            return [("reads", "Reads")]

        def queryset(self, request, queryset):
            return queryset.reads() if self.value() == "reads" else queryset

    class AuditEventAdmin(admin.ModelAdmin):
        list_display = ("seq", "at", "actor", "actor_role", "action", "object_type", "ip")
        list_filter = (ReadsFilter,)
        list_select_related = ("actor",)
        list_per_page = 50

    return AuditEventAdmin


def bench_admin_urlconf():
    """A URL conf with caseflow's URLs plus a throwaway AdminSite that lists AuditEvent."""
    from django.contrib import admin
    from django.urls import path

    import caseflow.urls
    from caseflow.audit.models import AuditEvent

    site = admin.AdminSite(name="benchadmin")
    site.register(AuditEvent, audit_event_admin())
    module = types.ModuleType("bench_audit_urls")
    module.urlpatterns = [path("bench-admin/", site.urls), *caseflow.urls.urlpatterns]
    sys.modules[module.__name__] = module
    return module.__name__


def run(args, where: str) -> None:
    from django.conf import settings
    from django.core.management import call_command
    from django.test.utils import override_settings, setup_test_environment
    from django.urls import clear_url_caches, reverse

    from caseflow.audit.models import AuditEvent
    from caseflow.audit.verify import verify_chain

    setup_test_environment()
    # Pages render without collectstatic, as in the tests.
    plain_static = override_settings(
        STORAGES={
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
    )
    plain_static.enable()
    print(f"scratch database: {where}")
    t0 = time.perf_counter()
    call_command("migrate", interactive=False, verbosity=0)
    advocate, auditor, operator, cases = seed_staff_and_cases()
    case_x = cases[0]
    seed_events(args.events, case_x, cases, [advocate, auditor], args.cases)
    total = AuditEvent.objects.count()
    print(f"seeded {total:,} audit events in {time.perf_counter() - t0:.1f}s\n")

    # 1. A case page with and without its audit event.
    import caseflow.cases.views as case_views

    page = reverse("cases:detail", args=[case_x.public_id])
    client = client_for(advocate)
    assert client.get(page, secure=True).status_code == 200
    recording = case_views.record

    def view_with_audit():
        client.get(page, secure=True)

    def view_without_audit():
        case_views.record = lambda *a, **k: None
        try:
            client.get(page, secure=True)
        finally:
            case_views.record = recording

    with_audit, without = interleaved(view_with_audit, view_without_audit, args.requests)
    print("1. case page, median of", args.requests, "views")
    print(f"   with audit {with_audit * 1000:.2f} ms, without {without * 1000:.2f} ms")
    print(f"   ratio with/without: {with_audit / without:.2f}\n")

    # 2. verify_audit against the floor.
    floors, verifies = [], []
    for _ in range(args.verify_runs):
        start = time.perf_counter()
        floor_rows = floor_verify()
        floors.append(time.perf_counter() - start)
        start = time.perf_counter()
        result = verify_chain()
        verifies.append(time.perf_counter() - start)
        assert result.ok and result.checked == floor_rows, result
    floor, verify = min(floors), min(verifies)
    print(f"2. verify over {floor_rows:,} events, best of {args.verify_runs}")
    print(f"   verify_audit {verify:.2f}s ({floor_rows / verify:,.0f} events/s)")
    print(f"   raw cursor + sha256 floor {floor:.2f}s ({floor_rows / floor:,.0f} events/s)")
    print(f"   ratio verify/floor: {verify / floor:.2f}\n")

    # 3. Who accessed case X: the workspace page against the admin changelist.
    repeat = max(5, args.requests // 5)
    workspace = reverse("audit:case_access", args=[case_x.public_id])
    auditor_client = client_for(auditor)
    response = auditor_client.get(workspace, secure=True)
    assert response.status_code == 200, response.status_code
    reads = sum(row["reads"] for row in response.context["people"])
    with override_settings(ROOT_URLCONF=bench_admin_urlconf()):
        clear_url_caches()
        admin_client = client_for(operator)
        changelist = f"/bench-admin/audit/auditevent/?case_id={case_x.pk}&kind=reads"
        response = admin_client.get(changelist, secure=True)
        assert response.status_code == 200, response.status_code
        expected = AuditEvent.objects.filter(case_id=case_x.pk).reads().count()
        assert response.context["cl"].result_count == expected
        mine, theirs = interleaved(
            lambda: auditor_client.get(workspace, secure=True),
            lambda: admin_client.get(changelist, secure=True),
            repeat,
        )
    clear_url_caches()
    print(f"3. who accessed case X ({reads} reads among {total:,} events), median of {repeat}")
    print(f"   audit workspace {mine * 1000:.2f} ms, admin changelist {theirs * 1000:.2f} ms")
    print(f"   ratio admin/workspace: {theirs / mine:.2f}")


if __name__ == "__main__":
    main()
