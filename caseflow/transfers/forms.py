"""The transfer forms: asking a service to take the case on, and the receiving supervisor's
answer. Any release id reaches the service, which refuses (and audits) one that does not cover
the transfer: the form does not decide."""

from __future__ import annotations

from django import forms
from django.utils import timezone

from caseflow.accounts.models import Agency, Team
from caseflow.confidentiality.forms import release_label
from caseflow.confidentiality.models import Category
from caseflow.lib.form_parts import submit_helper
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.transfers.models import RefusalReason


def _release_field(form: forms.Form, releases: list) -> None:
    today = timezone.localdate()
    field = form.fields["release"]
    field.widget = forms.Select(
        choices=[("", "—")] + [(r.public_id, release_label(r, today)) for r in releases]
    )
    field.error_messages["required"] = _("Choose the release the transfer goes under.")


class _TransferForm(forms.Form):
    release = forms.CharField(max_length=32, label=_("Under the release"))
    categories = forms.MultipleChoiceField(
        choices=Category.choices,
        widget=forms.CheckboxSelectMultiple,
        label=_("What goes with the transfer"),
        error_messages={"required": _("Choose what goes with the transfer.")},
    )


class TransferRequestForm(_TransferForm):
    receiving_agency = forms.ModelChoiceField(
        queryset=Agency.objects.none(),
        empty_label="—",
        label=_("The service that takes the case on"),
        help_text=_("Services on caseflow. The release must name it exactly."),
        error_messages={
            "required": _("Choose the service that takes the case on."),
            "invalid_choice": _("Choose a service from the list."),
        },
    )
    field_order = ["receiving_agency", "release", "categories"]

    def __init__(self, *args, releases: list, agencies, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["receiving_agency"].queryset = agencies  # type: ignore[attr-defined]
        _release_field(self, releases)
        self.helper = submit_helper(_("Ask them to take the case on"))


class TransferExternalForm(_TransferForm):
    recipient = forms.CharField(
        max_length=200,
        label=_("The service that takes the case on"),
        help_text=_("A service not on caseflow, named as on the release."),
    )
    field_order = ["recipient", "release", "categories"]

    def __init__(self, *args, releases: list, **kwargs):
        super().__init__(*args, **kwargs)
        _release_field(self, releases)
        self.helper = submit_helper(_("Produce the transfer pack"))

    def clean_recipient(self) -> str:
        value = self.cleaned_data["recipient"].strip()
        if not value:
            raise forms.ValidationError(_("Name the service that takes the case on."))
        return value


ACCEPT, REFUSE = "accept", "refuse"


class DecideForm(forms.Form):
    decision = forms.ChoiceField(
        choices=[(ACCEPT, _("Take the case on")), (REFUSE, _("Refuse the transfer"))],
        widget=forms.RadioSelect,
        label=_("Your answer"),
        error_messages={"required": _("Choose whether you take the case on.")},
    )
    team = forms.ModelChoiceField(
        queryset=Team.objects.none(),
        empty_label="—",
        required=False,
        label=_("In your team"),
        error_messages={"invalid_choice": _("Choose one of your own teams.")},
    )
    reason = forms.ChoiceField(
        choices=[("", "—"), *RefusalReason.choices],
        required=False,
        label=_("Why you refuse it"),
    )
    comment = forms.CharField(
        max_length=2000,
        required=False,
        widget=forms.Textarea({"rows": 3}),
        label=_("More about the reason (the other service reads it)"),
    )

    def __init__(self, *args, teams, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = teams  # type: ignore[attr-defined]
        if len(teams) == 1:
            self.fields["team"].initial = teams[0].pk
        self.helper = submit_helper(_("Send your answer"))

    def clean(self):
        data = super().clean()
        decision = data.get("decision")
        if decision == ACCEPT and not data.get("team"):
            self.add_error("team", _("Choose the team that takes the case on."))
        if decision == REFUSE:
            if not data.get("reason"):
                self.add_error("reason", _("Choose the reason for refusing."))
            elif data["reason"] == RefusalReason.OTHER and not data.get("comment", "").strip():
                self.add_error("comment", _("Say why the transfer is refused."))
        return data
