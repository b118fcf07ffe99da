"""One way to serve a case page: every case URL goes through ``case_page``, which resolves the case
through policy and records the read whenever the response shows case data — on a GET, and on a
POST that re-renders a form."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

import caseflow
from caseflow.audit.actions import is_read
from caseflow.audit.models import AuditEvent
from tests.test_url_matrix import MATRIX, url_for

ROOT = Path(caseflow.__file__).parent

#: The audit workspace's case pages show audit metadata under their own scope
#: (``policy.audit_cases``), never case content: they are not case pages.
#: The API's case reads are an integration's, not a signed-in person's: resolved by
#: ``policy.get_case_for_integration`` and audited under the integration's name (tests/api).
OTHER_SCOPE_NAMESPACES = {"audit", "api"}


def _patterns(resolvers, namespace="", params=frozenset()):
    """(namespace, pattern, URL parameters including its parents') for every leaf pattern."""
    for entry in resolvers:
        found = params | set(entry.pattern.converters)
        if isinstance(entry, URLResolver):
            yield from _patterns(entry.url_patterns, entry.namespace or namespace, found)
        elif isinstance(entry, URLPattern):
            yield namespace, entry, found


def test_every_case_url_is_served_through_case_page():
    seen, unwrapped = 0, []
    for namespace, pattern, params in _patterns(get_resolver().url_patterns):
        if namespace in OTHER_SCOPE_NAMESPACES or "public_id" not in params:
            continue
        seen += 1
        if getattr(pattern.callback, "case_page_action", None) is None:
            unwrapped.append(f"{namespace}:{pattern.name}")
    assert seen >= 30, "the walk found too few case URLs to prove anything"
    assert unwrapped == []


def test_no_view_resolves_a_case_itself():
    offenders, scanned = [], 0
    for path in ROOT.rglob("views.py"):
        scanned += 1
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "get_case_for":
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert scanned >= 6
    assert offenders == []


def _head() -> int:
    return AuditEvent.objects.order_by("-seq").values_list("seq", flat=True).first() or 0


#: Case URLs whose empty POST re-renders the page (a form with errors) for the assigned advocate.
RERENDERING_POSTS = sorted(
    name
    for name, row in MATRIX.items()
    # A duty-line call on no case (``kwargs="call"``) is not a case URL.
    if (row.kwargs in ("case", "party") or (row.url is not None and row.kwargs != "call"))
    and not name.startswith("audit:")
    and row.POST["assigned"] == 200
)


def test_there_are_rerendering_posts():
    assert len(RERENDERING_POSTS) >= 10


@pytest.mark.parametrize("name", RERENDERING_POSTS)
def test_a_post_that_re_renders_records_one_read(name, cast, login):
    row = MATRIX[name]
    url = url_for(name, row, cast, "case")
    mark = _head()
    response = login(cast.assigned).generic(
        "POST", url, data=b"", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    written = list(AuditEvent.objects.filter(seq__gt=mark))
    reads = [(e.case_id, e.actor_id) for e in written if is_read(e.action)]
    assert reads == [(cast.case.pk, cast.assigned.pk)], [e.action for e in written]
