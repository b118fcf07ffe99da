"""caseflow's lazy labels: text in the language active when they are used, looked up once."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.utils import translation

from caseflow.lib import i18n
from caseflow.lib.i18n import gettext_lazy as _

MESSAGE = "The other parent contacted the survivor"
SPANISH = "La otra parte progenitora contactó con la persona superviviente"


def test_a_label_is_text_in_the_language_active_each_time_it_is_used():
    label = _(MESSAGE)
    seen = []
    for language in ("en-gb", "es", "en-gb", "es"):
        with translation.override(language):
            seen.append(str(label))
    assert seen == [MESSAGE, SPANISH, MESSAGE, SPANISH]
    with translation.override(None):
        assert str(label) == MESSAGE


def test_each_message_is_looked_up_once_per_language(monkeypatch):
    i18n._translated.clear()
    asked = []
    real = i18n.gettext

    def counting(message):
        asked.append(message)
        return real(message)

    monkeypatch.setattr(i18n, "gettext", counting)
    label = _(MESSAGE)
    with translation.override("es"):
        assert [str(label) for _n in range(5)] == [SPANISH] * 5
    assert asked == [MESSAGE]


@pytest.mark.parametrize("setting", ["LOCALE_PATHS", "LANGUAGE_CODE"])
def test_answers_are_forgotten_when_the_catalogs_change(setting):
    label = _(MESSAGE)
    with translation.override("es"):
        assert str(label) == SPANISH
    value = [] if setting == "LOCALE_PATHS" else "es"
    with override_settings(**{setting: value}):
        assert not i18n._translated
        with translation.override("es"):
            # Without caseflow's own catalog, the words as written.
            assert str(label) == (MESSAGE if setting == "LOCALE_PATHS" else SPANISH)
    assert not i18n._translated
    with translation.override("es"):
        assert str(label) == SPANISH
