"""Read-side queries and read models for agreements. The case always comes from policy first;
every look-up here is scoped to that case, so an id from another case is simply not found."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from django.core.paginator import Page, Paginator
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from caseflow.agreements import terms
from caseflow.agreements.breaches import breach_events, counted_breaches, is_breach
from caseflow.agreements.labels import (
    CHANNEL_LABELS,
    DIRECTION_LABELS,
    KIND_LABELS,
    TERM_LABELS,
    finding_sentence,
)
from caseflow.agreements.models import (
    AgreementVersion,
    ContactAgreement,
    ContactEvent,
    Evidence,
)
from caseflow.agreements.services import version_in_force
from caseflow.cases.models import Case, Party, PartyRole
from caseflow.lib.csvcells import csv_cell
from caseflow.lib.i18n import gettext_lazy as _

if TYPE_CHECKING:
    from caseflow.agreements.models import Breach

LIST_FIELDS = (
    "public_id",
    "status",
    "effective_from",
    "effective_to",
    "order_expires_on",
    "current_number",
    "case",
)


def agreements_for_case(case: Case) -> list[ContactAgreement]:
    """The case's agreements, metadata only (nothing encrypted is loaded)."""
    rows = list(ContactAgreement.objects.filter(case=case).only(*LIST_FIELDS))
    for row in rows:
        row.case = case
    return rows


def agreement_get(case: Case, agreement_id: str) -> ContactAgreement:
    agreement = ContactAgreement.objects.filter(case=case, public_id=agreement_id).first()
    if agreement is None:
        raise Http404(_("No such agreement on this case"))
    agreement.case = case
    return agreement


def child_choices(case: Case) -> list[tuple[str, str]]:
    children = list(Party.objects.filter(case=case, role=PartyRole.CHILD))
    for child in children:
        child.case = case
    return [(child.public_id, child.full_name) for child in children]


def children_by_id(case: Case, ids: list[str]) -> list[Party]:
    return list(Party.objects.filter(case=case, role=PartyRole.CHILD, public_id__in=ids))


def agreement_children(agreement: ContactAgreement) -> list[Party]:
    children = list(agreement.children.all())
    for child in children:
        child.case = agreement.case
    return children


def versions(agreement: ContactAgreement) -> list[AgreementVersion]:
    rows = list(agreement.versions.select_related("author").order_by("number"))
    for row in rows:
        row.case = agreement.case
    return rows


def version_list(agreement: ContactAgreement) -> list[AgreementVersion]:
    """Version metadata for the versions page (terms are not loaded)."""
    return list(
        agreement.versions.select_related("author")
        .only(
            "number",
            "created_at",
            "agreement_id",
            "author__username",
            "author__first_name",
            "author__last_name",
        )
        .order_by("number")
    )


def version_get(agreement: ContactAgreement, number: int) -> AgreementVersion:
    version = agreement.versions.filter(number=number).first()
    if version is None:
        raise Http404(_("No such version"))
    version.case = agreement.case
    return version


def agreed_topics(version: AgreementVersion | None) -> list[str]:
    """The permitted and emergency topics of a version, for suggestions when logging contact."""
    if version is None:
        return []
    t = terms.Agreement.from_dict(version.terms)
    return sorted(t.permitted_topics | t.emergency_topics)


def current_version(agreement: ContactAgreement) -> AgreementVersion | None:
    if not agreement.current_number:
        return None
    return version_get(agreement, agreement.current_number)


# --- Describing terms -------------------------------------------------------------------------


def _channels(mapping, direction) -> str:
    chosen = mapping[direction]
    return (
        ", ".join(str(label) for value, label in CHANNEL_LABELS.items() if value in chosen) or "—"
    )


DAY_NAMES = (_("Mon"), _("Tue"), _("Wed"), _("Thu"), _("Fri"), _("Sat"), _("Sun"))


def _days_text(days) -> str:
    return (
        gettext("every day")
        if len(days) == 7
        else ", ".join(str(DAY_NAMES[d]) for d in sorted(days))
    )


PER_LABELS = {"day": _("day"), "week": _("week"), "month": _("month")}


