"""Check-ins and their outcomes on the case timeline.

A check-in is on the timeline at its due time once that time has come, or earlier if it was
already closed (an outcome recorded ahead of time, cancelled): a check-in still to come is a
plan, not something that happened. The outcome is shown in the survivor's favour: "No answer"
or "Not safe to talk" is a fact about the contact, never a failure of theirs.
"""

from __future__ import annotations

import datetime as dt

from django.db.models import Q
from django.utils import timezone

from caseflow.cases.models import Channel
from caseflow.cases.timeline import (
    STAFF,
    SURVIVOR,
    Entry,
    Query,
    Source,
    about,
    key_of,
    newest_compiled,
)
from caseflow.checkins.models import CheckIn, CheckInOutcome, CheckInStatus
from caseflow.lib.i18n import advocate_or_idva
from caseflow.lib.i18n import gettext_lazy as _

KIND = "checkin"
PEOPLE = frozenset({SURVIVOR, STAFF})
BODY_MAX = 300
_CHANNELS = dict(Channel.choices)
_OUTCOMES = dict(CheckInOutcome.choices)
#: What a check-in's entry shows: nothing else is read.
_FIELDS = ("due_at", "channel", "status", "outcome", "note", "assignee")


def _title(row: CheckIn) -> str:
    channel = _CHANNELS.get(row.channel, row.channel).lower()
    if row.status == CheckInStatus.CANCELLED:
        return _("Check-in cancelled (%(channel)s)") % {"channel": channel}
    if row.status == CheckInStatus.UNSAFE:
        return _("Check-in stopped: no longer safe (%(channel)s)") % {"channel": channel}
    if row.outcome:
        return _("Check-in (%(channel)s): %(outcome)s") % {
            "channel": channel,
            "outcome": _OUTCOMES.get(row.outcome, row.outcome).lower(),
        }
    if row.status == CheckInStatus.MISSED:
        return _("Check-in (%(channel)s): not made at the time") % {"channel": channel}
    return _("Check-in (%(channel)s): no outcome recorded yet") % {"channel": channel}


def _short(text: str) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= BODY_MAX else text[: BODY_MAX - 1].rstrip() + "…"


def _happened_of(*, case: int, now: dt.datetime):
    """The case's check-ins that have happened by ``now`` (or were marked before their time)."""
    happened = Q(due_at__lte=now) | ~Q(status=CheckInStatus.SCHEDULED)
    return (
        CheckIn.objects.filter(happened, case=case)
        .select_related("assignee")
        .only(*_FIELDS, "assignee__first_name", "assignee__last_name", "assignee__username")
    )


def fetch(case, query: Query) -> list[Entry]:
    if not about(query, PEOPLE):
        return []
    entries = []
    for row in newest_compiled(
        CheckIn, _happened_of, query, KIND, "due_at", case=case.pk, now=timezone.now()
    ):
        row.case = case
        assignee = row.assignee.get_full_name() or row.assignee.username
        entries.append(
            Entry(
                at=row.due_at,
                kind=KIND,
                key=key_of(row.pk),
                title=_title(row),
                body=_short(row.note),
                people=PEOPLE,
                facts=((advocate_or_idva(_("Advocate"), _("IDVA")), assignee),),
            )
        )
    return entries


SOURCE = Source(
    kind=KIND,
    label=_("Check-ins"),
    fetch=fetch,
    model=CheckIn,
    order=40,
    categories=frozenset({"narratives"}),
)
