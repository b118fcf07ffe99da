"""Every action the audit trail records, with its kind and a label in plain words.

:func:`caseflow.audit.services.record` refuses an action that is not named here, so the kind
of every event is known rather than guessed from its name. This module imports nothing from
the other apps: the audit layer sits below them all.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models
from django.utils.translation import gettext_lazy as _


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
    ("dashboard.view", R, "Viewed the dashboard"),
    ("case.list", R, "Listed cases"),
    ("case.search_name", R, "Searched for a case by name"),
    ("draft.view", R, "Opened their unsaved draft"),
    ("draft.save", W, "Kept an unsaved draft"),
    ("draft.discard", W, "Discarded an unsaved draft"),
    ("case.view", R, "Viewed the case"),
    ("case.create", W, "Opened a case"),
    ("case.update", W, "Changed the case"),
    ("case.assign", W, "Assigned the case"),
    ("case.status", W, "Changed the case's status"),
    ("case.restrict", W, "Changed who may see the case"),
    ("case.conflict_warning", W, "Was warned of a possible conflict at intake"),
    ("party.create", W, "Added a person to the case"),
    ("party.update", W, "Changed a person on the case"),
    ("break_glass.open", S, "Opened a case in an emergency (break glass)"),
    ("break_glass.refused", S, "Was refused emergency access"),
    ("break_glass.limited", S, "Was stopped by the hourly emergency-access limit"),
    ("break_glass.review", W, "Reviewed an emergency access"),
    ("break_glass.expire", Y, "Emergency access expired"),
    ("access.denied", S, "Was denied access"),
    ("timeline.view", R, "Viewed the case timeline"),
    ("timeline.print", R, "Printed the case chronology for the agency's file"),
    # ``detail["audience"]`` is "outside", with the disclosure and its authority.
    ("timeline.share", D, "Gave the case chronology to someone outside the agency"),
    # Safety
    ("plan.view", R, "Viewed the safety plan"),
    ("plan.diff.view", R, "Compared safety plan versions"),
    ("plan.print", R, "Printed the safety plan"),
    ("plan.save", W, "Saved the safety plan"),
    ("plan.review", W, "Reviewed the safety plan"),
    ("risk.view", R, "Viewed a risk assessment"),
    ("risk.assess", W, "Recorded a risk assessment"),
    ("instrument.load", Y, "Loaded a risk instrument"),
    # Case notes, incidents and their evidence
    ("note.view", R, "Viewed a case note"),
    ("note.create", W, "Recorded a case note"),
    ("note.update", W, "Changed a case note"),
    ("note.amend", W, "Amended a case note"),
    ("incident.view", R, "Viewed an incident"),
    ("incident.create", W, "Recorded an incident"),
    ("incident.evidence.add", W, "Added evidence to an incident"),
    ("incident.escalation", Y, "A serious incident was brought to the supervisors"),
    ("evidence.view", R, "Looked at an evidence file"),
    ("evidence.download", R, "Downloaded an evidence file"),
    # Agreements
    ("agreement.list", R, "Listed the case's agreements"),
    ("agreement.view", R, "Viewed an agreement"),
    ("agreement.versions.view", R, "Compared agreement versions"),
    ("agreement.event.view", R, "Viewed an agreement contact event"),
    ("agreement.create", W, "Recorded an agreement"),
    ("agreement.update", W, "Changed an agreement"),
    ("agreement.status", W, "Changed an agreement's status"),
    ("agreement.event.create", W, "Logged a contact event"),
    ("agreement.event.review", W, "Reviewed a contact event"),
    ("agreement.breach.create", W, "Recorded a breach"),
    ("agreement.evidence.export", R, "Exported agreement evidence"),
    # One action for both audiences (``detail["audience"]``): counted as a disclosure so that
    # none made to someone outside the agency is missed.
    ("agreement.chronology.export", D, "Exported a chronology"),
    ("agreement.escalation", Y, "An agreement escalated"),
    # Check-ins
    ("checkins.dashboard.view", R, "Viewed the check-ins dashboard"),
    ("checkin.create", W, "Scheduled a check-in"),
    ("checkin_schedule.create", W, "Set up recurring check-ins"),
    ("checkin.outcome", W, "Recorded a check-in outcome"),
    ("checkin.cancel", W, "Cancelled a check-in"),
    ("checkin.recheck", W, "Rescheduled a check-in"),
    ("checkin.missed", Y, "Check-ins were missed"),
    ("followup.create", W, "Created a follow-up"),
    ("followup.update", W, "Changed a follow-up"),
    ("followup.reopen", W, "Undid marking a follow-up done"),
    ("followup.done", W, "Completed a follow-up"),
    ("followup.cancel", W, "Cancelled a follow-up"),
    ("calendar_token.create", S, "Created a calendar feed link"),
    ("calendar_token.revoke", S, "Revoked calendar feed links"),
    ("calendar.fetch", R, "The calendar feed was fetched"),
    ("calendar.rate_limited", S, "The calendar feed was refused (too many requests)"),
    ("safe_contact.save", W, "Saved the safe contact details"),
    # Confidentiality
    ("release.create", W, "Recorded consent to share"),
    ("release.revoke", W, "Revoked consent to share"),
    ("disclosure.refused", S, "Was refused a disclosure"),
    ("disclosure.referral_pack", D, "Made a referral pack"),
    ("disclosure.evidence_pack", D, "Made an evidence pack"),
    ("disclosure.case_export", D, "Exported the case"),
    ("disclosure.compelled", W, "Recorded a court order or subpoena"),
    ("retention.save", W, "Changed the retention rules"),
    ("legal_hold.place", W, "Put a case on legal hold"),
    ("purge.confirm_view", R, "Looked at what a purge would destroy"),
    ("legal_hold.lift", W, "Lifted a legal hold"),
    ("purge.queue_view", R, "Viewed the purge queue"),
    ("purge.propose", W, "Proposed a purge"),
    ("purge.cancel", W, "Cancelled a purge"),
    ("purge.approve", W, "Approved a purge"),
    ("purge.execute", Y, "Purged a case"),
    ("report.aggregate", R, "Ran an aggregate report"),
    ("fields.save", W, "Changed the agency's case fields"),
    # Staff and agency
    ("staff.create", W, "Added a member of staff"),
    ("staff.update", W, "Changed a member of staff"),
    ("team.create", W, "Created a team"),
    ("team.update", W, "Changed a team"),
    ("security.role_change", S, "Changed someone's role"),
    ("security.second_factor_reset", S, "Reset someone's second factor"),
    ("security.password_reset", S, "Sent someone a link to choose a new password"),
    ("security.keys_rotated", S, "Rotated the encryption keys"),
    # The operators' admin
    ("operator.add", S, "Added a record in the operators' admin"),
    ("operator.change", S, "Changed a record in the operators' admin"),
    ("operator.delete", S, "Deleted a record in the operators' admin"),
    # Sign-in and sessions
    ("security.login", S, "Signed in"),
    ("security.login_failed", S, "Failed to sign in"),
    ("security.logout", S, "Signed out"),
    ("security.logout_everywhere", S, "Signed out everywhere"),
    ("security.password_changed", S, "Changed their password"),
    ("security.password_set_by_link", S, "Chose their password through a link"),
    ("security.login_after_reset", S, "Signed in for the first time after a reset"),
    ("security.device_enrolled", S, "Enrolled a second-factor device"),
    ("security.recovery_codes_regenerated", S, "Made new recovery codes"),
    ("security.second_factor_verified", S, "Passed the second factor"),
    ("security.second_factor_failed", S, "Failed the second factor"),
    ("security.recovery_code_used", S, "Used a recovery code"),
    ("security.reauth", S, "Confirmed their identity again"),
    ("security.reauth_failed", S, "Failed to confirm their identity again"),
    ("session.revoked", S, "Their session was revoked"),
    ("session.expired", S, "Their session expired"),
    # Oversight
    ("audit.events.view", R, "Viewed the audit log"),
    ("audit.export", R, "Exported the audit log"),
    ("audit.case.view", R, "Viewed the case's audit history"),
    ("audit.user.view", R, "Viewed a person's activity"),
    ("audit.break_glass.view", R, "Viewed emergency accesses"),
    ("alert.unusual_access", Y, "Unusual access was reported"),
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
