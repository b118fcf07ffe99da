"""Demo data for account changes: the admin adds a new starter, who has no password until they
follow their enrolment link, and resets an advocate's second factor (the North team's
supervisor is told; the advocate's next sign-in stands out on their activity page)."""

from __future__ import annotations

from caseflow.accounts.models import Role, User
from caseflow.agency import services

NEW_STARTER = "fay.advocate"


def seed_demo(context) -> None:
    admin = User.objects.get(username="ada.admin")
    north = context.staff["north"][0].teams.get(name="North team")
    services.staff_save(
        actor=admin,
        user=None,
        data={
            "username": NEW_STARTER,
            "first_name": "Fay",
            "last_name": "Newstart",
            "email": f"{NEW_STARTER}@demo.invalid",
            "role": Role.ADVOCATE,
            "is_active": True,
        },
        teams=[north],
    )
    ben = User.objects.get(username="ben.advocate")
    services.staff_second_factor_reset(actor=admin, user=ben)
