"""Shelter stays on the case timeline: when a stay was booked and when it ended."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from caseflow.cases.timeline import SURVIVOR, Entry, Query, Source, about, key_of, newest
from caseflow.lib.i18n import gettext_lazy
from caseflow.shelter.models import Stay

BOOKED, ENDED = "shelter_stay", "shelter_stay_end"
PEOPLE = frozenset({SURVIVOR})


def _facts(stay: Stay) -> tuple:
    facts = [
        (_("Where"), f"{stay.bed.room.site.name} · {stay.bed.room.name} · {stay.bed.label}"),
        (_("First night"), f"{stay.starts_on:%d %b %Y}"),
    ]
    if stay.ends_on is not None:
        facts.append((_("Leaves on"), f"{stay.ends_on:%d %b %Y}"))
    if stay.children:
        facts.append((_("Children staying"), str(stay.children)))
    return tuple(facts)


def _entries(case, query: Query, kind: str, at_field: str, title: str) -> list[Entry]:
    if not about(query, PEOPLE):
        return []
    qs = Stay.objects.filter(case=case).select_related("bed__room__site")
    if at_field == "ended_at":
        qs = qs.filter(ended_at__isnull=False)
    entries = []
    for row in newest(qs, query, kind, at_field):
        row.case = case
        entries.append(
            Entry(
                at=getattr(row, at_field),
                kind=kind,
                key=key_of(row.pk),
                title=title,
                body=row.notes if kind == BOOKED else "",
                people=PEOPLE,
                url=reverse("shelter:stay", args=[case.public_id, row.public_id]),
                facts=_facts(row),
            )
        )
    return entries


def stays_booked(case, query: Query) -> list[Entry]:
    return _entries(case, query, BOOKED, "created_at", _("Shelter stay booked"))


def stays_ended(case, query: Query) -> list[Entry]:
    return _entries(case, query, ENDED, "ended_at", _("Shelter stay ended"))


SOURCES = (
    Source(
        kind=BOOKED,
        label=gettext_lazy("Shelter stays"),
        fetch=stays_booked,
        model=Stay,
        order=74,
        categories=frozenset({"narratives", "address"}),
    ),
    Source(
        kind=ENDED,
        label=gettext_lazy("Shelter stays ended"),
        fetch=stays_ended,
        model=Stay,
        order=75,
        categories=frozenset({"address"}),
    ),
)
