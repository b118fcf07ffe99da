"""Read-side queries of the audit workspace: scoped by policy, keyset-paginated on ``seq`` (no
OFFSET, no COUNT), metadata only (nothing encrypted is loaded)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max, Min, Q, QuerySet
from django.utils.translation import gettext

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.models import AuditEvent, AuditEventQuerySet
from caseflow.cases.audit_start import ALERT_KINDS
from caseflow.cases.models import BreakGlassGrant, Case
from caseflow.inbox.models import Notification
from caseflow.lib.compiled import CompiledForIds, CompiledQuery, Kind
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.oversight.templatetags.audit_words import code_words, field_words


def reads(events: QuerySet[AuditEvent]) -> QuerySet[AuditEvent]:
    """The reads of case data among ``events`` (see ``AuditEventQuerySet.reads``)."""
    return AuditEventQuerySet.reads(events)  # type: ignore[arg-type]


PAGE_SIZE = 50

#: Audit actions that change a case's own fields, with what they change.
CHANGE_ACTIONS = {
    "case.create": _("Case opened"),
    "case.update": _("Case details"),
    "case.status": _("Status"),
    "case.assign": _("Assignment"),
    "case.restrict": _("Access list"),
    "party.create": _("Person added"),
    "party.update": _("Person"),
    "safe_contact.save": _("Safe-contact profile"),
}


@dataclass
class Page:
    events: list[AuditEvent]
    next_before: int | None  # pass as ?before= for the next (older) page


def _with_actor(events: QuerySet) -> QuerySet:
    return events.select_related("actor").only(
        *[f.name for f in AuditEvent._meta.concrete_fields if f.name != "actor"],
        "actor__username",
        "actor__first_name",
        "actor__last_name",
    )


def keyset_page(events: QuerySet, before: int | None, size: int = PAGE_SIZE) -> Page:
    """Newest first; one extra row tells whether an older page exists."""
    rows = list(_keyset(events, before)[: size + 1])
    more = len(rows) > size
    rows = rows[:size]
    return Page(rows, rows[-1].seq if more and rows else None)


# --- Statements compiled once per process ------------------------------------------------------
# Each audit page's statements depend on who asks only through the values ``policy.audit_values``
# gives (the reader's id, agency and the time) and the page's own (a case, a sequence number):
# they are built once per process for each role and shape (``caseflow.lib.compiled``), the very
# statements the querysets send (tests compare them). Whoever has no agency is served as before.

#: The audit pages' compiled statements, by role and shape; past this many, built each time.
_COMPILED: dict[tuple[Any, ...], CompiledQuery[Any]] = {}
_COMPILED_MAX = 512
#: Labels are read with SQL compiled for each number of cases on a page up to this many.
LABELLED_CASES_MAX = 64

_KINDS: dict[str, Kind] = {"user": "int", "agency": "int", "now": "datetime"}


def _compiled(key: tuple[Any, ...], model: Any, build: Any, slots: dict[str, Kind]) -> Any:
    compiled = _COMPILED.get(key)
    if compiled is None and len(_COMPILED) < _COMPILED_MAX:
        compiled = _COMPILED.setdefault(key, CompiledQuery(model, build, **slots))
    return compiled


def _reader(
    user: Any, *, events: bool = False
) -> tuple[str, dict[str, Any], dict[str, Kind]] | None:
    """``user``'s role, the values of their audit scope (``policy.audit_values``) and those
    values' kinds; ``None`` where the statements are built each time."""
    found = policy.audit_values(user, events=events)
    if found is None or found[1]["agency"] is None:
        return None
    role, values = found
    return role, values, {name: _KINDS[name] for name in values}


def _first(queryset: QuerySet) -> QuerySet:
    """What ``queryset.first()`` reads."""
    return (queryset if queryset.ordered else queryset.order_by("pk"))[:1]


