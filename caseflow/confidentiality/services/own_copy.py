"""The survivor's own copy of her factual record: the incidents and contacts she chooses, in her
words, dated, on a page that says nothing of where it came from.

Abuse rewrites memory ("that never happened"); a dated record in her own words, kept where she
can re-read it, protects her reality (DESIGN §0). The copy is a disclosure like any other record
that leaves the agency, and is recorded as one (:class:`~caseflow.confidentiality.models.Disclosure`
of kind ``own_copy``), with the survivor herself as its recipient.

Her own say-so is the authority, so no :class:`~caseflow.confidentiality.models.Release` is made
for it: a release is time-limited consent to share with someone else, listed as a live consent
on the case and followed up before it runs out. A "release to herself" would show as consent to
share, come up for renewal and cover nothing anyone else may use. The advocate confirms on the
form that the survivor asked for the copy and agrees to take it; the disclosure's kind says on
whose consent it left, and nobody else's consent (never the other party's) is asked or counted.

What goes on the paper, by design:

- from an incident: its date (or her own words for when, if approximate), what kind of harm it was
  (in words, in the copy's language), where, what happened and any injuries. Not who she named
  (``person_described``), nor witnesses, nor the police reference, nor whether staff marked it
  serious: those are other people's details or the agency's workings.
- from a contact: its date and time in the agreement's time zone, what kind of contact, on which
  channel, from whom ("from the other parent", "from me"), its topic and description. Not the
  checker's findings nor the breach review: the agency's assessment, not her record.
- nothing of the case itself: no agency name, no reference, no staff names, no addresses.

The audit event and the disclosure hold kinds and counts only, never the content.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.agreements import terms
from caseflow.agreements.labels import CHANNEL_LABELS, KIND_LABELS
from caseflow.agreements.models import ContactEvent
from caseflow.audit.services import record
from caseflow.cases.models import Case, Party, PartyRole
from caseflow.casework.models import Incident, IncidentKind
from caseflow.confidentiality.models import Category, Disclosure, DisclosureKind
from caseflow.confidentiality.services.disclosures import _disclose
from caseflow.lib.i18n import gettext_lazy as _

#: A contact's direction in her own voice.
FROM_WHOM: dict[str, str] = {
    terms.Direction.TO_SURVIVOR: _("From the other parent"),
    terms.Direction.FROM_SURVIVOR: _("From me"),
}
_INCIDENT_KINDS = dict(IncidentKind.choices)

INCIDENT, CONTACT = "incident", "contact"


class OwnCopyRefused(Exception):
    """The copy cannot be given; ``str(exc)`` says why, for the advocate."""


@dataclass(frozen=True)
class CopyEntry:
    """One record on her copy. ``when`` is a naive local date and time (already in the zone it
    is read in); ``labels`` are lazy words, written in the copy's language when shown."""

    at: dt.datetime
    when: dt.datetime
    kind: str
    approximate: bool = False
    when_described: str = ""
    headline: tuple = ()
    lines: tuple = field(default=())


@dataclass(frozen=True)
class OwnCopy:
    disclosure: Disclosure
    language: str
    entries: list[CopyEntry]


def survivor_of(case: Case) -> Party | None:
    party = Party.objects.filter(case=case, role=PartyRole.SURVIVOR).order_by("pk").first()
    if party is not None:
        party.case = case
    return party


def case_incidents(case: Case) -> list[Incident]:
    """The case's incidents, oldest first (the order her record is read in)."""
    rows = list(Incident.objects.filter(case=case).order_by("occurred_at", "pk"))
    for row in rows:
        row.case = case
    return rows


def case_contacts(case: Case) -> list[ContactEvent]:
    """The contacts logged under every contact agreement of the case, oldest first."""
    rows = list(
        ContactEvent.objects.filter(case=case)
        .select_related("agreement")
        .order_by("occurred_at", "pk")
    )
    for row in rows:
        row.case = case
        row.agreement.case = case
    return rows


def contact_local(event: ContactEvent) -> dt.datetime:
    """When the contact happened, in its agreement's time zone (the survivor's)."""
    try:
        zone = ZoneInfo(event.agreement.timezone)
    except (KeyError, ValueError):
        zone = ZoneInfo("UTC")
    return event.occurred_at.astimezone(zone).replace(tzinfo=None)


def _incident_entry(incident: Incident) -> CopyEntry:
    lines = [
        (_("Where"), incident.place),
        (_("What happened"), incident.what_happened),
        (_("Injuries"), incident.injuries),
    ]
    return CopyEntry(
        at=incident.occurred_at,
        when=timezone.localtime(incident.occurred_at).replace(tzinfo=None),
        kind=INCIDENT,
        approximate=incident.approximate,
        when_described=incident.when_described,
        headline=tuple(_INCIDENT_KINDS[k] for k in incident.kinds if k in _INCIDENT_KINDS),
        lines=tuple((label, text) for label, text in lines if text),
    )


def _contact_entry(event: ContactEvent) -> CopyEntry:
    headline = [
        KIND_LABELS.get(event.kind, ""),
        CHANNEL_LABELS.get(event.channel, ""),
        FROM_WHOM.get(event.direction, ""),
    ]
    lines = [(_("About"), event.topic), (_("What was said or done"), event.description)]
    return CopyEntry(
        at=event.occurred_at,
        when=contact_local(event),
        kind=CONTACT,
        headline=tuple(h for h in headline if h),
        lines=tuple((label, text) for label, text in lines if text),
    )


def own_copy_give(
    *,
    actor: User,
    case: Case,
    incident_ids: list[str],
    contact_ids: list[str],
    language: str,
    survivor_consents: bool,
) -> OwnCopy:
    """Record giving the survivor a copy of the chosen incidents and contacts, and return what
    goes on it (oldest first). Ids of another case's records are not found, and refused."""
    if not policy.may(actor, case, "edit"):
        raise PermissionDenied
    if not survivor_consents:
        raise OwnCopyRefused(_("Confirm that she asked for this copy and agrees to take it."))
    survivor = survivor_of(case)
    if survivor is None:
        raise OwnCopyRefused(_("Nobody is recorded as the survivor on this case."))
    wanted_incidents, wanted_contacts = set(incident_ids), set(contact_ids)
    incidents = [i for i in case_incidents(case) if i.public_id in wanted_incidents]
    contacts = [c for c in case_contacts(case) if c.public_id in wanted_contacts]
    if len(incidents) != len(wanted_incidents) or len(contacts) != len(wanted_contacts):
        raise OwnCopyRefused(_("Choose records of this case from the list."))
    if not incidents and not contacts:
        raise OwnCopyRefused(_("Choose at least one incident or contact she wants on her copy."))
    categories = sorted(
        ({Category.NARRATIVES} if incidents else set())
        | ({Category.EVIDENCE} if contacts else set())
    )
    with transaction.atomic():
        disclosure = _disclose(
            actor=actor,
            case=case,
            kind=DisclosureKind.OWN_COPY,
            recipient=survivor.full_name or str(PartyRole.SURVIVOR.label),
            categories=[str(c) for c in categories],
        )
        record(
            "disclosure.own_copy",
            actor=actor,
            case=case,
            obj=disclosure,
            detail={
                "disclosure": disclosure.pk,
                "categories": [str(c) for c in categories],
                "incidents": len(incidents),
                "contacts": len(contacts),
                "language": language,
                "consent": "survivor",
            },
        )
    entries = [_incident_entry(i) for i in incidents] + [_contact_entry(c) for c in contacts]
    entries.sort(key=lambda e: e.at)
    return OwnCopy(disclosure=disclosure, language=language, entries=entries)
