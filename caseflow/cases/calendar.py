"""The staff calendar feed's events from every part of caseflow (check-ins keep the feed itself,
``checkins:feed``; each feature of a case may add its own kind of dated work to it).

A calendar feed leaves the agency: it is fetched by a calendar program on a phone, cached there,
shown on lock screens. So an event carries a neutral title and its time only. A
:class:`CalendarSource`'s ``fetch(user, since, until)`` must:

- return the events of the cases ``user`` works (their own open cases, within policy), starting
  in ``[since, until)``, at most :data:`PER_SOURCE` of them, in a constant number of queries;
- put no case data in an event: no name, no reference, no court, no place, nothing decrypted.
  The title is plain words about the kind of work ("Court support"), the same for every case;
- give each event a ``uid`` stable across fetches that names only the kind and a row number.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from caseflow.cases import features

#: At most this many events per source in one feed.
PER_SOURCE = 2000


@dataclass(frozen=True)
class CalendarEvent:
    uid: str
    starts_at: dt.datetime
    ends_at: dt.datetime
    #: Neutral words, the same for every case: "Court support".
    title: str
    #: The case's primary key, for the audit record of what the feed listed (never in the feed).
    case_id: int = 0


@dataclass(frozen=True)
class CalendarSource:
    name: str
    fetch: Callable[[Any, dt.datetime, dt.datetime], list[CalendarEvent]]


def registered_sources() -> tuple[CalendarSource, ...]:
    """Every feature's calendar sources, in the features' order."""
    return tuple(features.members(lambda f: f.calendar))
