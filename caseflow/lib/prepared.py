"""Work a person asks for that a worker prepares: funder reports and case exports.

The conventions both follow: a row per request, in one of four states; a worker claims it
(committed at once, so its page says so) and then does the work in one transaction, so a worker
lost half-way leaves no result and the outbox sends the task again; the live count of steps is
kept in the cache, a hint that is never the truth; one that is still not done long after it was
started (or that failed) may be started again by its asker.
"""

from __future__ import annotations

import datetime as dt

from django.db import models

from caseflow.lib import softcache
from caseflow.lib.i18n import gettext_lazy as _


class PreparedState(models.TextChoices):
    WAITING = "waiting", _("Waiting for its turn")
    RUNNING = "running", _("Being prepared")
    READY = "ready", _("Ready to download")
    FAILED = "failed", _("Not prepared")


#: The states a worker may claim from (a failed one only when its asker tries again).
CLAIMABLE = (PreparedState.WAITING, PreparedState.RUNNING, PreparedState.FAILED)

#: The states in which the work is still to come.
UNDER_WAY = (PreparedState.WAITING, PreparedState.RUNNING)


def percent(state: str, progress_key: str, total: int) -> int:
    """Percent done: 100 when ready, 0 before a worker starts, else the cache's count of steps
    (at most 99: only the end of the work makes it ready)."""
    if state == PreparedState.READY:
        return 100
    if state != PreparedState.RUNNING:
        return 0
    steps = int(softcache.remember(progress_key, lambda: 0, 3600) or 0)
    return min(99, steps * 100 // max(1, total))


def is_stale(state: str, since: dt.datetime, now: dt.datetime, stale_after: dt.timedelta) -> bool:
    """Failed, or started (or asked for) longer ago than ``stale_after`` and still not ready:
    its worker must have been lost."""
    if state == PreparedState.FAILED:
        return True
    if state == PreparedState.READY:
        return False
    return since < now - stale_after


def step(progress_key: str) -> None:
    """Count one step done (a hint in the cache, for the progress bar)."""
    softcache.count(progress_key, 3600)
