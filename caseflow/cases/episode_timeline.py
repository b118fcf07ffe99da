"""Episodes of support on the case timeline: when each began (first referral, a return, a
re-referral) and when it closed, with the closure's reason."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext

from caseflow.cases.models import Case, Episode, EpisodeStart
from caseflow.cases.timeline import STAFF, SURVIVOR, Entry, Query, Source, about, key_of
from caseflow.lib.compiled import CompiledQuery
from caseflow.lib.i18n import gettext_lazy

KIND = "episode"
PEOPLE = frozenset({SURVIVOR, STAFF})


def _name(user) -> str:
    return (user.get_full_name() or user.username) if user is not None else ""


def _entries(episode: Episode) -> list[Entry]:
    start = {
        EpisodeStart.REFERRAL: gettext("Episode %(number)s began: first referral"),
        EpisodeStart.RETURN: gettext("Episode %(number)s began: the survivor came back"),
        EpisodeStart.REREFERRAL: gettext("Episode %(number)s began: referred again"),
    }.get(EpisodeStart(episode.start), gettext("Episode %(number)s began"))
    entries = [
        Entry(
            at=episode.opened_at,
            kind=KIND,
            key=key_of(episode.pk * 2),
            title=start % {"number": episode.number},
            people=PEOPLE,
            facts=((gettext("By"), _name(episode.opened_by)),) if episode.opened_by_id else (),
        )
    ]
    if episode.closed_at is not None:
        closure = getattr(episode, "closure", None)
        facts = []
        if closure is not None:
            facts.append((gettext("Reason"), closure.reason.label))
            facts.append((gettext("Abuse since the start"), closure.get_abuse_change_display()))
        if episode.closed_by_id:
            facts.append((gettext("By"), _name(episode.closed_by)))
        entries.append(
            Entry(
                at=episode.closed_at,
                kind=KIND,
                key=key_of(episode.pk * 2 + 1),
                title=gettext("Episode %(number)s closed") % {"number": episode.number},
                people=PEOPLE,
                facts=tuple(facts),
            )
        )
    return entries


def _episodes_of(*, case: int) -> QuerySet[Episode]:
    return Episode.objects.filter(case=case).select_related(
        "opened_by", "closed_by", "closure__reason"
    )


#: Every page of every case's timeline asks it: built and compiled to SQL once per process.
_EPISODES_OF = CompiledQuery(Episode, _episodes_of, case="int")


def fetch(case: Case, query: Query) -> list[Entry]:
    """A case has few episodes: all are read in one query and filtered here."""
    if not about(query, PEOPLE):
        return []
    entries = []
    for episode in _EPISODES_OF.rows(case=case.pk):
        for entry in _entries(episode):
            if query.since is not None and entry.at < query.since:
                continue
            if query.until is not None and entry.at >= query.until:
                continue
            if query.before is not None and not entry.position < query.before:
                continue
            entries.append(entry)
    entries.sort(key=lambda e: (e.at, e.key), reverse=True)
    return entries[: query.limit]


SOURCE = Source(
    kind=KIND,
    label=gettext_lazy("Episodes of support"),
    fetch=fetch,
    order=85,
    categories=frozenset(),
)
