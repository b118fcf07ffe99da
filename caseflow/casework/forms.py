"""Forms for case notes, amendments and incidents. Times are entered and shown in UTC, like
follow-ups. Evidence files are checked here (:func:`caseflow.cases.evidence.check_file`); the
case's quota is checked by the service, which the view turns into an error on the same field."""

from __future__ import annotations

import datetime as dt

from crispy_forms.helper import FormHelper
from django import forms
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext

from caseflow.cases import evidence as files
from caseflow.cases.forms import configure_fields
from caseflow.casework.models import (
    Direction,
    IncidentKind,
    IncidentPerson,
    NoteKind,
    Participant,
    PoliceInvolved,
)
from caseflow.lib.i18n import gettext_lazy as _

TEXT_MAX = 8_000
SHORT_MAX = 2_000
MAX_FILES = 10


class DateTimeLocalInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": files.ACCEPT}))
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        if isinstance(data, list | tuple):
            uploads = [item for item in data if item]
        else:
            uploads = [data] if data else []
        if not uploads and self.required:
            raise forms.ValidationError(self.error_messages["required"], code="required")
        checked = []
        problems = []
        if len(uploads) > MAX_FILES:
            raise forms.ValidationError(
                _("At most %(max_files)s files at a time.") % {"max_files": MAX_FILES}
            )
        for upload in uploads:
            upload.seek(0)
            try:
                checked.append(files.check_file(upload.name or "file", upload.read()))
            except files.EvidenceRefused as exc:
                problems.append(str(exc))
        if problems:
            raise forms.ValidationError(
                problems + [_("Nothing was saved: choose the files again.")]
            )
        return checked


def _evidence_help() -> str:
    limits = ", ".join(
        gettext("%(kind)s up to %(size)s")
        % {
            "kind": str(files.FAMILY_LABELS[family]).lower(),
            "size": files._megabytes(files.limit_for(family)),
        }
        for family in ("image", "pdf", "audio", "video")
    )
    return gettext("Accepted: %(accepted_words)s; %(limits)s. Up to %(max_files)s files.") % {
        "accepted_words": files.ACCEPTED_WORDS,
        "limits": limits,
        "max_files": MAX_FILES,
    }


def evidence_field(*, required: bool = False) -> MultipleFileField:
    return MultipleFileField(
        label=_("Evidence files"),
        required=required,
        # Written when the form is shown, in the reader's language.
        help_text=lazy(_evidence_help, str)(),
    )


def _when(value: dt.datetime) -> dt.datetime:
    now = timezone.now()
    if value > now + dt.timedelta(minutes=5):
        raise forms.ValidationError(_("This time is in the future."))
    if value < now - dt.timedelta(days=366 * 30):
        raise forms.ValidationError(_("This time is too far in the past."))
    return value


