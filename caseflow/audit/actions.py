"""Every action the audit trail records, with its kind and a label in plain words.

:func:`caseflow.audit.services.record` refuses an action that is not named here, so the kind
of every event is known rather than guessed from its name. This module imports nothing from
the other apps: the audit layer sits below them all.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models

from caseflow.lib.i18n import advocate_or_idva
from caseflow.lib.i18n import gettext_lazy as _


class ActionKind(models.TextChoices):
    READ = "read", _("Read")
    WRITE = "write", _("Write")
    #: Information leaving the agency. Also a read of the case it is about.
    DISCLOSURE = "disclosure", _("Disclosure")
    SECURITY = "security", _("Security")
    SYSTEM = "system", _("System")


#: The kinds that count as someone reading case data ("who accessed this case").
READ_KINDS = frozenset({ActionKind.READ, ActionKind.DISCLOSURE})


@dataclass(frozen=True)
class Action:
    name: str
    kind: ActionKind
    label: str

    @property
    def is_read(self) -> bool:
        return self.kind in READ_KINDS


class UnknownAction(ValueError):
    """An action was recorded that is not in the registry."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"audit action {name!r} is not registered: add it with its kind to "
            "caseflow/audit/actions.py"
        )
        self.name = name


R, W, D, S, Y = (
    ActionKind.READ,
    ActionKind.WRITE,
    ActionKind.DISCLOSURE,
    ActionKind.SECURITY,
    ActionKind.SYSTEM,
)

