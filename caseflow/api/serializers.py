"""The API's shapes: strict (an unknown field or a wrong type is refused), documented in the
OpenAPI schema. Values are checked by the intake form itself (see ``services.referral_create``)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

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
    text = serializers.CharField(help_text='The figure, or "*" when it is suppressed.')
    value = serializers.IntegerField(allow_null=True)


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
