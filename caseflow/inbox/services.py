"""Writing to the inbox: follow-ups that other parts of caseflow create for their own sources, and
notifications. Idempotent: the same source or key never makes a second row."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from caseflow.audit.services import record
from caseflow.inbox.kinds import message_params, stored_text
from caseflow.inbox.models import FollowUp, FollowUpStatus, Notification, NotificationChannel

if TYPE_CHECKING:
    from caseflow.accounts.models import User


def followup_ensure(
    *,
    case: Any,
    kind: str,
    due_at: dt.datetime,
    source_key: str,
    assignee: Any = None,
    actor: User | None = None,
    details: str = "",
) -> tuple[FollowUp, bool]:
    """The open follow-up for ``source_key`` on ``case``, created if there is none yet.

    Idempotent: calling it again for the same source (a retried task, a second save) returns
    the existing row. Returns (follow-up, created).
    """
    existing = FollowUp.objects.filter(case=case, source_key=source_key).first()
    if existing is not None:
        return existing, False
    followup = FollowUp(
        case=case,
        kind=kind,
        due_at=due_at,
        source_key=source_key,
        assignee=assignee or case.primary_advocate,
        created_by=actor,
        details=details,
    )
    try:
        with transaction.atomic():
            followup.save()
    except IntegrityError:
        return FollowUp.objects.get(case=case, source_key=source_key), False
    record(
        "followup.create",
        actor=actor,
        case=case,
        obj=followup,
        object_id=str(followup.pk),
        detail={"kind": kind, "source": source_key.split(":")[0]},
    )
    return followup, True


def followup_cancel(*, case: Any, source_key: str, actor: User | None = None) -> bool:
    updated = FollowUp.objects.filter(
        case=case, source_key=source_key, status=FollowUpStatus.OPEN
    ).update(status=FollowUpStatus.CANCELLED)
    if updated:
        record("followup.cancel", actor=actor, case=case, detail={"source": source_key})
    return bool(updated)


def notify(
    *,
    recipients: Iterable[Any],
    kind: str,
    case: Any,
    key: str,
    text: str = "",
    message: str = "",
    values: dict[str, Any] | None = None,
    channel: str = NotificationChannel.IN_APP,
    link: str | None = None,
) -> list[Notification]:
    """Create one notification per recipient, once per ``key``.

    Its words are ``message`` (marked with ``gettext_noop``) with ``values`` for its
    placeholders, kept as they are and written in each reader's language when shown; ``text``
    (words already written) only for a kind with words of its own. Neither may contain personal
    data: name the kind and the case reference only. The link is the case page unless another
    is given.
    """
    if bool(text) == bool(message):
        raise ValueError("give the notification's message (or, for a kind with words, its text)")
    params: dict[str, Any] = {}
    if message:
        params = message_params(message, values)
        text = stored_text(params)
    created = []
    if link is None:
        link = reverse("cases:detail", args=[case.public_id]) if case is not None else ""
    for user in recipients:
        try:
            with transaction.atomic():
                note = Notification.objects.create(
                    recipient=user,
                    channel=channel,
                    kind=kind,
                    case=case,
                    key=key,
                    text=text,
                    params=params,
                    link=link,
                )
        except IntegrityError:
            continue
        created.append(note)
    return created


def case_supervisors(case: Any) -> list[Any]:
    """The active supervisors of the case's team."""
    return list(case.team.supervisors())


def notifications_resolve(*, key: str = "", prefix: str = "") -> int:
    """What a notification asked for has been done (a check-in recorded, a follow-up done, an
    emergency access reviewed): its unread copies, for every recipient, clear themselves.
    ``key`` names one notification key; ``prefix`` (ending in ":") every key it begins."""
    if bool(key) == bool(prefix) or (prefix and not prefix.endswith(":")):
        raise ValueError("give a key, or a prefix ending in ':'")
    match = {"key": key} if key else {"key__startswith": prefix}
    return Notification.objects.filter(read_at__isnull=True, **match).update(read_at=timezone.now())


def notifications_mark_all_read(*, user: Any) -> int:
    return Notification.objects.filter(recipient=user, read_at__isnull=True).update(
        read_at=timezone.now()
    )


def notifications_mark_read(*, user: Any, ids: Iterable[int]) -> int:
    return Notification.objects.filter(
        recipient=user, pk__in=list(ids), read_at__isnull=True
    ).update(read_at=timezone.now())
