"""Importing a caseload: upload, mapping, dry run, commit.

The commit is one transaction for the whole batch: every case is opened through the normal
case-open path (``journey.case_open``: its own new data key, the conflict check, the case's
audit), then its parties, safe-contact profile, risk level, follow-up, check-in, protective
order and history are written through their own services. If anything raises, nothing of the
batch stays, and the batch can be run again. Re-running a file updates the cases its source
ids already became (``ImportRecord``); it never opens a second case for the same id.

The import itself is audited as one event carrying counts only. The file is sealed with the
batch's own key and destroyed with it once the batch is imported.
"""

from __future__ import annotations

import base64
import datetime as dt
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone, translation

from caseflow import policy
from caseflow.accounts import zones
from caseflow.accounts.models import Agency, User
from caseflow.audit.services import record
from caseflow.cases import journey
from caseflow.cases import services as case_services
from caseflow.cases.models import Party, PartyRole, RiskLevelChange, RiskSource
from caseflow.casework.services import note_create
from caseflow.checkins import services as checkin_services
from caseflow.checkins.models import CheckIn, CheckInStatus
from caseflow.imports import reader, rows
from caseflow.imports.models import (
    BatchKind,
    BatchState,
    ImportBatch,
    ImportMapping,
    ImportRecord,
)
from caseflow.imports.template import FIELD_KEYS, auto_mapping
from caseflow.inbox.services import followup_ensure
from caseflow.lib import softcache
from caseflow.lib.encryption import blind_index
from caseflow.outbox.services import enqueue
from caseflow.safety import services as safety_services
from caseflow.safety.models import SafetyPlan


class BatchHasErrors(Exception):
    """The batch has rows with errors: nothing is written."""


def background_rows() -> int:
    """Batches with more rows than this are imported by a worker, with a progress bar."""
    return int(getattr(settings, "IMPORT_BACKGROUND_ROWS", 100))


def _require_admin(actor: User, agency_id: int | None = None) -> None:
    if not policy.is_agency_admin(actor):
        raise PermissionDenied
    if agency_id is not None and policy.agency_id_of(actor) != agency_id:
        raise PermissionDenied


# --- The file ------------------------------------------------------------------------------------


def file_bytes(batch: ImportBatch) -> bytes:
    return base64.b64decode(batch.content or "")


def table_of(batch: ImportBatch) -> reader.Table:
    return reader.read(file_bytes(batch), batch.file_format)


@transaction.atomic
def batch_upload(*, actor: User, name: str, data: bytes) -> ImportBatch:
    """Keep an uploaded file (sealed) and guess its mapping. Raises ``reader.FileRefused``."""
    _require_admin(actor)
    fmt = reader.file_format(name)
    table = reader.read(data, fmt)
    agency_id = policy.agency_id_of(actor)
    assert agency_id is not None  # an agency admin belongs to an agency
    saved = ImportMapping.objects.filter(agency_id=agency_id).first()
    batch = ImportBatch(
        agency_id=agency_id,
        created_by=actor,
        file_format=fmt,
        mapping=auto_mapping(table.headings, saved.mapping if saved else None),
        counts={"rows": len(table)},
    )
    batch.content = base64.b64encode(data).decode()
    batch.save()
    return batch


def _clean_mapping(mapping: dict[str, str], headings: list[str]) -> dict[str, str]:
    return {k: h for k, h in mapping.items() if k in FIELD_KEYS and h and h in headings}


@transaction.atomic
def batch_check(*, actor: User, batch: ImportBatch, mapping: dict[str, str]) -> rows.Checked:
    """The dry run: save the mapping (for this batch and the agency's next), check every row,
    keep the report (row numbers, columns, messages; no values). Nothing else is written."""
    _require_admin(actor, batch.agency_id)
    if batch.kind != BatchKind.CASELOAD:
        raise ValidationError("This file is not a caseload.")
    if batch.state not in (BatchState.UPLOADED, BatchState.CHECKED, BatchState.STOPPED):
        raise ValidationError("This batch has already been imported.")
    table = table_of(batch)
    mapping = _clean_mapping(mapping, table.headings)
    checked = _check(table, mapping, batch.agency_id)
    batch.mapping = mapping
    batch.counts = checked.counts()
    batch.problems = [p.as_dict() for p in checked.problems]
    batch.flags = [{"row": row, "kind": kind} for row, kind in checked.flags]
    batch.state = BatchState.CHECKED
    batch.save(update_fields=["mapping", "counts", "problems", "flags", "state"])
    ImportMapping.objects.update_or_create(agency_id=batch.agency_id, defaults={"mapping": mapping})
    record(
        "import.check",
        actor=actor,
        object_type="importbatch",
        object_id=batch.public_id,
        agency_id=batch.agency_id,
        detail=dict(batch.counts),
    )
    return checked


