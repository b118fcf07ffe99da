"""The authorization matrix: every named URL × method × actor → expected status.

The rows are written by hand; the URLs are read from the URL conf. A URL without a row, or a row
without a URL, fails the suite. Every response body is also checked for the canary strings
planted in each case: a body may only carry the canaries of cases the actor is entitled to.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.conftest import ACTORS, Cast, canary

# Namespaces the matrix covers (Django's own admin is tested in test_operator_admin.py).
EXCLUDED_NAMESPACES = {"admin"}

ANON = {"anonymous": 302, "deactivated": 302}


def expect(default: int, **overrides: int) -> dict[str, int]:
    table = {actor: default for actor in ACTORS}
    table.update(ANON)
    table.update(overrides)
    return table


def casework(assigned: int, supervisor: int, others: int = 404, **kw: int) -> dict[str, int]:
    """A case URL: its assigned advocate, its team's supervisor, everyone else out of scope."""
    return expect(others, assigned=assigned, supervisor=supervisor, **kw)


NOT_ALLOWED = expect(405)
CASEWORKERS_ONLY = dict(
    assigned=200,
    same_team=200,
    other_team=200,
    supervisor=200,
    other_supervisor=200,
    other_agency=200,
)


@dataclass
class Row:
    GET: dict[str, int]
    POST: dict[str, int]
    kwargs: str | None = None  # which object fills the URL: "case", "party", "user", "team"
    # Who may see the canaries of which case on this page (beyond the case in the URL).
    shows: dict[str, set[str]] = field(default_factory=dict)


MATRIX: dict[str, Row] = {
    "dashboard": Row(
        GET=expect(200),
        POST=NOT_ALLOWED,
    ),
    "health": Row(
        GET=expect(200, anonymous=200, deactivated=200),
        POST=expect(405, anonymous=405, deactivated=405),
    ),
    "accounts:login": Row(
        # Signed-in users are sent on to their home page.
        GET=expect(302, anonymous=200, deactivated=200),
        POST=expect(302, anonymous=200, deactivated=200),
    ),
    "accounts:logout": Row(GET=expect(405, anonymous=405, deactivated=405), POST=expect(302)),
    "accounts:staff_list": Row(GET=expect(403, agency_admin=200), POST=NOT_ALLOWED),
    "accounts:staff_new": Row(
        GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)
    ),
    "accounts:staff_edit": Row(
        GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200), kwargs="user"
    ),
    "accounts:team_new": Row(GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)),
    "accounts:team_edit": Row(
        GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200), kwargs="team"
    ),
    "cases:list": Row(GET=expect(403, **CASEWORKERS_ONLY), POST=NOT_ALLOWED),
    "cases:new": Row(GET=expect(403, **CASEWORKERS_ONLY), POST=expect(403, **CASEWORKERS_ONLY)),
    "cases:break_glass": Row(
        GET=expect(403, **CASEWORKERS_ONLY), POST=expect(403, **CASEWORKERS_ONLY)
    ),
    "cases:detail": Row(GET=casework(200, 200), POST=NOT_ALLOWED, kwargs="case"),
    "cases:edit": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "cases:assign": Row(GET=casework(403, 200), POST=casework(403, 200), kwargs="case"),
    "cases:restrict": Row(GET=casework(403, 200), POST=casework(403, 200), kwargs="case"),
    "cases:status": Row(GET=NOT_ALLOWED, POST=casework(302, 302), kwargs="case"),
    "cases:safe_contact": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "cases:party_new": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "cases:party_edit": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="party"),
}

# Which cases' canaries each actor may see on some page: the cases whose content they may read.
ENTITLED = {
    "assigned": {"case", "restricted_case"},
    "supervisor": {"case"},
    "other_team": {"team2_case"},
    "other_supervisor": {"team2_case"},
    "other_agency": {"foreign_case"},
}


def named_urls() -> dict[str, object]:
    found: dict[str, object] = {}

    def walk(patterns, prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                if p.namespace in EXCLUDED_NAMESPACES:
                    continue
                walk(p.url_patterns, f"{prefix}{p.namespace}:" if p.namespace else prefix)
            elif isinstance(p, URLPattern) and p.name:
                found[prefix + p.name] = p

    walk(get_resolver().url_patterns, "")
    return found


def test_every_url_has_a_row_and_every_row_a_url():
    urls = set(named_urls())
    assert urls - set(MATRIX) == set(), "URLs without a row in the authorization matrix"
    assert set(MATRIX) - urls == set(), "rows in the matrix for URLs that do not exist"


def url_for(name: str, row: Row, cast: Cast, target: str) -> str:
    case = getattr(cast, target)
    if row.kwargs == "case":
        return reverse(name, args=[case.public_id])
    if row.kwargs == "party":
        return reverse(name, args=[case.public_id, case.parties.first().public_id])
    if row.kwargs == "user":
        return reverse(name, args=[cast.same_team.pk])
    if row.kwargs == "team":
        return reverse(name, args=[cast.team1.pk])
    return reverse(name)


CASES = [n for n, r in MATRIX.items() if r.kwargs in ("case", "party")]


def restricted_expectation(actor: str, status: int) -> int:
    """On the restricted case only ``assigned`` is listed: everyone else who would have got in
    is out of scope."""
    if actor in ("assigned", "anonymous", "deactivated") or status == 405:
        return status
    return 404


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_matrix(name, cast, login):
    """Every method × actor × relation for one URL; all mismatches reported together."""
    row = MATRIX[name]
    targets = ["case", "restricted_case"] if row.kwargs in ("case", "party") else ["case"]
    failures = []
    for method in ("GET", "POST"):
        for actor in ACTORS:
            for target in targets:
                expected = getattr(row, method)[actor]
                if target == "restricted_case":
                    expected = restricted_expectation(actor, expected)
                client = login(cast.actor(actor))
                url = url_for(name, row, cast, target)
                response = client.generic(
                    method,
                    url,
                    data=b"",
                    content_type=("application/x-www-form-urlencoded" if method == "POST" else ""),
                )
                if response.status_code != expected:
                    failures.append(
                        f"{method} {target} as {actor}: {response.status_code}, expected {expected}"
                    )
                body = response.content.decode(errors="replace")
                allowed = ENTITLED.get(actor, set()) if response.status_code == 200 else set()
                for other in ("case", "restricted_case", "team2_case", "foreign_case"):
                    if other not in allowed and canary(getattr(cast, other)) in body:
                        failures.append(f"{method} {target} as {actor} leaked {other}")
    assert failures == []
