"""Demo data for confidentiality: releases (one expiring soon, one revoked), a referral pack, a
compelled disclosure, a retention schedule, a purge proposal waiting for its second approval,
field settings (one optional field not collected, two relabelled), and on a case with a contact
agreement a release that covers an evidence pack, the breach chronology and a case export, so they
can be tried, with a case export of that case its advocate asked to be prepared in the background;
and on a case with incidents and a contact log, her own copy of her record given to the survivor,
with more of both left to choose from."""

from __future__ import annotations

import datetime as dt

from dateutil.relativedelta import relativedelta

from caseflow.accounts.models import Role, User
from caseflow.agreements.breaches import counted_breaches
from caseflow.cases.models import Case, CaseStatus, IntakeField, Party, PartyRole
from caseflow.confidentiality import services
from caseflow.confidentiality.models import Category, CompelledKind, DisclosureKind, PurgeScope


def _survivor(case: Case) -> Party | None:
    party = Party.objects.filter(case=case, role=PartyRole.SURVIVOR).first()
    if party is not None:
        party.case = case
    return party


EXPORT_RECIPIENT = "Northshire Family Support Service (fictional)"


def _seed_export_release(context, north: list[Case], today: dt.date) -> None:
    """A release to another organisation covering the evidence pack, the chronology (evidence and
    court orders) and a case export, on a case whose contact log has breaches."""
    with_breaches = set(counted_breaches().values_list("case_id", flat=True))
    open_cases = [
        c
        for c in north + [c for c in context.cases if c not in north]
        if c.status != CaseStatus.CLOSED and not c.restricted and c.primary_advocate_id
    ]
    case = next((c for c in open_cases if c.pk in with_breaches), None)
    survivor = _survivor(case) if case is not None else None
    if case is None or survivor is None:
        return
    release = services.release_record(
        actor=case.primary_advocate,
        case=case,
        consenting_party=survivor,
        recipient=EXPORT_RECIPIENT,
        purpose="Support with the family court case: evidence of breaches of the contact "
        "agreement.",
        categories=[
            Category.CONTACT,
            Category.SAFETY_PLAN,
            Category.COURT_ORDERS,
            Category.EVIDENCE,
            Category.RISK,
        ],
        signed_on=today - dt.timedelta(days=7),
        expires_on=today + relativedelta(months=6),
    )
    # Its advocate has asked for a case export prepared in the background, as a large case's
    # would be: the demo's worker prepares it, and the case export page lists it for them.
    services.prepared_export_start(
        actor=case.primary_advocate,
        case=case,
        kind=DisclosureKind.CASE_EXPORT,
        release_id=release.public_id,
        recipient=EXPORT_RECIPIENT,
        categories=[Category.CONTACT, Category.EVIDENCE],
    )


def _seed_own_copy(context) -> None:
    """Her own copy on the first open case that has incidents and logged contacts to choose
    from: her two latest incidents and the contacts described in her words."""
    from caseflow.cases.language import survivor_interface_language

    for case in context.cases:
        if case.status == CaseStatus.CLOSED or case.restricted or not case.primary_advocate_id:
            continue
        incidents = services.case_incidents(case)
        contacts = services.case_contacts(case)
        if not incidents or not contacts:
            continue
        described = [c for c in contacts if c.description and "demo entry" not in c.description]
        services.own_copy_give(
            actor=case.primary_advocate,
            case=case,
            incident_ids=[i.public_id for i in incidents[-2:]],
            contact_ids=[c.public_id for c in (described or contacts)[-2:]],
            language=survivor_interface_language(case) or "en-gb",
            survivor_consents=True,
        )
        return


def seed_demo(context) -> None:
    supervisor = context.staff["north"][0]
    north = [c for c in context.cases if c.team_id == supervisor.teams.first().pk]
    today = context.now.date()
    candidates = [
        c for c in north if c.status != CaseStatus.CLOSED and c.primary_advocate_id is not None
    ]
    for case, (signed, expires, revoke) in zip(
        candidates,
        [
            (today - relativedelta(months=11), today + dt.timedelta(days=10), False),
            (today - relativedelta(months=2), today + relativedelta(months=4), True),
            (today - relativedelta(months=1), today + relativedelta(months=5), False),
        ],
        strict=False,
    ):
        survivor = _survivor(case)
        if survivor is None:
            continue
        advocate = case.primary_advocate
        release = services.release_record(
            actor=advocate,
            case=case,
            consenting_party=survivor,
            recipient="Riverside Housing Trust (fictional)",
            purpose="Referral for emergency housing.",
            categories=[Category.CONTACT, Category.ADDRESS, Category.CHILDREN],
            signed_on=signed,
            expires_on=expires,
        )
        if revoke:
            services.release_revoke(
                actor=advocate,
                case=case,
                release=release,
                reason="The survivor withdrew consent by phone.",
            )
        elif expires > today + dt.timedelta(days=30):
            services.referral_pack_export(
                actor=advocate,
                case=case,
                recipient="Riverside Housing Trust (fictional)",
                categories=[Category.CONTACT, Category.ADDRESS],
                fmt="html",
            )
    if len(candidates) > 3:
        case = candidates[3]
        services.compelled_record(
            actor=case.primary_advocate,
            case=case,
            kind=CompelledKind.SUBPOENA,
            received_on=today - dt.timedelta(days=3),
            issuer="County Family Court (fictional)",
            reference="FC-DEMO-0001",
            demanded="Dates of contact with the agency in the last six months.",
            recipient="County Family Court (fictional)",
            categories=[Category.NARRATIVES],
            disclosed_on=today - dt.timedelta(days=1),
        )
    _seed_export_release(context, north, today)
    _seed_own_copy(context)
    services.release_expiry_sweep(now=context.now)

    admin = User.objects.filter(
        membership__agency_id=supervisor.membership.agency_id,
        membership__role=Role.AGENCY_ADMIN,
    ).first()
    if admin is not None:
        services.retention_save(actor=admin, narratives_years=3, record_years=7)
        # Collect the minimum: no survivor e-mail; the agency's own words for two fields.
        services.field_settings_save(
            actor=admin,
            values={
                IntakeField.SURVIVOR_EMAIL: (True, ""),
                IntakeField.SURVIVOR_PHONE: (False, "Mobile (only if safe to call)"),
                IntakeField.SUMMARY: (False, "Reason for referral"),
            },
        )
    closed = [c for c in north if c.status == CaseStatus.CLOSED]
    for case, years in zip(closed, (8, 4), strict=False):
        Case.objects.filter(pk=case.pk).update(
            opened_at=context.now - relativedelta(years=years + 2),
            closed_at=context.now - relativedelta(years=years),
        )
    proposals = services.purge_propose_due(now=context.now)
    whole = next((p for p in proposals if p.scope == PurgeScope.WHOLE), None)
    if whole is not None:
        # One of the two approvals a whole-record purge needs: the second is up to a colleague.
        services.purge_approve(actor=supervisor, proposal_id=whole.pk)
