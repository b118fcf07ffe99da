"""The words a person reads for the contact checker's values: channels, directions, kinds of
contact and terms. Models, forms, packs and pages all take them from here."""

from __future__ import annotations

from caseflow.agreements import terms
from caseflow.lib.i18n import gettext_lazy as _

CHANNEL_CHOICES = [
    (terms.Channel.APP, _("Co-parenting app")),
    (terms.Channel.EMAIL, _("E-mail")),
    (terms.Channel.TEXT, _("Text message")),
    (terms.Channel.PHONE, _("Phone call")),
    (terms.Channel.THIRD_PARTY, _("Via a named third party")),
    (terms.Channel.SOLICITOR, _("Via a solicitor")),
    (terms.Channel.IN_PERSON, _("In person")),
    (terms.Channel.SOCIAL_MEDIA, _("Social media")),
    (terms.Channel.OTHER, _("Other")),
]
CHANNEL_LABELS: dict[str, str] = dict(CHANNEL_CHOICES)
DIRECTION_CHOICES = [
    (terms.Direction.TO_SURVIVOR, _("Other parent → survivor")),
    (terms.Direction.FROM_SURVIVOR, _("Survivor → other parent")),
]
DIRECTION_LABELS: dict[str, str] = dict(DIRECTION_CHOICES)
KIND_CHOICES = [
    (terms.EventKind.MESSAGE, _("Message")),
    (terms.EventKind.CALL, _("Call")),
    (terms.EventKind.IN_PERSON, _("In person")),
    (terms.EventKind.HANDOVER, _("Handover of the children")),
    (terms.EventKind.CHILD_CONTACT, _("Contact with the children")),
]
KIND_LABELS: dict[str, str] = dict(KIND_CHOICES)
#: Terms an advocate can mark as broken (the effective period is not a term one can break).
TERM_LABELS = {
    terms.Term.FORBIDDEN_CHANNELS: _("Used a forbidden channel"),
    terms.Term.PERMITTED_CHANNELS: _("Used a channel that is not permitted"),
    terms.Term.TIME_WINDOWS: _("Outside the agreed contact times"),
    terms.Term.FREQUENCY_CAP: _("Over the frequency cap"),
    terms.Term.PERMITTED_TOPICS: _("About a topic that is not permitted"),
    terms.Term.HANDOVER: _("Broke the handover protocol"),
    terms.Term.CHILD_CONTACT_WINDOWS: _("Outside the child-contact times"),
}

#: What the checker found, by the code of each finding. A finding keeps the checker's own
#: sentence (written when the contact was logged, with its times and counts); this is the
#: finding in the reader's words.
FINDING_LABELS = {
    terms.Code.BEFORE_AGREEMENT: _("Before the agreement took effect"),
    terms.Code.AFTER_AGREEMENT: _("After the agreement ended"),
    terms.Code.FORBIDDEN_CHANNEL: TERM_LABELS[terms.Term.FORBIDDEN_CHANNELS],
    terms.Code.CHANNEL_NOT_PERMITTED: TERM_LABELS[terms.Term.PERMITTED_CHANNELS],
    terms.Code.OUTSIDE_WINDOW: TERM_LABELS[terms.Term.TIME_WINDOWS],
    terms.Code.OVER_CAP: TERM_LABELS[terms.Term.FREQUENCY_CAP],
    terms.Code.FORBIDDEN_TOPIC: TERM_LABELS[terms.Term.PERMITTED_TOPICS],
    terms.Code.HANDOVER_MISSED: _("The handover was missed"),
    terms.Code.HANDOVER_LATE: _("The handover was late, or not on an agreed day"),
    terms.Code.HANDOVER_DIRECT_CONTACT: _("Direct contact at the handover"),
    terms.Code.CHILD_CONTACT_OUTSIDE_WINDOW: TERM_LABELS[terms.Term.CHILD_CONTACT_WINDOWS],
}
#: The sentence kept for a term the advocate marked as broken that the checker had not found.
RECORDED_BY_ADVOCATE = "Recorded by the advocate."


def finding_label(finding: dict) -> str:
    """A stored finding (``{"term", "code"?, "message"}``) in the reader's words."""
    by_code: dict[str, str] = {str(code): label for code, label in FINDING_LABELS.items()}
    by_term: dict[str, str] = {str(term): label for term, label in TERM_LABELS.items()}
    label = by_code.get(str(finding.get("code") or "")) or by_term.get(str(finding.get("term")))
    return str(label or _("Another term of the agreement"))
