"""Forms for agreements, their terms, the contact log and the breach register.

An advocate fills in the terms with checkboxes and plain text lines; :class:`AgreementForm` turns
them into a :class:`caseflow.agreements.terms.Agreement` and reports every problem on the field it
came from.
"""

from __future__ import annotations

import datetime as dt
from pathlib import PurePath
from zoneinfo import ZoneInfo

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Fieldset, Layout, Submit
from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.dates import WEEKDAYS
from django.utils.text import format_lazy

from caseflow.agreements import terms
from caseflow.agreements.labels import (
    CHANNEL_CHOICES,
    CHANNEL_LABELS,
    DIRECTION_CHOICES,
    KIND_CHOICES,
    TERM_LABELS,
)
from caseflow.agreements.models import STATUS_TRANSITIONS, AgreementStatus, Severity
from caseflow.cases.evidence import ACCEPTED_WORDS, EvidenceRefused, check_file, shown_name
from caseflow.lib import weekly_windows
from caseflow.lib.i18n import gettext_lazy as _

#: Monday first, in Django's own (translated) words.
WEEKDAY_CHOICES = [(str(i), WEEKDAYS[i]) for i in range(7)]
MAX_TOPICS = 30
MAX_TOPIC_LENGTH = 60

# Field path prefixes of terms.TermsError → the form field that carries the error.
_TERMS_FIELDS = [
    ("effective_to", "effective_to"),
    ("effective_from", "terms_from"),
    ("permitted_channels.to_survivor", "permitted_to_survivor"),
    ("permitted_channels.from_survivor", "permitted_from_survivor"),
    ("forbidden_channels.to_survivor", "forbidden_to_survivor"),
    ("forbidden_channels.from_survivor", "forbidden_from_survivor"),
    ("permitted_topics", "permitted_topics"),
    ("emergency_topics", "emergency_topics"),
    ("time_windows", "time_windows"),
    ("child_contact_windows", "child_contact_windows"),
    ("frequency_cap", "cap_limit"),
    ("handover.weekdays", "handover_days"),
    ("handover.time", "handover_time"),
    ("handover.tolerance_minutes", "handover_tolerance"),
    ("handover", "handover_place"),
]


def terms_field_for(path: str) -> str | None:
    for prefix, name in _TERMS_FIELDS:
        if path == prefix or path.startswith((prefix + ".", prefix + "[")):
            return name
    return None


def local_midnight(day: dt.date, zone: str) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(0), tzinfo=ZoneInfo(zone))


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


class DateInput(forms.DateInput):
    input_type = "date"


class TimeInput(forms.TimeInput):
    input_type = "time"


class DateTimeLocalInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


def _checkboxes(label: str, choices, help_text: str = "") -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        label=label,
        choices=choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=help_text,
    )


