"""Sign the load test's people in: one server-side session each (as after password and second
factor), with the open cases each may open. ``python bench/load/sessions.py USERS OUT.json``
(Django settings from the environment)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))


def main(users: int, out: Path) -> None:
    import django

    django.setup()
    from django.conf import settings

    from bench.harness import client_for
    from caseflow.accounts.models import Agency, User
    from caseflow.cases.models import Case, CaseStatus

    agency = Agency.objects.get(slug="scale")
    open_ = (CaseStatus.REFERRAL, CaseStatus.ACTIVE)
    people: dict[str, list] = {"advocate": [], "supervisor": []}
    for role, limit in (("advocate", users), ("supervisor", max(1, users // 4))):
        staff = User.objects.filter(membership__agency=agency, membership__role=role)
        for user in staff.order_by("pk")[:limit]:
            cases = Case.objects.filter(status__in=open_, restricted=False)
            if role == "advocate":
                cases = cases.filter(assignments__user=user)
            else:
                cases = cases.filter(team__members=user)
            ids = list(cases.values_list("public_id", flat=True)[:200])
            if ids:
                session = client_for(user).cookies[settings.SESSION_COOKIE_NAME].value
                people[role].append({"session": session, "cases": ids})
    out.write_text(json.dumps({"cookie": settings.SESSION_COOKIE_NAME, "people": people}))
    print({role: len(found) for role, found in people.items()}, "people signed in")


if __name__ == "__main__":
    main(int(sys.argv[1]), Path(sys.argv[2]))
