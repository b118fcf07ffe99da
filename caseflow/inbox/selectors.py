"""Reading the inbox: a user's delivered in-app notifications."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from caseflow.inbox.models import Notification, NotificationChannel
from caseflow.lib.compiled import CompiledCount


def in_app_notifications(user: Any, limit: int = 100) -> list[Notification]:
    return list(
        Notification.objects.filter(
            recipient=user, channel=NotificationChannel.IN_APP, sent_at__isnull=False
        ).only("pk", "kind", "text", "params", "link", "created_at", "read_at")[:limit]
    )


def _unread_of(*, user: int) -> QuerySet[Notification]:
    return Notification.objects.filter(
        recipient=user,
        channel=NotificationChannel.IN_APP,
        sent_at__isnull=False,
        read_at__isnull=True,
    )


#: Every page's menu shows the count: its SQL is built once per process.
_UNREAD = CompiledCount(Notification, _unread_of, user="int")


def unread_count(user: Any) -> int:
    return _UNREAD.count(user=user.pk)


@dataclass
class NotificationGroup:
    """Notifications that say the same thing (kind, words and link), shown once with a count."""

    first: Notification
    count: int
    unread: bool


def grouped(items: list[Notification]) -> list[NotificationGroup]:
    """``items`` (newest first) with repeats folded into their newest copy: unread ones apart
    from read ones, so that "new" never hides behind an old copy."""
    groups: dict[tuple, NotificationGroup] = {}
    for note in items:
        unread = note.read_at is None
        key = (note.kind, note.text, note.link, unread)
        if key in groups:
            groups[key].count += 1
        else:
            groups[key] = NotificationGroup(note, 1, unread)
    return sorted(groups.values(), key=lambda g: (not g.unread,))


def notification_for(user: Any, pk: int) -> Notification | None:
    return Notification.objects.filter(
        recipient=user, pk=pk, channel=NotificationChannel.IN_APP, sent_at__isnull=False
    ).first()
