"""Large evidence packs and case exports, prepared in the background.

Over a size (``EXPORT_BACKGROUND_BYTES`` of chosen evidence files for an evidence pack,
``EXPORT_BACKGROUND_ROWS`` contacts and breaches of the case for a case export) the file is not
built in the request: the release is checked and the request recorded, and a worker builds the
file through the outbox (the export's id only). The result is sealed with the export's own key
(kept under the case key) and written as a file under a random name, whole or not at all.

Nothing leaves the agency until the download. Only the person who asked, while they may still
edit the case, sees its progress or downloads it; the download checks the release again (a
release revoked or expired since stops the hand-over, and the prepared file is deleted), records
the disclosure the first time, exactly as an export made at once, and audits every download.
An export expires after ``EXPORT_KEEP_HOURS``; a purge of its case deletes it at once.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F, Sum
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.models import Case
from caseflow.confidentiality.models import DisclosureKind, PreparedExport
from caseflow.confidentiality.services import exports
from caseflow.confidentiality.services.disclosures import ReleaseRequired, _authorise
from caseflow.confidentiality.services.releases import release_problem
from caseflow.lib import prepared as prepared_work
from caseflow.lib import sealedfiles, softcache
from caseflow.lib.prepared import PreparedState
from caseflow.outbox.services import enqueue

#: Where the sealed files are kept, under Django's default storage.
FOLDER = "exports"

TASK = "caseflow.confidentiality.tasks.prepare_export"


def export_is_large(*, case: Case, kind: str, evidence_ids: list[str] | None = None) -> bool:
    """Whether the export is too large to build in a request: the chosen evidence files'
    bytes for an evidence pack, the case's contacts and breaches for a case export."""
    if kind == DisclosureKind.EVIDENCE_PACK:
        from caseflow.agreements.models import Evidence

        size = Evidence.objects.filter(case=case, public_id__in=evidence_ids or []).aggregate(
            size=Sum("size")
        )["size"]
        return (size or 0) > settings.EXPORT_BACKGROUND_BYTES
    from caseflow.agreements.breaches import counted_breaches
    from caseflow.agreements.models import ContactEvent

    limit = settings.EXPORT_BACKGROUND_ROWS
    rows = ContactEvent.objects.filter(case=case)[: limit + 1].count()
    # The breaches the export's register holds: the other party's (the rule's own reading).
    rows += counted_breaches().filter(case=case)[: limit + 1].count()
    return rows > limit


def prepared_export_start(
    *,
    actor: User,
    case: Case,
    kind: str,
    release_id: str,
    recipient: str,
    categories: list[str] | None = None,
    evidence_ids: list[str] | None = None,
    include_breaches: bool = False,
    include_contact_log: bool = False,
) -> PreparedExport:
    """Ask for an export to be built by a worker, for ``actor`` only, under release
    ``release_id``: checked now (a refusal is audited, raises ``ReleaseRequired`` and asks for
    nothing) and again at the download. Asked again while the same one is under way: that one."""
    if kind == DisclosureKind.EVIDENCE_PACK:
        wanted = [str(c) for c in exports.EVIDENCE_PACK_CATEGORIES]
        files = exports.evidence_chosen(case, evidence_ids or [])
        steps = len(files) + int(include_breaches) + int(include_contact_log) + 1
    elif kind == DisclosureKind.CASE_EXPORT:
        wanted = exports.case_export_categories(case, release_id, categories or [])
        files = []
        steps = len(wanted) + 1
    else:
        raise ValueError(f"not an export built in the background: {kind}")
    # Outside any savepoint, so that a refusal's audit stands when the caller commits.
    release = _authorise(
        actor=actor,
        case=case,
        kind=kind,
        release_id=release_id,
        recipient=recipient,
        categories=wanted,
    )
    with transaction.atomic():
        return _start(
            actor=actor,
            case=case,
            kind=kind,
            release=release,
            recipient=recipient,
            wanted=wanted,
            files=files,
            steps=steps,
            include_breaches=include_breaches,
            include_contact_log=include_contact_log,
        )


