"""The unread-notification count for the navigation bar and the scheduler's state for
supervisors and agency admins. Both are lazy: a page that does not show them runs no query."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from caseflow import policy


def checkins(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    role = policy.active_role(user) if user is not None else None
    if role is None:
        return {}

    def unread() -> int:
        from caseflow.inbox.selectors import unread_count

        return unread_count(user)

    def scheduler() -> dict:
        from caseflow.checkins.scheduler import scheduler_state

        state, last = scheduler_state()
        return {"state": state, "last": last}

    context: dict[str, SimpleLazyObject] = {"nav_unread": SimpleLazyObject(unread)}
    if policy.may_see_scheduler(user):
        context["scheduler_status"] = SimpleLazyObject(scheduler)
    return context