def describe_terms(version: AgreementVersion) -> list[tuple[str, str]]:
    """The terms of a version as (label, plain text) lines, in a fixed order."""
    t = terms.Agreement.from_dict(version.terms)
    p = version.protocol or {}
    to, frm = terms.Direction.TO_SURVIVOR, terms.Direction.FROM_SURVIVOR
    local_from = t.effective_from.astimezone(t.zone)
    local_to = t.effective_to.astimezone(t.zone) if t.effective_to else None
    cap = t.frequency_cap
    handover = t.handover
    if handover is None:
        handover_text = "—"
    else:
        parts = [
            handover.place or gettext("place not named"),
            gettext("%(days)s at %(time)s")
            % {"days": _days_text(handover.weekdays), "time": f"{handover.time:%H:%M}"},
            gettext("%(minutes)s minutes' tolerance") % {"minutes": handover.tolerance_minutes},
            gettext("supervised") if handover.supervised else gettext("not supervised"),
        ]
        if p.get("handover_by"):
            parts.append(gettext("by %(name)s") % {"name": p["handover_by"]})
        if handover.no_direct_contact:
            parts.append(gettext("no direct contact"))
        handover_text = "; ".join(parts)
    response = []
    if p.get("routine_response_hours"):
        response.append(
            gettext("routine within %(hours)s hours") % {"hours": p["routine_response_hours"]}
        )
    if p.get("urgent_response_hours"):
        response.append(
            gettext("urgent within %(hours)s hours") % {"hours": p["urgent_response_hours"]}
        )
    return [
        (_("Applies from"), f"{date_format(local_from)} ({t.timezone})"),
        (_("Applies until"), date_format(local_to) if local_to else gettext("open-ended")),
        (_("Other parent may use"), _channels(t.permitted_channels, to)),
        (_("Other parent must not use"), _channels(t.forbidden_channels, to)),
        (_("The survivor has chosen to use"), _channels(t.permitted_channels, frm)),
        (_("The survivor has chosen not to use"), _channels(t.forbidden_channels, frm)),
        (_("Permitted topics"), ", ".join(sorted(t.permitted_topics)) or gettext("any")),
        (
            _("Contact times"),
            "; ".join(w.describe() for w in t.time_windows) or gettext("any time"),
        ),
        (
            _("Frequency cap"),
            gettext("at most %(limit)s a %(per)s, %(direction)s")
            % {
                "limit": cap.limit,
                "per": PER_LABELS.get(cap.per.value, cap.per.value),
                "direction": DIRECTION_LABELS[cap.direction],
            }
            if cap
            else gettext("none"),
        ),
        (_("Response windows"), ", ".join(response) or "—"),
        (_("Emergency topics"), ", ".join(sorted(t.emergency_topics)) or "—"),
        (_("What counts as an emergency"), p.get("emergency_definition") or "—"),
        (_("Handover"), handover_text),
        (
            _("Child-contact times"),
            "; ".join(w.describe() for w in t.child_contact_windows) or gettext("not restricted"),
        ),
    ]


@dataclass
class DiffLine:
    label: str
    old: str
    new: str

    @property
    def changed(self) -> bool:
        return self.old != self.new


def version_diff(old: AgreementVersion, new: AgreementVersion) -> list[DiffLine]:
    """A readable comparison of two versions, line by line."""
    before = dict(describe_terms(old))
    after = describe_terms(new)
    lines = [DiffLine(label, before.get(label, "—"), text) for label, text in after]
    lines.append(DiffLine(_("Note"), old.note or "—", new.note or "—"))
    return lines


# --- Contact log -------------------------------------------------------------------------------


#: Contact log filters (the ``show`` parameter) and their words.
LOG_FILTERS = {
    "": _("All contact"),
    "breaches": _("Breaches only"),
    "other_party": _("From the other party"),
    "survivor": _("From the survivor"),
}
LOG_PAGE_SIZE = 25


def contact_log_queryset(agreement: ContactAgreement, show: str = "", channel: str = ""):
    """The agreement's contact events, newest first, filtered: ``show`` is a key of
    :data:`LOG_FILTERS` (breaches only counts the other party's, through the one rule),
    ``channel`` one of the channels (anything else is ignored)."""
    rows = ContactEvent.objects.filter(agreement=agreement)
    if show == "breaches":
        rows = breach_events(rows)
    elif show == "other_party":
        rows = rows.filter(direction=terms.Direction.TO_SURVIVOR.value)
    elif show == "survivor":
        rows = rows.filter(direction=terms.Direction.FROM_SURVIVOR.value)
    if channel in CHANNEL_LABELS:
        rows = rows.filter(channel=channel)
    return rows.order_by("-occurred_at", "-pk")


def contact_log_page(
    agreement: ContactAgreement, *, show: str = "", channel: str = "", page: str | int = 1
) -> Page:
    """One page of the filtered contact log, each row ready to show (see :func:`events_for`)."""
    paginator = Paginator(contact_log_queryset(agreement, show, channel), LOG_PAGE_SIZE)
    shown = paginator.get_page(page)
    shown.object_list = _ready(
        agreement,
        shown.object_list.select_related("breach").prefetch_related("evidence"),  # type: ignore[attr-defined]
    )
    return shown


