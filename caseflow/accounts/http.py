"""The request a signed-in view receives: ``request.user`` is a caseflow :class:`User`.

Views behind ``login_required`` annotate their request with :class:`AuthenticatedRequest` so the
type checker knows the user is not anonymous (the decorator has made sure of it)."""

from __future__ import annotations

from django.http import HttpRequest

from caseflow.accounts.models import User


class AuthenticatedRequest(HttpRequest):
    user: User
