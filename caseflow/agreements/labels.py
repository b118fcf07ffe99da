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
    (terms.EventKind.MESSAGE, "Message"),
    (terms.EventKind.CALL, "Call"),
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
