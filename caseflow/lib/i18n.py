"""Translation helpers typed for caseflow's own code.

Django's ``gettext_lazy`` returns a proxy that becomes text in the language active when it is
rendered; caseflow passes those proxies wherever a label or message is expected, so the type
checker is told what they stand for: text. (A proxy is not a ``str`` instance: join or serialise
it with ``str()`` first.)"""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextvars import ContextVar, Token
from typing import Any, cast

from django.conf import settings
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _gettext_lazy


def gettext_lazy(message: str) -> str:
    return cast(str, _gettext_lazy(message))


#: Which language a member of staff reads (set by caseflow.cases, which keeps the choices), for
#: what is written to them outside a request: e-mails sent by the workers.
_user_language: Callable[[Any], str | None] | None = None


def register_user_language(resolver: Callable[[Any], str | None]) -> None:
    global _user_language
    _user_language = resolver


def language_of(user: Any) -> str:
    """The language to write to ``user`` in: their own choice, their agency's, or the default."""
    chosen = _user_language(user) if _user_language is not None else None
    return chosen or settings.LANGUAGE_CODE


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