def audit_case(user: Any, public_id: str) -> Case | None:
    """The case behind ``public_id`` if its audit trail is in ``user``'s scope
    (``policy.audit_cases``), without its encrypted summary: audit pages never show the case's
    content."""
    reader = _reader(user)
    if reader is None:
        return policy.audit_cases(user).filter(public_id=public_id).defer("summary").first()
    role, values, slots = reader

    def build(*, public_id: str, **values: Any) -> QuerySet[Case]:
        scope = policy.audit_cases_of(role, **values)
        return _first(scope.filter(public_id=public_id).defer("summary"))

    compiled = _compiled(("case", role), Case, build, {**slots, "public_id": "str"})
    if compiled is None:
        return policy.audit_cases(user).filter(public_id=public_id).defer("summary").first()
    rows = compiled.rows(**values, public_id=public_id)
    return rows[0] if rows else None


#: The filters of :func:`filtered_events`: without any, the events are the whole scope.
FILTERS = ("date_from", "date_to", "action", "user", "case")


def events_page(user: Any, data: dict[str, Any], before: int | None) -> Page:
    """``keyset_page(filtered_events(user, data), before)``."""
    if any(data.get(name) for name in FILTERS):
        return keyset_page(filtered_events(user, data), before)
    return _scope_page("events", user, {}, lambda events: events, before)


def case_reads_page(user: Any, case: Any, before: int | None) -> Page:
    """``keyset_page(case_reads(policy.auditable_events(user), case), before)``."""
    return _scope_page(
        "reads",
        user,
        {"case": ("int", case.pk), "listed": ("str", _listed(case))},
        lambda events, case, listed: _case_reads(events, case, listed),
        before,
    )


def _scope_page(
    kind: str,
    user: Any,
    extra: dict[str, tuple[Kind, Any]],
    narrow: Any,
    before: int | None,
    size: int = PAGE_SIZE,
) -> Page:
    """:func:`keyset_page` of ``narrow(policy.auditable_events(user), **extra)``."""
    reader = _reader(user, events=True)
    given = {name: value for name, (_kind, value) in extra.items()}
    if reader is None:
        return keyset_page(narrow(policy.auditable_events(user), **given), before, size)
    role, values, slots = reader
    slots = {**slots, **{name: kind_ for name, (kind_, _value) in extra.items()}}
    if before:
        slots["before"] = "int"
        values = {**values, "before": before}

    def build(**values: Any) -> QuerySet[AuditEvent]:
        before = values.pop("before", None)
        narrowing = {name: values.pop(name) for name in extra}
        return _keyset(narrow(policy.auditable_events_of(role, **values), **narrowing), before)[
            : size + 1
        ]

    compiled = _compiled((kind, role, bool(before), size), AuditEvent, build, slots)
    if compiled is None:
        return keyset_page(narrow(policy.auditable_events(user), **given), before, size)
    rows = compiled.rows(**values, **given)
    more = len(rows) > size
    rows = rows[:size]
    return Page(rows, rows[-1].seq if more and rows else None)


def _keyset(events: QuerySet, before: int | None) -> QuerySet:
    """``events`` older than ``before``, newest first, with their actors."""
    if before:
        events = events.filter(seq__lt=before)
    return _with_actor(events).order_by("-seq")


def filtered_events(user: Any, data: dict[str, Any]) -> QuerySet:
    """The events in ``user``'s audit scope matching the workspace filters."""
    events = policy.auditable_events(user)
    if data.get("date_from"):
        events = events.filter(at__gte=_start_of(data["date_from"]))
    if data.get("date_to"):
        events = events.filter(at__lt=_start_of(data["date_to"] + dt.timedelta(days=1)))
    action = data.get("action")
    if action:
        events = (
            events.filter(action__startswith=action)
            if action.endswith(".")
            else (events.filter(action=action))
        )
    if data.get("user"):
        events = events.filter(actor_id=data["user"].pk)
    if data.get("case"):
        agency_id = getattr(user, "agency_id_or_none", None)
        case_ids = Case.objects.filter(
            Q(agency_id=agency_id), reference=data["case"].strip()
        ).values_list("pk", flat=True)[:1]
        events = events.filter(case_id__in=list(case_ids) or [0])
    return events


