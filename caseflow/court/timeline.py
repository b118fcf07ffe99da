"""Court hearings on the case timeline, at the time they are (or were) heard."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from caseflow.cases.timeline import SURVIVOR, Entry, Query, Source, about, key_of, newest
from caseflow.court.models import Hearing
from caseflow.lib.i18n import gettext_lazy

HEARING = "court_hearing"
PEOPLE = frozenset({SURVIVOR})


def hearings(case, query: Query) -> list[Entry]:
    if not about(query, PEOPLE):
        return []
    entries = []
    for row in newest(Hearing.objects.filter(case=case), query, HEARING, "starts_at"):
        row.case = case
        facts = []
        if row.court:
            facts.append((_("Court"), row.court))
        facts.append((_("Attends"), row.get_attendance_display()))
        if row.support:
            facts.append((_("Support"), ", ".join(row.support_labels)))
        facts.append((_("Outcome"), row.get_outcome_display() or _("Not recorded yet")))
        entries.append(
            Entry(
                at=row.starts_at,
                kind=HEARING,
                key=key_of(row.pk),
                title=_("Court hearing: %(kind)s") % {"kind": row.get_kind_display()},
                body=row.outcome_notes,
                people=PEOPLE,
                url=reverse("court:hearing", args=[case.public_id, row.public_id]),
                facts=tuple(facts),
            )
        )
    return entries


SOURCES = (
    Source(
        kind=HEARING,
        label=gettext_lazy("Court hearings"),
        fetch=hearings,
        model=Hearing,
        order=65,
        categories=frozenset({"court_orders", "narratives"}),
    ),
)
