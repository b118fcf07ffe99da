"""The case page's panels and the facts they read: what the features' panels share.

Each :class:`caseflow.cases.features.CaseFeature` brings its panels (``render(request, case) ->
(template_name, context) | None``) and what it needs to know about the case before it queries
its own rows (``case_facts``, ``case_related``), so that the case page asks once for every panel
instead of once per panel and per list. The view renders the panels in order, after it has
resolved the case through policy, so a panel never fetches a case itself and never widens who
sees what.

The view runs the facts query (:func:`caseflow.cases.selectors.case_page_facts`) and the panels
read the answers with :func:`fact`. A panel called without them (``fact`` returns ``None``)
queries as if every list may have rows, so it stays correct on its own.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from caseflow.cases import features
from caseflow.cases.features import Panel

_FACTS = "_case_page_facts"


def registered_panels() -> tuple[Panel, ...]:
    """Every feature's panels, by their order."""
    return tuple(sorted(features.members(lambda f: f.panels), key=lambda p: p.order))


def panel_facts() -> tuple[dict[str, Any], tuple[str, ...]]:
    """The annotations and one-to-one relations the features ask for (see the module
    docstring)."""
    return _facts_of(features.registered())


@functools.cache
def _facts_of(
    registered: tuple[features.CaseFeature, ...],
) -> tuple[dict[str, Any], tuple[str, ...]]:
    # Built once per set of features: a fact depends on the case only, never on the request or
    # the time (``annotate`` resolves a copy of each expression, so sharing them is safe).
    annotations: dict[str, Any] = {}
    related: list[str] = []
    for feature in registered:
        if feature.case_facts is not None:
            annotations.update(feature.case_facts())
        related.extend(feature.case_related)
    return annotations, tuple(related)


def remember_facts(case, facts: dict[str, Any]) -> None:
    """Keep the facts query's answers on this request's case instance for the panels."""
    case.__dict__[_FACTS] = facts


def fact(case, name: str) -> Any:
    """A fact of the facts query, or ``None`` if it was not run for this instance."""
    return case.__dict__.get(_FACTS, {}).get(name)


def may_have(case, name: str) -> bool:
    """Whether a list the facts query tested (``Exists``) may have rows: False only when the
    query ran and found none."""
    return fact(case, name) is not False


def loaded(case, name: str, fetch: Callable[[], Any]) -> Any:
    """The case's one-to-one ``name`` if the facts query loaded it (``None`` when the case has
    none), else ``fetch()``."""
    related = getattr(type(case), name).related
    if related.is_cached(case):
        return related.get_cached_value(case)
    return fetch()


def render_panels(request, case) -> list[tuple[str, dict[str, Any]]]:
    return render_sections(request, case)[0]


def render_sections(
    request, case
) -> tuple[list[tuple[str, dict[str, Any]]], list[tuple[str, str]]]:
    """The panels shown, and the contents list's entries (anchor, word) of those that asked
    for one, in page order."""
    panels = []
    contents = []
    for panel in registered_panels():
        result = panel.render(request, case)
        if result is not None:
            panels.append(result)
            if panel.contents is not None:
                contents.append(panel.contents)
    return panels, contents