def _start(
    *,
    actor: User,
    case: Case,
    kind: str,
    release: Any,
    recipient: str,
    wanted: list[str],
    files: list[Any],
    steps: int,
    include_breaches: bool,
    include_contact_log: bool,
) -> PreparedExport:
    evidence = sorted(e.public_id for e in files)
    now = timezone.now()
    for in_hand in PreparedExport.objects.filter(
        case=case,
        requested_by=actor,
        kind=kind,
        release=release,
        state__in=prepared_work.UNDER_WAY,
        expires_at__gt=now,
        categories=wanted,
        evidence=evidence,
        include_breaches=include_breaches,
        include_contact_log=include_contact_log,
    ):
        in_hand.case = case
        if in_hand.recipient == recipient.strip():
            return in_hand
    prepared = PreparedExport.objects.create(
        case=case,
        kind=kind,
        requested_by=actor,
        release=release,
        recipient=recipient.strip(),
        categories=wanted,
        evidence=evidence,
        include_breaches=include_breaches,
        include_contact_log=include_contact_log,
        total=steps,
        created_at=now,
        expires_at=now + dt.timedelta(hours=settings.EXPORT_KEEP_HOURS),
    )
    record(
        "disclosure.export_prepare",
        actor=actor,
        case=case,
        obj=prepared,
        detail={
            "kind": kind,
            "release": release.pk,
            "categories": wanted,
            "evidence": [e.pk for e in files],
        },
    )
    enqueue(TASK, export_id=prepared.pk)
    return prepared


def prepared_export_for(user: User, case: Case, public_id: str) -> PreparedExport | None:
    """The export ``public_id`` of ``case`` when ``user`` asked for it, may still edit the case
    and it has not expired; ``None`` for anyone and anything else."""
    if not policy.may(user, case, "edit"):
        return None
    found = PreparedExport.objects.filter(
        case=case, public_id=public_id, requested_by=user, expires_at__gt=timezone.now()
    ).first()
    if found is not None:
        found.case = case
    return found


def prepared_exports_asked(user: User, case: Case, kind: str) -> list[PreparedExport]:
    """The exports of ``kind`` of ``case`` that ``user`` asked for and may still fetch, the
    latest first."""
    if not policy.may(user, case, "edit"):
        return []
    return list(
        PreparedExport.objects.filter(
            case=case, kind=kind, requested_by=user, expires_at__gt=timezone.now()
        ).order_by("-created_at")[:10]
    )


def progress_key(export_id: int) -> str:
    return f"confidentiality:export-progress:{export_id}"


def export_progress(prepared: PreparedExport) -> int:
    """Percent done (a hint from the cache while it runs)."""
    return prepared_work.percent(prepared.state, progress_key(prepared.pk), prepared.total)


def export_is_stale(prepared: PreparedExport) -> bool:
    """Failed, or under way for longer than ``EXPORT_STALE_SECONDS``: it may be tried again."""
    return prepared_work.is_stale(
        prepared.state,
        prepared.started_at or prepared.created_at,
        timezone.now(),
        dt.timedelta(seconds=settings.EXPORT_STALE_SECONDS),
    )


def prepared_export_claim(*, export_id: int) -> bool:
    """A worker starts on the export: mark it running, committed at once (outside the work's
    transaction) so that its page says so. False when there is nothing to do."""
    softcache.forget(progress_key(export_id))
    return bool(
        PreparedExport.objects.filter(
            pk=export_id, state__in=prepared_work.CLAIMABLE, expires_at__gt=timezone.now()
        ).update(
            state=PreparedState.RUNNING,
            started_at=timezone.now(),
            attempts=F("attempts") + 1,
            last_error="",
        )
    )


class PreparationFailed(Exception):
    """The export cannot be built as asked (its asker may no longer edit the case, the release
    no longer covers it, a file cannot be read): nothing is kept, its asker may try again."""


