"""Reading the inbox: a user's delivered in-app notifications."""

from __future__ import annotations

from typing import Any

from caseflow.inbox.models import Notification, NotificationChannel


def in_app_notifications(user: Any, limit: int = 100) -> list[Notification]:
    return list(
        Notification.objects.filter(
            recipient=user, channel=NotificationChannel.IN_APP, sent_at__isnull=False
        ).only("pk", "kind", "text", "link", "created_at", "read_at")[:limit]
    )


def unread_count(user: Any) -> int:
    return Notification.objects.filter(
        recipient=user,
        channel=NotificationChannel.IN_APP,
        sent_at__isnull=False,
        read_at__isnull=True,
    ).count()
