"""Forms for case notes, amendments and incidents. Times are entered and shown in the staff's
own time (the agency's zone, activated per request: see ``accounts.zones``), like follow-ups.
Evidence files are checked here (:func:`caseflow.cases.evidence.check_file`); the case's quota
is checked by the service, which the view turns into an error on the same field."""

from __future__ import annotations

import datetime as dt
from typing import Any

from crispy_forms.helper import FormHelper
from django import forms
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.functional import lazy
from django.utils.translation import gettext

from caseflow.accounts import zones
from caseflow.cases import evidence as files
from caseflow.cases.forms import configure_fields
from caseflow.casework.models import (
    Direction,
    GoalStatus,
    IncidentKind,
    IncidentPerson,
    NeedKind,
    NeedStatus,
    NoteKind,
    Participant,
    PoliceInvolved,
    ServiceHow,
    ServiceOutcome,
)
from caseflow.lib.date_parts import DatePartsField, ReadBack, read_back, spoken_date, swapped
from caseflow.lib.form_parts import layout_with_date_parts
from caseflow.lib.i18n import advocate_or_idva
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
            "size": files.megabytes(files.limit_for(family)),
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
        day = timezone.localtime(value).date()
        other = swapped(day) if day > timezone.localdate() else None
        if other is not None and other <= timezone.localdate():
            # Typed the other way round, most likely: say which date would fit.
            raise forms.ValidationError(
                _(
                    "This time is in the future. Did you mean %(day)s? The day and the month "
                    "may be the wrong way round."
                )
                % {"day": spoken_date(other)}
            )
        raise forms.ValidationError(_("This time is in the future."))
    if value < now - dt.timedelta(days=366 * 30):
        raise forms.ValidationError(_("This time is too far in the past."))
    return value


def _your_time(form: forms.Form) -> None:
    """Say, on each time the form asks for, whose time it is in (the staff's own)."""
    for name in ("occurred_at", "followup_due", "occurred_time"):
        if name in form.fields:
            form.fields[name].help_text = zones.your_time(str(form.fields[name].help_text or ""))


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
    occurred_at = DatePartsField(label=_("When"), with_time=True)
    duration_minutes = forms.IntegerField(
        label=_("How long (minutes)"), min_value=0, max_value=24 * 60, required=False
    )
    text = forms.CharField(
        label=_("Note"), max_length=TEXT_MAX, widget=forms.Textarea(attrs={"rows": 6})
    )
    incident = forms.ChoiceField(label=_("About an incident"), required=False)
    checkin = forms.ChoiceField(label=_("About a check-in"), required=False)
    need = forms.ChoiceField(label=_("About a need"), required=False)
    goal = forms.ChoiceField(label=_("About a goal"), required=False)

    #: Fields an agency may hide or relabel (``cases.models.IntakeField``).
    OPTIONAL_FIELDS = ("duration_minutes",)
    #: A new note's "When" is now unless changed; a note changed keeps its own time.
    WHEN_DEFAULTS_TO_NOW = False

    def __init__(
        self,
        *args,
        incidents: list[tuple[str, str]],
        checkins: list[tuple[str, str]] | None = None,
        needs: list[tuple[str, str]] | None = None,
        goals: list[tuple[str, str]] | None = None,
        field_config: dict[str, dict] | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        configure_fields(self, field_config, self.OPTIONAL_FIELDS)
        for name, choices, empty in (
            ("need", needs, _("No need")),
            ("goal", goals, _("No goal")),
        ):
            if not choices:
                del self.fields[name]
            else:
                _choices(self, name, empty, choices)
        _your_time(self)
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
        self.helper.layout = layout_with_date_parts(self)
        if self.WHEN_DEFAULTS_TO_NOW and not self.is_bound and not self.initial.get("occurred_at"):
            now = timezone.localtime().replace(second=0, microsecond=0)
            self.initial["occurred_at"] = now
            self.fields["occurred_at"].collapsed_words = gettext(  # type: ignore[attr-defined]
                "Now: %(when)s"
            ) % {"when": date_format(now, "DATETIME_FORMAT")}

    def clean_occurred_at(self) -> dt.datetime:
        return _when(self.cleaned_data["occurred_at"])


class NoteForm(NoteFields):
    """A new note. Its time is now unless changed (shown in words, the parts behind "Change");
    a time not today is read back before the note is saved (:meth:`unconfirmed_date`)."""

    WHEN_DEFAULTS_TO_NOW = True
    evidence = evidence_field()
    followup = forms.BooleanField(label=_("Also create a follow-up"), required=False)
    followup_due = forms.DateTimeField(
        label=_("Follow-up due"),
        widget=DateTimeLocalInput(attrs={"data-reveal-when": "followup"}),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        required=False,
        help_text=advocate_or_idva(
            _("The follow-up goes to the case's advocate."),
            _("The follow-up goes to the case's IDVA."),
        ),
    )
    followup_details = forms.CharField(
        label=_("What to follow up"),
        max_length=SHORT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "data-reveal-when": "followup"}),
        help_text=_("Stored encrypted; never shown in reminders."),
    )

    def unconfirmed_date(self, confirmed: str) -> ReadBack | None:
        """The read-back to show before saving, unless the time is today or ``confirmed`` (what
        the confirm button posted) is this very time."""
        check = read_back(self.cleaned_data["occurred_at"], with_time=True)
        return None if check is None or check.token == confirmed else check

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
        needs: list[tuple[str, str]] | None = None,
        goals: list[tuple[str, str]] | None = None,
        field_config: dict[str, dict] | None = None,
        **kwargs,
    ):
        super().__init__(
            *args,
            incidents=incidents,
            needs=needs,
            goals=goals,
            field_config=field_config,
            **kwargs,
        )
        self.amend = amend
        if amend:
            self.fields["reason"].required = True
            self.fields["reason"].help_text = _(
                "An amendment keeps what the note said before, who changed it and why."
            )
        else:
            del self.fields["reason"]
        self.helper.layout = layout_with_date_parts(self)


