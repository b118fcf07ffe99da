"""Django's PostgreSQL backend, with its connection health check (``CONN_HEALTH_CHECKS``) made
without a round trip when the connection has just answered.

Django checks a kept connection with ``SELECT 1`` before its first use in each request, so that
a connection the server has ended (a restart, a fail-over, an administrator's
``pg_terminate_backend``) is replaced instead of failing the request: without the check that
request answers 500. The check is a round trip a request. But a server that ends a connection
says so on its socket: it sends its error and closes it, and the socket has something to read.
So a connection that answered less than ``QUIET_SECONDS`` ago and has nothing waiting on its
socket is used as it is; any other is checked as Django checks it.

What the socket cannot show is a server that went away without a word (a power cut, a cable):
a connection that answered less than a second before it fails its next request, as it would
after Django's check too unless the server were back, at the same address, within that second
(while it is away, connecting again fails as well). Django's pool (``OPTIONS["pool"]``) keeps
its own checks and is left to them.
"""

from __future__ import annotations

import select
import time
from typing import Any

from django.db.backends.postgresql.base import DatabaseWrapper as PostgreSQLDatabaseWrapper

#: A connection that answered within this many seconds, with nothing on its socket, is not asked.
QUIET_SECONDS = 1.0


def quiet(connection: Any) -> bool:
    """True when psycopg's ``connection`` is open and nothing waits on its socket (no error, no
    end of stream: an idle server sends nothing)."""
    if connection.closed or connection.broken or not hasattr(select, "poll"):
        return False
    poller = select.poll()
    poller.register(connection.fileno(), select.POLLIN | select.POLLPRI)
    return not poller.poll(0)


class DatabaseWrapper(PostgreSQLDatabaseWrapper):
    # Django's, set in its __init__ and connect() (the type stubs do not declare them).
    health_check_enabled: bool
    health_check_done: bool
    #: When the connection last answered, or at least was last used (its first use in a request
    #: follows the health check at once, and a failure then closes it at the request's end).
    answered_at = 0.0

    def connect(self) -> None:
        super().connect()
        self.answered_at = time.monotonic()

    def close_if_health_check_failed(self) -> None:
        if (
            self.connection is None
            or self.pool
            or not self.health_check_enabled
            or self.health_check_done
        ):
            super().close_if_health_check_failed()
            return
        now = time.monotonic()
        if now - self.answered_at < QUIET_SECONDS and quiet(self.connection):
            self.health_check_done = True
        else:
            super().close_if_health_check_failed()  # SELECT 1; closed if it fails
        self.answered_at = now
