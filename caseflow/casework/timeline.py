"""Case notes and incidents on the case timeline (:mod:`caseflow.cases.timeline`).

Each source asks one query per page: the filters (dates, keyset position, person) are in the
query, the author is joined, and each row's text is decrypted with the case key already loaded.
"""

from __future__ import annotations

from django.db.models import Count, Q
from django.urls import reverse
from django.utils.translation import gettext, ngettext

from caseflow.cases import timeline
from caseflow.cases.fields import FieldConfig, agency_field_config
from caseflow.cases.timeline import Entry, Query, Source, about, day_start, key_of, newest_days
from caseflow.casework.models import (
    PARTICIPANT_FIELDS,
    CaseNote,
    Incident,
    IncidentPerson,
    NeedStatus,
    NeedStatusChange,
    Participant,
    Service,
    ServiceHow,
)
from caseflow.lib.i18n import gettext_lazy as _

#: Who takes part in a note, in the timeline's words.
NOTE_PEOPLE = {
    Participant.SURVIVOR: timeline.SURVIVOR,
    Participant.OTHER_AGENCY: timeline.OTHER_AGENCY,
    Participant.COLLEAGUE: timeline.STAFF,
}
INCIDENT_PEOPLE = {
    IncidentPerson.OTHER_PARTY: timeline.OTHER_PARTY,
    IncidentPerson.SOMEONE_ELSE: timeline.OTHER_PERSON,
}


def _note_person_filter(person: str | None) -> Q:
    if person is None or person == timeline.STAFF:
        return Q()  # our own staff write every note
    wanted = [p for p, tag in NOTE_PEOPLE.items() if tag == person]
    if not wanted:
        return Q(pk__in=[])
    return Q(**{PARTICIPANT_FIELDS[wanted[0]]: True})


def _name(user) -> str:
    return user.get_full_name() or user.username


def note_entries(case, query: Query) -> list[Entry]:
    rows = (
        CaseNote.objects.filter(case=case)
        .filter(timeline.keyset(query, "note", "occurred_at"))
        .filter(_note_person_filter(query.person))
        .select_related("author")
        .annotate(amended=Count("amendments", filter=Q(amendments__direct=False)))
        .order_by("-occurred_at", "-pk")[: query.limit]
    )
    entries = []
    notes = list(rows)
    duration: dict = {}
    if notes:
        settings = FieldConfig(agency_field_config(case.agency_id)).for_kind("note")
        duration = settings.get("duration_minutes", {})
    for note in notes:
        note.case = case
        people = {NOTE_PEOPLE[Participant(p)] for p in note.participants} | {timeline.STAFF}
        facts = [(_("Written by"), _name(note.author))]
        if note.duration_minutes and not duration.get("hidden"):
            facts.append(
                (
                    duration.get("label") or _("How long"),
                    ngettext("%(count)s minute", "%(count)s minutes", note.duration_minutes)
                    % {"count": note.duration_minutes},
                )
            )
        if note.amended:
            facts.append(
                (
                    _("Amended"),
                    ngettext("%(count)s time", "%(count)s times", note.amended)
                    % {"count": note.amended},
                )
            )
        if note.break_glass_id:
            facts.append((_("Access"), _("Written under emergency access")))
        entries.append(
            Entry(
                at=note.occurred_at,
                kind="note",
                key=timeline.key_of(note.pk),
                title=gettext("%(kind)s: %(direction)s")
                % {
                    "kind": note.get_kind_display(),
                    "direction": note.get_direction_display().lower(),
                }
                if note.direction != "none"
                else note.get_kind_display(),
                body=note.text,
                people=frozenset(people),
                url=reverse("casework:note", args=[case.public_id, note.public_id]),
                facts=tuple(facts),
            )
        )
    return entries


def _incident_person_filter(person: str | None) -> Q:
    if person is None:
        return Q()
    if person == timeline.SURVIVOR:
        return Q()  # every incident happened to the survivor
    wanted = [p for p, tag in INCIDENT_PEOPLE.items() if tag == person]
    return Q(person__in=wanted)


