"""The case's own history on the case timeline: when it was opened, each change of its status
and of who may see it.

The opening is the case's ``opened_at`` (the intake date, which may be earlier than the record);
status changes and restrictions come from the case's audit events, which hold the old and new
status and whether the case was restricted (no personal text), so nothing else is stored twice.
"""

from __future__ import annotations

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case, CaseStatus
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
from caseflow.lib.i18n import gettext_lazy as _

KIND = "case_status"
PEOPLE = frozenset({SURVIVOR, STAFF})
#: The audit actions that are part of the case's own history.
ACTIONS = ("case.status", "case.restrict")
_STATUS = dict(CaseStatus.choices)


def _actor(event: AuditEvent) -> str:
    actor = event.actor
    if actor is None:
        return ""
    return actor.get_full_name() or actor.username


def _title(event: AuditEvent) -> str:
    detail = event.detail or {}
    if event.action == "case.restrict":
        if detail.get("restricted"):
            return _("Access limited to a named list of staff")
        return _("Access list removed: the team may see the case again")
    before, after = detail.get("from", ""), detail.get("to", "")
    if after == CaseStatus.CLOSED:
        return _("Case closed")
    if after == CaseStatus.DORMANT:
        return _("Case marked dormant")
    if after == CaseStatus.ACTIVE and before in (CaseStatus.CLOSED, CaseStatus.DORMANT):
        return _("Case reopened")
    return _("Case made %(status)s") % {"status": _STATUS.get(after, after).lower()}


def _opened(case: Case, query: Query) -> Entry | None:
    # Key 0 sorts it after (older than) any event at the same instant.
    entry = Entry(
        at=case.opened_at, kind=KIND, key=key_of(0), title=_("Case opened"), people=PEOPLE
    )
    if query.since is not None and entry.at < query.since:
        return None
    if query.until is not None and entry.at >= query.until:
        return None
    if query.before is not None and not entry.position < query.before:
        return None
    return entry


def _events_of(*, case: int, agency: int):
    return AuditEvent.objects.filter(
        case_id=case, agency_id=agency, action__in=ACTIONS
    ).select_related("actor")


def fetch(case: Case, query: Query) -> list[Entry]:
    if not about(query, PEOPLE):
        return []
    events = newest_compiled(
        AuditEvent, _events_of, query, KIND, "at", "seq", case=case.pk, agency=case.agency_id
    )
    entries = [
        Entry(
            at=event.at,
            kind=KIND,
            key=key_of(event.seq),
            title=_title(event),
            people=PEOPLE,
            facts=((_("By"), _actor(event)),) if event.actor_id else (),
        )
        for event in events
    ]
    opened = _opened(case, query)
    if opened is not None:
        entries.append(opened)
        entries.sort(key=lambda e: (e.at, e.key), reverse=True)
    return entries[: query.limit]


SOURCE = Source(
    kind=KIND,
    label=_("Case opened, status and access"),
    fetch=fetch,
    order=90,
    categories=frozenset(),
)