class IncidentForm(forms.Form):
    kinds = forms.MultipleChoiceField(
        label=_("What happened (all that apply)"),
        choices=IncidentKind.choices,
        widget=forms.CheckboxSelectMultiple,
    )
    occurred_on = DatePartsField(label=_("Date"))
    occurred_time = forms.TimeField(
        label=_("Time"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text=_("Leave empty if it is not known."),
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
        help_text=advocate_or_idva(
            _(
                "Physical or sexual violence, stalking, threats and any injury are serious anyway. "
                "A serious incident asks the advocate to re-assess the risk."
            ),
            _(
                "Physical or sexual violence, stalking, threats and any injury are serious anyway. "
                "A serious incident asks the IDVA to re-assess the risk."
            ),
        ),
    )
    evidence = evidence_field()

    #: Fields an agency may hide or relabel (``cases.models.IntakeField``).
    OPTIONAL_FIELDS = ("place", "injuries", "police_reference", "witnesses")

    def __init__(self, *args, field_config: dict[str, dict] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        configure_fields(self, field_config, self.OPTIONAL_FIELDS)
        _your_time(self)
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.disable_csrf = True
        self.helper.layout = layout_with_date_parts(self)

    def unconfirmed_date(self, confirmed: str) -> ReadBack | None:
        """The read-back to show before saving, unless the incident is dated today or
        ``confirmed`` (what the confirm button posted) is this very date and time."""
        data = self.cleaned_data
        timed = data.get("occurred_time") is not None
        check = read_back(data["occurred_at"] if timed else data["occurred_on"], with_time=timed)
        return None if check is None or check.token == confirmed else check

    def clean(self):
        data = super().clean()
        day = data.get("occurred_on")
        if day is not None:
            at = dt.datetime.combine(
                day, data.get("occurred_time") or dt.time(12, 0), tzinfo=zones.current()
            )
            # A wall time the clocks skip (spring forward) is read as the instant they jump.
            at = at.astimezone(dt.UTC)
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


# --- Needs, goals and services -----------------------------------------------------------------


def _date_widget() -> forms.DateInput:
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


def _not_ahead(day: dt.date | None) -> dt.date | None:
    if day is not None and day > timezone.localdate() + dt.timedelta(days=1):
        raise forms.ValidationError(_("This day has not come yet."))
    if day is not None and day < timezone.localdate() - dt.timedelta(days=366 * 30):
        raise forms.ValidationError(_("This day is too far in the past."))
    return day


def _with_helper(form: forms.Form) -> None:
    form.helper = FormHelper()  # type: ignore[attr-defined]
    form.helper.form_tag = False  # type: ignore[attr-defined]
    form.helper.disable_csrf = True  # type: ignore[attr-defined]


def _choices(form: forms.Form, name: str, empty: Any, choices: list[tuple[str, str]]) -> None:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    field.choices = [("", empty), *choices]


class NeedForm(forms.Form):
    kind = forms.ChoiceField(label=_("What the survivor needs help with"), choices=NeedKind.choices)
    detail = forms.CharField(
        label=_("More about it"),
        max_length=SHORT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Stored encrypted."),
    )
    status = forms.ChoiceField(
        label=_("Where it stands"), choices=NeedStatus.choices, initial=NeedStatus.IDENTIFIED
    )
    identified_on = forms.DateField(label=_("Identified on"), widget=_date_widget(), required=False)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, change: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if change:
            # The status moves through its own form, which keeps the history.
            del self.fields["status"]
            del self.fields["identified_on"]
            self.fields["version"].required = True
        else:
            del self.fields["version"]
        _with_helper(self)

    def clean_identified_on(self) -> dt.date | None:
        return _not_ahead(self.cleaned_data.get("identified_on"))


class NeedStatusForm(forms.Form):
    status = forms.ChoiceField(label=_("New status"), choices=NeedStatus.choices)
    changed_on = forms.DateField(
        label=_("On"),
        widget=_date_widget(),
        required=False,
        help_text=_("Leave empty for today."),
    )
    comment = forms.CharField(
        label=_("Comment"),
        max_length=SHORT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, since: dt.date | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.since = since
        _with_helper(self)

    def clean_changed_on(self) -> dt.date | None:
        day = _not_ahead(self.cleaned_data.get("changed_on"))
        if day is not None and self.since is not None and day < self.since:
            raise forms.ValidationError(
                _("The need's latest change was on %(day)s: pick that day or later.")
                % {"day": self.since.strftime("%d %b %Y")}
            )
        return day


class GoalForm(forms.Form):
    description = forms.CharField(
        label=_("The goal"),
        max_length=SHORT_MAX,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("In the survivor's words where possible. Stored encrypted."),
    )
    need = forms.ChoiceField(label=_("Towards the need"), required=False)
    target_date = forms.DateField(label=_("Target date"), widget=_date_widget(), required=False)
    status = forms.ChoiceField(label=_("Where it stands"), choices=GoalStatus.choices)
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, needs: list[tuple[str, str]], change: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        _choices(self, "need", _("Not linked to a need"), needs)
        if not change:
            del self.fields["status"]
            del self.fields["version"]
        _with_helper(self)

    def clean_target_date(self) -> dt.date | None:
        day = self.cleaned_data.get("target_date")
        if day is not None and not (
            timezone.localdate() - dt.timedelta(days=366 * 5)
            <= day
            <= timezone.localdate() + dt.timedelta(days=366 * 10)
        ):
            raise forms.ValidationError(_("Pick a date within the next ten years."))
        return day


class ServiceForm(forms.Form):
    how = forms.ChoiceField(
        label=_("What was done"),
        choices=ServiceHow.choices,
        widget=forms.RadioSelect,
        initial=ServiceHow.GIVEN,
    )
    provider = forms.CharField(
        label=_("Who gave it or took the referral"),
        max_length=200,
        required=False,
        help_text=_("An organisation or service, for example the council's housing team."),
    )
    description = forms.CharField(
        label=_("What it was"),
        max_length=SHORT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    provided_on = forms.DateField(label=_("On"), widget=_date_widget(), required=False)
    outcome = forms.ChoiceField(
        label=_("What came of the referral"), choices=ServiceOutcome.choices, required=False
    )
    need = forms.ChoiceField(label=_("For the need"), required=False)
    goal = forms.ChoiceField(label=_("Towards the goal"), required=False)
    note = forms.ChoiceField(label=_("Recorded in the case note"), required=False)
    release = forms.ChoiceField(
        label=_("Release of information that allows the referral"),
        required=False,
        help_text=_("Needed when the referral shares the survivor's details."),
    )
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(
        self,
        *args,
        needs: list[tuple[str, str]],
        goals: list[tuple[str, str]],
        notes: list[tuple[str, str]],
        releases: list[tuple[str, str]],
        change: bool = False,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        _choices(self, "need", _("Not linked to a need"), needs)
        _choices(self, "goal", _("Not linked to a goal"), goals)
        _choices(self, "note", _("No case note"), notes)
        _choices(self, "release", _("No release"), releases)
        if not change:
            del self.fields["version"]
        _with_helper(self)

    def clean_provided_on(self) -> dt.date | None:
        return _not_ahead(self.cleaned_data.get("provided_on"))

    def clean(self):
        data = super().clean()
        if data.get("how") == ServiceHow.REFERRED and not (data.get("provider") or "").strip():
            self.add_error("provider", _("Say who the referral went to."))
        if data.get("how") == ServiceHow.GIVEN and data.get("release"):
            self.add_error(
                "release", _("A release is named for a referral only: choose “No release”.")
            )
        return data
