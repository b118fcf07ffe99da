"""Forms for intake, case edits, parties, the safe-contact profile, assignment and break-glass."""

from __future__ import annotations

import datetime as dt

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms
from django.utils import timezone
from django.utils.translation import gettext

from caseflow.accounts.models import Team, User
from caseflow.cases.language import COMMUNICATION_NEEDS, person_language_choices
from caseflow.cases.models import (
    AbuseChange,
    ClosureReason,
    FeelsSafer,
    PartyRole,
    PlanExitCheck,
    QualityOfLife,
    RiskLevel,
    StandardClosureReason,
    name_index_for,
)
from caseflow.cases.timeline import PEOPLE, Query
from caseflow.lib import spoken_languages
from caseflow.lib.form_parts import ChosenRows, submit_helper
from caseflow.lib.i18n import gettext_lazy as _

NAME_MAX = 200
TEXT_MAX = 4000


def validate_birth_date(value: dt.date | None) -> None:
    if value is None:
        return
    today = timezone.localdate()
    if value > today:
        raise forms.ValidationError(_("A date of birth cannot be in the future."))
    if value.year < today.year - 120:
        raise forms.ValidationError(_("Check the year: that is more than 120 years ago."))


def configure_fields(
    form: forms.Form, config: dict[str, dict] | None, optional: tuple[str, ...]
) -> None:
    """Apply an agency's field settings to ``form``'s ``optional`` fields.

    A hidden field is removed: it is not rendered and a value posted for it anyway is ignored, so
    whatever is already stored is kept. A relabelled field shows the agency's label.
    """
    for name, setting in (config or {}).items():
        if name not in optional or name not in form.fields:
            continue
        if setting.get("hidden"):
            del form.fields[name]
        elif setting.get("label"):
            form.fields[name].label = setting["label"]


