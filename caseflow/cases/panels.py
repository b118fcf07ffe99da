"""Sections of the case page contributed by other parts of caseflow, which register them here.

Each entry is a function ``(request, case) -> (template_name, context) | None``. The case view
renders them in order, after it has resolved the case through policy, so a panel never fetches a
case itself and never widens who sees what.

A panel's module may also declare what it needs to know about the case before it queries its own
rows, so that the case page asks once for every panel instead of once per panel and per list:

- ``case_facts()``: annotations (``Exists``, ``Subquery``…) for the case page's one facts query,
  e.g. ``{"has_releases": Exists(...)}``, that depend on the case only (built once);
- ``CASE_RELATED``: one-to-one relations of the case to load in that same query
  (``select_related``), e.g. ``("safety_plan",)``.

The view runs that query (:func:`caseflow.cases.selectors.case_page_facts`) and the panels read
the answers with :func:`fact`. A panel called without them (``fact`` returns ``None``) queries as
if every list may have rows, so it stays correct on its own.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

_FACTS = "_case_page_facts"

#: The registered panels, as (order, function): each part of caseflow above cases registers its
#: own in its ``AppConfig.ready`` (cases cannot import them). An import error there stops start-up.
_PANELS: list[tuple[int, Callable[..., Any]]] = []


def register_panel(panel: Callable[..., Any], *, order: int) -> None:
    """Show ``panel`` on the case page, after the panels with a lower ``order``."""
    if any(func is panel for _, func in _PANELS):
        return
    if any(o == order for o, _ in _PANELS):
        raise ValueError(f"two case-page panels both want order {order}")
    _PANELS.append((order, panel))
    _PANELS.sort(key=lambda entry: entry[0])
    panel_facts.cache_clear()


def registered_panels() -> tuple[Callable[..., Any], ...]:
    return tuple(func for _, func in _PANELS)


@functools.cache
def panel_facts() -> tuple[dict[str, Any], tuple[str, ...]]:
    """The annotations and one-to-one relations the panels ask for (see the module docstring).

    Built once per process: a fact depends on the case only, never on the request or the time
    (``annotate`` resolves a copy of each expression, so sharing them is safe)."""
    annotations: dict[str, Any] = {}
    related: list[str] = []
    for func in registered_panels():
        module = sys.modules[func.__module__]
        facts = getattr(module, "case_facts", None)
        if facts is not None:
            annotations.update(facts())
        related.extend(getattr(module, "CASE_RELATED", ()))
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
    panels = []
    for func in registered_panels():
        result = func(request, case)
        if result is not None:
            panels.append(result)
    return panels
