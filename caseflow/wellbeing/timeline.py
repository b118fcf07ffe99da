"""Her own ratings on the case timeline, at the time they were taken: her numbers as facts, her
own words as the entry's text."""

from __future__ import annotations

from django.utils.translation import gettext as _

from caseflow.cases.timeline import SURVIVOR, Entry, Query, Source, about, key_of, newest
from caseflow.lib.i18n import gettext_lazy
from caseflow.wellbeing.models import Rating

KIND = "wellbeing_rating"
PEOPLE = frozenset({SURVIVOR})


def answer_facts(rating: Rating) -> tuple[tuple[str, str], ...]:
    return tuple(
        (str(question.short), _("%(value)s of %(high)s") % {"value": value, "high": question.high})
        for question, value in rating.answer_rows()
    )


def ratings(case, query: Query) -> list[Entry]:
    if not about(query, PEOPLE):
        return []
    entries = []
    for row in newest(Rating.objects.filter(case=case), query, KIND, "taken_at"):
        row.case = case
        entries.append(
            Entry(
                at=row.taken_at,
                kind=KIND,
                key=key_of(row.pk),
                title=_("Her own rating of how she is"),
                body=row.words,
                people=PEOPLE,
                facts=answer_facts(row),
            )
        )
    return entries


SOURCES = (
    Source(
        kind=KIND,
        label=gettext_lazy("Her own ratings"),
        fetch=ratings,
        model=Rating,
        order=41,
        categories=frozenset({"risk", "narratives"}),
    ),
)
