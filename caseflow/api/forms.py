"""The agency admin's forms: register an integration, subscribe an address to events."""

from __future__ import annotations

import ipaddress
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from caseflow import policy
from caseflow.accounts.models import Team
from caseflow.api import webhooks
from caseflow.lib.form_parts import submit_helper
from caseflow.outbox.events import EventKind

SCOPE_LABELS = {
    policy.SCOPE_REFERRALS_WRITE: _("Send referrals"),
    policy.SCOPE_CASES_SUMMARY: _("Read case summaries and follow-ups"),
    policy.SCOPE_CASES_NARRATIVE: _("Also read the summary text and follow-up details"),
    policy.SCOPE_REPORTS: _("Read the funder reports' aggregate figures"),
    policy.SCOPE_CONTACTS_WRITE: _(
        "Record contacts from a co-parenting app, checked against the case's agreement"
    ),
}


class IntegrationForm(forms.Form):
    name = forms.CharField(
        max_length=80,
        label=_("Name"),
        help_text=_("The system calling, as your staff know it (for example the hotline)."),
    )
    scopes = forms.MultipleChoiceField(
        label=_("What it may do"),
        choices=[(s, SCOPE_LABELS[s]) for s in policy.INTEGRATION_SCOPES],
        widget=forms.CheckboxSelectMultiple,
    )
    team = forms.ModelChoiceField(
        label=_("Team"),
        queryset=Team.objects.none(),
        required=False,
        empty_label=_("Every team"),
        help_text=_("Referrals land in this team, and only its cases can be read."),
    )
    expires_on = forms.DateField(
        label=_("Access ends on"), widget=forms.DateInput(attrs={"type": "date"})
    )
    allowed_addresses = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea({"rows": 3}),
        label=_("Addresses it may call from"),
        help_text=_("One address or network a line. Leave blank to allow any address."),
    )
    rate_per_minute = forms.IntegerField(
        label=_("Calls a minute at most"), min_value=1, max_value=6000, initial=60
    )

    def __init__(self, *args: Any, teams: Any, today: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = teams  # type: ignore[attr-defined]
        self.today = today
        self.helper = submit_helper(_("Register the integration"))

    def clean_expires_on(self) -> Any:
        value = self.cleaned_data["expires_on"]
        if value <= self.today:
            raise forms.ValidationError(_("Choose a day after today."))
        return value

    def clean_allowed_addresses(self) -> str:
        lines = [line.strip() for line in self.cleaned_data["allowed_addresses"].splitlines()]
        for line in lines:
            if not line:
                continue
            try:
                ipaddress.ip_network(line, strict=False)
            except ValueError:
                raise forms.ValidationError(
                    _("“%(line)s” is not an address or a network."), params={"line": line[:60]}
                ) from None
        return "\n".join(line for line in lines if line)

    def clean_scopes(self) -> list[str]:
        scopes = self.cleaned_data["scopes"]
        if policy.SCOPE_CASES_NARRATIVE in scopes and policy.SCOPE_CASES_SUMMARY not in scopes:
            raise forms.ValidationError(
                _("The summary text is only read with the case summaries: choose both.")
            )
        return scopes


class SubscriptionForm(forms.Form):
    url = forms.URLField(
        max_length=300,
        label=_("Address"),
        assume_scheme="https",
        help_text=_("Must start with https://. Events are sent here, signed."),
    )
    kinds = forms.MultipleChoiceField(
        label=_("Events"), choices=EventKind.choices, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Subscribe"))

    def clean_url(self) -> str:
        url = self.cleaned_data["url"]
        if not url.startswith("https://"):
            raise forms.ValidationError(_("The address must start with https://."))
        if webhooks.address_problem(url, resolve=True):
            raise forms.ValidationError(
                _(
                    "This address is on a private network or this machine. Events are sent "
                    "only to public addresses on the internet."
                )
            )
        return url
