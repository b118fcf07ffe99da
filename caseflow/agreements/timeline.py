"""The co-parenting contact log, breaches and agreement versions on the case timeline.

Words: a contact is described by who started it; a breach is always the other parent's, because
a contact the survivor made is never recorded against them (the breach entries leave out any
breach of a contact from the survivor: the contact itself is on the timeline as a contact).
"""

from __future__ import annotations

from django.urls import reverse

from caseflow.agreements import terms
from caseflow.agreements.breaches import counted_breaches
from caseflow.agreements.labels import CHANNEL_LABELS, KIND_LABELS, TERM_LABELS
from caseflow.agreements.models import (
    AgreementVersion,
    Breach,
    ContactEvent,
    ReviewState,
    Severity,
)
from caseflow.cases.timeline import (
    OTHER_PARTY,
    OTHER_PERSON,
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

#: Longest text shown on the timeline; the record's own page has the rest.
BODY_MAX = 300

CONTACT, BREACH, VERSION = "contact", "breach", "agreement_version"
_FROM_SURVIVOR = terms.Direction.FROM_SURVIVOR.value
_THIRD_PARTY = terms.Channel.THIRD_PARTY.value


def short(text: str) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= BODY_MAX else text[: BODY_MAX - 1].rstrip() + "…"


def _name(user) -> str:
    return user.get_full_name() or user.username


def _agreement_url(case, urls: dict[str, str], agreement_id: str) -> str:
    """The agreement's page, built once per agreement for the page's rows (``urls``)."""
    url = urls.get(agreement_id)
    if url is None:
        url = urls[agreement_id] = reverse("agreements:detail", args=[case.public_id, agreement_id])
    return url


def _how(row) -> str:
    kind = KIND_LABELS.get(row.kind, row.kind)
    channel = CHANNEL_LABELS.get(row.channel, row.channel)
    return f"{kind}, {channel.lower()}"


#: What a contact's entry shows (and the agreement it links to): nothing else is read.
_CONTACT_FIELDS = (
    "occurred_at",
    "direction",
    "kind",
    "channel",
    "review",
    "description",
    "agreement",
)
_REVIEWS = dict(ReviewState.choices)
_SEVERITIES = dict(Severity.choices)


def _contacts_of(*, case: int):
    return (
        ContactEvent.objects.filter(case=case)
        .select_related("agreement")
        .only(*_CONTACT_FIELDS, "agreement__public_id")
    )


def _third_party_contacts_of(*, case: int):
    return _contacts_of(case=case).filter(channel=_THIRD_PARTY)


def contacts(case, query: Query) -> list[Entry]:
    if query.person == OTHER_PERSON:
        base = _third_party_contacts_of
    elif not about(query, frozenset({SURVIVOR, OTHER_PARTY})):
        return []
    else:
        base = _contacts_of
    entries = []
    urls: dict[str, str] = {}
    for row in newest_compiled(ContactEvent, base, query, CONTACT, "occurred_at", case=case.pk):
        row.case = case
        by_survivor = row.direction == _FROM_SURVIVOR
        facts = [(_("How"), _how(row))]
        if not by_survivor:
            facts.append((_("Review"), str(_REVIEWS.get(row.review, row.review))))
        people = {SURVIVOR, OTHER_PARTY}
        if row.channel == _THIRD_PARTY:
            people.add(OTHER_PERSON)
        entries.append(
            Entry(
                at=row.occurred_at,
                kind=CONTACT,
                key=key_of(row.pk),
                title=(
                    _("The survivor contacted the other parent")
                    if by_survivor
                    else _("The other parent contacted the survivor")
                ),
                body=short(row.description),
                people=frozenset(people),
                url=_agreement_url(case, urls, row.agreement.public_id),
                facts=tuple(facts),
            )
        )
    return entries


BREACH_PEOPLE = frozenset({SURVIVOR, OTHER_PARTY})
_BREACH_FIELDS = (
    "occurred_at",
    "terms_broken",
    "severity",
    "police_reported",
    "description",
    "agreement",
)


def _breaches_of(*, case: int):
    return (
        counted_breaches()
        .filter(case=case)
        .select_related("agreement")
        .only(*_BREACH_FIELDS, "agreement__public_id")
    )


def breaches(case, query: Query) -> list[Entry]:
    if not about(query, BREACH_PEOPLE):
        return []
    entries = []
    urls: dict[str, str] = {}
    for row in newest_compiled(Breach, _breaches_of, query, BREACH, "occurred_at", case=case.pk):
        row.case = case
        facts = [
            (_("Terms broken"), "; ".join(str(TERM_LABELS.get(t, t)) for t in row.terms_broken)),
            (_("Severity"), str(_SEVERITIES.get(row.severity, row.severity))),
        ]
        if row.police_reported:
            facts.append((_("Police"), _("Reported")))
        entries.append(
            Entry(
                at=row.occurred_at,
                kind=BREACH,
                key=key_of(row.pk),
                title=_("The other parent broke the contact agreement"),
                body=short(row.description),
                people=BREACH_PEOPLE,
                url=_agreement_url(case, urls, row.agreement.public_id),
                facts=tuple(facts),
            )
        )
    return entries


VERSION_PEOPLE = frozenset({SURVIVOR, OTHER_PARTY, STAFF})


def _versions_of(*, case: int):
    return AgreementVersion.objects.filter(case=case).select_related("agreement", "author")


def versions(case, query: Query) -> list[Entry]:
    if not about(query, VERSION_PEOPLE):
        return []
    entries = []
    for row in newest_compiled(
        AgreementVersion, _versions_of, query, VERSION, "created_at", case=case.pk
    ):
        row.case = case
        entries.append(
            Entry(
                at=row.created_at,
                kind=VERSION,
                key=key_of(row.pk),
                title=(
                    _("Contact agreement recorded")
                    if row.number == 1
                    else _("Contact agreement changed (version %(number)s)")
                    % {"number": row.number}
                ),
                body=short(row.note),
                people=VERSION_PEOPLE,
                url=reverse("agreements:versions", args=[case.public_id, row.agreement.public_id]),
                facts=((_("By"), _name(row.author)),),
            )
        )
    return entries


SOURCES = (
    Source(
        kind=CONTACT,
        label=_("Co-parenting contacts"),
        fetch=contacts,
        model=ContactEvent,
        order=30,
        categories=frozenset({"evidence", "narratives"}),
    ),
    Source(
        kind=BREACH,
        label=_("Breaches of a contact agreement"),
        fetch=breaches,
        model=Breach,
        order=31,
        categories=frozenset({"evidence", "narratives"}),
    ),
    Source(
        kind=VERSION,
        label=_("Contact agreement versions"),
        fetch=versions,
        model=AgreementVersion,
        order=32,
        categories=frozenset({"court_orders", "narratives"}),
    ),
)
