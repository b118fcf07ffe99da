"""Health: ``/health/`` for load balancers (cheap: one query), and ``/status/`` for the staff
who run the service (supervisors and agency admins): what is wrong, in plain words."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from caseflow import policy
from caseflow.checkins import scheduler
from caseflow.inbox.models import Notification
from caseflow.outbox import services as outbox

#: Work or reminders waiting longer than this are reported as delayed.
DELAYED_AFTER = dt.timedelta(minutes=2)


@require_http_methods(["GET"])
def health(request: HttpRequest) -> JsonResponse:
    status = 200 if database_ok() else 503
    return JsonResponse({"database": "ok" if status == 200 else "unavailable"}, status=status)


def database_ok() -> bool:
    try:
        with connection.cursor() as cur:
            cur.execute("SELECT 1")
    except Exception:  # noqa: BLE001 - any failure means "not ready"
        return False
    return True


def broker_ok() -> bool:
    """One connection attempt to the broker, no retries, bounded by a short timeout."""
    try:
        with outbox.broker_connection():
            pass
    except Exception:  # noqa: BLE001 - any failure means "unreachable"
        return False
    return True


def age(delta: dt.timedelta) -> str:
    """ "12 minutes", "3 hours", "2 days": the largest whole unit, for people."""
    seconds = max(int(delta.total_seconds()), 0)
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return "less than a minute"


@dataclass
class Check:
    name: str
    ok: bool
    text: str


def checks(now: dt.datetime | None = None) -> list[Check]:
    now = now or timezone.now()
    found = []
    if database_ok():
        found.append(Check("Database", True, "The database is answering."))
    else:
        found.append(Check("Database", False, "The database is not answering."))
    if broker_ok():
        found.append(Check("Task queue", True, "The task queue is answering."))
    else:
        found.append(
            Check(
                "Task queue",
                False,
                "The task queue is not answering. Work started meanwhile is kept and is sent "
                "when it answers again.",
            )
        )
    state, last = scheduler.scheduler_state(now)
    if last is None:
        found.append(
            Check(
                "Workers", False, "The scheduler has never run: check that a worker and beat run."
            )
        )
    elif state == "stale":
        found.append(
            Check(
                "Workers",
                False,
                f"The scheduler last ran {age(now - last)} ago: no reminders go out. Check that "
                "a worker and beat run.",
            )
        )
    else:
        found.append(Check("Workers", True, f"The scheduler last ran {age(now - last)} ago."))
    count, oldest = outbox.backlog()
    if count and oldest is not None and now - oldest > DELAYED_AFTER:
        found.append(
            Check(
                "Background work",
                False,
                f"Background work is delayed: {count} waiting, the oldest is "
                f"{age(now - oldest)} old.",
            )
        )
    else:
        found.append(Check("Background work", True, "Background work is up to date."))
    unsent = Notification.objects.filter(sent_at__isnull=True, dropped="")
    oldest_note = unsent.order_by("created_at").values_list("created_at", flat=True).first()
    if oldest_note is not None and now - oldest_note > DELAYED_AFTER:
        found.append(
            Check(
                "Reminders",
                False,
                f"Reminders are delayed: the oldest is {age(now - oldest_note)} old.",
            )
        )
    else:
        found.append(Check("Reminders", True, "Reminders are going out on time."))
    return found


@login_required
@require_http_methods(["GET"])
def status(request: HttpRequest) -> HttpResponse:
    if not policy.may_see_scheduler(request.user):
        raise PermissionDenied
    found = checks()
    return render(request, "status.html", {"checks": found, "all_ok": all(c.ok for c in found)})
