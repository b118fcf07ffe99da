"""Case notes and incidents in a referral pack or case export (see confidentiality's pack):
incidents with the evidence, notes with the narratives. A field the agency does not collect
never leaves, even if a value was stored before it was hidden."""

from __future__ import annotations

from caseflow.accounts import zones
from caseflow.cases.fields import FieldConfig, agency_field_config
from caseflow.cases.models import Case
from caseflow.casework.models import CaseNote, Evidence, Incident
from caseflow.lib.i18n import gettext_lazy as _

Rows = list[tuple[str, str]]


def _settings(case: Case, kind: str) -> dict[str, dict]:
    return FieldConfig(agency_field_config(case.agency_id)).for_kind(kind)


def _field(settings: dict[str, dict], attribute: str, label: str, value: str) -> list[str]:
    setting = settings.get(attribute, {})
    if setting.get("hidden") or not value:
        return []
    return [f"{setting.get('label') or label}: {value}"]


def incident_rows(case: Case) -> Rows:
    settings = _settings(case, "incident")
    zone = zones.agency_zone(case.agency)
    rows: Rows = []
    incidents = list(Incident.objects.filter(case=case).order_by("occurred_at", "pk"))
    files: dict[int, list[Evidence]] = {}
    for evidence in Evidence.objects.filter(case=case, incident__isnull=False).order_by("pk"):
        files.setdefault(evidence.incident_id or 0, []).append(evidence)
    for incident in incidents:
        incident.case = case  # share the unwrapped data key
        when = f"{incident.occurred_at.astimezone(zone):%Y-%m-%d %H:%M} ({zone.key})"
        if incident.approximate:
            when = f"around {incident.occurred_at:%Y-%m-%d}" + (
                f" ({incident.when_described})" if incident.when_described else ""
            )
        parts = [", ".join(str(k) for k in incident.kind_labels), incident.what_happened]
        parts += _field(settings, "place", "Where", incident.place)
        parts += [f"Who: {incident.get_person_display()}"]
        parts += _field(settings, "injuries", "Injuries", incident.injuries)
        parts += [f"Police involved: {incident.get_police_display()}"]
        parts += _field(
            settings, "police_reference", _("Police reference"), incident.police_reference
        )
        parts += _field(settings, "witnesses", "Witnesses", incident.witnesses)
        for evidence in files.get(incident.pk, []):
            parts.append(
                f"Evidence file: {evidence.content_type}, {evidence.size} bytes, "
                f"SHA-256 {evidence.sha256}"
            )
        rows.append((f"Incident ({when})", ". ".join(p for p in parts if p)))
    return rows


def note_rows(case: Case) -> Rows:
    settings = _settings(case, "note")
    zone = zones.agency_zone(case.agency)
    rows: Rows = []
    for note in CaseNote.objects.filter(case=case).order_by("occurred_at", "pk"):
        note.case = case
        parts = [f"{note.get_kind_display()}, {note.get_direction_display().lower()}"]
        if note.duration_minutes is not None:
            parts += _field(settings, "duration_minutes", "Minutes", str(note.duration_minutes))
        parts.append(note.text)
        when = f"{note.occurred_at.astimezone(zone):%Y-%m-%d %H:%M} ({zone.key})"
        rows.append((f"Case note ({when})", ". ".join(parts)))
    return rows
