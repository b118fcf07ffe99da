"""The authorization matrix: every named URL × method × actor → expected status.

The rows are written by hand; the URLs are read from the URL conf. A URL without a row, or a row
without a URL, fails the suite. Every response body is also checked for the canary strings
planted in each case: a body may only carry the canaries of cases the actor is entitled to.
"""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.http import urlsafe_base64_encode

from tests.conftest import ACTORS, Cast, canary
from tests.matrix import (
    agreements,
    api,
    assistance,
    audit,
    calls,
    casework,
    checkins,
    community,
    confidentiality,
    core,
    court,
    cycle,
    imports,
    partners,
    reporting,
    safety,
    security,
    servicelog,
    shelter,
    transfers,
    wellbeing,
)
from tests.matrix.base import Row

MATRIX: dict[str, Row] = {}
for _part in (
    core,
    audit,
    safety,
    agreements,
    casework,
    checkins,
    security,
    confidentiality,
    partners,
    court,
    cycle,
    assistance,
    reporting,
    calls,
    shelter,
    community,
    api,
    imports,
    wellbeing,
    servicelog,
    transfers,
):
    assert not set(_part.ROWS) & set(MATRIX), "a URL has two rows"
    MATRIX.update(_part.ROWS)

# Namespaces the matrix covers (Django's own admin is tested in test_operator_admin.py).
EXCLUDED_NAMESPACES = {"admin"}

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
    if row.url is not None:
        return row.url(cast, case)
    if row.kwargs == "case":
        return reverse(name, args=[case.public_id])
    if row.kwargs == "party":
        return reverse(name, args=[case.public_id, case.parties.first().public_id])
    if row.kwargs == "user":
        return reverse(name, args=[cast.same_team.pk])
    if row.kwargs == "team":
        return reverse(name, args=[cast.team1.pk])
    if row.kwargs == "report":  # a funder report
        return reverse(name, args=["voca"])
    if row.kwargs in api.KWARGS:  # the integrations' pages and the API
        return api.KWARGS[row.kwargs](name, cast, case)
    if row.kwargs == "prepared":  # a funder report the cast's supervisor asked to prepare
        return reporting.prepared_url(name, cast)
    if row.kwargs == "batch":  # an agency admin's import batch
        return imports.batch_url(name, cast)
    if row.kwargs == "staff_batch":  # an agency admin's checked staff file
        return imports.staff_batch_url(name, cast)
    if row.kwargs == "link":  # an enrolment link whose token is wrong
        return reverse(name, args=[urlsafe_base64_encode(b"%d" % cast.same_team.pk), "c0ffee-0"])
    return reverse(name)


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
    # A row whose ``url`` builds an object outside any case (``kwargs="call"``) is asked once.
    per_case = row.kwargs in ("case", "party") or (row.url is not None and row.kwargs != "call")
    targets = ["case", "restricted_case"] if per_case else ["case"]
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


def _view_of(pattern) -> object:
    return pattern.callback


def _reaches_view(expected: dict[str, int]) -> bool:
    signed_in = {a: s for a, s in expected.items() if a not in ("anonymous", "deactivated")}
    return set(signed_in.values()) != {405}


def test_every_reauth_guard_has_its_row_and_every_row_its_guard():
    """A row's ``reauth`` names exactly the methods its view guards with
    ``require_recent_auth``."""
    guarded = 0
    for name, pattern in named_urls().items():
        methods = getattr(_view_of(pattern), "recent_auth_methods", frozenset())
        # A method refused (405) before the guard runs is not guarded.
        methods = {m for m in methods if _reaches_view(getattr(MATRIX[name], m))}
        assert set(MATRIX[name].reauth) == set(methods), name
        guarded += bool(methods)
    assert guarded >= 5


@pytest.mark.parametrize("name", sorted(n for n, r in MATRIX.items() if r.reauth))
def test_matrix_with_a_stale_session(name, cast, login, settings):
    """The same requests once the last password and code are older than RECENT_AUTH_MINUTES:
    every signed-in actor who would reach the view is sent to re-authenticate first."""
    from caseflow.accounts import second_factor as sf

    row = MATRIX[name]
    reauth_url = reverse("accounts:reauth")
    failures, checked = [], 0
    for method in row.reauth:
        for actor in ACTORS:
            fresh = getattr(row, method)[actor]
            client = login(cast.actor(actor))
            if cast.actor(actor) is not None:
                session = client.session
                session[sf.RECENT_AUTH_AT] = sf.now_ts() - settings.RECENT_AUTH_MINUTES * 60 - 1
                session.save()
            response = client.generic(
                method,
                url_for(name, row, cast, "case"),
                data=b"",
                content_type=("application/x-www-form-urlencoded" if method == "POST" else ""),
            )
            location = response.get("Location", "")
            if fresh == 405 or actor in ("anonymous", "deactivated"):
                ok = response.status_code == fresh and not location.startswith(reauth_url)
            else:
                ok = response.status_code == 302 and location.startswith(reauth_url)
                checked += 1
            if not ok:
                failures.append(f"{method} as {actor}: {response.status_code} {location}")
    assert checked, "no actor reached the guard"
    assert failures == []