def _start_of(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time.min, tzinfo=dt.UTC)


def label_cases(user: Any, events: list[AuditEvent]) -> list[AuditEvent]:
    """Give each event its case's reference, and the case's public id where the user may open
    its timeline (two queries, whatever the page size)."""
    ids = list(dict.fromkeys(e.case_id for e in events if e.case_id))
    labels = _labels(user, ids) if ids else {}
    for event in events:
        # Shown in the events table beside each event.
        event.case_reference, event.case_public_id = labels.get(  # type: ignore[attr-defined]
            event.case_id or 0, ("", None)
        )
    return events


def _labels(user: Any, ids: list[int]) -> dict[int, tuple[str, str | None]]:
    """Each case's reference, and its public id where ``user`` may open its timeline."""
    reader = _reader(user)
    compiled = None if reader is None else _labels_compiled(reader, len(ids))
    if compiled is None:
        openable = set(policy.audit_cases(user).filter(pk__in=ids).values_list("pk", flat=True))
        return {
            pk: (ref, pid if pk in openable else None)
            for pk, ref, pid in Case.objects.filter(pk__in=ids).values_list(
                "pk", "reference", "public_id"
            )
        }
    assert reader is not None
    openable_of, labels_of = compiled
    openable = {c.pk for c in openable_of.rows(ids, **reader[1]) or ()}
    return {
        c.pk: (c.reference, c.public_id if c.pk in openable else None)
        for c in labels_of.rows(ids) or ()
    }


#: Each role's statement of the cases among a page's whose timeline its reader may open.
_OPENABLE: dict[str, CompiledForIds[Case]] = {}
#: The references and public ids of a page's cases.
_LABELS = CompiledForIds(
    Case,
    lambda ids: Case.objects.filter(pk__in=ids).only("reference", "public_id"),
    most=LABELLED_CASES_MAX,
)


def _labels_compiled(
    reader: tuple[str, dict[str, Any], dict[str, Kind]], size: int
) -> tuple[CompiledForIds[Case], CompiledForIds[Case]] | None:
    """:func:`_labels`' two statements, compiled once per process for each number of cases."""
    if not 0 < size <= LABELLED_CASES_MAX:
        return None
    role, _values, slots = reader
    openable = _OPENABLE.get(role)
    if openable is None:

        def build(ids: list[int], **values: Any) -> QuerySet[Case]:
            return policy.audit_cases_of(role, **values).filter(pk__in=ids).only("pk")

        openable = _OPENABLE.setdefault(
            role, CompiledForIds(Case, build, most=LABELLED_CASES_MAX, **slots)
        )
    return openable, _LABELS


def iter_events(events: QuerySet, batch: int = 2000) -> Iterator[AuditEvent]:
    """Every event of ``events``, newest first, in keyset batches (constant memory)."""
    before = None
    while True:
        chunk = events.filter(seq__lt=before) if before else events
        rows = list(_with_actor(chunk).order_by("-seq")[:batch])
        if not rows:
            return
        yield from rows
        before = rows[-1].seq


#: Reads of several cases at once, which name them in ``detail["cases"]`` rather than in
#: ``case_id`` (one calendar feed fetch carries check-ins of many cases).
MULTI_CASE_READS = ("calendar.fetch",)


def case_reads(events: QuerySet[AuditEvent], case: Any) -> QuerySet[AuditEvent]:
    """The reads of ``case`` among ``events``: those recorded against it, and the reads of
    several cases whose ``detail["cases"]`` lists it."""
    return _case_reads(events, case.pk, _listed(case))


