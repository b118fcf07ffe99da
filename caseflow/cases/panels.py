"""Sections of the case page contributed by other parts of caseflow.

Each entry is a function ``(request, case) -> (template_name, context) | None``. The case view
renders them in order, after it has resolved the case through policy, so a panel never fetches a
case itself and never widens who sees what.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

CASE_PANELS = [
    "caseflow.safety.panels.case_panel",
    "caseflow.agreements.panels.case_panel",
    "caseflow.checkins.panels.case_panel",
    "caseflow.confidentiality.panels.case_panel",
]


def _load(path: str) -> Callable[..., Any]:
    module, _, name = path.rpartition(".")
    return getattr(import_module(module), name)


def render_panels(request, case) -> list[tuple[str, dict[str, Any]]]:
    panels = []
    for path in CASE_PANELS:
        try:
            func = _load(path)
        except (ImportError, AttributeError):
            continue  # that part of caseflow has no panel yet
        result = func(request, case)
        if result is not None:
            panels.append(result)
    return panels
