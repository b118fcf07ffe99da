"""The API's shapes: strict (an unknown field or a wrong type is refused), documented in the
OpenAPI schema. Values are checked by the intake form itself (see ``services.referral_create``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.dateparse import parse_datetime
from rest_framework import serializers

from caseflow.agreements import terms
from caseflow.lib.i18n import gettext_lazy as _


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know, at every level."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({name: [_("Unknown field.")] for name in unknown})
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A string, never a number or a boolean turned into one."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class SurvivorIn(StrictSerializer):
    full_name = StrictCharField(max_length=200)
    date_of_birth = serializers.DateField(required=False, allow_null=True)
    phone = StrictCharField(required=False, allow_blank=True, max_length=40)
    email = StrictCharField(required=False, allow_blank=True, max_length=254)
    language = StrictCharField(required=False, allow_blank=True, max_length=20)


class OtherPartyIn(StrictSerializer):
    full_name = StrictCharField(max_length=200)
    date_of_birth = serializers.DateField(required=False, allow_null=True)


class ReferralIn(StrictSerializer):
    team = StrictCharField(
        required=False,
        max_length=120,
        help_text="The team's name; not needed when the integration has a team.",
    )
    survivor = SurvivorIn()
    other_party = OtherPartyIn(required=False, allow_null=True)
    summary = StrictCharField(required=False, allow_blank=True, max_length=20000)


class StrictChoiceField(serializers.ChoiceField):
    """One of the choices, as a string; the error names the choices, never what was sent."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str) or data not in self.choice_strings_to_values:
            raise serializers.ValidationError(
                _("Not one of: %(choices)s.")
                % {"choices": ", ".join(self.choice_strings_to_values)}
            )
        return self.choice_strings_to_values[data]


class AwareDateTimeField(serializers.DateTimeField):
    """An ISO 8601 time with its offset (``Z`` or ``+01:00``): a time without one is refused,
    never guessed."""

    def to_internal_value(self, value: Any) -> Any:
        if not isinstance(value, str):
            self.fail("invalid", format="YYYY-MM-DDThh:mm[:ss]+HH:MM")
        parsed = parse_datetime(value.strip())
        if parsed is None or parsed.tzinfo is None:
            raise serializers.ValidationError(
                _("A date and time with its offset, for example 2026-03-09T18:05:00Z.")
            )
        return super().to_internal_value(value)


class StrictBooleanField(serializers.BooleanField):
    """true or false, never "yes", 1 or "true"."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input="")
        return data


class ContactEventIn(StrictSerializer):
    message_id = StrictCharField(
        required=False,
        allow_blank=False,
        max_length=200,
        help_text="The source's own id of the message: an event whose id was recorded on the "
        "case before is not recorded again. Kept only as a keyed digest.",
    )
    occurred_at = AwareDateTimeField(help_text="When it was sent, with its offset.")
    sender = StrictChoiceField(
        choices=[("other_party", "The other party"), ("survivor", "The survivor")],
        help_text="Who got in touch: the other party, or the survivor.",
    )
    channel = StrictChoiceField(
        choices=[c.value for c in terms.Channel],
        required=False,
        help_text='How: "app" (the co-parenting app, when left out), "email", "text", ...',
    )
    kind = StrictChoiceField(
        choices=[k.value for k in terms.EventKind],
        required=False,
        help_text='What sort of contact: "message" when left out.',
    )
    topic = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=200,
        help_text="The subject, checked against the agreement's permitted topics.",
    )
    text = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=5000,
        help_text="The message itself, kept encrypted on the case; never sent back.",
    )
    handover_missed = StrictBooleanField(required=False, help_text='Only for kind "handover".')
    direct_contact_at_handover = StrictBooleanField(
        required=False, help_text='Only for kind "handover".'
    )


class ContactEventsIn(StrictSerializer):
    agreement = StrictCharField(
        required=False,
        max_length=32,
        help_text="The agreement to check against; the case's one active agreement when left out.",
    )
    events = ContactEventIn(many=True, allow_empty=False)

    def validate_events(self, value: Any) -> Any:
        limit = settings.API_CONTACT_EVENTS_MAX
        if len(value) > limit:
            raise serializers.ValidationError(
                _("At most %(limit)s events in one call.") % {"limit": limit}
            )
        return value


class OutsideOut(serializers.Serializer):
    term = serializers.CharField(help_text="The term of the agreement, by its code.")
    code = serializers.CharField(help_text="What the checker found, by its code.")


class ContactEventOut(serializers.Serializer):
    message_id = serializers.CharField(allow_null=True)
    id = serializers.CharField(help_text="The contact event's random public id.")
    new = serializers.BooleanField(
        help_text="False when this message was recorded on the case before (nothing was written)."
    )
    sender = serializers.CharField()
    agreement_in_force = serializers.BooleanField(
        help_text="Whether a version of the agreement applied when it happened."
    )
    within_agreement = serializers.BooleanField()
    outside = OutsideOut(
        many=True, help_text="The terms it fell outside (codes only); empty when within."
    )
    review = serializers.CharField(
        help_text="\"pending\": the other party's contact, waiting for the advocate's review; "
        '"survivor_within" or "survivor_outside": the survivor\'s own contact, recorded as '
        "within or outside what was agreed (never reviewed as a breach)."
    )


class ContactEventsOut(serializers.Serializer):
    case = serializers.CharField()
    agreement = serializers.CharField()
    recorded = serializers.IntegerField(help_text="Events written by this call.")
    already_recorded = serializers.IntegerField(help_text="Events recorded before, by message id.")
    events = ContactEventOut(many=True, help_text="One answer for each event, in the order sent.")


class ReferralOut(serializers.Serializer):
    id = serializers.CharField(help_text="The case's random public id.")
    status = serializers.CharField()


class CaseSummaryOut(serializers.Serializer):
    id = serializers.CharField()
    reference = serializers.CharField()
    status = serializers.CharField()
    risk_level = serializers.CharField()
    team = serializers.CharField()
    opened_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    assigned = serializers.BooleanField(help_text="Whether an advocate has been assigned.")
    summary = serializers.CharField(
        required=False, help_text="Only with the cases:read-narrative scope."
    )


class FollowUpOut(serializers.Serializer):
    kind = serializers.CharField()
    due_at = serializers.DateTimeField()
    status = serializers.CharField()
    details = serializers.CharField(
        required=False, help_text="Only with the cases:read-narrative scope."
    )


class PeriodOut(serializers.Serializer):
    start = serializers.DateField()
    end = serializers.DateField()


class ReportListOut(serializers.Serializer):
    report = serializers.CharField()
    title = serializers.CharField()
    periods = PeriodOut(many=True)


class CellOut(serializers.Serializer):
    text = serializers.CharField(
        help_text="The figure, \"*\" when it is suppressed, or (in HUD's Q4a) the agency's own "
        "words for its project."
    )
    value = serializers.IntegerField(
        allow_null=True,
        help_text="The count; null when it is suppressed or the cell is not a count.",
    )


class ReportRowOut(serializers.Serializer):
    label = serializers.CharField()
    cells = CellOut(many=True)


class ReportSectionOut(serializers.Serializer):
    title = serializers.CharField()
    columns = serializers.ListField(child=serializers.CharField())
    rows = ReportRowOut(many=True)


class ReportOut(serializers.Serializer):
    report = serializers.CharField()
    title = serializers.CharField()
    start = serializers.DateField()
    end = serializers.DateField()
    sections = ReportSectionOut(many=True)


class ProblemOut(serializers.Serializer):
    type = serializers.CharField()
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField()
    errors = serializers.DictField(required=False)
