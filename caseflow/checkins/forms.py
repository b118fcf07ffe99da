"""Forms for check-ins, outcomes and follow-ups. Check-in times are entered in the survivor's
zone; follow-ups in the staff's own (the agency's, see ``accounts.zones``)."""

from __future__ import annotations

import datetime as dt
import functools
import zoneinfo
from typing import Any

from crispy_forms.layout import HTML, Column, Fieldset, Layout, Row, Submit
from django import forms
from django.utils import timezone

from caseflow.accounts import zones
from caseflow.accounts.models import User
from caseflow.cases.models import Channel
from caseflow.checkins.models import CheckInOutcome
from caseflow.inbox.kinds import GeneralFollowUpKind, followup_kind_choices
from caseflow.lib import recurrence, weekly_windows
from caseflow.lib.form_parts import moment_field, submit_helper
from caseflow.lib.i18n import advocate_or_idva
from caseflow.lib.i18n import gettext_lazy as _

NOTE_MAX = 500
MAX_AHEAD_DAYS = 366
DETAILS_MAX = 2000

#: Repeats offered as presets; the weekly and monthly ones follow the first check-in's day.
REPEAT_CHOICES = [
    ("", _("Does not repeat")),
    ("daily", _("Every day")),
    ("weekdays", _("Every weekday (Monday to Friday)")),
    ("weekly", _("Every week, on the same day")),
    ("fortnightly", _("Every two weeks, on the same day")),
    ("monthly", _("Every month, on the same date")),
    ("monthly_weekday", _("Every month, on the same weekday (for example the second Tuesday)")),
    ("days", _("Every week, on the days I choose")),
]
WEEKDAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
WEEKDAY_CHOICES = [
    ("MO", _("Monday")),
    ("TU", _("Tuesday")),
    ("WE", _("Wednesday")),
    ("TH", _("Thursday")),
    ("FR", _("Friday")),
    ("SA", _("Saturday")),
    ("SU", _("Sunday")),
]


def repeat_rule(repeat: str, first: dt.date, days: list[str] | None = None) -> str:
    """The RFC 5545 rule of a preset, for a series whose first check-in is on ``first``."""
    code = WEEKDAY_CODES[first.weekday()]
    nth = (first.day - 1) // 7 + 1
    return {
        "": "",
        "daily": "FREQ=DAILY",
        "weekdays": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
        "weekly": f"FREQ=WEEKLY;BYDAY={code}",
        "fortnightly": f"FREQ=WEEKLY;INTERVAL=2;BYDAY={code}",
        # The 29th to 31st do not come every month: the last day of the month stands in.
        "monthly": f"FREQ=MONTHLY;BYMONTHDAY={first.day}"
        if first.day <= 28
        else "FREQ=MONTHLY;BYMONTHDAY=-1",
        "monthly_weekday": f"FREQ=MONTHLY;BYDAY={nth if nth < 5 else -1}{code}",
        "days": "FREQ=WEEKLY;BYDAY=" + ",".join(d for d in WEEKDAY_CODES if d in (days or [])),
    }.get(repeat, "")


_NTH = (_("first"), _("second"), _("third"), _("fourth"), _("last"))
#: The repeat in words; the same sentences go to the page's script, which keeps them current as
#: the advocate changes the date or the repeat (``repeat_words_data``).
REPEAT_WORDS = {
    "": _("Does not repeat."),
    "daily": _("Repeats every day."),
    "weekdays": _("Repeats every weekday, Monday to Friday."),
    "weekly": _("Repeats every week on %(day)s."),
    "fortnightly": _("Repeats every two weeks on %(day)s."),
    "monthly": _("Repeats every month on day %(n)s."),
    "monthly_last": _("Repeats every month on its last day."),
    "monthly_weekday": _("Repeats every month on the %(nth)s %(day)s."),
    "days": _("Repeats every week on %(days)s."),
    "days_none": _("Repeats every week on the days you choose."),
    "no_date": _("Choose the date of the first check-in to see how it repeats."),
}


def repeat_words_data() -> dict:
    return {
        "words": {key: str(value) for key, value in REPEAT_WORDS.items()},
        "days": [[code, str(name)] for code, name in WEEKDAY_CHOICES],
        "nth": [str(n) for n in _NTH],
    }


