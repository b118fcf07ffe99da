"""What every benchmark shares: interleaved timing against peers, query counts, result rows.

A benchmark module in bench/ exposes ``BENCHMARKS = [...]``: callables taking a
:class:`BenchContext` and returning a list of :class:`Row` (usually from :func:`compare`).
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext


@dataclass
class Peer:
    """What caseflow is compared with, and the target for caseflow's p50 / the peer's p50."""

    name: str
    run: Callable[[], Any]
    max_ratio: float | None = None


@dataclass
class Row:
    operation: str
    peer: str
    caseflow_seconds: list[float]
    peer_seconds: list[float]
    caseflow_queries: int | None
    peer_queries: int | None
    max_ratio: float | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def caseflow_p50(self) -> float:
        return percentile(self.caseflow_seconds, 50)

    @property
    def peer_p50(self) -> float:
        return percentile(self.peer_seconds, 50)

    @property
    def ratio(self) -> float:
        return self.caseflow_p50 / self.peer_p50 if self.peer_p50 else float("inf")

    @property
    def verdict(self) -> str:
        if self.max_ratio is None:
            return "-"
        return "met" if self.ratio <= self.max_ratio else "MISSED"


@dataclass
class BenchContext:
    iterations: int
    warmup: int
    tier: str
    scale: float
    sweep_items: int = 100_000  # due check-ins for the reminder sweep (already scaled)
    naive_sample: int = 10_000  # due check-ins the naive per-row loop runs on (extrapolated)


def percentile(samples: list[float], pct: float) -> float:
    if not samples:
        return float("nan")
    if len(samples) == 1:
        return samples[0]
    if pct == 50:
        return statistics.median(samples)
    return statistics.quantiles(samples, n=100, method="inclusive")[int(pct) - 1]


def count_queries(run: Callable[[], Any]) -> int:
    with CaptureQueriesContext(connection) as captured:
        run()
    return len(captured)


def compare(
    ctx: BenchContext,
    operation: str,
    caseflow: Callable[[], Any],
    peers: list[Peer],
    *,
    count_sql: bool = True,
) -> list[Row]:
    """Time ``caseflow`` and each peer interleaved in one loop (the order rotates every
    iteration, so drift and caches affect all alike), after ``ctx.warmup`` untimed rounds.
    Query counts come from one extra, untimed run of each under CaptureQueriesContext."""
    runners = [caseflow] + [p.run for p in peers]
    samples: list[list[float]] = [[] for _ in runners]
    for i in range(ctx.warmup + ctx.iterations):
        order = list(range(len(runners)))
        shift = i % len(order)
        for k in order[shift:] + order[:shift]:
            gc.collect()
            started = time.perf_counter()
            runners[k]()
            elapsed = time.perf_counter() - started
            if i >= ctx.warmup:
                samples[k].append(elapsed)
    queries = [count_queries(r) if count_sql else None for r in runners]
    return [
        Row(
            operation=operation,
            peer=peer.name,
            caseflow_seconds=samples[0],
            peer_seconds=samples[k + 1],
            caseflow_queries=queries[0],
            peer_queries=queries[k + 1],
            max_ratio=peer.max_ratio,
        )
        for k, peer in enumerate(peers)
    ]


def peak_memory(run: Callable[[], Any]) -> int:
    """Peak bytes allocated by Python while ``run`` runs (tracemalloc), e.g. to show that a batch
    job's memory stays flat as its input grows. Not for timed runs: tracing slows Python down."""
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# --- HTTP through the whole middleware stack ---------------------------------------------------


def client_for(user) -> Client:
    """A test client signed in as ``user`` as after password + second factor (force_login, a
    confirmed authenticator verified in this session, fresh session times), so the whole
    middleware stack lets it through as it would a signed-in person."""
    from django_otp import DEVICE_ID_SESSION_KEY
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from caseflow.accounts import second_factor as sf

    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name="bench", confirmed=True)
    client = Client()
    client.force_login(user)
    session = client.session
    now = sf.now_ts()
    session[sf.SESSION_EPOCH] = user.session_epoch
    session[sf.AUTH_AT] = now
    session[sf.SEEN_AT] = now
    session[sf.RECENT_AUTH_AT] = now
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
    return client


def get(client: Client, url: str, expect: int = 200) -> Callable[[], Any]:
    """A runner that GETs ``url`` and fails loudly if the page does not answer ``expect``."""

    def run():
        response = client.get(url)
        if response.status_code != expect:
            raise AssertionError(f"GET {url} answered {response.status_code}, not {expect}")
        return response

    return run


# --- Printing ---------------------------------------------------------------------------------

HEADER = (
    "operation",
    "peer",
    "caseflow p50",
    "p95",
    "peer p50",
    "p95",
    "ratio",
    "target",
    "SQL caseflow/peer",
)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def table(rows: list[Row]) -> str:
    lines = [HEADER]
    for r in rows:
        target = "-" if r.max_ratio is None else f"<= {r.max_ratio:g} {r.verdict}"
        sql = f"{_q(r.caseflow_queries)}/{_q(r.peer_queries)}"
        lines.append(
            (
                r.operation,
                r.peer,
                _ms(r.caseflow_p50),
                _ms(percentile(r.caseflow_seconds, 95)),
                _ms(r.peer_p50),
                _ms(percentile(r.peer_seconds, 95)),
                f"{r.ratio:.3f}",
                target,
                sql,
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(HEADER))]
    out = []
    for n, line in enumerate(lines):
        out.append("| " + " | ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)) + " |")
        if n == 0:
            out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    notes = [f"- {r.operation} vs {r.peer}: {n}" for r in rows for n in r.notes]
    return "\n".join(out + ([""] + notes if notes else []))


def _q(n: int | None) -> str:
    return "-" if n is None else str(n)


# --- The seeded people benchmarks act as -------------------------------------------------------


@dataclass
class ScaleCast:
    agency: Any
    overloaded: Any  # the advocate with the most open cases (300 on the base tier)
    typical: Any  # an advocate with a typical caseload (about 40)
    supervisor: Any  # supervisor of the first team
    operator: Any  # a superuser, for the admin peers
    open_counts: dict[int, int]

    def open_cases(self, user) -> int:
        return self.open_counts[user.pk]


def scale_cast() -> ScaleCast:
    """The people of the first agency seeded by ``manage.py seed_scale``."""
    from django.db.models import Count, Q

    from caseflow.accounts.models import Agency, User
    from caseflow.cases.models import CaseStatus

    agency = Agency.objects.get(slug="scale")

    def one(name: str):
        return User.objects.get(username=f"{agency.slug}-{name}")

    advocates = User.objects.filter(membership__agency=agency, membership__role="advocate")
    counts = dict(
        advocates.annotate(
            n=Count(
                "case_assignments",
                filter=Q(
                    case_assignments__case__status__in=(CaseStatus.REFERRAL, CaseStatus.ACTIVE)
                ),
            )
        ).values_list("pk", "n")
    )
    return ScaleCast(
        agency=agency,
        overloaded=one("adv000"),
        typical=one("adv001"),
        supervisor=one("sup000"),
        operator=one("operator"),
        open_counts=counts,
    )
