"""Filters of the audit workspace and the break-glass review form."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.core.validators import RegexValidator

from caseflow.accounts.models import User


class AuditFilterForm(forms.Form):
    date_from = forms.DateField(
        required=False, label="From", widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        required=False, label="To (inclusive)", widget=forms.DateInput(attrs={"type": "date"})
    )
    action = forms.CharField(
        required=False,
        max_length=40,
        label="Action",
        help_text="e.g. case.view, or case. for every case action",
        validators=[RegexValidator(r"^[a-z_.]+$", "Letters, dots and underscores only.")],
    )
    user = forms.ModelChoiceField(
        queryset=User.objects.none(), required=False, label="Staff member"
    )
    case = forms.CharField(required=False, max_length=40, label="Case reference")
    before = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def __init__(self, *args, people, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["user"].queryset = people.order_by("username").only(
            "username", "first_name", "last_name"
        )
        self.fields["user"].label_from_instance = lambda u: u.get_full_name() or u.username

    def clean(self):
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and end < start:
            self.add_error("date_to", "The end date is before the start date.")
        return data

    def summary(self) -> dict:
        """The filters, as ids and dates only: what the audit event of this page records."""
        data = self.cleaned_data
        out: dict = {}
        for name in ("date_from", "date_to"):
            if isinstance(data.get(name), dt.date):
                out[name] = data[name].isoformat()
        if data.get("action"):
            out["action"] = data["action"]
        if data.get("user"):
            out["user"] = data["user"].pk
        return out


class ReviewForm(forms.Form):
    comment = forms.CharField(
        label="Review comment",
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Was the emergency access justified? What follows from it?",
    )