def incident_entries(case, query: Query) -> list[Entry]:
    rows = (
        Incident.objects.filter(case=case)
        .filter(timeline.keyset(query, "incident", "occurred_at"))
        .filter(_incident_person_filter(query.person))
        .order_by("-occurred_at", "-pk")[: query.limit]
    )
    entries = []
    for incident in rows:
        incident.case = case
        people = {timeline.SURVIVOR}
        if incident.person in INCIDENT_PEOPLE:
            people.add(INCIDENT_PEOPLE[IncidentPerson(incident.person)])
        facts = [(_("Police involved"), incident.get_police_display())]
        if incident.serious:
            facts.append((_("Serious"), _("Yes")))
        if incident.approximate and incident.when_described:
            facts.append((_("When"), incident.when_described))
        entries.append(
            Entry(
                at=incident.occurred_at,
                kind="incident",
                key=timeline.key_of(incident.pk),
                title=gettext("Incident: %(kinds)s")
                % {"kinds": ", ".join(str(k) for k in incident.kind_labels).lower()},
                body=incident.what_happened,
                people=frozenset(people),
                approximate=incident.approximate,
                url=reverse("casework:incident", args=[case.public_id, incident.public_id]),
                facts=tuple(facts),
            )
        )
    return entries


NEED_PEOPLE = frozenset({timeline.SURVIVOR, timeline.STAFF})
SERVICE_PEOPLE = frozenset({timeline.SURVIVOR, timeline.STAFF, timeline.OTHER_AGENCY})


def need_entries(case, query: Query) -> list[Entry]:
    """Each change of a need's status (the first: the need identified), on the day it happened."""
    if not about(query, NEED_PEOPLE):
        return []
    qs = NeedStatusChange.objects.filter(case=case).select_related("need", "changed_by")
    entries = []
    for row in newest_days(qs, query, "need", "changed_on"):
        row.case = case
        kind = row.need.get_kind_display()
        if not row.from_status:
            title = gettext("Need identified: %(kind)s") % {"kind": kind}
        else:
            title = gettext("Need %(status)s: %(kind)s") % {
                "status": NeedStatus(row.to_status).label.lower(),
                "kind": kind,
            }
        facts = [(gettext("Recorded by"), _name(row.changed_by))]
        if row.from_status:
            facts.append((gettext("Before"), str(NeedStatus(row.from_status).label)))
        entries.append(
            Entry(
                at=day_start(row.changed_on),
                kind="need",
                key=key_of(row.pk),
                title=title,
                body=row.comment,
                people=NEED_PEOPLE,
                date_only=True,
                url=reverse("casework:need", args=[case.public_id, row.need.public_id]),
                facts=tuple(facts),
            )
        )
    return entries


def service_entries(case, query: Query) -> list[Entry]:
    """Services given and referrals made, on the day."""
    if not about(query, SERVICE_PEOPLE):
        return []
    qs = Service.objects.filter(case=case).select_related("need")
    entries = []
    for row in newest_days(qs, query, "service", "provided_on"):
        row.case = case
        if row.how == ServiceHow.REFERRED:
            title = gettext("Referred to %(provider)s") % {"provider": row.provider}
        else:
            title = gettext("Service given")
        facts = []
        if row.need is not None:
            facts.append((gettext("For the need"), str(row.need.get_kind_display())))
        if row.outcome:
            facts.append((gettext("Outcome"), str(row.get_outcome_display())))
        entries.append(
            Entry(
                at=day_start(row.provided_on),
                kind="service",
                key=key_of(row.pk),
                title=title,
                body=row.description,
                people=SERVICE_PEOPLE,
                date_only=True,
                url=reverse("casework:service_change", args=[case.public_id, row.public_id]),
                facts=tuple(facts),
            )
        )
    return entries


SOURCES = (
    Source(kind="note", label=_("Case notes"), fetch=note_entries, model=CaseNote, order=10),
    Source(kind="incident", label=_("Incidents"), fetch=incident_entries, model=Incident, order=11),
    Source(
        kind="need",
        label=_("Needs"),
        fetch=need_entries,
        model=NeedStatusChange,
        order=12,
        categories=frozenset({"narratives"}),
    ),
    Source(
        kind="service",
        label=_("Services and referrals"),
        fetch=service_entries,
        model=Service,
        order=13,
        categories=frozenset({"narratives"}),
    ),
)