def events_for(agreement: ContactAgreement) -> list[ContactEvent]:
    return _ready(
        agreement,
        ContactEvent.objects.filter(agreement=agreement)
        .select_related("breach")
        .prefetch_related("evidence")
        .order_by("-occurred_at", "-pk"),
    )


def _ready(agreement: ContactAgreement, queryset) -> list[ContactEvent]:
    rows = list(queryset)
    case = agreement.case
    for row in rows:
        row.case = case  # one unwrapped data key for the whole page
        breach = getattr(row, "breach", None) if is_breach(row) else None
        if breach is not None:
            breach.case = case
        for evidence in row.evidence.all():
            evidence.case = case
    return rows


def event_get(agreement: ContactAgreement, event_id: str) -> ContactEvent:
    event = ContactEvent.objects.filter(agreement=agreement, public_id=event_id).first()
    if event is None:
        raise Http404(_("No such contact event"))
    event.case = agreement.case
    event.agreement = agreement
    return event


def evidence_get(case: Case, evidence_id: str) -> Evidence:
    evidence = (
        Evidence.objects.filter(case=case, public_id=evidence_id).select_related("event").first()
    )
    if evidence is None:
        raise Http404(_("No such file"))
    evidence.case = case
    return evidence


def local(moment: dt.datetime, zone: str) -> dt.datetime:
    return moment.astimezone(ZoneInfo(zone))


# --- The trend chart ----------------------------------------------------------------------------

MAX_WEEKS = 104


@dataclass
class WeekCount:
    start: dt.date
    events: int
    breaches: int


def weekly_counts(agreement: ContactAgreement, today: dt.date | None = None) -> list[WeekCount]:
    """Contact events and breaches per local week (Monday start) over the agreement's life."""
    zone = ZoneInfo(agreement.timezone)
    today = today or timezone.now().astimezone(zone).date()
    end = min(agreement.effective_to, today) if agreement.effective_to else today
    event_times = list(
        ContactEvent.objects.filter(agreement=agreement).values_list("occurred_at", flat=True)
    )
    breach_times = list(
        counted_breaches().filter(agreement=agreement).values_list("occurred_at", flat=True)
    )
    if event_times:
        first_event = min(event_times).astimezone(zone).date()
        end = max(end, max(event_times).astimezone(zone).date())
    else:
        first_event = agreement.effective_from
    start = min(agreement.effective_from, first_event)
    first_monday = start - dt.timedelta(days=start.weekday())
    last_monday = end - dt.timedelta(days=end.weekday())
    if last_monday < first_monday:
        last_monday = first_monday
    weeks = (last_monday - first_monday).days // 7 + 1
    if weeks > MAX_WEEKS:
        first_monday = last_monday - dt.timedelta(weeks=MAX_WEEKS - 1)
        weeks = MAX_WEEKS
    counts = [WeekCount(first_monday + dt.timedelta(weeks=i), 0, 0) for i in range(weeks)]

    def slot(moment: dt.datetime) -> int | None:
        day = moment.astimezone(zone).date()
        index = (day - first_monday).days // 7
        return index if 0 <= index < weeks else None

    for moment in event_times:
        index = slot(moment)
        if index is not None:
            counts[index].events += 1
    for moment in breach_times:
        index = slot(moment)
        if index is not None:
            counts[index].breaches += 1
    return counts


