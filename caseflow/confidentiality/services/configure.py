"""Who may configure the agency's confidentiality settings: the retention schedule and the
intake field settings.
"""

from __future__ import annotations

from typing import Any

from caseflow import policy


def may_configure(user: Any) -> bool:
    return policy.is_agency_admin(user)
