"""Translation helpers typed for caseflow's own code.

Django's ``gettext_lazy`` returns a proxy that becomes text in the language active when it is
rendered; caseflow passes those proxies wherever a label or message is expected, so the type
checker is told what they stand for: text. (A proxy is not a ``str`` instance: join or serialise
it with ``str()`` first.)"""

from __future__ import annotations

from typing import cast

from django.utils.translation import gettext_lazy as _gettext_lazy


def gettext_lazy(message: str) -> str:
    return cast(str, _gettext_lazy(message))