def trend_chart(counts: list[WeekCount]) -> dict:
    """Coordinates for a server-rendered SVG bar chart (events) with a breach line."""
    width, height = 640, 200
    left, right, top, bottom = 36, 8, 10, 28
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = max([c.events for c in counts] + [c.breaches for c in counts] + [1])
    step = plot_w / max(len(counts), 1)
    bar_w = max(step * 0.7, 1)
    bars, points, labels = [], [], []
    for i, week in enumerate(counts):
        x = left + i * step
        h = plot_h * week.events / peak
        bars.append(
            {
                "x": round(x + (step - bar_w) / 2, 1),
                "y": round(top + plot_h - h, 1),
                "w": round(bar_w, 1),
                "h": round(h, 1),
                "week": week,
            }
        )
        px = x + step / 2
        py = top + plot_h - plot_h * week.breaches / peak
        points.append((round(px, 1), round(py, 1), week))
    label_every = max(1, len(counts) // 6)
    for i, week in enumerate(counts):
        if i % label_every == 0:
            labels.append(
                {"x": round(left + i * step + step / 2, 1), "text": f"{week.start:%d %b}"}
            )
    return {
        "width": width,
        "height": height,
        "left": left,
        "top": top,
        "bottom_y": top + plot_h,
        "right_x": width - right,
        "peak": peak,
        "mid": round(top + plot_h / 2, 1),
        "peak_half": round(peak / 2, 1),
        "bars": bars,
        "points": points,
        "polyline": " ".join(f"{x},{y}" for x, y, _ in points),
        "labels": labels,
        "label_y": height - 8,
        "total_events": sum(c.events for c in counts),
        "total_breaches": sum(c.breaches for c in counts),
    }


# --- Chronology -----------------------------------------------------------------------------------


def chronology(agreement: ContactAgreement) -> dict:
    """The court chronology of the agreement's breaches, with the terms in force at each time,
    and a SHA-256 fingerprint over its content (not over when it was generated)."""
    case = agreement.case
    zone = agreement.timezone
    all_versions = versions(agreement)
    by_number = {v.number: v for v in all_versions}
    parsed = [(v.number, terms.Agreement.from_dict(v.terms)) for v in all_versions]
    breaches = list(
        counted_breaches()
        .filter(agreement=agreement)
        .select_related("event")
        .order_by("occurred_at", "pk")
    )
    rows = []
    for breach in breaches:
        breach.case = case
        breach.event.case = case
        number, _terms = version_in_force(parsed, breach.occurred_at)
        rows.append(
            {
                "ref": breach.public_id[:8],
                "occurred": f"{local(breach.occurred_at, zone):%Y-%m-%d %H:%M}",
                "reported": f"{local(breach.reported_at, zone):%Y-%m-%d %H:%M}",
                "channel": CHANNEL_LABELS.get(breach.channel, breach.channel),
                "direction": DIRECTION_LABELS.get(breach.event.direction, breach.event.direction),
                "kind": KIND_LABELS.get(breach.event.kind, breach.event.kind),
                "terms": [TERM_LABELS.get(t, t) for t in breach.terms_broken],
                "findings": [finding_sentence(v) for v in (breach.violations or [])],
                "description": breach.description,
                "severity": breach.get_severity_display(),
                "police": breach.police_reference if breach.police_reported else "",
                "version": number,
            }
        )
    terms_in_force = [
        {"number": v.number, "lines": describe_terms(v)}
        for v in all_versions
        if any(row["version"] == v.number for row in rows) or v.number == agreement.current_number
    ]
    content = {
        "agreement": agreement.public_id,
        "case": case.reference,
        "court": agreement.court,
        "court_reference": agreement.court_reference,
        "effective_from": agreement.effective_from.isoformat(),
        "effective_to": agreement.effective_to.isoformat() if agreement.effective_to else None,
        "timezone": zone,
        "rows": rows,
        "terms": terms_in_force,
    }
    canonical = json.dumps(
        content, sort_keys=True, separators=(",", ":"), ensure_ascii=False, cls=DjangoJSONEncoder
    )
    return {
        **content,
        "versions": by_number,
        "sha256": hashlib.sha256(canonical.encode()).hexdigest(),
    }


CSV_HEADER = [
    "Ref",
    _("Occurred (local)"),
    _("Reported (local)"),
    "Channel",
    "Direction",
    "Kind",
    _("Terms broken"),
    "Findings",
    "Description",
    "Severity",
    _("Police reference"),
    _("Terms version"),
]


def chronology_csv(report: dict, generated_at: dt.datetime) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    for row in report["rows"]:
        writer.writerow(
            [
                csv_cell(value)
                for value in (
                    row["ref"],
                    row["occurred"],
                    row["reported"],
                    row["channel"],
                    row["direction"],
                    row["kind"],
                    "; ".join(str(term) for term in row["terms"]),
                    " ".join(str(finding) for finding in row["findings"]),
                    row["description"],
                    row["severity"],
                    row["police"],
                    row["version"] or "",
                )
            ]
        )
    writer.writerow([])
    writer.writerow([_("Generated at (UTC)"), generated_at.astimezone(dt.UTC).isoformat()])
    writer.writerow(["SHA-256 of content", report["sha256"]])
    return out.getvalue()


def breaches_counted(case: Case) -> QuerySet[Breach]:
    """The case's breaches that count as breaches: the one place that says which rows of the
    breach register are breaches, for every count, chart and report that reads them."""
    return counted_breaches().filter(case=case)


def breach_trend(case: Case, since: dt.datetime) -> list[tuple[dt.datetime, str]]:
    """The other party's breaches from ``since``, for the journey's trend picture."""
    return [
        (moment, "breach")
        for moment in breaches_counted(case)
        .filter(occurred_at__gte=since)
        .values_list("occurred_at", flat=True)
    ]
