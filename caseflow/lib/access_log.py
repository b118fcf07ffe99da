"""gunicorn's access log without secrets in it.

The calendar feed's URL carries its token (``/checkins/calendar/<token>.ics``); gunicorn's
access log would write it with every request line. :class:`RedactingLogger` masks it in every
atom a log format can use (request line, path, query, referer and other headers), so any
``--access-logformat`` stays safe. The Dockerfile starts gunicorn with
``--logger-class caseflow.lib.access_log.RedactingLogger``.
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from caseflow.lib.logging_filters import redact_paths


class RedactingLogger(Logger):
    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms = super().atoms(resp, req, environ, request_time)
        return {k: redact_paths(v) if isinstance(v, str) else v for k, v in atoms.items()}
