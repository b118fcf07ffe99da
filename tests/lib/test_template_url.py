"""``{% url %}`` is Django's tag with each address reversed once per process: the same address
Django's tag gives, for the URL configuration, prefix and language in use."""

from __future__ import annotations

import pytest
from django.template import Context, Engine, engines
from django.test import RequestFactory, override_settings
from django.urls import NoReverseMatch, clear_script_prefix, set_script_prefix

from caseflow.lib import templatetags_url
from caseflow.lib.templatetags_url import KeptURLNode

PUBLIC_ID = "AbCdEfGhIjKlMnOpQr_-"


def _ours(source: str):
    return engines["django"].engine.from_string(source)  # type: ignore[attr-defined]


def _djangos(source: str):
    return Engine().from_string(source)


FORMS = [
    '{% url "cases:detail" public_id %}',
    '{% url "cases:detail" public_id=public_id %}',
    "{% url 'cases:timeline' public_id %}",
    '{% url "cases:detail" public_id as link %}[{{ link }}]',
    '{% url "cases:detail" 12 as link %}[{{ link }}]',
    '{% url "no-such-view" as link %}[{{ link }}]',
    '{% url "cases:list" %}?q=<&>',
    "{% url name public_id %}",
    '{% url "cases:detail" case %}',
]


class _Case:
    def __str__(self) -> str:
        return PUBLIC_ID


@pytest.mark.parametrize("source", FORMS)
@pytest.mark.parametrize("prefix", ["/", "/caseflow/"])
def test_each_form_of_the_tag_gives_djangos_address(source, prefix):
    context = {"public_id": PUBLIC_ID, "name": "cases:detail", "case": _Case()}
    set_script_prefix(prefix)
    try:
        for _twice in range(2):  # reversed, then kept
            assert _ours(source).render(Context(context)) == _djangos(source).render(
                Context(context)
            )
    finally:
        clear_script_prefix()


def test_an_address_is_kept_for_its_prefix_and_not_when_it_does_not_reverse():
    templatetags_url._kept.clear()
    template = _ours('{% url "cases:detail" public_id %}')
    set_script_prefix("/a/")
    try:
        first = template.render(Context({"public_id": PUBLIC_ID}))
    finally:
        clear_script_prefix()
    second = template.render(Context({"public_id": PUBLIC_ID}))
    assert first == f"/a/cases/{PUBLIC_ID}/"
    assert second == f"/cases/{PUBLIC_ID}/"
    assert len(templatetags_url._kept) == 2
    with pytest.raises(NoReverseMatch):
        template.render(Context({"public_id": "short"}))
    with pytest.raises(NoReverseMatch):
        _ours('{% url "no-such-view" %}').render(Context())
    assert len(templatetags_url._kept) == 2


def test_the_request_namespace_is_part_of_the_key():
    templatetags_url._kept.clear()
    request = RequestFactory().get("/")
    request.current_app = "cases"
    template = _ours('{% url "cases:detail" public_id %}')
    context = Context({"public_id": PUBLIC_ID})
    context.request = request  # as a RequestContext has it
    assert template.render(context) == f"/cases/{PUBLIC_ID}/"
    assert template.render(Context({"public_id": PUBLIC_ID})) == f"/cases/{PUBLIC_ID}/"
    assert {key[3][0] for key in templatetags_url._kept} == {"cases", None}


def test_the_tag_templates_use_is_the_kept_one():
    template = _ours('{% url "cases:list" %}')
    assert any(isinstance(node, KeptURLNode) for node in template.nodelist)


@override_settings(ROOT_URLCONF="tests.lib.urls_for_url_tag")
def test_a_changed_url_configuration_is_not_answered_from_the_kept_addresses():
    template = _ours('{% url "cases:list" %}')
    assert template.render(Context()) == "/elsewhere/cases/"


def test_at_most_so_many_addresses_are_kept(monkeypatch):
    templatetags_url._kept.clear()
    monkeypatch.setattr(templatetags_url, "KEPT", 3)
    template = _ours('{% url "cases:detail" public_id %}')
    for n in range(7):
        public_id = f"{PUBLIC_ID[:-1]}{n}"
        assert template.render(Context({"public_id": public_id})) == f"/cases/{public_id}/"
        assert len(templatetags_url._kept) <= 3
