"""Django's ``{% url %}``, each address reversed once per process.

A page reverses fifty or more addresses (every link of a case page names its case); Django's
``reverse`` walks the URL patterns' candidates and checks the arguments against each pattern's
expression every time, for the same answer. Here an address whose view name and arguments are
plain text or whole numbers is kept, with everything the answer depends on in its key: the URL
configuration in use, the script prefix, the ``current_app`` Django's tag would pass and the
active language. An address that does not reverse is not kept (Django's tag then raises or gives
nothing, as it does). ``TEMPLATES`` names this module among the builtins, after Django's own, so
its ``url`` is the tag templates use. At most ``KEPT`` addresses are kept, then forgotten all
together; and all are forgotten when the settings that choose the URL configuration change.

What the key names beside the view and its arguments (the ``current_app``, the URL configuration,
the script prefix and the language) is asked once a template render
(:mod:`caseflow.lib.template_language`).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.core.signals import setting_changed
from django.template import defaulttags
from django.template.base import Parser, Token
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from caseflow.lib import template_language

register = template.Library()

#: At most this many addresses kept per process.
KEPT = 20_000

_kept: dict[tuple[Any, ...], str] = {}


#: The types of view name and argument kept: a template's literals are ``SafeString``.
_PLAIN = frozenset({str, SafeString, int})


def _plain(value: Any) -> bool:
    return type(value) in _PLAIN


def _forget(*, setting: str, **kwargs: Any) -> None:
    if setting in {"ROOT_URLCONF", "FORCE_SCRIPT_NAME", "LANGUAGES", "LANGUAGE_CODE"}:
        _kept.clear()


setting_changed.connect(_forget, dispatch_uid="caseflow.lib.templatetags_url.forget")


def addressing(current_app: Any, language: str | None = None) -> tuple[Any, ...]:
    """What an address depends on beside its view and arguments: ``current_app`` and, as they are
    now, the URL configuration, the script prefix and the language (``language`` if given)."""
    return (
        current_app,
        get_urlconf(),
        settings.ROOT_URLCONF,
        get_script_prefix(),
        get_language() if language is None else language,
    )


def reverse_kept(
    view_name: Any,
    args: list[Any],
    kwargs: dict[str, Any],
    current_app: Any,
    state: tuple[Any, ...] | None = None,
) -> str:
    """``reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)``, kept.
    ``state`` is :func:`addressing` for this ``current_app`` when the caller has it already."""
    if not (
        _plain(view_name)
        and all(_plain(a) for a in args)
        and all(_plain(v) for v in kwargs.values())
        and (current_app is None or _plain(current_app))
    ):
        return reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)
    key = (
        view_name,
        tuple((type(a), a) for a in args),
        tuple(sorted((k, type(v), v) for k, v in kwargs.items())),
        addressing(current_app) if state is None else state,
    )
    try:
        return _kept[key]
    except KeyError:
        url = reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)
        if len(_kept) >= KEPT:
            _kept.clear()
        _kept[key] = url
        return url


def _current_app(context: Any) -> Any:
    """The ``current_app`` Django's tag passes to ``reverse``."""
    try:
        return context.request.current_app
    except AttributeError:
        try:
            return context.request.resolver_match.namespace
        except AttributeError:
            return None


def _addressing_of(context: Any) -> tuple[Any, ...]:
    return addressing(_current_app(context), template_language.language(context))


class KeptURLNode(defaulttags.URLNode):
    """Django's ``URLNode``, its address reversed through :func:`reverse_kept`."""

    def render(self, context: Any) -> str:
        args = [arg.resolve(context) for arg in self.args]
        kwargs = {k: v.resolve(context) for k, v in self.kwargs.items()}
        view_name = self.view_name.resolve(context)
        state = template_language.kept(context, template_language.ADDRESSING, _addressing_of)
        url = ""
        try:
            url = reverse_kept(view_name, args, kwargs, state[0], state)
        except NoReverseMatch:
            if self.asvar is None:
                raise
        if self.asvar:
            context[self.asvar] = url
            return ""
        if context.autoescape:
            url = conditional_escape(url)
        return url


@register.tag("url")
def url(parser: Parser, token: Token) -> template.Node:
    node = defaulttags.url(parser, token)
    if type(node) is defaulttags.URLNode:
        node.__class__ = KeptURLNode
    return node