class _LanguageOptions:
    """Options that carry the words each language is found by (``data-search``): the page's
    small script filters the list as the advocate types (``data-language-filter``)."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(  # type: ignore[misc]
            name, value, label, selected, index, subindex=subindex, attrs=attrs
        )
        words = spoken_languages.search_attributes().get(str(value))
        if words:
            option["attrs"]["data-search"] = words
        return option


class LanguageSelectMultiple(_LanguageOptions, forms.SelectMultiple):
    pass


class LanguageSelect(_LanguageOptions, forms.Select):
    pass


def _filter_attrs(**attrs: object) -> dict:
    return {
        "data-language-filter": gettext("Find a language"),
        "data-language-filter-help": gettext("Type part of its name in any language."),
        **attrs,
    }


OTHER_LANGUAGE_HELP = _(
    'When you chose "Other (say which)": the language, in your words. Stored encrypted.'
)
OTHER_LANGUAGE_NEEDED = _('Say which language, since "Other (say which)" is chosen.')


class LanguageNeedsMixin(forms.Form):
    """How the person communicates: their languages, an interpreter, access needs."""

    languages = forms.MultipleChoiceField(
        required=False,
        label=_("Languages they speak or sign"),
        help_text=_("The one they prefer first. Choose several with Ctrl or ⌘."),
    )
    interpreter_language = forms.ChoiceField(required=False, label=_("Interpreter"))
    other_language = forms.CharField(
        max_length=100,
        required=False,
        label=_("Other language"),
        help_text=OTHER_LANGUAGE_HELP,
    )
    interpreter_independent = forms.BooleanField(
        required=False,
        initial=True,
        label=_("The interpreter is never a family member, a friend or the other party"),
    )
    communication_needs = forms.MultipleChoiceField(
        required=False,
        choices=COMMUNICATION_NEEDS,
        widget=forms.CheckboxSelectMultiple,
        label=_("Communication needs"),
    )
    access_needs = forms.CharField(
        max_length=TEXT_MAX,
        required=False,
        widget=forms.Textarea({"rows": 2}),
        label=_("Disability access needs"),
        help_text=_("For example step-free access, a quiet room, extra time. Stored encrypted."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Codes recorded before the curated list stay choosable, so an old record saves as it is.
        recorded = [*(self.initial.get("languages") or [])]
        recorded.append(self.initial.get("interpreter_language") or "")
        choices = person_language_choices(recorded)
        self.fields["languages"].widget = LanguageSelectMultiple(attrs=_filter_attrs(size=8))
        self.fields["languages"].choices = choices
        self.fields["interpreter_language"].widget = LanguageSelect(attrs=_filter_attrs())
        self.fields["interpreter_language"].choices = [
            ("", _("No interpreter needed")),
            *choices,
        ]

    def clean_languages(self) -> str:
        return ",".join(self.cleaned_data.get("languages") or [])

    def clean(self):
        cleaned = super().clean()
        chosen = [
            *spoken_split(cleaned.get("languages") or ""),
            cleaned.get("interpreter_language") or "",
        ]
        other = (cleaned.get("other_language") or "").strip()
        if spoken_languages.OTHER in chosen:
            if not other and "other_language" not in self.errors:
                self.add_error("other_language", OTHER_LANGUAGE_NEEDED)
        else:
            other = ""
        cleaned["other_language"] = other
        return cleaned


def spoken_split(value: str) -> list[str]:
    return [code for code in value.split(",") if code]


#: The other names of a person, all lines together.
ALIASES_MAX = 1000


class PartyFieldsMixin(forms.Form):
    full_name = forms.CharField(max_length=NAME_MAX, label=_("Full name"))
    known_as = forms.CharField(
        max_length=NAME_MAX,
        required=False,
        label=_("Known as"),
        help_text=_("The name the person chose to be called, if it is not their full name."),
    )
    aliases = forms.CharField(
        max_length=ALIASES_MAX,
        required=False,
        label=_("Other names"),
        help_text=_(
            "Names the person has been known by: an earlier surname, another spelling. One a "
            "line. A search by name in your own cases finds them too."
        ),
        widget=forms.Textarea({"rows": 2}),
    )
    pronouns = forms.CharField(
        max_length=40, required=False, label=_("Pronouns"), help_text=_("For example: she/her.")
    )
    date_of_birth = forms.DateField(
        label=_("Date of birth"),
        required=False,
        validators=[validate_birth_date],
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Used, with the name, for the confidential conflict check."),
    )
    address = forms.CharField(
        label=_("Address"), max_length=500, required=False, widget=forms.Textarea({"rows": 2})
    )
    phone = forms.CharField(label=_("Phone"), max_length=40, required=False)
    email = forms.EmailField(label=_("Email"), max_length=254, required=False)
    notes = forms.CharField(
        label=_("Notes"), max_length=TEXT_MAX, required=False, widget=forms.Textarea({"rows": 3})
    )

    def clean_aliases(self) -> str:
        return clean_other_names(self.cleaned_data.get("aliases", ""))


def clean_other_names(value: str) -> str:
    """Other names, one a line: blank lines and spaces around each name dropped."""
    names = [line.strip() for line in (value or "").splitlines()]
    names = [name for name in names if name]
    if any(len(name) > NAME_MAX for name in names):
        raise forms.ValidationError(
            _("Each name may have at most %(count)s characters.") % {"count": NAME_MAX}
        )
    return "\n".join(names)


class IntakeForm(forms.Form):
    team = forms.ModelChoiceField(label=_("Team"), queryset=Team.objects.none(), empty_label=None)
    reference = forms.CharField(
        label=_("Reference"),
        max_length=40,
        required=False,
        help_text=_("Leave blank to number the case automatically."),
    )
    summary = forms.CharField(
        max_length=TEXT_MAX,
        required=False,
        widget=forms.Textarea({"rows": 3}),
        label=_("Referral summary"),
    )
    survivor_full_name = forms.CharField(max_length=NAME_MAX, label=_("Survivor's full name"))
    survivor_aliases = forms.CharField(
        max_length=ALIASES_MAX,
        required=False,
        label=_("Survivor's other names"),
        help_text=_("An earlier surname, another spelling: one a line, if there are any."),
        widget=forms.Textarea({"rows": 2}),
    )
    survivor_date_of_birth = forms.DateField(
        required=False,
        validators=[validate_birth_date],
        widget=forms.DateInput(attrs={"type": "date"}),
        label=_("Survivor's date of birth"),
    )
    survivor_phone = forms.CharField(max_length=40, required=False, label=_("Survivor's phone"))
    survivor_email = forms.EmailField(max_length=254, required=False, label=_("Survivor's e-mail"))
    survivor_language = forms.ChoiceField(required=False, label=_("Survivor's preferred language"))
    survivor_interpreter_language = forms.ChoiceField(
        required=False,
        label=_("Interpreter"),
        help_text=_("Never a family member, a friend or the other party."),
    )
    survivor_other_language = forms.CharField(
        max_length=100,
        required=False,
        label=_("Other language"),
        help_text=OTHER_LANGUAGE_HELP,
    )
    other_full_name = forms.CharField(
        max_length=NAME_MAX, required=False, label=_("Other party's full name")
    )
    other_date_of_birth = forms.DateField(
        required=False,
        validators=[validate_birth_date],
        widget=forms.DateInput(attrs={"type": "date"}),
        label=_("Other party's date of birth"),
    )

    #: Fields an agency may hide (not collected at all) or relabel.
    OPTIONAL_FIELDS = (
        "survivor_phone",
        "survivor_email",
        "survivor_date_of_birth",
        "other_date_of_birth",
        "summary",
    )

    def __init__(self, *args, teams, field_config=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = teams
        choices = person_language_choices()
        self.fields["survivor_language"].widget = LanguageSelect(attrs=_filter_attrs())
        self.fields["survivor_language"].choices = [("", _("Not asked yet")), *choices]
        self.fields["survivor_interpreter_language"].widget = LanguageSelect(attrs=_filter_attrs())
        self.fields["survivor_interpreter_language"].choices = [
            ("", _("No interpreter needed")),
            *choices,
        ]
        configure_fields(self, field_config, self.OPTIONAL_FIELDS)
        self.helper = submit_helper(_("Open case"))

    def clean_reference(self) -> str:
        return self.cleaned_data["reference"].strip()

    def clean_survivor_aliases(self) -> str:
        return clean_other_names(self.cleaned_data.get("survivor_aliases", ""))

    def clean(self):
        cleaned = super().clean()
        chosen = {cleaned.get("survivor_language"), cleaned.get("survivor_interpreter_language")}
        other = (cleaned.get("survivor_other_language") or "").strip()
        if spoken_languages.OTHER in chosen:
            if not other and "survivor_other_language" not in self.errors:
                self.add_error("survivor_other_language", OTHER_LANGUAGE_NEEDED)
        else:
            other = ""
        cleaned["survivor_other_language"] = other
        return cleaned

    def survivor(self) -> dict:
        d = self.cleaned_data
        return {
            "full_name": d["survivor_full_name"],
            "aliases": d.get("survivor_aliases", ""),
            "date_of_birth": d.get("survivor_date_of_birth"),
            "phone": d.get("survivor_phone", ""),
            "email": d.get("survivor_email", ""),
            "languages": d.get("survivor_language", ""),
            "interpreter_language": d.get("survivor_interpreter_language", ""),
            "other_language": d.get("survivor_other_language", ""),
        }

    def other_party(self) -> dict | None:
        d = self.cleaned_data
        if not d["other_full_name"]:
            return None
        return {"full_name": d["other_full_name"], "date_of_birth": d.get("other_date_of_birth")}


class CaseEditForm(forms.Form):
    reference = forms.CharField(label=_("Reference"), max_length=40)
    summary = forms.CharField(
        label=_("Summary"), max_length=TEXT_MAX, required=False, widget=forms.Textarea
    )
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)

    #: Fields an agency may hide or relabel (``FieldConfig.for_case``).
    OPTIONAL_FIELDS = ("summary",)

    def __init__(self, *args, field_config=None, **kwargs):
        super().__init__(*args, **kwargs)
        configure_fields(self, field_config, self.OPTIONAL_FIELDS)
        self.helper = submit_helper(_("Save"))

    def clean_reference(self) -> str:
        return self.cleaned_data["reference"].strip()


class PartyForm(PartyFieldsMixin, LanguageNeedsMixin):
    role = forms.ChoiceField(label=_("Role"), choices=[])

    #: Fields an agency may hide or relabel for some roles (``FieldConfig.for_role``).
    OPTIONAL_FIELDS = ("date_of_birth", "phone", "email")

    def __init__(self, *args, roles, role_fields=None, **kwargs):
        """``role_fields``: {role: {field: {hidden, label}}} for the offered ``roles``.

        With one role (editing a person) its settings apply as on the intake form. With several
        (adding a person, the role not chosen yet) a field is removed only if every offered role
        hides it; otherwise its help text says for whom it is not collected or how it is called,
        and a value given for a role that hides it is refused (``clean``).
        """
        super().__init__(*args, **kwargs)
        self.fields["role"].choices = roles
        self.order_fields(["role"])
        role_fields = role_fields or {}
        self.role_names = dict(roles)
        self.hidden_for: dict[str, set[str]] = {}
        if len(roles) == 1:
            configure_fields(self, role_fields.get(roles[0][0]), self.OPTIONAL_FIELDS)
        else:
            self._configure_for_roles(role_fields)
        self.helper = submit_helper(_("Save"))

    def _configure_for_roles(self, role_fields) -> None:
        names = self.role_names
        for field in self.OPTIONAL_FIELDS:
            hidden = [r for r in names if role_fields.get(r, {}).get(field, {}).get("hidden")]
            if hidden and len(hidden) == len(names):
                del self.fields[field]
                continue
            notes = []
            if hidden:
                notes.append(
                    _("Not collected for: ") + ", ".join(str(names[r]) for r in hidden) + "."
                )
            for role in names:
                label = role_fields.get(role, {}).get(field, {}).get("label")
                if label and role not in hidden:
                    notes.append(f"For {names[role]}: “{label}”.")
            if notes:
                self.fields[field].help_text = " ".join(
                    filter(None, [str(self.fields[field].help_text or ""), *notes])
                )
            self.hidden_for[field] = set(hidden)

    def clean(self):
        data = super().clean()
        role = data.get("role")
        for field, hidden in self.hidden_for.items():
            if role not in hidden:
                continue
            if data.get(field):
                self.add_error(
                    field,
                    _("This agency does not collect this for %(role_names_role)s: leave it blank.")
                    % {"role_names_role": self.role_names[role]},
                )
            data.pop(field, None)  # not collected
        return data


class AssignForm(forms.Form):
    primary = forms.ModelChoiceField(queryset=User.objects.none(), label=_("Primary advocate"))
    others = ChosenRows(
        queryset=User.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Also assigned"),
    )

    def __init__(self, *args, users, idva=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["primary"].queryset = users
        self.fields["others"].queryset = users
        self.fields["primary"].label_from_instance = _staff_label
        self.fields["others"].label_from_instance = _staff_label
        if idva:
            self.fields["primary"].label = _("Primary IDVA")
        self.helper = submit_helper(_("Save assignment"))


class RestrictForm(forms.Form):
    restricted = forms.BooleanField(required=False, label=_("Restricted case"))
    users = ChosenRows(
        queryset=User.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Only these staff may see it"),
    )

    def __init__(self, *args, users, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["users"].queryset = users
        self.fields["users"].label_from_instance = _staff_label
        self.helper = submit_helper(_("Save"))


class StatusForm(forms.Form):
    status = forms.ChoiceField(label=_("Status"), choices=[])

    def __init__(self, *args, choices, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["status"].choices = choices


def _emergency_reason() -> forms.CharField:
    """The reason for emergency access, the same rule however the case was found."""
    return forms.CharField(
        label=_("Reason"),
        min_length=15,
        max_length=1000,
        widget=forms.Textarea({"rows": 3}),
        help_text=_("Why you need this case now. Your supervisor reviews every use."),
    )


class BreakGlassForm(forms.Form):
    reference = forms.CharField(max_length=40, label=_("Case reference"))
    reason = _emergency_reason()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Open the case"))


def offer_to_open_despite_conflict(form: forms.Form) -> None:
    """Add the separate, explained button that opens a case despite a possible conflict."""
    form.helper.add_input(  # type: ignore[attr-defined]
        Submit(
            "despite_conflict",
            _("Open anyway, flagged for my supervisor"),
            css_class="btn-outline-danger",
        )
    )


class SearchForm(forms.Form):
    q = forms.CharField(max_length=40, required=False, label=_("Reference"))


class NameSearchForm(forms.Form):
    """Finding a case by a person's name, date of birth or both. Sent by POST so that neither
    ever appears in a URL, a browser history or an access log."""

    name = forms.CharField(
        max_length=200,
        required=False,
        label=_("Name"),
        help_text=_(
            "Capitals, accents' forms, punctuation and word order do not matter. In your own "
            "cases part of a name, the surname alone or another name the person is known by "
            "is enough; across the agency, give the full name."
        ),
    )
    date_of_birth = forms.DateField(
        required=False,
        validators=[validate_birth_date],
        widget=forms.DateInput(attrs={"type": "date"}),
        label=_("Date of birth"),
        help_text=_(
            "If you know it. Alone, it finds the people born that day in your own cases; with "
            "a name, both must match."
        ),
    )
    role = forms.ChoiceField(
        label=_("This person is"),
        choices=[
            (PartyRole.SURVIVOR, _("The survivor (our client)")),
            (PartyRole.OTHER_PARTY, _("The other party (to check for a conflict)")),
        ],
        initial=PartyRole.SURVIVOR,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.form_tag = False

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if name and not name_index_for(name):
            raise forms.ValidationError(_("Enter a name with at least one letter."))
        return name

    def clean(self):
        cleaned = super().clean()
        if (
            not cleaned.get("name")
            and not cleaned.get("date_of_birth")
            and not ({"name", "date_of_birth"} & set(self.errors))
        ):
            self.add_error("name", _("Enter a name, a date of birth, or both."))
        return cleaned


def _staff_label(user) -> str:
    return user.get_full_name() or user.username


class EmergencyByNameForm(forms.Form):
    """Emergency access to the case found by a name search, with the reason."""

    name = forms.CharField(max_length=200, widget=forms.HiddenInput)
    reason = _emergency_reason()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Open the case with emergency access"))
        self.helper.form_action = "cases:find_emergency"


# --- The case timeline --------------------------------------------------------------------------

#: Dates a timeline filter accepts: anything else is a typing slip, not a period of a case.
TIMELINE_YEARS = (1900, 2200)


class TimelineFilterForm(forms.Form):
    """What the case timeline shows: kinds of record, a period (whole days, inclusive) and who
    the entries are about. Read from the query string, so every field is optional."""

    kind = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple(attrs={"class": "form-check-input"}),
        label=_("Show"),
    )
    since = forms.DateField(
        required=False,
        label=_("From"),
        widget=forms.DateInput(attrs={"type": "date", "class": "form-control form-control-sm"}),
    )
    until = forms.DateField(
        required=False,
        label=_("To"),
        widget=forms.DateInput(attrs={"type": "date", "class": "form-control form-control-sm"}),
    )
    person = forms.ChoiceField(
        required=False,
        label=_("About"),
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )

    def __init__(self, *args, sources, **kwargs):
        super().__init__(*args, **kwargs)
        kind = self.fields["kind"]
        assert isinstance(kind, forms.ChoiceField)
        kind.choices = [(s.kind, s.label) for s in sources]
        person = self.fields["person"]
        assert isinstance(person, forms.ChoiceField)
        person.choices = [("", _("Anyone")), *PEOPLE.items()]

    def _clean_day(self, name: str) -> dt.date | None:
        value = self.cleaned_data.get(name)
        if value is not None and not TIMELINE_YEARS[0] <= value.year <= TIMELINE_YEARS[1]:
            raise forms.ValidationError(_("Check the year of this date."))
        return value

    def clean_since(self):
        return self._clean_day("since")

    def clean_until(self):
        return self._clean_day("until")

    def clean(self):
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and until < since:
            self.add_error("until", _("The end of the period must not be before its start."))
        return data

    def query(self, *, limit: int, before=None) -> Query:
        """The timeline query these filters ask for (the form must be valid, or unbound)."""
        data = self.cleaned_data if self.is_bound else {}
        zone = timezone.get_current_timezone()

        def start_of(day: dt.date | None) -> dt.datetime | None:
            if day is None:
                return None
            return dt.datetime.combine(day, dt.time.min, tzinfo=zone)

        until = data.get("until")
        return Query(
            limit=limit,
            before=before,
            since=start_of(data.get("since")),
            until=start_of(until + dt.timedelta(days=1)) if until else None,
            kinds=frozenset(data["kind"]) if data.get("kind") else None,
            person=data.get("person") or None,
        )


# --- The survivor's journey ----------------------------------------------------------------------


class RiskLevelForm(forms.Form):
    """Changing the case's risk level by hand: always with the reason why."""

    risk_level = forms.ChoiceField(label=_("New risk level"), choices=[])
    reason = forms.CharField(
        label=_("Why"),
        max_length=TEXT_MAX,
        widget=forms.Textarea({"rows": 3}),
        help_text=_(
            "Your professional judgement in a sentence or two. A level below the latest "
            "assessment is reviewed by your supervisor."
        ),
    )
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)

    def __init__(self, *args, current: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["risk_level"].choices = [  # type: ignore[attr-defined]
            (value, label) for value, label in RiskLevel.choices if value != current
        ]
        self.helper = submit_helper(gettext("Change the risk level"))


def _blank(choices) -> list[tuple[str, str]]:
    return [("", _("Choose…")), *choices]


class ClosureForm(forms.Form):
    """Closing an episode: why, the exit check of the safety plan, and the outcomes."""

    reason = forms.ModelChoiceField(
        queryset=ClosureReason.objects.none(), label=_("Why is the case closing?"), empty_label=None
    )
    contact_attempts = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=99,
        label=_("How many attempts to make contact were made?"),
        help_text=_("Needed when the reason is no contact."),
    )
    reason_details = forms.CharField(
        required=False,
        max_length=TEXT_MAX,
        widget=forms.Textarea({"rows": 2}),
        label=_("More about the reason (optional)"),
    )
    plan_check = forms.ChoiceField(
        choices=_blank([c for c in PlanExitCheck.choices if c[0] != PlanExitCheck.TRANSFERRED]),
        label=_("Safety plan at closure"),
    )
    if_things_change = forms.CharField(
        required=False,
        max_length=TEXT_MAX,
        widget=forms.Textarea({"rows": 3}),
        label=_("What the survivor can do if things change"),
        help_text=_("For example: who to call, how to come back to the service."),
    )
    abuse_change = forms.ChoiceField(
        choices=_blank(AbuseChange.choices), label=_("Since the start of support, the abuse has")
    )
    feels_safer = forms.ChoiceField(
        choices=_blank(FeelsSafer.choices), label=_("Does the survivor feel safer?")
    )
    quality_of_life_start = forms.TypedChoiceField(
        coerce=int,
        empty_value=None,
        required=False,
        choices=_blank(QualityOfLife.choices),
        label=_("Quality of life at the start of support (as the survivor puts it)"),
    )
    quality_of_life_exit = forms.TypedChoiceField(
        coerce=int,
        empty_value=None,
        required=False,
        choices=_blank(QualityOfLife.choices),
        label=_("Quality of life now"),
    )
    needs_met = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Which of the survivor's needs were met?"),
        help_text=_("Ticked needs are marked met, with today's date, when the case closes."),
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, reasons, submit_label, open_needs=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reason"].queryset = reasons
        if open_needs:
            self.fields["needs_met"].choices = list(open_needs)
        else:
            del self.fields["needs_met"]
        self.helper = submit_helper(submit_label)
        self.helper.form_id = "closure-form"

    def clean(self):
        data = super().clean()
        reason = data.get("reason")
        if (
            reason is not None
            and reason.standard == StandardClosureReason.NO_CONTACT
            and not data.get("contact_attempts")
        ):
            self.add_error(
                "contact_attempts", _("Say how many attempts were made to reach the survivor.")
            )
        if (
            reason is not None
            and reason.standard == StandardClosureReason.OTHER
            and not (data.get("reason_details") or "").strip()
        ):
            self.add_error("reason_details", _("Say what the reason is."))
        return data