def _check(
    table: reader.Table,
    mapping: dict[str, str],
    agency_id: int,
    each: Callable[[rows.Prepared], None] | None = None,
) -> rows.Checked:
    # Messages are kept in English and shown in the reader's language (see the report page).
    agency = Agency.objects.get(pk=agency_id)
    with translation.override("en"), zones.using(zones.agency_zone(agency)):
        return rows.check(table, mapping, agency_id=agency_id, each=each)


@transaction.atomic
def batch_start(*, actor: User, batch: ImportBatch) -> bool:
    """Commit a checked batch: now, or through a worker when it is large. True if queued."""
    _require_admin(actor, batch.agency_id)
    locked = ImportBatch.objects.select_for_update().get(pk=batch.pk)
    if locked.state != BatchState.CHECKED or locked.counts.get("errors"):
        raise ValidationError("Check the file again: it has rows to correct.")
    if locked.counts.get("rows", 0) > background_rows():
        locked.state = BatchState.QUEUED
        locked.save(update_fields=["state"])
        # By name: the task module imports these services.
        enqueue("caseflow.imports.tasks.import_commit", batch_id=locked.pk)
        batch.state = locked.state
        return True
    batch_commit(actor=actor, batch_id=batch.pk)
    batch.refresh_from_db()
    return False


# --- The commit ---------------------------------------------------------------------------------


def progress_key(batch_id: int) -> str:
    return f"imports:progress:{batch_id}"


#: The progress counter moves on once every this many rows.
PROGRESS_STEP = 10


