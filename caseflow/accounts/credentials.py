"""Credentials a user holds beyond their sessions (e.g. calendar feed links), ended together
with them: on "log out everywhere", a password change and a second-factor reset.

Features of a case that issue such credentials declare a revoker
(``CaseFeature.credential_revokers``); accounts sits below ``cases`` and reads them through
:mod:`caseflow.lib.contributions`. ``credentials_revoke`` calls every one of them.
"""

from __future__ import annotations

from typing import Any

from caseflow.lib.contributions import contributions


def credentials_revoke(*, actor: Any, user: Any) -> None:
    """End every declared credential of ``user`` (``actor`` did it)."""
    for revoker in contributions().credential_revokers():
        revoker(actor=actor, user=user)
