"""What closing proposes for "Does the survivor feel safer?", read from her own ratings.

:func:`feels_safer` is pure: given her answers to "how safe do you feel" in the order she gave
them (first to latest) on the question's scale, it says which answer the closure form starts
with. The advocate can still change it.

Conventions: fewer than two answers propose nothing (there is no trend to read). The latest
answer is compared with the first: up by at least a fifth of the scale (2 on 0–10) is "yes", up
by less is "a little", the same or lower is "no".
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.utils import timezone
from django.utils.formats import date_format

from caseflow.cases.models import Case, Episode, FeelsSafer
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.wellbeing.questions import QUESTIONS, SAFE
from caseflow.wellbeing.selectors import ratings_of

#: How much of the scale counts as clearly safer.
CLEARLY = 0.2


def feels_safer(values: Sequence[int], *, low: int, high: int) -> str | None:
    """The ``FeelsSafer`` value her answers propose, or ``None`` when there are fewer than two."""
    if len(values) < 2 or high <= low:
        return None
    change = (values[-1] - values[0]) / (high - low)
    if change >= CLEARLY:
        return FeelsSafer.YES
    if change > 0:
        return FeelsSafer.A_LITTLE
    return FeelsSafer.NO


def closure_proposals(case: Case) -> dict[str, tuple[str, str]]:
    """{"feels_safer": (value, what it read)} from her ratings in the current episode."""
    since = _episode_start(case)
    points: list[tuple[dt.datetime, int]] = [
        (rating.taken_at, rating.answers[SAFE])
        for rating in ratings_of(case, since)
        if isinstance((rating.answers or {}).get(SAFE), int)
    ]
    question = QUESTIONS[SAFE]
    value = feels_safer([v for _at, v in points], low=question.low, high=question.high)
    if value is None:
        return {}
    (first_at, first), (last_at, last) = points[0], points[-1]
    words = _(
        "Proposed from her own rating of how safe she feels: %(first)s of %(high)s on "
        "%(first_on)s, %(last)s of %(high)s on %(last_on)s. Change it if she says otherwise."
    ) % {
        "first": first,
        "last": last,
        "high": question.high,
        "first_on": date_format(timezone.localtime(first_at), "DATE_FORMAT"),
        "last_on": date_format(timezone.localtime(last_at), "DATE_FORMAT"),
    }
    return {"feels_safer": (value, str(words))}


def _episode_start(case: Case) -> dt.datetime | None:
    episode = Episode.objects.filter(case=case).order_by("-number").first()
    return episode.opened_at if episode is not None else None
