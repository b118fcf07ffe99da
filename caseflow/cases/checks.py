"""Start-up checks of the case's features (see :mod:`caseflow.cases.features`)."""

from __future__ import annotations

import functools
import importlib.util
from typing import Any

from django.apps import apps
from django.core import checks

from caseflow.cases import features


def check_features(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """Every installed app with a ``feature`` module registered its feature, every registered
    feature is an installed app's, and no two take the same name, kind or order."""
    registered = features.registered()
    names = {f.name for f in registered}
    errors: list[checks.CheckMessage] = []
    for config in app_configs or apps.get_app_configs():
        module = f"{config.name}.feature"
        if config.label not in names and _exists(module):
            errors.append(
                checks.Error(
                    f"{module} is not registered: its app adds nothing to the case.",
                    hint="Call caseflow.cases.features.register_feature(FEATURE) in the app's "
                    "AppConfig.ready().",
                    obj=module,
                    id="cases.E001",
                )
            )
    if app_configs is None:
        labels = {config.label for config in apps.get_app_configs()}
        errors += [
            checks.Error(
                f"The case feature {feature.name!r} names no installed app.",
                obj=feature.name,
                id="cases.E002",
            )
            for feature in registered
            if feature.name not in labels
        ]
    errors += [checks.Error(problem, id="cases.E003") for problem in features.clashes(registered)]
    return errors


@functools.cache
def _exists(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False
