"""``{% load i18n %}`` is Django's library with its constant ``{% translate %}`` kept per
language: every template's messages render as Django's own tag renders them."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Engine, engines
from django.template.base import Node
from django.templatetags import i18n as django_i18n
from django.utils import translation

from caseflow.lib import i18n
from caseflow.lib.templatetags_i18n import ConstantTranslateNode

LANGUAGES = [code for code, _name in settings.LANGUAGES]


def _engine() -> Engine:
    return engines["django"].engine  # type: ignore[attr-defined]


def _nodes(nodelist: list[Node]):
    for node in nodelist:
        yield node
        for attr in node.child_nodelists:
            yield from _nodes(getattr(node, attr, None) or [])
        # {% block %}, {% if %} and {% for %} keep their children in other places too.
        for _condition, children in getattr(node, "conditions_nodelists", ()):
            yield from _nodes(children)


def _templates() -> list[str]:
    names = []
    for directory in engines["django"].template_dirs:  # the project's and every app's
        root = Path(directory)
        names += [str(p.relative_to(root)) for p in root.rglob("*.html")]
        names += [str(p.relative_to(root)) for p in root.rglob("*.txt")]
    return sorted(set(names))


def _stock(node: ConstantTranslateNode) -> django_i18n.TranslateNode:
    stock = django_i18n.TranslateNode.__new__(django_i18n.TranslateNode)
    stock.__dict__.update(node.__dict__)
    return stock


def test_every_templates_constant_messages_render_as_djangos_tag_renders_them():
    i18n._translated.clear()
    found = []
    for name in _templates():
        template = _engine().get_template(name)
        found += [n for n in _nodes(template.nodelist) if isinstance(n, ConstantTranslateNode)]
    assert len(found) > 500  # the templates' messages, not a handful
    differing = []
    for language in [*LANGUAGES, None]:
        with translation.override(language):
            for autoescape in (True, False):
                for node in found:
                    ours = Context(autoescape=autoescape)
                    theirs = Context(autoescape=autoescape)
                    mine, django = node.render(ours), _stock(node).render(theirs)
                    if node.asvar:
                        mine, django = ours[node.asvar], theirs[node.asvar]
                    if (mine, type(mine)) != (django, type(django)):
                        differing.append((language, node.filter_expression.token))
    assert differing == []


@pytest.mark.parametrize(
    "source",
    [
        '{% translate "Language" %}',
        '{% translate "100% sure, 50%% off" %}',
        '{% translate "Language" as word %}[{{ word }}]',
        '{% translate "Language" noop %}',
        '{% translate "Language" context "menu" %}',
        '{% translate "Language"|upper %}',
        "{% translate word %}",
        "{% trans 'Language' %}",
    ],
)
@pytest.mark.parametrize("language", ["es", "en-gb", None])
def test_each_form_of_the_tag_renders_as_djangos(source, language):
    ours = _engine().from_string("{% load i18n %}" + source)
    theirs = Engine(libraries={"i18n": "django.templatetags.i18n"}).from_string(
        "{% load i18n %}" + source
    )
    with translation.override(language):
        context = {"word": "Language"}
        assert ours.render(Context(context)) == theirs.render(Context(context))
        assert ours.render(Context(context)) == ours.render(Context(context))


def test_the_text_kept_follows_the_active_language():
    template = _engine().from_string('{% load i18n %}{% translate "Language" %}')
    seen = []
    for language in ("es", "en-gb", "es", None):
        with translation.override(language):
            seen.append(template.render(Context()))
    assert seen == ["Idioma", "Language", "Idioma", "Language"]
