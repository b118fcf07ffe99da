"""Calls on the duty line, on the timeline of the case they were attached to (or opened)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from caseflow.calls.models import Call, CallerKind
from caseflow.cases.timeline import (
    OTHER_PERSON,
    STAFF,
    SURVIVOR,
    Entry,
    Query,
    Source,
    about,
    key_of,
    newest,
)
from caseflow.lib.i18n import gettext_lazy

KIND = "duty_call"
PEOPLE = frozenset({SURVIVOR, OTHER_PERSON, STAFF})


def call_entries(case, query: Query) -> list[Entry]:
    if not about(query, PEOPLE):
        return []
    qs = Call.objects.filter(case=case).select_related("logged_by")
    entries = []
    for row in newest(qs, query, KIND, "taken_at"):
        row.case = case  # one unwrapped data key for all of them
        facts = [(_("Caller"), row.get_caller_kind_display())]
        if row.duration_minutes is not None:
            facts.append(
                (
                    _("Duration"),
                    ngettext("%(n)s minute", "%(n)s minutes", row.duration_minutes)
                    % {"n": row.duration_minutes},
                )
            )
        if row.needs:
            facts.append((_("Needs raised"), ", ".join(row.need_labels())))
        if row.safety_concerns:
            facts.append((_("Safety concerns"), ", ".join(row.concern_labels())))
        if row.responses:
            facts.append((_("Given or referred"), ", ".join(row.response_labels())))
        facts.append((_("Taken by"), row.logged_by.get_full_name() or row.logged_by.username))
        body = "\n\n".join(p for p in (row.notes, row.safety_detail) if p)
        entries.append(
            Entry(
                at=row.taken_at,
                kind=KIND,
                key=key_of(row.pk),
                title=_("Call on the duty line"),
                body=body,
                people=frozenset({SURVIVOR})
                if row.caller_kind == CallerKind.SURVIVOR
                else frozenset({OTHER_PERSON}),
                url=reverse("calls:detail", args=[row.public_id]),
                facts=tuple(facts),
            )
        )
    return entries


SOURCE = Source(
    kind=KIND,
    label=gettext_lazy("Duty-line calls"),
    fetch=call_entries,
    model=Call,
    order=73,
    categories=frozenset({"narratives", "risk"}),
)
