"""gunicorn's logs without secrets or personal data in them.

The calendar feed's URL carries its token (``/checkins/calendar/<token>.ics``), and a query
string carries whatever a GET form or a crafted link sent (a name, a date of birth, an e-mail
address); gunicorn would write both with every request line. :class:`RedactingLogger` masks the
token and every query-string value in every atom a log format can use (request line, path,
query, referer, other headers, response headers and environ values), so any
``--access-logformat`` stays safe, and in its error log's messages (a refused or failed request
is logged with its URL). ``gunicorn.conf.py`` names it.
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from caseflow.lib.logging_filters import redact_paths, redact_query_string

#: Atoms holding a bare query string (no ``?`` before it).
QUERY_ATOMS = frozenset({"q", "{query_string}e"})


def _clean(value: Any) -> Any:
    return redact_paths(value) if isinstance(value, str) else value


class RedactingLogger(Logger):
    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms = super().atoms(resp, req, environ, request_time)
        return {
            k: redact_query_string(v) if k in QUERY_ATOMS and isinstance(v, str) else _clean(v)
            for k, v in atoms.items()
        }

    def critical(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        super().critical(_clean(msg), *map(_clean, args), **kwargs)

    def error(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        super().error(_clean(msg), *map(_clean, args), **kwargs)

    def warning(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        super().warning(_clean(msg), *map(_clean, args), **kwargs)

    def info(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        super().info(_clean(msg), *map(_clean, args), **kwargs)

    def debug(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        super().debug(_clean(msg), *map(_clean, args), **kwargs)

    def exception(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        super().exception(_clean(msg), *map(_clean, args), **kwargs)

    def log(self, lvl: Any, msg: Any, *args: Any, **kwargs: Any) -> None:
        super().log(lvl, _clean(msg), *map(_clean, args), **kwargs)
