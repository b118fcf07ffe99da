"""Demo data for moving in: Riverside's admin has imported six cases from its "earlier system"
(a fictional file, checked then committed through the import services), and a second file with
its two deliberate errors is waiting, checked, for the admin to correct."""

from __future__ import annotations

from caseflow.imports import sample, services


def seed_demo(context) -> None:
    riverside = context.staff["north"][0].membership.agency
    admin = next(
        u for u in riverside.memberships.select_related("user") if u.role == "agency_admin"
    ).user
    advocate = context.staff["north"][1]
    team = advocate.teams.filter(agency=riverside).order_by("name").first()
    today = context.now.date()
    done = services.batch_upload(
        actor=admin,
        name="earlier-system.csv",
        data=sample.sample_csv(
            6, team=team.name, advocate=advocate.username, today=today, prefix="APR"
        ),
    )
    services.batch_check(actor=admin, batch=done, mapping=done.mapping)
    services.batch_start(actor=admin, batch=done)
    waiting = services.batch_upload(
        actor=admin,
        name="earlier-system-part-2.csv",
        data=sample.sample_csv(
            8, team=team.name, advocate=advocate.username, today=today, errors=2, prefix="APR2"
        ),
    )
    services.batch_check(actor=admin, batch=waiting, mapping=waiting.mapping)