class ClosureDecisionForm(forms.Form):
    """A supervisor's decision on a closure waiting for approval."""

    comment = forms.CharField(
        required=False,
        max_length=TEXT_MAX,
        widget=forms.Textarea({"rows": 2}),
        label=_("Your reason (needed to approve or to return it)"),
    )


class ClosureReasonForm(forms.Form):
    label = forms.CharField(max_length=80, label=_("A reason your agency closes cases for"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(gettext("Add the reason"))


class ReassignFilterForm(forms.Form):
    """Which cases to hand over: by primary advocate, team and risk level (all optional)."""

    advocate = forms.ModelChoiceField(
        queryset=User.objects.none(), required=False, label=_("Primary advocate now")
    )
    team = forms.ModelChoiceField(queryset=Team.objects.none(), required=False, label=_("Team"))
    risk = forms.ChoiceField(choices=(), required=False, label=_("Risk level"))

    def __init__(self, *args, advocates, teams, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["advocate"].queryset = advocates
        self.fields["advocate"].label_from_instance = _staff_label
        self.fields["advocate"].empty_label = _("Anyone")
        self.fields["team"].queryset = teams
        self.fields["team"].empty_label = _("Any of your teams")
        self.fields["risk"].choices = [("", _("Any risk level")), *RiskLevel.choices]
        self.helper = FormHelper()
        self.helper.form_method = "get"
        self.helper.add_input(Submit("show", _("Show the cases")))


class QueueFilterForm(forms.Form):
    """Which of a supervisor's team queue to show: one person's, one kind, only what is overdue
    (all optional)."""

    staff = forms.TypedChoiceField(
        choices=(), coerce=int, empty_value=None, required=False, label=_("Staff")
    )
    kind = forms.ChoiceField(choices=(), required=False, label=_("Kind"))
    overdue = forms.BooleanField(required=False, label=_("Overdue only"))

    def __init__(self, *args, owners, choices, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["staff"].choices = [("", _("Anyone")), *owners]
        self.fields["kind"].choices = [("", _("Any kind")), *choices]


class ReassignForm(forms.Form):
    """The cases chosen (their public ids, from the list shown) and the new primary advocate."""

    cases = forms.MultipleChoiceField(
        choices=(), widget=forms.CheckboxSelectMultiple, label=_("Cases to hand over")
    )
    primary = forms.ModelChoiceField(queryset=User.objects.none(), label=_("New primary advocate"))

    def __init__(self, *args, cases, advocates, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["cases"].choices = [(c.public_id, _reassign_label(c)) for c in cases]
        self.fields["cases"].error_messages["required"] = _("Choose at least one case.")
        self.fields["cases"].error_messages["invalid_choice"] = _(
            "One of the cases chosen is no longer in the list: show the cases again."
        )
        self.fields["primary"].queryset = advocates
        self.fields["primary"].label_from_instance = _staff_label
        self.helper = submit_helper(_("Hand over the cases chosen"))
        self.helper.form_id = "reassign-form"


def _reassign_label(case) -> str:
    primary = _staff_label(case.primary_advocate) if case.primary_advocate else gettext("nobody")
    return gettext("%(reference)s · %(team)s · %(risk)s risk · now with %(primary)s") % {
        "reference": case.reference,
        "team": case.team.name,
        "risk": case.get_risk_level_display(),
        "primary": primary,
    }


class CoverForm(forms.Form):
    """Who is away, who covers, and the first and last day."""

    absent = forms.ModelChoiceField(queryset=User.objects.none(), label=_("Who is away"))
    covering = forms.ModelChoiceField(queryset=User.objects.none(), label=_("Who covers"))
    first_day = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    last_day = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, people, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("absent", "covering"):
            self.fields[name].queryset = people
            self.fields[name].label_from_instance = _staff_label
        self.helper = submit_helper(_("Set the cover"))
