"""The cost of being careful: caseflow's whole middleware stack against a bare Django stack
(sessions + authentication) on the same request, the benchmarks' floor page, and where the
difference goes (the statements it adds)."""

from __future__ import annotations

from django.conf import settings
from django.test import override_settings

from bench.harness import BenchContext, Peer, Row, client_for, compare, get, scale_cast

FLOOR = "/bench/floor/dashboard/"
BARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
#: Target for caseflow's stack minus the bare stack, p50, milliseconds.
MAX_OVERHEAD_MS = 3.0


def _client(user, middleware: list[str]):
    """A signed-in client whose handler runs ``middleware`` (loaded on its first request)."""
    client = client_for(user)
    with override_settings(MIDDLEWARE=middleware):
        get(client, FLOOR)()
    return client


def stack_overhead(ctx: BenchContext) -> list[Row]:
    advocate = scale_cast().typical
    full = list(settings.MIDDLEWARE)
    full_client, bare_client = _client(advocate, full), _client(advocate, BARE)
    rows = compare(
        ctx,
        "floor page through caseflow's middleware stack",
        get(full_client, FLOOR),
        [Peer("bare Django stack (sessions + auth), same view", get(bare_client, FLOOR))],
    )
    row = rows[0]
    overhead = (row.caseflow_p50 - row.peer_p50) * 1000
    row.notes.append(
        f"overhead of the stack (p50 difference): {overhead:.2f} ms, target <= "
        f"{MAX_OVERHEAD_MS:g} ms: {'met' if overhead <= MAX_OVERHEAD_MS else 'MISSED'}"
    )
    # Where it goes: the statements caseflow's stack runs beyond the bare stack's.
    row.notes.append(
        "statements beyond the bare stack's: "
        + ", ".join(_extra(_statements(full_client), _statements(bare_client)) or ["none"])
    )
    return rows


def _extra(full: list[str], bare: list[str]) -> list[str]:
    rest = list(bare)
    extra = []
    for statement in full:
        if statement in rest:
            rest.remove(statement)
        else:
            extra.append(statement)
    return extra


def _statements(client) -> list[str]:
    """What each statement of one request touches, in order (the bare stack's come first)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        get(client, FLOOR)()
    found = []
    for query in captured.captured_queries:
        words = query["sql"].replace('"', "").split()
        upper = [w.upper() for w in words]
        if "FROM" in upper and upper[0] == "SELECT":
            found.append("read " + words[upper.index("FROM") + 1])
        elif upper[0] in {"UPDATE", "INSERT"}:
            found.append(upper[0].lower() + " " + words[2 if upper[0] == "INSERT" else 1])
        else:
            found.append(upper[0].lower())
    # The view's own statements are the same under both stacks: compare what precedes them.
    return [f for f in found if "cases_case" not in f]


BENCHMARKS = [stack_overhead]