_ACTIONS: tuple[tuple[str, ActionKind, str], ...] = (
    # Cases and parties
    ("dashboard.view", R, _("Viewed the dashboard")),
    ("case.list", R, _("Listed cases")),
    ("case.search_name", R, _("Searched for a case by name")),
    ("draft.view", R, _("Opened their unsaved draft")),
    ("draft.save", W, _("Kept an unsaved draft")),
    ("draft.discard", W, _("Discarded an unsaved draft")),
    ("draft.forget", Y, _("Unsaved drafts were forgotten")),
    ("case.view", R, _("Viewed the case")),
    ("case.create", W, _("Opened a case")),
    ("case.update", W, _("Changed the case")),
    ("case.assign", W, _("Assigned the case")),
    ("case.reassign_many", W, _("Handed several cases to a new advocate")),
    ("cover.set", W, _("Set cover for a colleague who is away")),
    ("cover.end", W, _("Ended a cover early")),
    ("case.status", W, _("Changed the case's status")),
    ("case.restrict", W, _("Changed who may see the case")),
    ("case.conflict_warning", W, _("Was warned of a possible conflict at intake")),
    ("party.create", W, _("Added a person to the case")),
    ("party.update", W, _("Changed a person on the case")),
    ("break_glass.open", S, _("Opened a case in an emergency (break glass)")),
    ("break_glass.refused", S, _("Was refused emergency access")),
    ("break_glass.limited", S, _("Was stopped by the hourly emergency-access limit")),
    ("break_glass.review", W, _("Reviewed an emergency access")),
    ("break_glass.expire", Y, _("Emergency access expired")),
    ("access.denied", S, _("Was denied access")),
    ("timeline.view", R, _("Viewed the case timeline")),
    ("timeline.print", R, _("Printed the case chronology for the agency's file")),
    # ``detail["audience"]`` is "outside", with the disclosure and its authority.
    ("timeline.share", D, _("Gave the case chronology to someone outside the agency")),
    # Safety
    ("plan.view", R, _("Viewed the safety plan")),
    ("plan.diff.view", R, _("Compared safety plan versions")),
    ("plan.print", R, _("Printed the safety plan")),
    ("plan.save", W, _("Saved the safety plan")),
    ("plan.review", W, _("Reviewed the safety plan")),
    ("hard_date.add", W, _("Noted a date that is hard for the survivor")),
    ("hard_date.remove", W, _("Took a hard date off the safety plan")),
    ("risk.view", R, _("Viewed a risk assessment")),
    ("risk.assess", W, _("Recorded a risk assessment")),
    ("instrument.load", Y, _("Loaded a risk instrument")),
    # Case notes, incidents and their evidence
    ("note.view", R, _("Viewed a case note")),
    ("note.create", W, _("Recorded a case note")),
    ("note.update", W, _("Changed a case note")),
    ("note.amend", W, _("Amended a case note")),
    ("incident.view", R, _("Viewed an incident")),
    ("incident.create", W, _("Recorded an incident")),
    ("incident.evidence.add", W, _("Added evidence to an incident")),
    ("incident.escalation", Y, _("A serious incident was brought to the supervisors")),
    ("evidence.view", R, _("Looked at an evidence file")),
    ("evidence.download", R, _("Downloaded an evidence file")),
    # Agreements
    ("agreement.list", R, _("Listed the case's agreements")),
    ("agreement.view", R, _("Viewed an agreement")),
    ("agreement.versions.view", R, _("Compared agreement versions")),
    ("agreement.event.view", R, _("Viewed an agreement contact event")),
    ("agreement.create", W, _("Recorded an agreement")),
    ("agreement.update", W, _("Changed an agreement")),
    ("agreement.status", W, _("Changed an agreement's status")),
    ("agreement.event.create", W, _("Logged a contact event")),
    ("agreement.event.review", W, _("Reviewed a contact event")),
    ("agreement.breach.create", W, _("Recorded a breach")),
    ("agreement.evidence.export", R, _("Exported agreement evidence")),
    # One action for both audiences (``detail["audience"]``): counted as a disclosure so that
    # none made to someone outside the agency is missed.
    ("agreement.chronology.export", D, _("Exported a chronology")),
    ("agreement.escalation", Y, _("An agreement escalated")),
    # Check-ins
    ("checkins.dashboard.view", R, _("Viewed the check-ins dashboard")),
    ("checkin.create", W, _("Scheduled a check-in")),
    ("checkin.proposals", W, _("Added the check-ins proposed around hard dates and handovers")),
    ("checkin.handover", W, _("Passed the check-ins to the case's new advocate")),
    ("checkin_schedule.create", W, _("Set up recurring check-ins")),
    ("checkin.outcome", W, _("Recorded a check-in outcome")),
    ("checkin.cancel", W, _("Cancelled a check-in")),
    ("checkin.recheck", W, _("Rescheduled a check-in")),
    ("checkin.missed", Y, _("Check-ins were missed")),
    ("followup.create", W, _("Created a follow-up")),
    ("followup.update", W, _("Changed a follow-up")),
    ("followup.reopen", W, _("Undid marking a follow-up done")),
    ("followup.done", W, _("Completed a follow-up")),
    ("followup.cancel", W, _("Cancelled a follow-up")),
    ("calendar_token.create", S, _("Created a calendar feed link")),
    ("calendar_token.revoke", S, _("Revoked calendar feed links")),
    ("calendar.fetch", R, _("The calendar feed was fetched")),
    ("calendar.rate_limited", S, _("The calendar feed was refused (too many requests)")),
    ("safe_contact.save", W, _("Saved the safe contact details")),
    # Confidentiality
    ("release.create", W, _("Recorded consent to share")),
    ("release.revoke", W, _("Revoked consent to share")),
    # Her answer to sharing anonymised data with SafeLives Insights (``detail``: codes only).
    ("research_consent.save", W, _("Recorded the answer to sharing anonymised data for research")),
    ("disclosure.refused", S, _("Was refused a disclosure")),
    ("disclosure.referral_pack", D, _("Made a referral pack")),
    ("disclosure.evidence_pack", D, _("Made an evidence pack")),
    ("disclosure.case_export", D, _("Exported the case")),
    # A large export asked for under a release, and each download of it (``detail``: ids only).
    (
        "disclosure.export_prepare",
        W,
        _("Asked for an export to be prepared for another organisation"),
    ),
    ("disclosure.prepared_download", D, _("Downloaded a prepared export for another organisation")),
    # ``detail``: the categories, how many incidents and contacts, the copy's language.
    ("disclosure.own_copy", D, _("Gave the survivor a copy of her own record")),
    ("disclosure.compelled", W, _("Recorded a court order or subpoena")),
    # Transfers to another service (``detail``: the transfer, release, disclosure and categories;
    # ids and choices only). Every step is a disclosure of the sending case.
    ("disclosure.transfer", D, _("Asked another service to take the case on")),
    ("disclosure.transfer_pack", D, _("Sent the case to a service not on caseflow")),
    ("transfer.view", D, _("Read a transfer request from another service")),
    ("transfer.accept", D, _("Took on a case transferred from another service")),
    ("transfer.refuse", D, _("Refused a case transferred from another service")),
    ("retention.save", W, _("Changed the retention rules")),
    ("legal_hold.place", W, _("Put a case on legal hold")),
    ("purge.confirm_view", R, _("Looked at what a purge would destroy")),
    ("legal_hold.lift", W, _("Lifted a legal hold")),
    ("purge.queue_view", R, _("Viewed the purge queue")),
    ("purge.propose", W, _("Proposed a purge")),
    ("purge.cancel", W, _("Cancelled a purge")),
    ("purge.approve", W, _("Approved a purge")),
    ("purge.execute", Y, _("Purged a case")),
    ("report.aggregate", R, _("Ran an aggregate report")),
    ("fields.save", W, _("Changed the agency's case fields")),
    # Staff and agency
    ("staff.create", W, _("Added a member of staff")),
    ("staff.update", W, _("Changed a member of staff")),
    ("team.create", W, _("Created a team")),
    ("team.update", W, _("Changed a team")),
    ("security.role_change", S, _("Changed someone's role")),
    ("security.second_factor_reset", S, _("Reset someone's second factor")),
    ("security.password_reset", S, _("Sent someone a link to choose a new password")),
    ("security.keys_rotated", S, _("Rotated the encryption keys")),
    ("security.values_resealed", S, _("Encrypted the stored values again in the current format")),
    # The operators' admin
    ("operator.add", S, _("Added a record in the operators' admin")),
    ("operator.change", S, _("Changed a record in the operators' admin")),
    ("operator.delete", S, _("Deleted a record in the operators' admin")),
    # Sign-in and sessions
    ("security.login", S, _("Signed in")),
    ("security.login_failed", S, _("Sign-in refused")),
    ("security.logout", S, _("Signed out")),
    ("security.logout_everywhere", S, _("Signed out everywhere")),
    ("security.password_changed", S, _("Changed their password")),
    ("security.password_set_by_link", S, _("Chose their password through a link")),
    ("security.login_after_reset", S, _("Signed in for the first time after a reset")),
    ("security.device_enrolled", S, _("Enrolled a second-factor device")),
    ("security.recovery_codes_regenerated", S, _("Made new recovery codes")),
    ("security.second_factor_verified", S, _("Passed the second factor")),
    ("security.second_factor_failed", S, _("Second factor refused")),
    ("security.recovery_code_used", S, _("Used a recovery code")),
    ("security.reauth", S, _("Confirmed their identity again")),
    ("security.reauth_failed", S, _("Identity not confirmed again")),
    ("security.provider_login", S, _("Signed in through the agency's identity provider")),
    ("security.provider_login_refused", S, _("Sign-in through the identity provider refused")),
    ("security.provider_groups_change", W, _("Changed which provider groups give which role")),
    ("session.revoked", S, _("Their session was revoked")),
    ("session.expired", S, _("Their session expired")),
    # Oversight
    ("audit.events.view", R, _("Viewed the audit log")),
    ("audit.export", R, _("Exported the audit log")),
    ("audit.case.view", R, _("Viewed the case's audit history")),
    ("audit.user.view", R, _("Viewed a person's activity")),
    ("audit.break_glass.view", R, _("Viewed emergency accesses")),
    ("alert.unusual_access", Y, _("Unusual access was reported")),
    # Languages and locales (i18n)
    ("language.view", R, _("Viewed their language setting")),
    ("language.change", W, _("Changed their language")),
    ("language.agency_view", R, _("Viewed the agency's language")),
    ("language.agency_change", W, _("Changed the agency's language")),
    # The survivor's journey: episodes, returns, closure and outcomes, risk sources
    ("episode.open", W, _("Started a new episode of support in the case")),
    ("intake.earlier_case", W, _("Matched a referral with the survivor's earlier case")),
    ("reopen_request.create", W, _("Asked a supervisor to reopen a client's earlier case")),
    ("reopen_request.decide", W, _("Decided a request to reopen a case")),
    ("closure.view", R, _("Viewed the closure page")),
    ("closure.record", W, _("Closed the case with its reason and outcomes")),
    ("closure.request", W, _("Asked a supervisor to approve the closure")),
    ("closure.approve", W, _("Approved the closure")),
    (
        "closure.return",
        W,
        advocate_or_idva(
            _("Returned the closure to the advocate"), _("Returned the closure to the IDVA")
        ),
    ),
    ("journey.view", R, _("Viewed the survivor's journey and its trend")),
    ("risk.override", W, _("Changed the risk level by hand, with a reason")),
    ("closure_reason.save", W, _("Changed the agency's reasons for closing cases")),
    # Needs, goals and services (casework)
    ("needs.view", R, _("Viewed the needs, goals and services")),
    ("need.view", R, _("Viewed a need")),
    ("need.create", W, _("Recorded a need")),
    ("need.update", W, _("Changed a need")),
    ("need.status", W, _("Changed the status of a need")),
    ("goal.view", R, _("Viewed a goal")),
    ("goal.create", W, _("Set a goal")),
    ("goal.update", W, _("Changed a goal")),
    ("service.view", R, _("Viewed a service or referral")),
    ("service.create", W, _("Recorded a service or referral")),
    ("service.update", W, _("Changed a service or referral")),
    # Partners (risk meetings, referrals, demographics) and reporting (funder reports)
    ("meeting.refer", W, _("Referred the case to the risk meeting")),
    ("disclosure.risk_meeting", D, _("Shared information with the risk meeting")),
    ("meeting.view", R, _("Viewed a risk meeting referral")),
    ("meeting.update", W, _("Recorded the risk meeting's date or outcome")),
    ("meeting.action_add", W, _("Recorded an action the risk meeting agreed")),
    ("meeting.action_status", W, _("Changed the status of a risk meeting action")),
    ("referral.create", W, _("Recorded a referral to or from another service")),
    ("referral.view", R, _("Viewed a referral to or from another service")),
    ("referral.state", W, _("Recorded where a referral has got to")),
    ("demographics.view", R, _("Viewed the survivor's demographics")),
    ("demographics.save", W, _("Saved the survivor's demographics")),
    ("hud_answers.view", R, _("Viewed the HUD entry and exit answers")),
    ("hud_answers.save", W, _("Saved the HUD entry and exit answers")),
    ("partners.settings.view", R, _("Viewed the risk meeting settings")),
    ("partners.settings.save", W, _("Changed the risk meeting settings")),
    ("partners.hud_project.view", R, _("Viewed the HUD project settings")),
    ("partners.hud_project.save", W, _("Changed the HUD project settings")),
    ("report.funder", R, _("Generated a funder report")),
    ("report.prepared_download", R, _("Downloaded a funder report prepared in the background")),
    ("report.coalition", R, _("Rolled this agency's funder report up for a coalition")),
    # A case's exit put into a SafeLives Insights return (pseudonymised: ``detail``, the period).
    ("report.insights_return", D, _("Put into a SafeLives Insights return, pseudonymised")),
    # Shelter and refuge
    ("shelter.sites_view", R, _("Viewed the shelter sites and their addresses")),
    ("shelter.site_add", W, _("Added a shelter site")),
    ("shelter.site_change", W, _("Changed a shelter site")),
    ("shelter.room_add", W, _("Added a room to a shelter site")),
    ("shelter.bed_add", W, _("Added a bed to a shelter room")),
    ("shelter.board_view", R, _("Viewed the bed availability board")),
    ("shelter.stay_book", W, _("Booked a shelter stay")),
    ("shelter.stay_view", R, _("Viewed a shelter stay")),
    ("shelter.stay_end", W, _("Ended a shelter stay")),
    ("shelter.turn_away", W, _("Recorded a household turned away for lack of space")),
    # Community education and outcome surveys
    ("community.session", W, _("Recorded a community education session")),
    ("community.sessions_view", R, _("Viewed the community education sessions")),
    ("community.survey", W, _("Counted a returned outcome survey")),
    ("community.session_remove", W, _("Removed a community education session recorded by mistake")),
    ("community.survey_take_back", W, _("Took back an outcome survey counted by mistake")),
    # Court (hearings)
    ("hearing.create", W, _("Recorded a court hearing")),
    ("hearing.view", R, _("Viewed a court hearing")),
    ("hearing.update", W, _("Changed a court hearing")),
    ("hearing.outcome", W, _("Recorded a court hearing's outcome")),
    ("hearing.steps", W, _("Added the safety steps around a court hearing")),
    # Services counted in the funders' categories
    ("service_count.record", W, _("Counted a service in a funder's category")),
    ("service_count.categories_view", R, _("Viewed the agency's service categories")),
    ("service_count.schemes", W, _("Changed the schemes the agency counts services by")),
    ("service_count.category_add", W, _("Added a service category of the agency's own")),
    ("service_count.category_active", W, _("Retired or restored a service category")),
    # What the other party did after harm (the cycle)
    ("cycle_mark.create", W, _("Marked what the other party did after an incident or a contact")),
    ("cycle_kind.save", W, _("Changed the agency's kinds of what follows harm")),
    # Her own rating
    ("wellbeing.record", W, _("Recorded the survivor's own rating of how she is")),
    ("wellbeing.settings", W, _("Changed the questions of the survivor's own rating")),
    # Financial assistance
    ("payment.record", W, _("Recorded a payment of financial assistance")),
    ("payment.view", R, _("Viewed a payment of financial assistance")),
    ("payment.decide", W, _("Approved or did not approve a payment")),
    ("payment.receipt_add", W, _("Added a receipt to a payment")),
    ("payment.receipt_view", R, _("Opened a receipt for a payment")),
    ("assistance.settings.view", R, _("Viewed the financial assistance settings")),
    ("assistance.settings.save", W, _("Changed the financial assistance settings")),
    ("assistance.fund.add", W, _("Added a fund to pay assistance from")),
    ("assistance.fund.retire", W, _("Retired a fund")),
    # Integrations and webhooks
    ("integration.register", S, _("Registered an integration")),
    ("integration.revoke", S, _("Revoked an integration")),
    ("api.refused", S, _("An integration's call was refused")),
    ("api.case.read", R, _("Read the case's summary through the API")),
    ("api.followups.read", R, _("Read the case's follow-ups through the API")),
    ("api.contacts.write", W, _("Recorded contacts from another system through the API")),
    (
        "api.high_risk_without_plan",
        Y,
        _("High-risk cases without a safety plan were found after the grace period"),
    ),
    ("webhook.subscribe", S, _("Subscribed an address to events")),
    ("webhook.end", S, _("Ended a webhook subscription")),
    # The advocate's day: one time rule
    ("agency.time_zone", W, _("Changed the agency's time zone")),
    ("agency.list_initials", W, _("Changed whether case lists show names or initials")),
    # The duty line
    ("call.create", W, _("Logged a call on the duty line")),
    ("call.list", R, _("Listed the duty line's calls")),
    ("call.view", R, _("Viewed a call on the duty line")),
    ("call.attach", W, _("Put a call on a case")),
    ("call.open_case", W, _("Opened or took up a case from a call")),
    # Moving in: a caseload imported from the agency's earlier system (counts only)
    ("import.check", Y, _("Checked a caseload file before importing it")),
    ("import.commit", W, _("Imported a caseload file")),
    ("import.staff_check", Y, _("Checked a staff file before importing it")),
    ("import.staff_commit", W, _("Imported a staff file")),
)

ACTIONS: dict[str, Action] = {name: Action(name, kind, label) for name, kind, label in _ACTIONS}
assert len(ACTIONS) == len(_ACTIONS), "an action is registered twice"
assert all(len(name) <= 40 for name in ACTIONS), "AuditEvent.action holds 40 characters"

#: The names of the actions that are reads of case data (kinds read and disclosure).
READ_ACTIONS = frozenset(name for name, a in ACTIONS.items() if a.is_read)


def get(name: str) -> Action:
    """The registered action, or :class:`UnknownAction`."""
    try:
        return ACTIONS[name]
    except KeyError:
        raise UnknownAction(name) from None


def is_read(name: str) -> bool:
    """Whether ``name`` is a read of case data. Unknown names are not reads."""
    action = ACTIONS.get(name)
    return action is not None and action.is_read


def label(name: str) -> str:
    action = ACTIONS.get(name)
    return action.label if action else name
