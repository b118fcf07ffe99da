"""Sessions in the database, as Django keeps them, read with SQL built once per process.

Every request of a signed-in person reads its session: Django's store builds the same
``get()`` (the key, not yet expired) each time. This store sends the very statement ``get()``
sends, compiled once (:mod:`caseflow.lib.compiled`); writing, creating and deleting sessions
are Django's own. The rows and their encoding are Django's, so switching stores keeps every
session signed in.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.core.exceptions import SuspiciousOperation
from django.db.models import QuerySet
from django.utils import timezone

from caseflow.lib.compiled import CompiledQuery

#: What ``Session.objects.get(session_key=..., expire_date__gt=...)`` asks (``get()`` clears
#: the ordering and reads at most 21 rows).
_MAX_GET_RESULTS = 21


def _live_session(*, key: str, now: dt.datetime) -> QuerySet[Session]:
    return Session.objects.filter(session_key=key, expire_date__gt=now).order_by()[
        :_MAX_GET_RESULTS
    ]


_LIVE_SESSION = CompiledQuery(Session, _live_session, key="str", now="datetime")


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        try:
            found = _LIVE_SESSION.rows(key=self.session_key, now=timezone.now())
        except SuspiciousOperation as e:  # as Django's store: logged, and no session
            logger = logging.getLogger(f"django.security.{e.__class__.__name__}")
            logger.warning(str(e))
            found = []
        if len(found) > 1:  # as ``get()``; the key is the table's primary key
            raise Session.MultipleObjectsReturned
        if not found:
            self._session_key = None
            return None
        return found[0]