def _still_allowed(prepared: PreparedExport, case: Case) -> None:
    actor = prepared.requested_by
    if not actor.is_active or not policy.may(actor, case, "edit"):
        raise PreparationFailed("PermissionDenied")
    release = prepared.release
    release.case = case
    if release_problem(case, release, prepared.recipient, prepared.categories) is not None:
        raise PreparationFailed("ReleaseRequired")


def _build(prepared: PreparedExport, case: Case) -> tuple[bytes, list[dict[str, Any]]]:
    """The export's bytes before its hand-over (no disclosure yet), and its manifest entries."""
    key = progress_key(prepared.pk)

    def step() -> None:
        prepared_work.step(key)

    if prepared.kind == DisclosureKind.EVIDENCE_PACK:
        try:
            files = exports.evidence_chosen(case, prepared.evidence)
            members = exports.evidence_members(
                case,
                files,
                include_breaches=prepared.include_breaches,
                include_contact_log=prepared.include_contact_log,
                step=step,
            )
        except (ValueError, exports.EvidenceUnavailable) as exc:
            raise PreparationFailed(type(exc).__name__) from exc
        return exports.evidence_zip(members), exports.manifest_files(members)
    document = exports.case_document(
        "caseflow-case-export/1", case, prepared.release, prepared.categories, step=step
    )
    return exports._json_bytes(document), []


def prepared_export_build(*, export_id: int) -> None:
    """Build the export and keep it sealed as a file, marked ready in one transaction: a worker
    killed half-way leaves no result (a file written before the end is named by no row and the
    hourly sweep deletes it). Idempotent: one ready (or gone) is left alone. Raises
    :class:`PreparationFailed` (nothing kept) when it can no longer be built as asked."""
    with transaction.atomic():
        prepared = (
            PreparedExport.objects.select_for_update(of=("self",))
            .select_related("requested_by", "release")
            .filter(pk=export_id, expires_at__gt=timezone.now())
            .first()
        )
        if prepared is None or prepared.state == PreparedState.READY:
            return
        case = Case.objects.get(pk=prepared.case_id)
        prepared.case = case
        _still_allowed(prepared, case)
        data, manifest = _build(prepared, case)
        name = sealedfiles.write(FOLDER, prepared.sealer().encrypt(data))
        try:
            prepared.file_name = name
            prepared.manifest = manifest
            prepared.state = PreparedState.READY
            prepared.finished_at = timezone.now()
            prepared.save(update_fields=["file_name", "manifest", "state", "finished_at"])
        except BaseException:
            sealedfiles.delete(name)
            raise
    softcache.forget(progress_key(export_id))


def prepared_export_fail(*, export_id: int, error: str) -> None:
    """Mark the export failed (its asker may try again): never one that is ready."""
    PreparedExport.objects.filter(pk=export_id).exclude(state=PreparedState.READY).update(
        state=PreparedState.FAILED, last_error=error[:100], finished_at=timezone.now()
    )


def prepared_export_retry(*, actor: User, prepared: PreparedExport) -> bool:
    """Start again an export that failed or whose worker was lost, its release checked again
    (a refusal is audited and raises ``ReleaseRequired``). False when it is not stale."""
    if prepared.requested_by_id != actor.pk or not export_is_stale(prepared):
        return False
    _authorise(
        actor=actor,
        case=prepared.case,
        kind=prepared.kind,
        release_id=prepared.release.public_id,
        recipient=prepared.recipient,
        categories=prepared.categories,
    )
    with transaction.atomic():
        return _restart(prepared)


def _restart(prepared: PreparedExport) -> bool:
    locked = PreparedExport.objects.select_for_update().get(pk=prepared.pk)
    if not export_is_stale(locked):
        return False
    locked.state = PreparedState.WAITING
    locked.started_at = None
    locked.last_error = ""
    locked.save(update_fields=["state", "started_at", "last_error"])
    enqueue(TASK, export_id=locked.pk)
    return True


