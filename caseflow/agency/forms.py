"""The agency admin's forms: a member of staff, a team, the agency's time zone and how its lists
name survivors."""

from __future__ import annotations

from django import forms
from django.conf import settings

from caseflow.accounts import zones
from caseflow.accounts.models import AdvocateTitle, Role, Team, User, role_words
from caseflow.lib.form_parts import ChosenRows, submit_helper
from caseflow.lib.i18n import gettext_lazy as _


class StaffForm(forms.Form):
    username = forms.RegexField(
        regex=r"^[a-z0-9._-]{3,40}$",
        max_length=40,
        label=_("Username"),
        help_text=_("3–40 lower-case letters, digits, dots, dashes or underscores."),
        error_messages={
            "invalid": _("Use 3–40 lower-case letters, digits, dots, dashes or underscores.")
        },
    )
    first_name = forms.CharField(max_length=150, label=_("First name"))
    last_name = forms.CharField(max_length=150, required=False, label=_("Last name"))
    email = forms.EmailField(
        max_length=254,
        label=_("E-mail"),
        help_text=_("Their own work address: a new account's enrolment link is sent there."),
    )
    role = forms.ChoiceField(choices=Role.choices, label=_("Role"))
    teams = ChosenRows(
        queryset=Team.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Teams"),
    )
    is_active = forms.BooleanField(required=False, initial=True, label=_("Active"))

    def __init__(self, *args, teams, editing: User | None = None, agency_id=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.editing = editing
        self.fields["teams"].queryset = teams  # type: ignore[attr-defined]
        # The roles as the agency says them ("IDVA" where it calls its advocates so).
        self.fields["role"].choices = [  # type: ignore[attr-defined]
            (value, role_words(value, agency_id)) for value in Role.values
        ]
        if editing is not None:
            self.fields["username"].disabled = True
        self.helper = submit_helper(_("Save"))

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if self.editing is None and User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("That username is taken."))
        return username


class TeamForm(forms.Form):
    name = forms.CharField(max_length=120, label=_("Name"))
    members = ChosenRows(
        queryset=User.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Members"),
    )

    def __init__(self, *args, users, editing: Team | None = None, agency_id: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.editing = editing
        self.agency_id = agency_id
        members = self.fields["members"]
        assert isinstance(members, ChosenRows)
        members.queryset = users
        members.label_from_instance = lambda u: (  # type: ignore[assignment]
            f"{u.get_full_name() or u.username} ({u.membership.get_role_display()})"
        )
        self.helper = submit_helper(_("Save"))

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        clash = Team.objects.filter(agency_id=self.agency_id, name__iexact=name)
        if self.editing is not None:
            clash = clash.exclude(pk=self.editing.pk)
        if clash.exists():
            raise forms.ValidationError(_("Your agency already has a team with this name."))
        return name


class LanguageForm(forms.Form):
    """A member of staff's own language, over their agency's."""

    language = forms.ChoiceField(required=False, label=_("Language"))

    def __init__(self, *args, agency_language_name: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = [  # type: ignore[attr-defined]
            ("", _("My agency's language (%(name)s)") % {"name": agency_language_name}),
            *settings.LANGUAGES,
        ]
        self.helper = submit_helper(_("Save"))


class AgencyLanguageForm(forms.Form):
    """The agency's locale: the language, words and date formats its staff read by default, and
    what it calls its advocates."""

    language = forms.ChoiceField(
        choices=settings.LANGUAGES,
        label=_("Language and locale"),
        help_text=_(
            "English (US) and English (UK) each use their own words for orders, consent and "
            "emergency numbers, and their own date formats. Each member of staff may still "
            "choose their own language."
        ),
    )
    advocate_title = forms.ChoiceField(
        choices=AdvocateTitle.choices,
        required=False,
        widget=forms.RadioSelect,
        label=_("What your agency calls its advocates"),
        help_text=_(
            "Shown wherever staff and their roles are listed. What they may do is the same."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Save"))


class TimeZoneForm(forms.Form):
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        help_text=_(
            "Where your staff work. Every time staff enter or read is in this zone, and new "
            "safe-contact profiles start in it."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        keep = (self.initial or {}).get("time_zone", "")
        self.fields["time_zone"].choices = zones.zone_choices(keep)  # type: ignore[attr-defined]
        self.helper = submit_helper(_("Save the time zone"))


class ListNamesForm(forms.Form):
    list_initials = forms.BooleanField(
        required=False,
        label=_("Show initials instead of names in lists (for shared screens)"),
        help_text=_(
            "Case lists and search results then show each survivor's initials only. Her full "
            "name is still on her case page."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Save"))


class ProviderGroupForm(forms.Form):
    """One group of the agency's identity provider, and the role (and team) it gives."""

    name = forms.CharField(
        max_length=200,
        label=_("Group at your identity provider"),
        help_text=_("Exactly as the provider names it (for Microsoft Entra ID, the group's ID)."),
    )
    role = forms.ChoiceField(choices=Role.choices, label=_("Role in caseflow"))
    team = forms.ModelChoiceField(
        queryset=Team.objects.none(), required=False, label=_("Team"), empty_label=_("No team")
    )

    def __init__(self, *args, teams, agency_id: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.agency_id = agency_id
        team = self.fields["team"]
        assert isinstance(team, forms.ModelChoiceField)
        team.queryset = teams
        role = self.fields["role"]
        assert isinstance(role, forms.ChoiceField)
        role.choices = [(value, role_words(value, agency_id)) for value in Role.values]
        self.helper = submit_helper(_("Add"))

    def clean_name(self) -> str:
        from caseflow.accounts.models import ProviderGroup

        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("Give the group's name."))
        if ProviderGroup.objects.filter(agency_id=self.agency_id, name=name).exists():
            raise forms.ValidationError(_("This group already gives a role. Remove it first."))
        return name
