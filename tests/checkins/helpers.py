"""Shared set-up for the check-in tests."""

from __future__ import annotations

import datetime as dt

from caseflow.checkins.models import CheckIn
from caseflow.inbox.models import FollowUp

UTC = dt.UTC
# Monday 7 December 2026, 08:00 UTC (08:00 in London): before the cast's 10:00-12:00 window.
MONDAY = dt.datetime(2026, 12, 7, 8, 0, tzinfo=UTC)


def make_checkin(case, assignee, due_at, channel="phone", **kw) -> CheckIn:
    """A check-in row written directly (the scheduling rules are tested on their own)."""
    return CheckIn.objects.create(
        case=case, assignee=assignee, due_at=due_at, channel=channel, **kw
    )


def make_followup(case, assignee, due_at, **kw) -> FollowUp:
    return FollowUp.objects.create(
        case=case, assignee=assignee, due_at=due_at, kind=kw.pop("kind", "task"), **kw
    )
