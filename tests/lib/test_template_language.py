"""The language, and what a kept address depends on, asked once a template render: templates render
as Django's own tags render them, in every language, in and out of ``{% language %}`` blocks, in
extended and included templates; and a page's template asks once, not once a node."""

from __future__ import annotations

import re

import pytest
import time_machine
from django.conf import settings
from django.template import Context, Engine
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone, translation

from caseflow.accounts.language import set_user_language
from caseflow.lib import template_language
from caseflow.lib.templatetags_i18n import LanguageNode
from tests.conftest import Cast

LANGUAGES = [code for code, _name in settings.LANGUAGES]

PARTS = {
    "parent.html": (
        '{% load i18n %}{% translate "Language" %}|{% url "cases:list" %}|'
        '{% language other %}{% translate "Language" %}|{% url "cases:list" %}|'
        '{% block inner %}{% endblock %}|{% include "part.html" %}{% endlanguage %}|'
        '{% translate "Language" %}|{% url "cases:detail" public_id %}|{% include "part.html" %}'
    ),
    "child.html": (
        '{% extends "parent.html" %}{% load i18n %}{% block inner %}{% translate "Language" %}'
        '{% language first %}<{% translate "Language" %}{% url "cases:list" %}>{% endlanguage %}'
        '{% translate "Save" %}{% endblock %}'
    ),
    "part.html": '{% load i18n %}[{% translate "Language" %}{% url "cases:list" %}]',
}


def _engine(*, ours: bool) -> Engine:
    loaders = [("django.template.loaders.locmem.Loader", PARTS)]
    if not ours:
        return Engine(loaders=loaders, libraries={"i18n": "django.templatetags.i18n"})
    return Engine(
        loaders=loaders,
        libraries={"i18n": "caseflow.lib.templatetags_i18n"},
        builtins=["caseflow.lib.templatetags_url"],
    )


@pytest.mark.parametrize("first", [*LANGUAGES, None])
@pytest.mark.parametrize("other", LANGUAGES)
def test_templates_render_as_djangos_tags_render_them(first, other):
    values = {"first": first or settings.LANGUAGE_CODE, "other": other, "public_id": "A" * 20}
    with translation.override(first):
        for _twice in range(2):  # asked, then kept
            mine = _engine(ours=True).get_template("child.html").render(Context(values))
            django = _engine(ours=False).get_template("child.html").render(Context(values))
            assert mine == django
    assert mine.count("[") == 2  # both includes rendered
    if first == "es" and other != "es":
        # Spanish outside the block and in the extended block's own {% language %}, not inside.
        assert mine.startswith("Idioma|") and "|Language|" in mine and "<Idioma" in mine


def test_the_language_is_asked_once_a_template_render(monkeypatch):
    asked = []

    def get_language():
        asked.append(1)
        return translation.get_language()

    monkeypatch.setattr(template_language, "get_language", get_language)
    source = "{% load i18n %}" + '{% translate "Language" %}{% url "cases:list" %}' * 20
    rendered = _engine(ours=True).from_string(source).render(Context())
    assert rendered.count("/cases/") == 20
    assert len(asked) == 1
    # In a {% language %} block it is asked again, and what was kept outside is kept after it.
    asked.clear()
    source = (
        '{% load i18n %}{% translate "Language" %}{% language "es" %}{% translate "Language" %}'
        '{% translate "Save" %}{% endlanguage %}{% translate "Language" %}{% url "cases:list" %}'
    )
    with translation.override("en"):
        assert _engine(ours=True).from_string(source).render(Context()) == (
            "LanguageIdiomaGuardarLanguage/cases/"
        )
    assert len(asked) == 2


def test_the_language_tag_templates_use_is_caseflows():
    template = _engine(ours=True).from_string('{% load i18n %}{% language "es" %}{% endlanguage %}')
    assert any(isinstance(node, LanguageNode) for node in template.nodelist)


def _page(client, url: str) -> str:
    body = client.get(url).content.decode()
    # A form's CSRF token is masked afresh for every response.
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", body)


#: The project's template settings with Django's own ``i18n`` library and ``{% url %}``.
STOCK_TEMPLATES = [
    {
        **settings.TEMPLATES[0],
        "OPTIONS": {
            name: value
            for name, value in settings.TEMPLATES[0]["OPTIONS"].items()
            if name not in ("libraries", "builtins")
        },
    }
]


@pytest.mark.parametrize("language", ["es", "en-gb"])
def test_the_case_page_and_home_page_are_byte_for_byte_djangos(cast: Cast, login, language):
    set_user_language(cast.assigned, language)
    client = login(cast.assigned)
    urls = [reverse("cases:detail", args=[cast.case.public_id]), reverse("dashboard")]
    # The clock stopped: the pages show times ("safe to contact now, until …") of this minute.
    with time_machine.travel(timezone.now(), tick=False):
        ours = [_page(client, url) for url in urls]
        with override_settings(TEMPLATES=STOCK_TEMPLATES):
            djangos = [_page(client, url) for url in urls]
    assert ours == djangos
    assert f'lang="{language}"' in ours[0] and cast.case.reference in ours[0]
    assert ours[0].count(f"/cases/{cast.case.public_id}/") > 10  # its links, not an error page