def prepared_export_download(*, actor: User, prepared: PreparedExport) -> exports.Export:
    """Hand over a ready export to its asker, its release checked again. The first download
    records the disclosure, as an export made at once does; every download is audited. A
    release that no longer covers it raises ``ReleaseRequired`` (the refusal audited) and the
    prepared file is deleted: it can never be handed over."""
    case = prepared.case
    if (
        prepared.requested_by_id != actor.pk
        or prepared.state != PreparedState.READY
        or not policy.may(actor, case, "edit")
    ):
        raise PermissionDenied
    try:
        # Outside any savepoint, so that a refusal's audit stands when the caller commits.
        release = _authorise(
            actor=actor,
            case=case,
            kind=prepared.kind,
            release_id=prepared.release.public_id,
            recipient=prepared.recipient,
            categories=prepared.categories,
        )
    except ReleaseRequired:
        discard(prepared)
        raise
    with transaction.atomic():
        locked = PreparedExport.objects.select_for_update().get(pk=prepared.pk)
        data = prepared.sealer().decrypt(sealedfiles.read(prepared.file_name))
        detail = {"prepared": prepared.public_id}
        disclosure = locked.disclosure
        if disclosure is None:
            if prepared.kind == DisclosureKind.EVIDENCE_PACK:
                disclosure = exports.evidence_pack_disclose(
                    actor=actor,
                    case=case,
                    release=release,
                    recipient=prepared.recipient,
                    parts=[entry["part"] for entry in prepared.manifest],
                    evidence_pks=list(
                        case_evidence_pks(case, prepared.evidence),
                    ),
                    detail=detail,
                )
            else:
                disclosure = exports.case_export_disclose(
                    actor=actor,
                    case=case,
                    release=release,
                    recipient=prepared.recipient,
                    categories=prepared.categories,
                    detail=detail,
                )
            locked.disclosure = disclosure
            locked.save(update_fields=["disclosure"])
        disclosure.case = case
        record(
            "disclosure.prepared_download",
            actor=actor,
            case=case,
            obj=locked,
            detail={"kind": prepared.kind, "disclosure": disclosure.pk, **detail},
        )
    if prepared.kind == DisclosureKind.EVIDENCE_PACK:
        data = exports.with_manifest(
            data,
            case=case,
            disclosure=disclosure,
            release=release,
            categories=prepared.categories,
            files=prepared.manifest,
            generated_at=prepared.finished_at or timezone.now(),
        )
        return exports.evidence_pack_file(case, disclosure, release, data)
    return exports.case_export_file(case, disclosure, release, json.loads(data))


def case_evidence_pks(case: Case, public_ids: list[str]) -> list[int]:
    from caseflow.agreements.models import Evidence

    return list(
        Evidence.objects.filter(case=case, public_id__in=public_ids)
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)
    )


def discard(prepared: PreparedExport) -> None:
    """Delete the export and its file (the file once the deletion commits)."""
    name = prepared.file_name
    PreparedExport.objects.filter(pk=prepared.pk).delete()
    if name:
        transaction.on_commit(lambda: sealedfiles.delete(name))


def prepared_exports_discard(case: Case) -> int:
    """Delete every prepared export of ``case`` and its file (a purge of the case)."""
    names = list(
        PreparedExport.objects.filter(case=case)
        .exclude(file_name="")
        .values_list("file_name", flat=True)
    )
    deleted, _kinds = PreparedExport.objects.filter(case=case).delete()

    def delete_files() -> None:
        for name in names:
            sealedfiles.delete(name)

    transaction.on_commit(delete_files)
    return deleted


def prepared_export_purge(*, now: dt.datetime | None = None) -> int:
    """Delete the exports past their expiry and their files, then any file named by no export
    (one a lost worker wrote) older than ``EXPORT_STALE_SECONDS``. How many exports went."""
    now = now or timezone.now()
    expired = PreparedExport.objects.filter(expires_at__lte=now)
    names = list(expired.exclude(file_name="").values_list("file_name", flat=True))
    deleted, _kinds = expired.delete()
    for name in names:
        sealedfiles.delete(name)
    kept = set(PreparedExport.objects.exclude(file_name="").values_list("file_name", flat=True))
    sealedfiles.sweep(FOLDER, kept, now - dt.timedelta(seconds=settings.EXPORT_STALE_SECONDS))
    return deleted