class AgreementForm(forms.Form):
    """The agreement and one version of its terms, without any JSON."""

    effective_from = forms.DateField(label=_("Agreement starts on"), widget=DateInput)
    effective_to = forms.DateField(
        label=_("Last day of the agreement"), required=False, widget=DateInput
    )
    terms_from = forms.DateField(
        label=_("These terms apply from"),
        required=False,
        widget=DateInput,
        help_text=_("Leave empty for today (or the start of the agreement, if later)."),
    )
    court = forms.CharField(label=_("Court"), max_length=200, required=False)
    court_reference = forms.CharField(
        label=_("Court order reference"), max_length=80, required=False
    )
    order_expires_on = forms.DateField(
        label=_("Court order expires on"), required=False, widget=DateInput
    )
    children = forms.MultipleChoiceField(
        label=_("Children covered"), required=False, widget=forms.CheckboxSelectMultiple
    )
    permitted_to_survivor = _checkboxes(
        _("Channels the other parent may use"),
        CHANNEL_CHOICES,
        _("None ticked: any channel that is not forbidden."),
    )
    forbidden_to_survivor = _checkboxes(
        _("Channels the other parent must not use"), CHANNEL_CHOICES
    )
    permitted_from_survivor = _checkboxes(
        _("Channels the survivor has chosen to use"), CHANNEL_CHOICES
    )
    forbidden_from_survivor = _checkboxes(
        _("Channels the survivor has chosen not to use"), CHANNEL_CHOICES
    )
    permitted_topics = forms.CharField(
        label=_("Permitted topics"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One per line, e.g. child logistics, health, school. Empty: any topic."),
    )
    time_windows = forms.CharField(
        label=_("Contact times"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_(
            "One window per line in the survivor's time zone, e.g. Mon-Fri 18:00-19:00. "
            "Empty: any time."
        ),
    )
    cap_limit = forms.IntegerField(
        label=_("At most this many messages"),
        required=False,
        min_value=0,
        max_value=1000,
        help_text=_("Empty: no frequency cap."),
    )
    cap_per = forms.ChoiceField(
        label=_("per"), choices=[("day", _("day")), ("week", _("week"))], initial="day"
    )
    cap_direction = forms.ChoiceField(
        label=_("from"), choices=DIRECTION_CHOICES, initial=terms.Direction.TO_SURVIVOR
    )
    routine_response_hours = forms.IntegerField(
        label=_("Routine replies within (hours)"), required=False, min_value=1, max_value=336
    )
    urgent_response_hours = forms.IntegerField(
        label=_("Urgent replies within (hours)"), required=False, min_value=1, max_value=336
    )
    emergency_topics = forms.CharField(
        label=_("Emergency topics"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_(
            "One per line, e.g. medical emergency. Contact about these is exempt from the "
            "contact times, cap and topics (not from the channel rules)."
        ),
    )
    emergency_definition = forms.CharField(
        label=_("What counts as an emergency"),
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    handover_place = forms.CharField(label=_("Handover place"), max_length=200, required=False)
    handover_days = _checkboxes(_("Handover days"), WEEKDAY_CHOICES)
    handover_time = forms.TimeField(label=_("Handover time"), required=False, widget=TimeInput)
    handover_tolerance = forms.IntegerField(
        label=_("Allowed lateness (minutes)"),
        required=False,
        min_value=0,
        max_value=240,
        initial=15,
    )
    handover_supervised = forms.BooleanField(label=_("Supervised handover"), required=False)
    handover_by = forms.CharField(label=_("Supervised by"), max_length=200, required=False)
    handover_no_direct_contact = forms.BooleanField(
        label=_("No direct contact between the parents at handover"), required=False
    )
    child_contact_windows = forms.CharField(
        label=_("Child-contact times"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("One window per line, e.g. daily 18:00-18:30. Empty: not restricted."),
    )
    note = forms.CharField(label=_("What changed (optional)"), max_length=500, required=False)
    lock = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, children=(), timezone_name: str, first_version: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.timezone_name = timezone_name
        self.first_version = first_version
        children_field = self.fields["children"]
        assert isinstance(children_field, forms.ChoiceField)
        children_field.choices = list(children)
        if first_version:
            # The first version's terms apply from the start of the agreement.
            del self.fields["terms_from"]
        self.terms: terms.Agreement | None = None
        self.protocol: dict = {}
        self.helper = FormHelper()
        self.helper.layout = Layout(
            Fieldset(
                _("Agreement"),
                "effective_from",
                "effective_to",
                "court",
                "court_reference",
                "order_expires_on",
                "children",
            ),
            Fieldset(
                _("The other parent's channels"), "permitted_to_survivor", "forbidden_to_survivor"
            ),
            Fieldset(
                _("What the survivor has chosen"),
                "permitted_from_survivor",
                "forbidden_from_survivor",
            ),
            Fieldset(
                _("Topics and times (%(zone)s time)") % {"zone": timezone_name},
                *(() if first_version else ("terms_from",)),
                "permitted_topics",
                "time_windows",
                "cap_limit",
                "cap_per",
                "cap_direction",
            ),
            Fieldset(
                _("Responses and emergencies"),
                "routine_response_hours",
                "urgent_response_hours",
                "emergency_topics",
                "emergency_definition",
            ),
            Fieldset(
                _("Handover and children"),
                "handover_place",
                "handover_days",
                "handover_time",
                "handover_tolerance",
                "handover_supervised",
                "handover_by",
                "handover_no_direct_contact",
                "child_contact_windows",
            ),
            "note",
            "lock",
            Submit("save", _("Save a new version")),
        )

    # --- field cleaning ----------------------------------------------------------------------

    def _topics(self, name: str) -> list[str]:
        topics = [line.lower() for line in _lines(self.cleaned_data.get(name, ""))]
        if len(topics) > MAX_TOPICS:
            raise forms.ValidationError(
                _("At most %(max_topics)s topics.") % {"max_topics": MAX_TOPICS}
            )
        for topic in topics:
            if len(topic) > MAX_TOPIC_LENGTH:
                raise forms.ValidationError(
                    _("A topic may be at most %(max_topic_length)s characters long.")
                    % {"max_topic_length": MAX_TOPIC_LENGTH}
                )
        return sorted(set(topics))

    def clean_permitted_topics(self) -> list[str]:
        return self._topics("permitted_topics")

    def clean_emergency_topics(self) -> list[str]:
        return self._topics("emergency_topics")

    def _windows(self, name: str) -> list[terms.Window]:
        try:
            parsed = weekly_windows.parse_windows(self.cleaned_data.get(name, ""))
        except weekly_windows.WindowSyntaxError as exc:
            raise forms.ValidationError(
                _("Line %(line)s: %(problem)s.") % {"line": exc.line, "problem": exc.problem}
            ) from None
        return [terms.Window(days=w.days, start=w.start, end=w.end) for w in parsed]

    def clean_time_windows(self) -> list[terms.Window]:
        return self._windows("time_windows")

    def clean_child_contact_windows(self) -> list[terms.Window]:
        return self._windows("child_contact_windows")

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        start, end = data["effective_from"], data.get("effective_to")
        if end is not None and end < start:
            self.add_error("effective_to", _("The last day is before the start of the agreement."))
            return data
        if self.first_version:
            terms_from = start
        else:
            terms_from = data.get("terms_from") or max(start, timezone.localdate())
        if terms_from < start or (end is not None and terms_from > end):
            self.add_error("terms_from", _("The terms must start within the agreement's dates."))
            return data
        for direction in ("to_survivor", "from_survivor"):
            both = set(data[f"permitted_{direction}"]) & set(data[f"forbidden_{direction}"])
            if both:
                names = ", ".join(str(CHANNEL_LABELS[c]) for c in sorted(both))
                self.add_error(
                    f"forbidden_{direction}",
                    _("A channel cannot be both permitted and forbidden: %(names)s.")
                    % {"names": names},
                )
                return data
        handover_given = any(
            data.get(name) for name in ("handover_place", "handover_days", "handover_time")
        )
        if handover_given:
            if not data.get("handover_days"):
                self.add_error("handover_days", _("Choose at least one handover day."))
            if data.get("handover_time") is None:
                self.add_error("handover_time", _("Give the handover time."))
            if self.errors:
                return data
        zone = self.timezone_name
        try:
            self.terms = terms.Agreement(
                effective_from=local_midnight(terms_from, zone),
                effective_to=(
                    local_midnight(end + dt.timedelta(days=1), zone) if end is not None else None
                ),
                timezone=zone,
                permitted_channels={
                    terms.Direction.TO_SURVIVOR: data["permitted_to_survivor"],
                    terms.Direction.FROM_SURVIVOR: data["permitted_from_survivor"],
                },
                forbidden_channels={
                    terms.Direction.TO_SURVIVOR: data["forbidden_to_survivor"],
                    terms.Direction.FROM_SURVIVOR: data["forbidden_from_survivor"],
                },
                permitted_topics=data["permitted_topics"],
                time_windows=tuple(data["time_windows"]),
                frequency_cap=(
                    None
                    if data.get("cap_limit") is None
                    else terms.Cap(
                        limit=data["cap_limit"],
                        per=data["cap_per"],
                        direction=data["cap_direction"],
                    )
                ),
                emergency_topics=data["emergency_topics"],
                handover=(
                    terms.Handover(
                        place=data.get("handover_place", ""),
                        weekdays=[int(d) for d in data["handover_days"]],
                        time=data["handover_time"],
                        tolerance_minutes=(
                            15
                            if data.get("handover_tolerance") is None
                            else data["handover_tolerance"]
                        ),
                        supervised=bool(data.get("handover_supervised")),
                        no_direct_contact=bool(data.get("handover_no_direct_contact")),
                    )
                    if handover_given
                    else None
                ),
                child_contact_windows=tuple(data["child_contact_windows"]),
            )
        except terms.TermsError as exc:
            name = terms_field_for(exc.field)
            self.add_error(name, exc.problem[:1].upper() + exc.problem[1:] + ".")
            return data
        self.protocol = {
            "routine_response_hours": data.get("routine_response_hours"),
            "urgent_response_hours": data.get("urgent_response_hours"),
            "emergency_definition": data.get("emergency_definition", ""),
            "handover_by": data.get("handover_by", "") if handover_given else "",
        }
        return data


def initial_from_version(agreement, version) -> dict:
    """Form values that show ``version`` of ``agreement`` again."""
    initial = {
        "effective_from": agreement.effective_from,
        "effective_to": agreement.effective_to,
        "court": agreement.court,
        "court_reference": agreement.court_reference,
        "order_expires_on": agreement.order_expires_on,
        "lock": agreement.lock,
    }
    if version is None:
        return initial
    t = terms.Agreement.from_dict(version.terms)
    protocol = version.protocol or {}
    initial.update(
        {
            "terms_from": t.effective_from.astimezone(t.zone).date(),
            "permitted_to_survivor": sorted(t.permitted_channels[terms.Direction.TO_SURVIVOR]),
            "permitted_from_survivor": sorted(t.permitted_channels[terms.Direction.FROM_SURVIVOR]),
            "forbidden_to_survivor": sorted(t.forbidden_channels[terms.Direction.TO_SURVIVOR]),
            "forbidden_from_survivor": sorted(t.forbidden_channels[terms.Direction.FROM_SURVIVOR]),
            "permitted_topics": "\n".join(sorted(t.permitted_topics)),
            "emergency_topics": "\n".join(sorted(t.emergency_topics)),
            "time_windows": windows_text(t.time_windows),
            "child_contact_windows": windows_text(t.child_contact_windows),
            "routine_response_hours": protocol.get("routine_response_hours"),
            "urgent_response_hours": protocol.get("urgent_response_hours"),
            "emergency_definition": protocol.get("emergency_definition", ""),
            "handover_by": protocol.get("handover_by", ""),
        }
    )
    if t.frequency_cap is not None:
        initial.update(
            cap_limit=t.frequency_cap.limit,
            cap_per=t.frequency_cap.per.value,
            cap_direction=t.frequency_cap.direction.value,
        )
    if t.handover is not None:
        initial.update(
            handover_place=t.handover.place,
            handover_days=[str(d) for d in sorted(t.handover.weekdays)],
            handover_time=t.handover.time,
            handover_tolerance=t.handover.tolerance_minutes,
            handover_supervised=t.handover.supervised,
            handover_no_direct_contact=t.handover.no_direct_contact,
        )
    return initial


def windows_text(windows) -> str:
    return weekly_windows.format_windows(windows)


class StatusForm(forms.Form):
    status = forms.ChoiceField(label=_("New status"), choices=())
    lock = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, current: str, **kwargs):
        super().__init__(*args, **kwargs)
        allowed = STATUS_TRANSITIONS[current]
        status = self.fields["status"]
        assert isinstance(status, forms.ChoiceField)
        status.choices = [
            (value, label) for value, label in AgreementStatus.choices if value in allowed
        ]


# --- Evidence ------------------------------------------------------------------------------------

MAX_EVIDENCE_FILES = 5


def _is_plain_text(data: bytes) -> bool:
    if b"\x00" in data:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(item, initial) for item in data]
        return [] if not data else [single(data, initial)]


class ContactEventForm(forms.Form):
    occurred_at = forms.DateTimeField(
        label=_("When it happened"),
        widget=DateTimeLocalInput,
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    channel = forms.ChoiceField(label=_("Channel"), choices=CHANNEL_CHOICES)
    direction = forms.ChoiceField(label=_("Direction"), choices=DIRECTION_CHOICES)
    kind = forms.ChoiceField(label=_("What sort of contact"), choices=KIND_CHOICES)
    topic = forms.CharField(
        label=_("Topic"),
        max_length=MAX_TOPIC_LENGTH,
        required=False,
        help_text=_("As named in the agreement, e.g. child logistics."),
    )
    handover_missed = forms.BooleanField(label=_("The handover was missed"), required=False)
    direct_contact_at_handover = forms.BooleanField(
        label=_("The parents had direct contact at the handover"), required=False
    )
    description = forms.CharField(
        label=_("Short description"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    evidence = MultipleFileField(
        label=_("Evidence files"),
        required=False,
        help_text=format_lazy(
            _("{accepted}, or plain text; up to 5 files."), accepted=ACCEPTED_WORDS
        ),
    )

    def __init__(self, *args, timezone_name: str, topics=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.timezone_name = timezone_name
        self.topics = sorted(topics)
        if self.topics:
            self.fields["topic"].widget.attrs["list"] = "agreement-topics"
        self.fields["occurred_at"].help_text = _("In the survivor's time zone (%(zone)s).") % {
            "zone": timezone_name
        }
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.disable_csrf = True

    def clean_occurred_at(self) -> dt.datetime:
        value = self.cleaned_data["occurred_at"]
        naive = value.replace(tzinfo=None) if value.tzinfo is not None else value
        zone = ZoneInfo(self.timezone_name)
        aware = naive.replace(tzinfo=zone)
        if aware.astimezone(dt.UTC).astimezone(zone).replace(tzinfo=None) != naive:
            raise forms.ValidationError(
                _(
                    "This time did not exist on that day: the clocks went forward. "
                    "Check the time with the survivor."
                )
            )
        if aware > timezone.now() + dt.timedelta(minutes=5):
            raise forms.ValidationError(_("This time is in the future."))
        return aware

    def clean_topic(self) -> str:
        return self.cleaned_data["topic"].strip().lower()

    def clean_evidence(self) -> list[dict]:
        files = self.cleaned_data.get("evidence") or []
        if len(files) > MAX_EVIDENCE_FILES:
            raise forms.ValidationError(
                _("At most %(max_evidence_files)s files at a time.")
                % {"max_evidence_files": MAX_EVIDENCE_FILES}
            )
        limit = settings.EVIDENCE_MAX_BYTES
        cleaned = []
        for upload in files:
            name = upload.name or "file"
            if upload.size == 0:
                raise forms.ValidationError(_("%(name)s is empty.") % {"name": name})
            if upload.size > limit:
                raise forms.ValidationError(
                    _("%(name)s is too large (%(size)s KB); the limit is %(limit)s KB.")
                    % {
                        "name": name,
                        "size": upload.size // 1024,
                        "limit": limit // 1024,
                    }
                )
            upload.seek(0)
            data = upload.read()
            if PurePath(name).suffix.lower() == ".txt":
                # A typed-up account of the contact: plain text only.
                if not _is_plain_text(data):
                    raise forms.ValidationError(
                        _("%(name)s is not plain text; it was not accepted.") % {"name": name}
                    )
                expected = "text/plain"
            else:
                # Photos, screenshots, PDFs, recordings and videos: the same checks as case
                # notes and incidents (caseflow.cases.evidence).
                try:
                    expected = check_file(name, data).content_type
                except EvidenceRefused as exc:
                    raise forms.ValidationError(
                        str(exc).replace("Accepted: ", "Accepted: plain text, ")
                    ) from None
            cleaned.append({"name": shown_name(name), "content_type": expected, "data": data})
        return cleaned

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            self.event = terms.ContactEvent(
                occurred_at=data["occurred_at"],
                channel=data["channel"],
                direction=data["direction"],
                topic=data["topic"],
                kind=data["kind"],
                handover_missed=data["handover_missed"],
                direct_contact_at_handover=data["direct_contact_at_handover"],
            )
        except terms.TermsError as exc:
            field = exc.field if exc.field in self.fields else None
            problem = exc.problem
            if field in ("handover_missed", "direct_contact_at_handover"):
                problem = "only applies to a handover of the children"
            self.add_error(field, problem[:1].upper() + problem[1:] + ".")
        return data


class BreachReviewForm(forms.Form):
    terms_broken = forms.MultipleChoiceField(
        label=_("Terms broken"),
        choices=list(TERM_LABELS.items()),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Untick every term to record the contact as no breach."),
    )
    severity = forms.ChoiceField(
        label=_("Severity"), choices=[("", "—")] + list(Severity.choices), required=False
    )
    police_reported = forms.BooleanField(label=_("Reported to the police"), required=False)
    police_reference = forms.CharField(label=_("Police reference"), max_length=60, required=False)
    description = forms.CharField(
        label=_("Description for the breach register"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.add_input(Submit("confirm", _("Confirm")))

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        if data["terms_broken"] and not data["severity"]:
            self.add_error("severity", _("Choose how severe this breach is."))
        if data["police_reported"] and not data["police_reference"].strip():
            self.add_error("police_reference", _("Give the police reference."))
        if not data["police_reported"] and data["police_reference"].strip():
            self.add_error("police_reported", _("Tick this if it was reported to the police."))
        return data
