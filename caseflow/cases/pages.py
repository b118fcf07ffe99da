"""One way to serve a page of a case: :func:`case_page`.

Every view of one case's data is wrapped by it. It resolves the case through policy before the
view runs (404 outside the user's scope, 403 in scope without the right to ``action``) and hands
the view the case instead of its public id. After the view, whenever the response shows the case's
data — a GET, or a POST that re-renders its form — it records the read, unless the view already
recorded a read of this case itself (with a more precise action or detail). A redirect shows
nothing, so it records nothing: the write it follows is the service's own event.

So a new page of a case cannot forget the access check or the audit: a test walks the URL conf
and fails on any case URL whose view is not wrapped (tests/test_architecture.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse

from caseflow import policy
from caseflow.audit.actions import is_read
from caseflow.audit.services import case_read_recorded, record
from caseflow.cases.models import Draft

#: Responses that show nothing of the case (redirects, "no content").
_SHOWS_NOTHING = {204, 301, 302, 303, 307, 308}


def case_page(
    action: str = "view", *, read: str = "case.view"
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Wrap a view ``view(request, case, **kwargs)`` served at a URL with ``public_id``."""
    if action not in policy.CASE_ACTIONS:
        raise ValueError(f"unknown case action {action!r}")
    if not is_read(read):
        raise ValueError(f"{read!r} is not a registered read of case data")

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapper(
            request: HttpRequest, public_id: str, *args: Any, **kwargs: Any
        ) -> HttpResponse:
            case = policy.get_case_for(request.user, public_id, action)
            response = view(request, case, *args, **kwargs)
            if (
                request.method == "POST"
                and response.status_code in (302, 303)
                and request.POST.get("_draft")
                and request.user.pk is not None
            ):
                # The form was saved: its unsaved draft has served its purpose.
                Draft.objects.filter(
                    case=case, user_id=request.user.pk, form=request.POST["_draft"]
                ).delete()
            if response.status_code not in _SHOWS_NOTHING and not case_read_recorded(case):
                record(
                    read, actor=request.user, case=case, obj=case, detail={"page": view.__name__}
                )
            return response

        wrapper.case_page_action = action  # type: ignore[attr-defined]
        return wrapper

    return decorator