def progress(batch: ImportBatch) -> int:
    """Percent done of a running batch (a counter in the cache: a hint, never the truth; with
    the cache away the bar stays at its start and the import goes on)."""
    if batch.state == BatchState.DONE:
        return 100
    steps = int(softcache.remember(progress_key(batch.pk), lambda: 0, 3600) or 0)
    total = max(1, int(batch.counts.get("valid") or batch.counts.get("rows") or 1))
    return min(99, steps * PROGRESS_STEP * 100 // total)


def batch_commit(*, actor: User, batch_id: int, on_row: Any = None) -> dict[str, int]:
    """Import the batch, all-or-nothing. Idempotent: a batch already imported is left as it
    is. Raises :class:`BatchHasErrors` when a row no longer passes (nothing written)."""
    with transaction.atomic():
        batch = ImportBatch.objects.select_for_update().get(pk=batch_id)
        _require_admin(actor, batch.agency_id)
        if batch.state == BatchState.DONE:
            return dict(batch.counts)
        if batch.kind != BatchKind.CASELOAD:
            raise BatchHasErrors(0)
        softcache.forget(progress_key(batch.pk))
        agency = Agency.objects.get(pk=batch.agency_id)
        # The rows are checked again and each is written as it passes, its conflict and
        # re-referral checks made just before (so also against the rows of this file written
        # before it); a row that fails leaves the file unwritten (the transaction rolls back).
        # Only one row of the file is held at a time.
        written = 0
        # The check reads in English (its messages are kept that way); the rows are written in
        # the language the commit was asked in, as they were before the check handed them over.
        language = translation.get_language()

        def write(prepared: rows.Prepared) -> None:
            nonlocal written
            with translation.override(language):
                if prepared.existing is None:
                    _create(prepared, batch)
                else:
                    _update(prepared, batch)
            written += 1
            if on_row is not None:
                on_row(written)
            if written % PROGRESS_STEP == 0:
                softcache.count(progress_key(batch.pk), 3600)

        with zones.using(zones.agency_zone(agency)):
            checked = _check(table_of(batch), batch.mapping, batch.agency_id, each=write)
        if checked.problems:
            raise BatchHasErrors(len(checked.problems))
        # With no problem every row that passed was written: the new ones created.
        counts = {
            **checked.counts(),
            "created": checked.new,
            "updated": checked.valid - checked.new,
            "notes": checked.notes,
        }
        batch.counts = counts
        batch.flags = [{"row": row, "kind": kind} for row, kind in checked.flags]
        batch.problems = []
        batch.state = BatchState.DONE
        batch.finished_at = timezone.now()
        batch.save(update_fields=["counts", "flags", "problems", "state", "finished_at"])
        batch.forget_file()
        record(
            "import.commit",
            actor=actor,
            object_type="importbatch",
            object_id=batch.public_id,
            agency_id=batch.agency_id,
            detail=counts,
        )
    return counts


def batch_stop(*, batch_id: int) -> None:
    """A queued batch that can no longer be imported (its rows changed under it): say so."""
    ImportBatch.objects.filter(pk=batch_id).exclude(state=BatchState.DONE).update(
        state=BatchState.STOPPED
    )


def _note_key(source_id: str, note: dict[str, Any]) -> str:
    return blind_index("import-note", source_id, note["occurred_at"].isoformat(), note["text"])


def _checkin_key(prepared: rows.Prepared) -> str:
    c = prepared.checkin or {}
    return blind_index(
        "import-checkin", prepared.source_id, str(c.get("due_local")), str(c.get("channel"))
    )


def _create(prepared: rows.Prepared, batch: ImportBatch) -> None:
    actor = prepared.advocate
    case = journey.case_open(
        actor=actor,
        team=prepared.team,
        survivor=prepared.survivor,
        other_party=prepared.other_party,
        summary=prepared.case["summary"],
        reference=prepared.case["reference"],
    )
    record_row = ImportRecord(
        agency_id=batch.agency_id, source_id=prepared.source_id, case=case, batch=batch
    )
    _write_parts(prepared, case, record_row, creating=True)
    record_row.save()


def _update(prepared: rows.Prepared, batch: ImportBatch) -> None:
    record_row = prepared.existing
    assert record_row is not None
    case = record_row.case
    actor = prepared.advocate
    data = {k: v for k, v in prepared.case.items() if k != "reference" or v}
    if any(getattr(case, k) != v for k, v in data.items()):
        case_services.case_update(actor=actor, case=case, expected_version=case.version, data=data)
    for role, person in (
        (PartyRole.SURVIVOR, prepared.survivor),
        (PartyRole.OTHER_PARTY, prepared.other_party),
    ):
        if not person:
            continue
        party = Party.objects.filter(case=case, role=role).order_by("created_at").first()
        if party is None:
            party = Party(role=role)
        elif all(_same(getattr(party, k, None), v) for k, v in person.items()):
            continue
        case_services.party_save(actor=actor, case=case, party=party, data=person)
    record_row.batch = batch
    _write_parts(prepared, case, record_row, creating=False)
    record_row.save()


def _same(stored: Any, given: Any) -> bool:
    if isinstance(given, dt.date):
        given = given.isoformat()
    return (stored or "") == (given or "")


def _write_parts(
    prepared: rows.Prepared, case: Any, record_row: ImportRecord, *, creating: bool
) -> None:
    actor = prepared.advocate
    if prepared.safe_contact:
        profile = checkin_services.profile_for(case)
        if profile is None or (
            profile.timezone != prepared.safe_contact["timezone_name"]
            or profile.rules != prepared.safe_contact["rules"]
            or any(getattr(profile, k) != v for k, v in prepared.safe_contact["details"].items())
        ):
            checkin_services.safe_contact_save(
                actor=actor, case=case, expected_version=None, **prepared.safe_contact
            )
    if prepared.risk and prepared.risk["level"] != case.risk_level:
        _risk(actor=actor, case=case, risk=prepared.risk, creating=creating)
    if prepared.followup:
        followup_ensure(
            case=case,
            kind=prepared.followup["kind"],
            due_at=prepared.followup["due_at"],
            source_key=f"import:{prepared.source_id}"[:100],
            assignee=actor,
            actor=actor,
            details=prepared.followup["details"],
        )
    if prepared.checkin:
        key = _checkin_key(prepared)
        if record_row.checkin_key != key:
            old = CheckIn.objects.filter(
                case=case, pk=_checkin_pk(record_row), status=CheckInStatus.SCHEDULED
            ).first()
            if old is not None:
                checkin_services.checkin_cancel(actor=actor, checkin=old)
            checkin = checkin_services.checkin_schedule(
                actor=actor,
                case=case,
                due_local=prepared.checkin["due_local"],
                channel=prepared.checkin["channel"],
                assignee=actor,
            )
            record_row.checkin_key = f"{checkin.pk}:{key}"[:64]
    if prepared.plan:
        plan = SafetyPlan.objects.filter(case=case).first()
        current = safety_services.plan_content(plan)
        if (
            current["protective_orders"]
            != safety_services.sections.normalise(prepared.plan)["protective_orders"]
        ):
            safety_services.plan_save(
                actor=actor,
                case=case,
                expected_version=plan.version if plan is not None else 0,
                content={**current, "protective_orders": prepared.plan["protective_orders"]},
            )
    known = set(record_row.note_keys)
    for note in sorted(prepared.notes, key=lambda n: n["occurred_at"]):
        key = _note_key(prepared.source_id, note)
        if key in known:
            continue
        note_create(
            actor=actor,
            case=case,
            kind="internal",
            participants=[],
            direction="none",
            occurred_at=note["occurred_at"],
            duration_minutes=None,
            text=note["text"],
        )
        known.add(key)
    record_row.note_keys = sorted(known)


def _checkin_pk(record_row: ImportRecord) -> int:
    head = (record_row.checkin_key or "").split(":", 1)[0]
    return int(head) if head.isdigit() else 0


def _risk(*, actor: User, case: Any, risk: dict[str, Any], creating: bool) -> None:
    """The level the earlier system recorded, with its source in words and its date."""
    if creating:
        change = RiskLevelChange.objects.create(
            case=case,
            level=risk["level"],
            previous=case.risk_level,
            source=RiskSource.RECORDED,
            by=actor,
            at=risk["at"],
            reason=risk["source"],
        )
        case.risk_level = risk["level"]
        case.save(update_fields=["risk_level", "updated_at"])
        case.__dict__.pop("_risk_source", None)
        record(
            "risk.override",
            actor=actor,
            case=case,
            obj=change,
            detail={"from": change.previous, "to": risk["level"], "imported": True},
        )
    else:
        journey.risk_level_override(
            actor=actor, case=case, level=risk["level"], reason=risk["source"]
        )


# --- Reading batches -------------------------------------------------------------------------


def batches_for(user: Any, kind: str = BatchKind.CASELOAD) -> QuerySet[ImportBatch]:
    """The batches of one kind of the agency ``user`` administers (none for anyone else)."""
    agency_id = policy.agency_id_of(user)
    if not policy.is_agency_admin(user) or agency_id is None:
        return ImportBatch.objects.none()
    return ImportBatch.objects.filter(agency_id=agency_id, kind=kind).order_by("-created_at")


def batch_for(user: Any, public_id: str, kind: str = BatchKind.CASELOAD) -> ImportBatch | None:
    return batches_for(user, kind).filter(public_id=public_id).first()


def sample_for(user: User, n: int = 12) -> bytes:
    """A fictional sample file for ``user``'s agency, dated from today: its first team that has
    an advocate, that advocate as primary. Rows 2 and 3 carry the two deliberate errors the
    README names (a date of birth in the future, a risk level caseflow does not know)."""
    from caseflow.imports import sample

    _require_admin(user)
    team, advocate = "", ""
    for candidate in policy.agency_users(user).filter(is_active=True).order_by("username"):
        teams = list(policy.intake_teams(candidate).order_by("name")[:1])
        if teams:
            team, advocate = teams[0].name, candidate.username
            break
    return sample.sample_csv(
        n, team=team, advocate=advocate, today=timezone.localdate(), errors=2, prefix="SAMPLE"
    )
