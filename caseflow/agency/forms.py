"""The agency admin's forms: a member of staff and a team."""

from __future__ import annotations

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms
from django.utils.translation import gettext_lazy as _

from caseflow.accounts.models import Role, Team, User


def _helper(label: str) -> FormHelper:
    helper = FormHelper()
    helper.add_input(Submit("submit", label))
    return helper


class StaffForm(forms.Form):
    username = forms.RegexField(
        regex=r"^[a-z0-9._-]{3,40}$",
        max_length=40,
        help_text=_("3–40 lower-case letters, digits, dots, dashes or underscores."),
        error_messages={
            "invalid": _("Use 3–40 lower-case letters, digits, dots, dashes or underscores.")
        },
    )
    first_name = forms.CharField(max_length=150)
    last_name = forms.CharField(max_length=150, required=False)
    email = forms.EmailField(
        max_length=254,
        help_text=_("Their own work address: a new account's enrolment link is sent there."),
    )
    role = forms.ChoiceField(choices=Role.choices)
    teams = forms.ModelMultipleChoiceField(
        queryset=Team.objects.none(), required=False, widget=forms.CheckboxSelectMultiple
    )
    is_active = forms.BooleanField(required=False, initial=True, label=_("Active"))

    def __init__(self, *args, teams, editing: User | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.editing = editing
        self.fields["teams"].queryset = teams  # type: ignore[attr-defined]
        if editing is not None:
            self.fields["username"].disabled = True
        self.helper = _helper(_("Save"))

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if self.editing is None and User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("That username is taken."))
        return username


class TeamForm(forms.Form):
    name = forms.CharField(max_length=120)
    members = forms.ModelMultipleChoiceField(
        queryset=User.objects.none(), required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, users, editing: Team | None = None, agency_id: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.editing = editing
        self.agency_id = agency_id
        members = self.fields["members"]
        assert isinstance(members, forms.ModelMultipleChoiceField)
        members.queryset = users
        members.label_from_instance = lambda u: (  # type: ignore[assignment]
            f"{u.get_full_name() or u.username} ({u.membership.get_role_display()})"
        )
        self.helper = _helper(_("Save"))

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        clash = Team.objects.filter(agency_id=self.agency_id, name__iexact=name)
        if self.editing is not None:
            clash = clash.exclude(pk=self.editing.pk)
        if clash.exists():
            raise forms.ValidationError(_("Your agency already has a team with this name."))
        return name