class NoteFields(forms.Form):
    kind = forms.ChoiceField(label=_("What kind of contact"), choices=NoteKind.choices)
    participants = forms.MultipleChoiceField(
        label=_("Who took part"),
        choices=Participant.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    direction = forms.ChoiceField(
        label=_("Direction"), choices=Direction.choices, initial=Direction.NONE
    )
    occurred_at = forms.DateTimeField(
        label=_("When"),
        widget=DateTimeLocalInput(),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        help_text=_("In UTC."),
    )
    duration_minutes = forms.IntegerField(
        label=_("How long (minutes)"), min_value=0, max_value=24 * 60, required=False
    )
    text = forms.CharField(
        label=_("Note"), max_length=TEXT_MAX, widget=forms.Textarea(attrs={"rows": 6})
    )
    incident = forms.ChoiceField(label=_("About an incident"), required=False)
    checkin = forms.ChoiceField(label=_("About a check-in"), required=False)

    #: Fields an agency may hide or relabel (``cases.models.IntakeField``).
    OPTIONAL_FIELDS = ("duration_minutes",)

    def __init__(
        self,
        *args,
        incidents: list[tuple[str, str]],
        checkins: list[tuple[str, str]] | None = None,
        field_config: dict[str, dict] | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        configure_fields(self, field_config, self.OPTIONAL_FIELDS)
        if checkins is None:
            del self.fields["checkin"]
        else:
            checkin = self.fields["checkin"]
            assert isinstance(checkin, forms.ChoiceField)
            checkin.choices = [("", _("No check-in"))] + checkins
        incident = self.fields["incident"]
        assert isinstance(incident, forms.ChoiceField)
        incident.choices = [("", _("No incident"))] + incidents
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.disable_csrf = True

    def clean_occurred_at(self) -> dt.datetime:
        return _when(self.cleaned_data["occurred_at"])


class NoteForm(NoteFields):
    evidence = evidence_field()
    followup = forms.BooleanField(label=_("Also create a follow-up"), required=False)
    followup_due = forms.DateTimeField(
        label=_("Follow-up due"),
        widget=DateTimeLocalInput(),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        required=False,
        help_text=_("In UTC. The follow-up goes to the case's advocate."),
    )
    followup_details = forms.CharField(
        label=_("What to follow up"),
        max_length=SHORT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Stored encrypted; never shown in reminders."),
    )

    def clean(self):
        data = super().clean()
        if data.get("followup"):
            due = data.get("followup_due")
            if due is None:
                self.add_error("followup_due", _("Say when the follow-up is due."))
            elif (
                not timezone.now() - dt.timedelta(days=1)
                <= due
                <= timezone.now() + dt.timedelta(days=3660)
            ):
                self.add_error("followup_due", _("Pick a time from today to ten years ahead."))
        return data


class NoteChangeForm(NoteFields):
    reason = forms.CharField(
        label=_("Why is it changed"),
        max_length=SHORT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(
        self,
        *args,
        incidents: list[tuple[str, str]],
        amend: bool,
        field_config: dict[str, dict] | None = None,
        **kwargs,
    ):
        super().__init__(*args, incidents=incidents, field_config=field_config, **kwargs)
        self.amend = amend
        if amend:
            self.fields["reason"].required = True
            self.fields["reason"].help_text = _(
                "An amendment keeps what the note said before, who changed it and why."
            )
        else:
            del self.fields["reason"]


class IncidentForm(forms.Form):
    kinds = forms.MultipleChoiceField(
        label=_("What happened (all that apply)"),
        choices=IncidentKind.choices,
        widget=forms.CheckboxSelectMultiple,
    )
    occurred_on = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    occurred_time = forms.TimeField(
        label=_("Time"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text=_("In UTC. Leave empty if it is not known."),
    )
    approximate = forms.BooleanField(label=_("The date is approximate"), required=False)
    when_described = forms.CharField(
        label=_("When, in the survivor's words"),
        max_length=200,
        required=False,
        help_text=_('For example "early March" or "the weekend after the hearing".'),
    )
    place = forms.CharField(label=_("Where"), max_length=SHORT_MAX, required=False)
    person = forms.ChoiceField(
        label=_("Who did it"),
        choices=IncidentPerson.choices,
        initial=IncidentPerson.OTHER_PARTY,
        widget=forms.RadioSelect,
    )
    person_described = forms.CharField(
        label=_("About the person"),
        max_length=SHORT_MAX,
        required=False,
        help_text=_("Who they are, if not the other party."),
    )
    what_happened = forms.CharField(
        label=_("What happened"), max_length=TEXT_MAX, widget=forms.Textarea(attrs={"rows": 6})
    )
    injuries = forms.CharField(
        label=_("Injuries"),
        max_length=SHORT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Any injury recorded makes the incident serious."),
    )
    police = forms.ChoiceField(
        label=_("Police involved"),
        choices=PoliceInvolved.choices,
        initial=PoliceInvolved.UNKNOWN,
        widget=forms.RadioSelect,
    )
    police_reference = forms.CharField(label=_("Police reference"), max_length=60, required=False)
    witnesses = forms.CharField(
        label=_("Witnesses"),
        max_length=SHORT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    serious = forms.BooleanField(
        label=_("This incident is serious"),
        required=False,
        help_text=(
            _(
                "Physical or sexual violence, stalking, threats and any injury are serious anyway. "
                "A serious incident asks the advocate to re-assess the risk."
            )
        ),
    )
    evidence = evidence_field()

    #: Fields an agency may hide or relabel (``cases.models.IntakeField``).
    OPTIONAL_FIELDS = ("place", "injuries", "police_reference", "witnesses")

    def __init__(self, *args, field_config: dict[str, dict] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        configure_fields(self, field_config, self.OPTIONAL_FIELDS)
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.disable_csrf = True

    def clean(self):
        data = super().clean()
        day = data.get("occurred_on")
        if day is not None:
            at = dt.datetime.combine(
                day, data.get("occurred_time") or dt.time(12, 0), tzinfo=dt.UTC
            )
            try:
                data["occurred_at"] = _when(at)
            except forms.ValidationError as exc:
                self.add_error("occurred_on", exc)
        if data.get("approximate") and not (data.get("when_described") or "").strip():
            self.add_error("when_described", _("Say when, as the survivor put it."))
        if data.get("occurred_time") is None:
            data["approximate"] = True
        if (
            data.get("police") != PoliceInvolved.YES
            and (data.get("police_reference") or "").strip()
        ):
            self.add_error("police", _('Choose "Yes" if the police were involved.'))
        return data


class EvidenceForm(forms.Form):
    """Files that arrived after the record was written."""

    evidence = evidence_field(required=True)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.disable_csrf = True