def _listed(case: Any) -> str:
    """A pattern of ``case`` among ``detail["cases"]`` as text: "[3,7]" (SQLite) or "[3, 7]"
    (PostgreSQL)."""
    return rf"[\[ ,]{int(case.pk)}[,\]]"


def _case_reads(events: QuerySet[AuditEvent], case: int, listed: str) -> QuerySet[AuditEvent]:
    return reads(events).filter(
        Q(case_id=case)
        | Q(case_id__isnull=True, action__in=MULTI_CASE_READS, detail__cases__regex=listed)
    )


def who_accessed(events: QuerySet[AuditEvent]) -> list[dict[str, Any]]:
    """Per person: how many reads, first and last."""
    return _with_people(list(_per_person(events)))


def case_readers(user: Any, case: Any) -> list[dict[str, Any]]:
    """``who_accessed(case_reads(policy.auditable_events(user), case))``."""
    reader = _reader(user, events=True)
    if reader is None:
        return who_accessed(case_reads(policy.auditable_events(user), case))
    role, values, slots = reader

    def build(*, case: int, listed: str, **values: Any) -> QuerySet[Any]:
        return _per_person(_case_reads(policy.auditable_events_of(role, **values), case, listed))

    compiled = _compiled(
        ("readers", role), AuditEvent, build, {**slots, "case": "int", "listed": "str"}
    )
    if compiled is None:
        return who_accessed(case_reads(policy.auditable_events(user), case))
    return _with_people(compiled.dicts(**values, case=case.pk, listed=_listed(case)))


def _per_person(events: QuerySet[AuditEvent]) -> QuerySet[Any]:
    return (
        reads(events)
        .order_by()
        .values("actor_id", "actor_role")
        .annotate(reads=Count("seq"), first=Min("at"), last=Max("at"))
        .order_by("-last")
    )


