"""The active language, and what a kept address depends on, asked once per template render.

A case page's template asks Django which language is active two hundred times or more: every kept
``{% translate %}`` (:mod:`caseflow.lib.templatetags_i18n`) and every kept ``{% url %}``
(:mod:`caseflow.lib.templatetags_url`) names it in its key, and each address names the URL
configuration and script prefix too. Django keeps each in thread-and-task-local storage (asgiref's
``Local``), about 1.5 µs a read. While one template renders they do not change, but in a
``{% language %}`` block: so the first node to ask keeps the answer in that template's own layer of
the render context, which Django pushes fresh for every ``Template.render`` (an included template's
too) and pops when it ends. Within a ``{% language %}`` block (caseflow's i18n library's, which
stands in for Django's) what was kept is put aside and asked afresh, then given back after it.

Code a render runs that activated another language and left it active (rather than with
``translation.override``, which restores the language before it returns) would not be seen until
the next template: nothing in caseflow does, nor do Django's own tags and filters. Nodes rendered
outside ``Template.render`` (a node's ``render`` called by hand) ask every time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from django.template import Context
from django.utils.translation import get_language

T = TypeVar("T")

#: The render context's keys for what is kept (text, so no node, which keys by itself, meets them).
LANGUAGE = "caseflow.template_language"
ADDRESSING = "caseflow.template_addressing"
_KEPT = (LANGUAGE, ADDRESSING)


def kept(context: Context, key: str, make: Callable[[Context], T]) -> T:
    """``make(context)``, asked once in the render of the template now rendering."""
    dicts = context.render_context.dicts
    if len(dicts) == 1:  # not inside Template.render: its base layer lives as long as the context
        return make(context)
    layer: dict[Any, Any] = dicts[-1]
    try:
        known: T = layer[key]
    except KeyError:
        known = layer[key] = make(context)
    return known


def _active(context: Context) -> str:
    return get_language()


def language(context: Context) -> str:
    """The active language (``translation.get_language()``), asked once a template render."""
    return kept(context, LANGUAGE, _active)


@contextmanager
def asked_afresh(context: Context) -> Iterator[None]:
    """Within the block, what is kept for this template is asked again; after, it is as it was
    (for a ``{% language %}`` block)."""
    layer: dict[Any, Any] = context.render_context.dicts[-1]
    before = {key: layer.pop(key) for key in _KEPT if key in layer}
    try:
        yield
    finally:
        for key in _KEPT:
            layer.pop(key, None)
        layer.update(before)
