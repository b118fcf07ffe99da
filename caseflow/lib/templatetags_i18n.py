"""Django's ``i18n`` template library, with ``{% translate "…" %}`` of a constant message looked
up once per language.

A page renders a hundred or more ``{% translate %}`` nodes; each builds a lazy proxy of its
message and turns it into text through Django's chain of catalogs, the same answer every time for
the same language. Here a node whose message is a constant string (no filter, no ``context``, not
``noop``) keeps the text it renders for each language; every other use of the tag, and every
other tag and filter of the library, is Django's own. ``TEMPLATES`` names this module as the
``i18n`` library, so templates keep ``{% load i18n %}``. The text kept is forgotten with the
translations of :mod:`caseflow.lib.i18n` (when the settings that choose the catalogs change).

The language is asked once a template render (:mod:`caseflow.lib.template_language`), so
``{% language %}`` is Django's tag with what that keeps put aside for its block.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.base import Parser, Token, Variable
from django.templatetags import i18n as django_i18n
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from caseflow.lib import template_language
from caseflow.lib.i18n import remember_translation

register = template.Library()
register.tags.update(django_i18n.register.tags)
register.filters.update(django_i18n.register.filters)


def _rendered(message: str) -> SafeString:
    """What Django's ``TranslateNode`` renders for the constant ``message`` (marked safe, as a
    template's string literal is): the message's percent signs doubled for the lookup, the
    translation's restored."""
    # A template's own literal and its translation, both safe as Django's tag has them.
    msgid = mark_safe(message.replace("%", "%%"))  # noqa: S308
    return mark_safe(gettext(msgid).replace("%%", "%"))  # noqa: S308


class ConstantTranslateNode(django_i18n.TranslateNode):
    """``{% translate "message" [as name] %}``: the text for the active language, kept."""

    def render(self, context: Any) -> str:
        message = self.filter_expression.var.literal
        key = ("template", template_language.language(context), message)
        value = remember_translation(key, _rendered, message)
        if self.asvar:
            context[self.asvar] = value
            return ""
        return value


def _constant(node: django_i18n.TranslateNode) -> bool:
    expression = node.filter_expression
    var = expression.var
    return (
        not node.noop
        and node.message_context is None
        and not expression.filters
        and isinstance(var, Variable)
        and isinstance(var.literal, str)
        and var.lookups is None
    )


@register.tag("translate")
@register.tag("trans")
def do_translate(parser: Parser, token: Token) -> template.Node:
    node = django_i18n.do_translate(parser, token)
    if type(node) is django_i18n.TranslateNode and _constant(node):
        node.__class__ = ConstantTranslateNode
    return node


class LanguageNode(django_i18n.LanguageNode):
    """``{% language code %}…{% endlanguage %}``: Django's, the kept language asked afresh."""

    def render(self, context: Any) -> str:
        with template_language.asked_afresh(context):
            return super().render(context)


@register.tag("language")
def language(parser: Parser, token: Token) -> template.Node:
    node = django_i18n.language(parser, token)
    if type(node) is django_i18n.LanguageNode:
        node.__class__ = LanguageNode
    return node
