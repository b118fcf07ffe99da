"""Translation helpers typed for caseflow's own code.

Django's ``gettext_lazy`` returns a proxy that becomes text in the language active when it is
rendered; caseflow passes those proxies wherever a label or message is expected, so the type
checker is told what they stand for: text. (A proxy is not a ``str`` instance: join or serialise
it with ``str()`` first.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django.conf import settings
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
