"""Forms for risk meetings, referrals, demographics and the agency's risk meeting settings."""

from __future__ import annotations

import re
from typing import Any, cast

from crispy_forms.layout import Fieldset, Layout
from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from caseflow.confidentiality.models import Category, Release
from caseflow.lib.form_parts import date_field, submit_helper
from caseflow.partners import hud
from caseflow.partners.models import (
    HUD_PROJECT_FIELDS,
    NOT_ASKED,
    QUESTIONS,
    ActionStatus,
    Direction,
    HudProject,
    HudProjectType,
    HudRrhSubtype,
    ReferralRoute,
    ReferralState,
    ServiceType,
    SharingBasis,
    answers,
)

TEXT_MAX = 2000
#: A Continuum of Care's number (two letters of its state, three digits) and a HUD geocode.
COC_NUMBER = re.compile(r"[A-Z]{2}-[0-9]{3}")
GEOCODE = re.compile(r"[0-9]{6}")


def _choose(field: forms.Field, choices: Any) -> None:
    field.choices = choices  # type: ignore[attr-defined]  # a ChoiceField


def release_choices(releases: list[Release]) -> list[tuple[str, Any]]:
    today = timezone.localdate()
    return [("", _("None"))] + [
        (
            r.public_id,
            f"{r.recipient} · {r.category_labels} · {r.signed_on:%d %b %Y}–{r.expires_on:%d %b %Y}",
        )
        for r in releases
        if r.is_valid_on(today)
    ]


