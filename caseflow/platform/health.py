"""Health: ``/health/`` for load balancers (liveness, cheap: one query), ``/health/ready/``
(readiness: which part answers; 503 only when the database does not, since pages work without
the cache and the task queue), and ``/status/`` for the staff who run the service (supervisors
and agency admins): what is wrong, in plain words."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from caseflow import policy
from caseflow.checkins import scheduler
from caseflow.inbox.models import Notification
from caseflow.lib import softcache
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.outbox import services as outbox

#: Work or reminders waiting longer than this are reported as delayed.
DELAYED_AFTER = dt.timedelta(minutes=2)


@require_http_methods(["GET"])
def health(request: HttpRequest) -> JsonResponse:
    status = 200 if database_ok() else 503
    return JsonResponse({"database": "ok" if status == 200 else "unavailable"}, status=status)


@require_http_methods(["GET"])
def ready(request: HttpRequest) -> JsonResponse:
    """Whether this process can serve pages: each part by name, "ok" or "unavailable", and
    ``down`` naming those that are not. Only the database decides the status code."""
    parts = {"database": database_ok(), "cache": softcache.ping(), "broker": broker_ok()}
    return JsonResponse(
        {
            **{name: "ok" if ok else "unavailable" for name, ok in parts.items()},
            "down": [name for name, ok in parts.items() if not ok],
        },
        status=200 if parts["database"] else 503,
    )


@require_http_methods(["GET"])
def scheduler_health(request: HttpRequest) -> JsonResponse:
    """Whether the check-in scheduler swept lately: 503 when it is stale."""
    state, last = scheduler.scheduler_state()
    return JsonResponse(
        {"scheduler": state, "last_sweep": last.isoformat() if last else None},
        status=200 if state == "ok" else 503,
    )


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
    units = (
        (86400, lambda n: ngettext("%(count)s day", "%(count)s days", n)),
        (3600, lambda n: ngettext("%(count)s hour", "%(count)s hours", n)),
        (60, lambda n: ngettext("%(count)s minute", "%(count)s minutes", n)),
    )
    for size, words in units:
        if seconds >= size:
            count = seconds // size
            return words(count) % {"count": count}
    return gettext("less than a minute")


@dataclass
class Check:
    name: str
    ok: bool
    text: str


def checks(now: dt.datetime | None = None) -> list[Check]:
    now = now or timezone.now()
    found = []
    if database_ok():
        found.append(Check(_("Database"), True, _("The database is answering.")))
    else:
        found.append(Check(_("Database"), False, _("The database is not answering.")))
    if softcache.ping():
        found.append(Check(_("Cache"), True, _("The cache is answering.")))
    else:
        found.append(
            Check(
                _("Cache"),
                False,
                _(
                    "The cache is not answering. Pages read from the database instead and keep "
                    "working, a little slower."
                ),
            )
        )
    if broker_ok():
        found.append(Check(_("Task queue"), True, _("The task queue is answering.")))
    else:
        found.append(
            Check(
                _("Task queue"),
                False,
                _(
                    "The task queue is not answering. Work started meanwhile is kept and is sent "
                    "when it answers again."
                ),
            )
        )
    state, last = scheduler.scheduler_state(now)
    if last is None:
        found.append(
            Check(
                _("Workers"),
                False,
                _("The scheduler has never run: check that a worker and beat run."),
            )
        )
    elif state == "stale":
        found.append(
            Check(
                _("Workers"),
                False,
                _(
                    "The scheduler last ran %(age)s ago: no reminders go out. "
                    "Check that a worker and beat run."
                )
                % {"age": age(now - last)},
            )
        )
    else:
        found.append(
            Check(
                _("Workers"),
                True,
                _("The scheduler last ran %(age)s ago.") % {"age": age(now - last)},
            )
        )
    count, oldest = outbox.backlog()
    if count and oldest is not None and now - oldest > DELAYED_AFTER:
        found.append(
            Check(
                _("Background work"),
                False,
                _("Background work is delayed: %(count)s waiting, the oldest is %(age)s old.")
                % {"count": count, "age": age(now - oldest)},
            )
        )
    else:
        found.append(Check(_("Background work"), True, _("Background work is up to date.")))
    unsent = Notification.objects.filter(sent_at__isnull=True, dropped="")
    oldest_note = unsent.order_by("created_at").values_list("created_at", flat=True).first()
    if oldest_note is not None and now - oldest_note > DELAYED_AFTER:
        found.append(
            Check(
                _("Reminders"),
                False,
                _("Reminders are delayed: the oldest is %(age)s old.")
                % {"age": age(now - oldest_note)},
            )
        )
    else:
        found.append(Check(_("Reminders"), True, _("Reminders are going out on time.")))
    return found


@login_required
@require_http_methods(["GET"])
def status(request: HttpRequest) -> HttpResponse:
    if not policy.may_see_scheduler(request.user):
        raise PermissionDenied
    found = checks()
    return render(request, "status.html", {"checks": found, "all_ok": all(c.ok for c in found)})
