"""Start-up checks of the case page: every part of caseflow that offers a panel registers it."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from django.apps import apps
from django.core import checks

from caseflow.cases import panels


def _panel_modules(app_configs: Any) -> list[tuple[str, Any]]:
    """(module name, module) of every installed caseflow app's ``panels`` module."""
    found = []
    for config in app_configs or apps.get_app_configs():
        if not config.name.startswith("caseflow.") or config.name == "caseflow.cases":
            continue
        name = f"{config.name}.panels"
        if importlib.util.find_spec(name) is None:
            continue
        found.append((name, importlib.import_module(name)))
    return found


def check_case_panels_registered(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """An app with a ``panels.case_panel`` that did not register it would silently drop its
    section from the case page."""
    registered = panels.registered_panels()
    errors: list[checks.CheckMessage] = []
    for name, module in _panel_modules(app_configs):
        panel = getattr(module, "case_panel", None)
        if panel is None or any(func is panel for func in registered):
            continue
        errors.append(
            checks.Error(
                f"{name}.case_panel is not registered for the case page.",
                hint="Call caseflow.cases.panels.register_panel(case_panel, order=...) in the "
                "app's AppConfig.ready().",
                obj=name,
                id="cases.E001",
            )
        )
    return errors