def _with_people(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    people = {
        u.pk: u
        for u in User.objects.filter(pk__in={r["actor_id"] for r in rows if r["actor_id"]}).only(
            "username", "first_name", "last_name"
        )
    }
    return [{**row, "actor": people.get(row["actor_id"])} for row in rows]


def change_history(events: QuerySet, size: int = PAGE_SIZE) -> list[dict[str, Any]]:
    """The versions of a case's own record: who changed what (field names) and when."""
    rows = list(_with_actor(events.filter(action__in=CHANGE_ACTIONS)).order_by("-seq")[:size])
    return [
        {
            "event": e,
            "what": CHANGE_ACTIONS[e.action],
            "role": _role_words(e),
            "fields": _changed(e),
        }
        for e in rows
    ]


def attach_values(case: Any, history: list[dict[str, Any]], size: int = PAGE_SIZE) -> None:
    """Add each change's before/after values (``change["diff"]``) from the encrypted
    CaseChange rows. Only for people who may read the case: the caller checks that.

    One query whatever the history holds: the newest CaseChange rows of the case, with the
    case's wrapped key joined in."""
    from caseflow.cases.models import CaseChange
    from caseflow.lib.encryption import unwrap_data_key

    rows = list(
        CaseChange.objects.filter(case=case)
        .select_related("case__key")
        .order_by("-audit_seq")[:size]
    )
    by_seq = {}
    for row in rows:
        row.case.__dict__["_data_key"] = unwrap_data_key(row.case.key.wrapped)
        by_seq[row.audit_seq] = row.changes if isinstance(row.changes, list) else []
    for h in history:
        h["diff"] = [
            {"field": field_words(str(f)), "before": before, "after": after}
            for f, before, after in by_seq.get(h["event"].seq, [])
        ]


def _role_words(event: AuditEvent) -> str:
    role = (event.detail or {}).get("role", "")
    return code_words(str(role), "role", event.action) if role else ""


def _changed(event: AuditEvent) -> list[str]:
    detail = event.detail or {}
    if "fields" in detail:
        return [field_words(str(f)) for f in detail["fields"]]
    if event.action == "case.status":
        return [
            gettext("status: %(before)s → %(after)s")
            % {
                "before": code_words(str(detail.get("from")), "from", event.action),
                "after": code_words(str(detail.get("to")), "to", event.action),
            }
        ]
    if event.action == "case.assign":
        return [gettext("assignees")]
    if event.action == "case.restrict":
        return [gettext("access list")]
    return []


def break_glass_queue(user: Any) -> tuple[list[BreakGlassGrant], list[BreakGlassGrant]]:
    """Emergency accesses to review (oldest first) and the latest reviewed ones."""
    grants = (
        BreakGlassGrant.objects.filter(case__in=_grant_cases(user))
        .select_related("case", "user", "reviewed_by")
        .only(
            "granted_at",
            "expires_at",
            "reviewed_at",
            "case__public_id",
            "case__reference",
            "case__team_id",
            "user__username",
            "user__first_name",
            "user__last_name",
            "reviewed_by__username",
            "reviewed_by__first_name",
            "reviewed_by__last_name",
        )
        # Case notes written under the access (casework flags them for this review).
        .annotate(notes=Count("notes_written"))
    )
    pending: list[BreakGlassGrant] = list(
        grants.filter(reviewed_at__isnull=True).order_by("granted_at", "pk")[:200]
    )
    done: list[BreakGlassGrant] = list(
        grants.filter(reviewed_at__isnull=False).order_by("-reviewed_at", "-pk")[:20]
    )
    return pending, done


def _grant_cases(user: Any) -> QuerySet[Case]:
    if policy.reviews_break_glass(user):
        # The supervisor's teams' cases, restricted ones only where listed.
        return policy.audit_cases(user).filter(team__in=policy.supervised_teams(user))
    return policy.audit_cases(user)


def grant_for(user: Any, grant_id: int) -> BreakGlassGrant | None:
    """The grant behind ``grant_id`` if its case's audit trail is in ``user``'s scope."""
    return (
        BreakGlassGrant.objects.filter(pk=grant_id, case__in=policy.audit_cases(user))
        .select_related("case", "case__team", "user", "reviewed_by")
        .first()
    )


#: The audit page shows this many alerts, read with SQL compiled once per process.
ALERTS_SHOWN = 10


def alerts_for(user: Any, size: int = ALERTS_SHOWN) -> list:
    """The user's audit alerts still to deal with (emergency accesses, unusual access patterns),
    latest first: one dealt with (the access reviewed, the alert read) is no longer listed."""
    if size != ALERTS_SHOWN or getattr(user, "pk", None) is None:
        return list(_alerts(user, size))
    return _ALERTS.rows(user=user.pk)


def _alerts(user: Any, size: int) -> QuerySet[Notification]:
    return (
        Notification.objects.filter(recipient=user, kind__in=ALERT_KINDS, read_at__isnull=True)
        .only("kind", "text", "params", "link", "created_at", "read_at")
        .order_by("-created_at", "-pk")[:size]
    )


_ALERTS = CompiledQuery(Notification, lambda user: _alerts(user, ALERTS_SHOWN), user="int")


#: Events shown on an emergency-access review: what the person did with the access.
GRANT_ACTIVITY_LIMIT = 200


def grant_activity(user: Any, grant: BreakGlassGrant) -> list[AuditEvent]:
    """What ``grant``'s holder did on its case while it lasted, as far as ``user`` (its
    reviewer) may see the audit trail: the answer to "what did they do with it?", even when
    they work in another team."""
    events = policy.auditable_events(user).filter(
        actor_id=grant.user_id,
        case_id=grant.case_id,
        at__gte=grant.granted_at,
        at__lte=grant.expires_at,
    )
    rows = list(_with_actor(events).order_by("at", "pk")[:GRANT_ACTIVITY_LIMIT])
    return label_cases(user, rows)
