"""A web process made ready before its first request.

A new gunicorn worker loads the application and nothing more: its first requests import every
view (the URL configuration is read at the first address resolved), read each language's
catalogs and compile each template they render, and cost two to three times what the same pages
cost later (the load test's first fifty requests, 27–30 ms of CPU each against 13–14); the first
to read the cache imports its client library (redis-py, some 60 modules). gunicorn calls
:func:`warm_up` once a worker has loaded the application (``gunicorn.conf.py``), so that work is
done before the worker takes a request, and what it builds is then frozen with the rest of the
process's long-lived objects. Nothing here reads the database or the cache: the cache's client
is built, which connects to nothing until it is used.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.template import TemplateDoesNotExist, TemplateSyntaxError, engines
from django.urls import get_resolver
from django.utils import translation

from caseflow.lib.softcache import build_client

#: A message looked up to load a language's catalogs (a name, not a marked string).
_PROBE = "caseflow"


def _template_names(folder: Path) -> list[str]:
    return sorted(
        str(path.relative_to(folder))
        for path in folder.rglob("*")
        if path.suffix in {".html", ".txt"} and path.is_file()
    )


def warm_up() -> dict[str, int]:
    """Import the views, read the catalogs, build the reverse tables, build the cache's client
    and compile caseflow's own templates; answer how many of each were done."""
    resolver = get_resolver()
    languages = 0
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext(_PROBE)  # the catalogs of this language
            resolver.reverse_dict  # noqa: B018 - the reverse table of this language
        languages += 1
    engine = engines["django"]
    templates = 0
    for folder in engine.dirs:  # the project's own templates (settings' DIRS)
        for name in _template_names(Path(folder)):
            try:
                engine.get_template(name)  # kept by the cached loader
            except (TemplateDoesNotExist, TemplateSyntaxError):
                continue
            templates += 1
    # The cache's client: its connections are made when a command is sent, not here.
    clients = int(build_client())
    return {"languages": languages, "templates": templates, "cache_clients": clients}
