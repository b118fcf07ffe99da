"""Translation helpers typed for caseflow's own code.

Django's ``gettext_lazy`` returns a proxy that becomes text in the language active when it is
rendered; caseflow passes those proxies wherever a label or message is expected, so the type
checker is told what they stand for: text. (A proxy is not a ``str`` instance: join or serialise
it with ``str()`` first.)

caseflow's proxies look each message up once per language: a page turns the same labels into
text hundreds of times (every row's status, every fact's name), and Django's lookup walks every
catalog of every installed app before it gives an English message back as written. The catalogs
do not change while a process runs; the answers are forgotten when the settings that choose them
change (the tests' ``override_settings``), as Django forgets its catalogs."""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextvars import ContextVar, Token
from typing import Any, cast

from django.conf import settings
from django.core.signals import setting_changed
from django.utils.functional import lazy
from django.utils.safestring import SafeData
from django.utils.translation import get_language, gettext

from caseflow.lib.contributions import contributions

#: (language, message) -> the message in that language, for the process's life (and the
#: templates' constant messages, :func:`remember_translation`).
_translated: dict[tuple[Any, ...], str] = {}


def gettext_once(message: str) -> str:
    """``gettext(message)`` in the active language, looked up the first time only."""
    if isinstance(message, SafeData):  # gettext keeps it safe: not worth a second table
        return gettext(message)
    key = (get_language(), message)
    try:
        return _translated[key]
    except KeyError:
        text = _translated[key] = gettext(message)
        return text


def remember_translation(key: tuple[Any, ...], make: Callable[[str], str], message: str) -> str:
    """``make(message)``, made the first time ``key`` (which names the language) is asked for,
    and kept as long as :func:`gettext_once`'s answers."""
    try:
        return _translated[key]
    except KeyError:
        text = _translated[key] = make(message)
        return text


def _forget_translations(*, setting: str, **kwargs: Any) -> None:
    if setting in {"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "INSTALLED_APPS"}:
        _translated.clear()


setting_changed.connect(_forget_translations, dispatch_uid="caseflow.lib.i18n.forget")

_gettext_lazy = lazy(gettext_once, str)


def gettext_lazy(message: str) -> str:
    return cast(str, _gettext_lazy(message))


def language_of(user: Any) -> str:
    """The language to write to ``user`` in (outside a request: e-mails sent by the workers):
    their own choice, their agency's, or the default. Who chose is kept by caseflow.cases, which
    says so as ``CaseFeature.user_language`` (read through :mod:`caseflow.lib.contributions`)."""
    return contributions().user_language(user) or settings.LANGUAGE_CODE


# --- The agency's word for its advocates ---------------------------------------------------------
#
# An agency may call its advocates IDVAs (see ``caseflow.accounts.models.AdvocateTitle``). The
# request's middleware says which word the reader's agency uses; a sentence that names the role
# is written twice, both marked, and the right one is chosen when it is rendered.

_says_idva: ContextVar[Callable[[], bool] | None] = ContextVar("caseflow_says_idva", default=None)


def use_idva(resolver: Callable[[], bool]) -> Token[Callable[[], bool] | None]:
    """Until :func:`reset_idva`, ``resolver`` says whether the reader's agency calls its
    advocates IDVAs. It is asked once, the first time a sentence needs it (a page that names no
    role never looks the agency's choice up)."""
    return _says_idva.set(functools.cache(resolver))


def reset_idva(token: Token[Callable[[], bool] | None]) -> None:
    _says_idva.reset(token)


def says_idva() -> bool:
    resolver = _says_idva.get()
    return bool(resolver is not None and resolver())


def _pick(advocate: str, idva: str) -> str:
    return str(idva if says_idva() else advocate)


_lazy_pick = lazy(_pick, str)


def advocate_or_idva(advocate: str, idva: str) -> str:
    """``advocate`` or ``idva`` (both marked), chosen when the text is rendered."""
    return cast(str, _lazy_pick(advocate, idva))