def repeat_words(repeat: str, first: dt.date | None, days: list[str] | None = None) -> str:
    """The repeat in words ("Repeats every week on Tuesday."), shown beside the choice."""
    names = dict(WEEKDAY_CHOICES)
    if repeat in ("", "daily", "weekdays"):
        return str(REPEAT_WORDS[repeat])
    if repeat == "days":
        chosen = [str(names[d]) for d in WEEKDAY_CODES if d in (days or [])]
        if not chosen:
            return str(REPEAT_WORDS["days_none"])
        return str(REPEAT_WORDS["days"]) % {"days": ", ".join(chosen)}
    if repeat not in REPEAT_WORDS:
        return ""
    if first is None:
        return str(REPEAT_WORDS["no_date"])
    day = str(names[WEEKDAY_CODES[first.weekday()]])
    if repeat == "monthly":
        if first.day > 28:
            return str(REPEAT_WORDS["monthly_last"])
        return str(REPEAT_WORDS["monthly"]) % {"n": first.day}
    nth = str(_NTH[min((first.day - 1) // 7, 4)])
    return str(REPEAT_WORDS[repeat]) % {"day": day, "nth": nth}


def _staff_label(user: User) -> str:
    return user.get_full_name() or user.username


class CheckInForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    time = forms.TimeField(label=_("Time"), widget=forms.TimeInput(attrs={"type": "time"}))
    channel = forms.ChoiceField(label=_("Channel"), choices=Channel.choices)
    assignee = forms.ModelChoiceField(
        queryset=User.objects.none(),
        empty_label=None,
        label=advocate_or_idva(_("Advocate"), _("IDVA")),
    )
    repeat = forms.ChoiceField(choices=REPEAT_CHOICES, required=False, label=_("Repeat"))
    days = forms.MultipleChoiceField(
        choices=WEEKDAY_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("On these days"),
        help_text=_("Only for “every week, on the days I choose”."),
    )
    until = forms.DateField(
        label=_("Until"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Last day of the repeats (optional)."),
    )

    def __init__(self, *args, assignees, tz: str, channels: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        assignee = self.fields["assignee"]
        assert isinstance(assignee, forms.ModelChoiceField)
        assignee.queryset = assignees
        assignee.label_from_instance = _staff_label  # type: ignore[method-assign,assignment]
        in_zone = _("In the survivor's time zone (%(zone)s).") % {"zone": tz}
        self.fields["date"].help_text = in_zone
        self.fields["time"].help_text = in_zone
        safe = [c for c in Channel.choices if c[0] in channels]
        if safe:
            # Only her safe channels are offered: an unsafe one is not a choice to get wrong.
            channel = self.fields["channel"]
            assert isinstance(channel, forms.ChoiceField)
            channel.choices = safe
            channel.error_messages["invalid_choice"] = _(
                "Choose one of the survivor's safe channels."
            )
            channel.help_text = _("Safe channels: ") + ", ".join(str(c[1]) for c in safe)
            # Her only (or first) safe channel, unless one was asked for.
            if not self.initial.get("channel"):
                self.initial["channel"] = safe[0][0]
        self.helper = submit_helper(_("Schedule check-in"))
        # Fills the date and time with the next safe slot; saves nothing.
        # The date and time may still be empty: the browser must not hold the button back.
        use_slot = Submit("use_slot", _("Use the next safe slot"), formnovalidate="formnovalidate")
        use_slot.field_classes = "btn btn-secondary"
        self.helper.add_input(use_slot)
        self.helper.layout = Layout(
            HTML('{% include "checkins/_safe_times.html" %}'),
            "date",
            "time",
            "channel",
            "assignee",
            "repeat",
            HTML(
                '<p id="repeat-words" class="repeat-words" aria-live="polite">'
                "{{ repeat_words }}</p>"
            ),
            "days",
            "until",
        )

    def warn_duplicate(self, message: str) -> None:
        """Say that a check-in like this one is already booked, and offer to book it anyway."""
        self.add_error(None, message)
        anyway = Submit("confirm_duplicate", _("Schedule it anyway"))
        anyway.field_classes = "btn btn-outline-danger"
        self.helper.add_input(anyway)

    def words(self) -> str:
        """The repeat as currently chosen (the submitted values, else the initial ones)."""
        repeat = self["repeat"].value() or ""
        try:
            first = dt.date.fromisoformat(str(self["date"].value() or ""))
        except ValueError:
            first = None
        days = self["days"].value() or []
        return repeat_words(str(repeat), first, list(days))

    def clean_date(self):
        value = self.cleaned_data["date"]
        today = timezone.localdate()
        if not today - dt.timedelta(days=1) <= value <= today + dt.timedelta(days=MAX_AHEAD_DAYS):
            raise forms.ValidationError(_("Pick a date between today and a year from now."))
        return value

    def clean(self):
        data = super().clean()
        repeat = data.get("repeat") or ""
        rule = ""
        if repeat == "days" and not data.get("days"):
            self.add_error("days", _("Choose the days it repeats on."))
        elif repeat and data.get("date"):
            rule = repeat_rule(repeat, data["date"], data.get("days"))
        if rule and data.get("until"):
            if data.get("date") and data["until"] < data["date"]:
                self.add_error("until", _("The last day is before the first check-in."))
            rule += f";UNTIL={data['until']:%Y%m%d}"
        if rule:
            try:
                recurrence.validate_rule(rule)
            except recurrence.RecurrenceError:
                self.add_error("repeat", _("This repeat cannot be used: choose another."))
        data["rrule"] = rule
        return data


class OutcomeForm(forms.Form):
    outcome = forms.ChoiceField(
        label=_("Outcome"), choices=CheckInOutcome.choices, widget=forms.RadioSelect
    )
    note = forms.CharField(
        label=_("Note"),
        max_length=NOTE_MAX,
        required=False,
        widget=forms.Textarea({"rows": 2}),
        help_text=_("Short, factual. Stored encrypted."),
    )
    reschedule_date = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label=_("New date")
    )
    reschedule_time = forms.TimeField(
        required=False, widget=forms.TimeInput(attrs={"type": "time"}), label=_("New time")
    )
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Record outcome"))

    def clean_reschedule_date(self):
        value = self.cleaned_data.get("reschedule_date")
        today = timezone.localdate()
        if value and not today - dt.timedelta(days=1) <= value <= today + dt.timedelta(days=366):
            raise forms.ValidationError(_("Pick a date between today and a year from now."))
        return value

    def clean(self):
        data = super().clean()
        if data.get("outcome") == CheckInOutcome.RESCHEDULED and not (
            data.get("reschedule_date") and data.get("reschedule_time")
        ):
            self.add_error("reschedule_date", _("Give the new date and time."))
        return data


class FollowUpForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Kind"), choices=followup_kind_choices, initial=GeneralFollowUpKind.TASK
    )
    due_at = moment_field(_("Due"))
    details = forms.CharField(
        label=_("Details"),
        max_length=DETAILS_MAX,
        required=False,
        widget=forms.Textarea({"rows": 3}),
        help_text=_("Stored encrypted; never shown in reminders."),
    )
    assignee = forms.ModelChoiceField(
        queryset=User.objects.none(),
        empty_label=None,
        label=advocate_or_idva(_("Advocate"), _("IDVA")),
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, assignees, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["assignee"].queryset = assignees
        self.fields["assignee"].label_from_instance = _staff_label  # type: ignore[attr-defined]
        self.fields["due_at"].help_text = zones.your_time()
        self.helper = submit_helper(_("Save follow-up"))

    def clean_due_at(self):
        value = self.cleaned_data["due_at"]
        now = timezone.now()
        if not now - dt.timedelta(days=366) <= value <= now + dt.timedelta(days=3660):
            raise forms.ValidationError(_("Pick a date within a year ago and ten years ahead."))
        return value


#: The days a safe window picked on the form starts on.
WINDOW_DAYS = [
    ("", _("Choose days")),
    ("daily", _("Every day")),
    ("weekdays", _("Monday to Friday")),
    ("weekends", _("Saturday and Sunday")),
] + [(str(number), name) for number, (_code, name) in enumerate(WEEKDAY_CHOICES)]
_WINDOW_DAY_SETS = {
    "daily": frozenset(range(7)),
    "weekdays": frozenset(range(5)),
    "weekends": frozenset({5, 6}),
} | {str(number): frozenset({number}) for number in range(7)}
#: Safe windows picked with day and time pickers; any others are written in the text box.
WINDOW_ROWS = 4


@functools.cache
def _zone_choices() -> list[tuple[str, str]]:
    """Every IANA zone, by name. Read once: listing them walks the zone files on disk (tens of
    milliseconds, for every safe-contact form and every row of an imported caseload)."""
    return [(z, z) for z in sorted(zoneinfo.available_timezones())]


class SafeContactForm(forms.Form):
    timezone = forms.ChoiceField(
        label=_("Timezone"),
        choices=[],
        initial="Europe/London",
        help_text=_("The survivor's own time zone."),
    )
    channels = forms.MultipleChoiceField(
        choices=Channel.choices,
        widget=forms.CheckboxSelectMultiple,
        label=_("Safe channels"),
    )
    windows = forms.CharField(
        widget=forms.Textarea({"rows": 2}),
        max_length=2000,
        required=False,
        label=_("Other safe times"),
        help_text=_(
            "Only if the choices above do not fit: one per line, e.g. “Mon, Wed 10:00-12:00”."
        ),
    )
    voicemail_safe = forms.BooleanField(required=False, label=_("Voicemail is safe"))
    safe_phone = forms.CharField(label=_("Safe phone"), max_length=40, required=False)
    safe_email = forms.EmailField(label=_("Safe email"), max_length=254, required=False)
    third_party = forms.CharField(
        max_length=200, required=False, label=_("Named third party (if contact goes through one)")
    )
    code_word = forms.CharField(
        max_length=200, required=False, label=_("Code word / “is it safe to talk?” opener")
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["timezone"].choices = _zone_choices  # type: ignore[attr-defined]
        # A new profile starts in the staff's own zone (the agency's): most survivors live there.
        self.fields["timezone"].initial = zones.current().key
        rows = []
        for i in range(WINDOW_ROWS):
            self.fields[f"window_days_{i}"] = forms.ChoiceField(
                choices=WINDOW_DAYS, required=False, label=_("Days")
            )
            self.fields[f"window_start_{i}"] = forms.TimeField(
                required=False,
                label=_("From"),
                widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            )
            self.fields[f"window_end_{i}"] = forms.TimeField(
                required=False,
                label=_("Until"),
                widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            )
            rows.append(
                Row(
                    Column(f"window_days_{i}", css_class="col-12 col-sm-6"),
                    Column(f"window_start_{i}", css_class="col-6 col-sm-3"),
                    Column(f"window_end_{i}", css_class="col-6 col-sm-3"),
                    css_class="safe-window-row",
                )
            )
        self.helper = submit_helper(_("Save"))
        self.helper.layout = Layout(
            "timezone",
            "channels",
            Fieldset(
                str(_("Safe times, in the survivor's time zone")),
                HTML(
                    '<p class="form-text mt-0">'
                    + str(_("A window that ends before it starts runs past midnight."))
                    + "</p>"
                ),
                *rows,
                "windows",
            ),
            "voicemail_safe",
            "safe_phone",
            "safe_email",
            "third_party",
            "code_word",
            "version",
        )

    @staticmethod
    def initial_windows(windows: list[weekly_windows.Window]) -> dict:
        """The pickers' initial values for ``windows`` (those that fit them) and the text box's
        (the rest)."""
        initial: dict = {}
        rest = []
        presets = {days: key for key, days in _WINDOW_DAY_SETS.items()}
        row = 0
        for window in windows:
            key = presets.get(frozenset(window.days))
            if key is None or row == WINDOW_ROWS:
                rest.append(window)
                continue
            initial[f"window_days_{row}"] = key
            initial[f"window_start_{row}"] = window.start
            initial[f"window_end_{row}"] = window.end
            row += 1
        initial["windows"] = weekly_windows.format_windows(rest)
        return initial

    def clean_windows(self) -> list[dict]:
        try:
            windows = weekly_windows.parse_windows(self.cleaned_data["windows"])
        except weekly_windows.WindowSyntaxError as exc:
            raise forms.ValidationError(str(exc)) from exc
        return [w.to_dict() for w in windows]

    def _picked_windows(self, data: dict) -> list[dict]:
        picked = []
        for i in range(WINDOW_ROWS):
            days = data.get(f"window_days_{i}") or ""
            start, end = data.get(f"window_start_{i}"), data.get(f"window_end_{i}")
            if not days and start is None and end is None:
                continue
            if not days:
                self.add_error(f"window_days_{i}", _("Choose the days of this safe time."))
            elif start is None:
                self.add_error(f"window_start_{i}", _("Choose when this safe time starts."))
            elif end is None:
                self.add_error(f"window_end_{i}", _("Choose when this safe time ends."))
            elif start.replace(second=0, microsecond=0) == end.replace(second=0, microsecond=0):
                self.add_error(f"window_end_{i}", _("The end must differ from the start."))
            else:
                window = weekly_windows.Window(
                    days=_WINDOW_DAY_SETS[days],
                    start=start.replace(second=0, microsecond=0),
                    end=end.replace(second=0, microsecond=0),
                )
                picked.append(window.to_dict())
        return picked

    def clean(self):
        data = super().clean()
        picked = self._picked_windows(data)
        if "windows" in data:
            data["windows"] = picked + data["windows"]
            if not data["windows"] and not self.errors:
                self.add_error("window_days_0", _("Give at least one safe time."))
            elif len(data["windows"]) > weekly_windows.MAX_WINDOWS:
                self.add_error("windows", _("Too many safe times."))
        channels = data.get("channels") or []
        if Channel.THIRD_PARTY in channels and not data.get("third_party"):
            self.add_error("third_party", _("Name the third party, or untick that channel."))
        if Channel.PHONE in channels and not data.get("safe_phone"):
            self.add_error("safe_phone", _("Give the safe phone number for phone calls."))
        if Channel.TEXT in channels and not data.get("safe_phone"):
            self.add_error("safe_phone", _("Give the safe phone number for text messages."))
        if Channel.EMAIL in channels and not data.get("safe_email"):
            self.add_error("safe_email", _("Give the safe e-mail address."))
        return data


class ProposalsForm(forms.Form):
    """Which of the proposed check-ins to book (all ticked at first)."""

    proposals = forms.MultipleChoiceField(
        label=_("Check-ins to book"),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["proposals"].choices = choices  # type: ignore[attr-defined]