class MeetingReferralForm(forms.Form):
    route = forms.ChoiceField(
        choices=ReferralRoute.choices, widget=forms.RadioSelect, label=_("Referred because of")
    )
    reason = forms.CharField(
        max_length=TEXT_MAX,
        required=False,
        widget=forms.Textarea({"rows": 3}),
        label=_("Why (needed for professional judgement)"),
    )
    categories = forms.MultipleChoiceField(
        choices=Category.choices,
        widget=forms.CheckboxSelectMultiple,
        label=_("Information shared with the meeting"),
    )
    basis = forms.ChoiceField(
        choices=SharingBasis.choices, widget=forms.RadioSelect, label=_("Shared under")
    )
    release = forms.ChoiceField(required=False, label=_("Consent to share (if shared under it)"))
    referred_on = date_field(_("Referred on"))
    meeting_on = date_field(_("Meeting date (if known)"), required=False)

    def __init__(self, *args: Any, releases: list[Release], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choose(self.fields["release"], release_choices(releases))
        self.helper = submit_helper(_("Refer to the meeting"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("basis") == SharingBasis.RELEASE and not data.get("release"):
            self.add_error("release", _("Choose the consent to share that allows this."))
        if data.get("route") == ReferralRoute.JUDGEMENT and not data.get("reason", "").strip():
            self.add_error("reason", _("Say why, in your professional judgement."))
        return data


class MeetingUpdateForm(forms.Form):
    meeting_on = date_field(_("Meeting date"), required=False)
    outcome = forms.CharField(
        max_length=TEXT_MAX,
        required=False,
        widget=forms.Textarea({"rows": 3}),
        label=_("Outcome of the meeting"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Save the meeting"))


class ActionForm(forms.Form):
    text = forms.CharField(
        max_length=TEXT_MAX, widget=forms.Textarea({"rows": 2}), label=_("Action agreed")
    )
    owner = forms.ChoiceField(required=False, label=_("Done by someone here"))
    owner_agency = forms.CharField(
        max_length=200, required=False, label=_("…or by another agency (its name)")
    )
    due_on = date_field(_("Due on"))

    def __init__(self, *args: Any, owners: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choose(self.fields["owner"], [("", _("Nobody here")), *owners])
        self.helper = submit_helper(_("Add the action"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if bool(data.get("owner")) == bool(data.get("owner_agency", "").strip()):
            self.add_error(
                "owner_agency",
                _("Choose who does it: someone here, or the name of the other agency."),
            )
        return data


class ActionStatusForm(forms.Form):
    action = forms.CharField(max_length=32, widget=forms.HiddenInput)
    status = forms.ChoiceField(choices=ActionStatus.choices, label=_("Status"))


class ReferralForm(forms.Form):
    direction = forms.ChoiceField(
        choices=Direction.choices, widget=forms.RadioSelect, label=_("Direction")
    )
    service_type = forms.ChoiceField(choices=ServiceType.choices, label=_("Service"))
    organisation = forms.CharField(max_length=200, label=_("Organisation"))
    details = forms.CharField(
        max_length=TEXT_MAX,
        required=False,
        widget=forms.Textarea({"rows": 2}),
        label=_("What for"),
    )
    needs = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, label=_("Needs it serves")
    )
    release = forms.ChoiceField(
        required=False, label=_("Consent to share that allows it (for a referral out)")
    )
    sent_on = date_field(_("Sent or received on"))
    respond_by = date_field(_("Reply expected by"), required=False)

    def __init__(
        self,
        *args: Any,
        releases: list[Release],
        needs: list[tuple[str, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        _choose(self.fields["release"], release_choices(releases))
        _choose(self.fields["needs"], needs)
        if not needs:
            del self.fields["needs"]
        self.helper = submit_helper(_("Record the referral"))


class ReferralStateForm(forms.Form):
    state = forms.ChoiceField(choices=ReferralState.choices, label=_("Where it has got to"))
    on = date_field(_("On"))
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, allowed: set[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choose(self.fields["state"], [c for c in ReferralState.choices if c[0] in allowed])
        self.helper = submit_helper(_("Save"))


class DemographicsForm(forms.Form):
    """One question per field the agency collects, under the agency's own label."""

    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, fields: dict[str, dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, (label, _choices) in QUESTIONS.items():
            setting = fields.get(name, {})
            if setting.get("hidden"):
                continue
            self.fields[name] = forms.ChoiceField(
                choices=answers(name),
                required=False,
                initial=NOT_ASKED,
                label=setting.get("label") or label,
            )
        self.helper = submit_helper(_("Save the answers"))


class PartnerSettingsForm(forms.Form):
    meeting_name = forms.CharField(
        max_length=80,
        label=_("What the agency calls its multi-agency risk meeting"),
        help_text=_("For example MARAC, or the high-risk team."),
    )
    lawful_basis = forms.CharField(
        max_length=TEXT_MAX,
        required=False,
        widget=forms.Textarea({"rows": 4}),
        label=_("Lawful basis for sharing with it when a survivor is at high risk"),
        help_text=_(
            "Used when no consent to share covers the meeting. Leave blank to require consent "
            "every time."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Save the settings"))


class HudProjectForm(forms.ModelForm):
    """The agency's project as HUD knows it (Q4a of the APR)."""

    class Meta:
        model = HudProject
        fields = list(HUD_PROJECT_FIELDS)
        labels = {
            "organization_name": _("Organisation name"),
            "organization_id": _("Organisation identifier"),
            "project_name": _("Project name"),
            "project_id": _("Project identifier"),
            "project_type": _("Project type"),
            "rrh_subtype": _("Kind of rapid re-housing"),
            "coordinated_entry_access_point": _(
                "The project is an access point for coordinated entry"
            ),
            "affiliated_with_residential": _(
                "The project is affiliated with a residential project"
            ),
            "affiliated_project_ids": _(
                "Identifiers of the residential projects it is affiliated with"
            ),
            "coc_number": _("Continuum of Care number"),
            "geocode": _("Geocode"),
        }
        help_texts = {
            "organization_id": _("As your Continuum of Care or HUD's grant records it."),
            "project_id": _("As your Continuum of Care or HUD's grant records it."),
            "rrh_subtype": _("Only for a rapid re-housing project."),
            "affiliated_with_residential": _("Only for a services-only project."),
            "affiliated_project_ids": _("Separated by commas."),
            "coc_number": _("Two letters, a dash and three digits, such as CA-600."),
            "geocode": _("The six digits of the area where the project is."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["rrh_subtype"]).choices = [
            ("", _("Not rapid re-housing")),
            *HudRrhSubtype.choices,
        ]
        self.helper = submit_helper(_("Save the project"))

    def clean_coc_number(self) -> str:
        value = self.cleaned_data["coc_number"].strip().upper()
        if not COC_NUMBER.fullmatch(value):
            raise forms.ValidationError(
                _(
                    "A Continuum of Care number is two letters, a dash and three digits, such "
                    "as CA-600."
                )
            )
        return value

    def clean_geocode(self) -> str:
        value = self.cleaned_data["geocode"].strip()
        if not GEOCODE.fullmatch(value):
            raise forms.ValidationError(_("A geocode is six digits."))
        return value

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind = data.get("project_type")
        if kind == HudProjectType.RAPID_REHOUSING and not data.get("rrh_subtype"):
            self.add_error("rrh_subtype", _("Say which kind of rapid re-housing the project is."))
        if kind and kind != HudProjectType.RAPID_REHOUSING and data.get("rrh_subtype"):
            self.add_error("rrh_subtype", _("Only a rapid re-housing project has a kind."))
        if (
            kind
            and kind != HudProjectType.SERVICES_ONLY
            and data.get("affiliated_with_residential")
        ):
            self.add_error(
                "affiliated_with_residential",
                _("Only a services-only project is affiliated with a residential project."),
            )
        if data.get("affiliated_project_ids") and not data.get("affiliated_with_residential"):
            self.add_error(
                "affiliated_project_ids",
                _("Give these only for a project affiliated with a residential project."),
            )
        return data


class HudAnswersForm(forms.Form):
    """HUD's entry and exit questions (:mod:`caseflow.partners.hud`): one list per question,
    boxes for the sources, and the monthly amounts in dollars."""

    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for element in hud.ELEMENTS:
            field: forms.Field
            if element.kind == "choice":
                field = forms.ChoiceField(choices=element.answers(), initial=hud.NOT_COLLECTED)
            elif element.kind == "many":
                field = forms.MultipleChoiceField(
                    choices=element.choices,
                    required=False,
                    widget=forms.CheckboxSelectMultiple,
                )
            elif element.kind == "date":
                field = date_field(
                    element.label,
                    required=False,
                    help_text=_("Leave blank when not known. An approximate day is enough."),
                    error_messages={"invalid": _("Give the date as a day, month and year.")},
                )
            else:
                field = forms.DecimalField(
                    required=False,
                    min_value=0,
                    max_value=hud.AMOUNT_MAX,
                    max_digits=9,
                    decimal_places=2,
                    widget=forms.TextInput({"inputmode": "decimal", "autocomplete": "off"}),
                    help_text=_("Leave blank when not known."),
                    error_messages={
                        "invalid": _("Give the amount as a number of dollars, such as 1250."),
                        "min_value": _("An amount cannot be below zero."),
                        "max_value": _("That amount is too large for a month: check it."),
                        "max_digits": _("That amount is too large for a month: check it."),
                        "max_decimal_places": _("Give at most two figures after the point."),
                    },
                )
            field.label = element.label
            self.fields[element.name] = field
        self.fields["new_assessment"] = forms.BooleanField(
            required=False,
            label=_("This is a new annual assessment (the last one is kept as an earlier one)"),
            help_text=_("Leave it unticked to correct the last annual assessment."),
        )
        self.helper = submit_helper(_("Save the answers"))
        stages = (
            (hud.ENTRY, _("At entry")),
            (hud.HOUSING, _("Moving into housing (permanent housing and rapid re-housing)")),
            (hud.ANNUAL, _("At the annual assessment (after a year of support)")),
            (hud.EXIT, _("At exit")),
        )
        fieldsets = []
        for stage, legend in stages:
            names = [e.name for e in hud.ELEMENTS if e.stage == stage]
            if stage == hud.ANNUAL:
                names.insert(1, "new_assessment")
            fieldsets.append(Fieldset(legend, *names))
        self.helper.layout = Layout("version", *fieldsets)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for element in hud.ELEMENTS:
            chosen = element.kind == "many" and data.get(element.name)
            if chosen and data.get(element.after) != "yes":
                self.add_error(element.name, _("Tick these only when the answer above is yes."))
            if (
                element.kind == "choice"
                and element.after
                and data.get(element.name) in dict(element.choices)
                and data.get(element.after) != element.when
            ):
                self.add_error(
                    element.name,
                    _('Answer this only when it applies: choose "Data not collected".'),
                )
            day = element.kind == "date" and data.get(element.name)
            if day and not hud.EARLIEST <= day <= timezone.localdate():
                self.add_error(element.name, _("Give a date between 1940 and today."))
            if element.total and element.name in data:
                problem = hud.earned_problem(
                    data[element.name], data.get(element.after), data.get(element.total)
                )
                if problem is not None:
                    self.add_error(element.name, problem)
        return data

    def answers(self) -> dict[str, Any]:
        """The cleaned answers as they are stored (amounts as text, "" for none)."""
        out: dict[str, Any] = {}
        for element in hud.ELEMENTS:
            value = self.cleaned_data.get(element.name)
            if element.kind == "amount":
                out[element.name] = "" if value is None else f"{value:.2f}"
            elif element.kind == "date":
                out[element.name] = "" if value is None else value.isoformat()
            elif element.kind == "many":
                out[element.name] = list(value or [])
            else:
                out[element.name] = value
        return out
