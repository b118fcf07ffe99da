"""Dates typed in parts, GOV.UK style: day, month and year (and hour and minute) in separate
labelled boxes, in the order the reader's language writes them, so a date cannot be read the
other way round without anyone seeing it (issue #29: "1 December" typed on a browser set to US
order was saved as 12 January).

Conventions: the parts are read in the zone activated for the request (the staff's own, see
``caseflow.accounts.zones``); a value shown back is in that zone too. A client that posts the
whole value instead of the parts (``name=2026-12-01T09:00``, year first) is read as written:
year-month-day cannot be swapped. Nothing here refuses a date that is merely surprising:
:func:`doubts` says what to check, and the form asks the person to confirm.

No package was used: the GOV.UK date pattern exists for Jinja and the GOV.UK Frontend, not as a
Django field, and a field is about sixty lines.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.conf import settings
from django.utils import formats, timezone, translation
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from caseflow.lib.i18n import gettext_lazy as _

__all__ = [
    "DatePartsField",
    "DatePartsWidget",
    "ReadBack",
    "doubts",
    "part_order",
    "read_back",
    "spoken_date",
]

DATE_PARTS = ("day", "month", "year")
TIME_PARTS = ("hour", "minute")
#: Languages that write the month first; every other caseflow language writes the day first.
MONTH_FIRST = {"en-us"}
#: A date further back than this is worth a second look (weeks).
LONG_AGO_WEEKS = 6

_LABELS = {
    "day": _("Day"),
    "month": _("Month"),
    "year": _("Year"),
    "hour": _("Hour"),
    "minute": _("Minute"),
}
_WIDTHS = {"day": 2, "month": 2, "year": 4, "hour": 2, "minute": 2}


def part_order(language: str | None = None) -> tuple[str, str, str]:
    """The order ``language`` (default: the active one) writes a date's parts in."""
    code = (language or translation.get_language() or settings.LANGUAGE_CODE).lower()
    return ("month", "day", "year") if code in MONTH_FIRST else ("day", "month", "year")


def example_hint(language: str | None = None) -> str:
    """ "For example, 27 3 2026", in the reader's order."""
    sample = {"day": "27", "month": "3", "year": "2026"}
    return gettext("For example, %(example)s") % {
        "example": " ".join(sample[p] for p in part_order(language))
    }


def spoken_date(value: dt.date | dt.datetime) -> str:
    """A day in full words, as the reader's language says it ("Tuesday 1 December 2026";
    "Tuesday, December 1, 2026"). The format is the language's ``SPOKEN_DATE_FORMAT``
    (caseflow/formats), else its ``DATE_FORMAT``."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    for module in formats.iter_format_modules(language, settings.FORMAT_MODULE_PATH):
        spoken = getattr(module, "SPOKEN_DATE_FORMAT", None)
        if spoken:
            return formats.date_format(value, spoken)
    return formats.date_format(value, "DATE_FORMAT")


class DatePartsWidget(forms.MultiWidget):
    """Day, month, year (and hour, minute) boxes, each labelled, in the reader's order."""

    def __init__(self, *, with_time: bool = False, attrs: dict[str, Any] | None = None):
        self.with_time = with_time
        names = DATE_PARTS + (TIME_PARTS if with_time else ())
        self.part_names = names
        self.unreadable_whole = False
        widgets: dict[str, forms.Widget | type[forms.Widget]] = {
            name: forms.TextInput(
                attrs={"inputmode": "numeric", "autocomplete": "off", "maxlength": _WIDTHS[name]}
            )
            for name in names
        }
        super().__init__(widgets, attrs)

    def decompress(self, value: Any) -> list[Any]:
        if isinstance(value, str):
            value = _from_iso(value, self.with_time)
        if isinstance(value, dt.datetime):
            if timezone.is_aware(value):
                value = timezone.localtime(value)
            parts = [value.day, value.month, value.year]
            return parts + ([value.hour, f"{value.minute:02d}"] if self.with_time else [])
        if isinstance(value, dt.date):
            return [value.day, value.month, value.year] + (["", ""] if self.with_time else [])
        return [None] * len(self.widgets)

    def value_from_datadict(self, data: Any, files: Any, name: str) -> list[Any]:
        parts = super().value_from_datadict(data, files, name)
        self.unreadable_whole = False
        if all(p in (None, "") for p in parts) and data.get(name):
            whole = _from_iso(str(data.get(name)), self.with_time)
            if whole is None:
                # Said by the field (each form has its own copy of its widgets).
                self.unreadable_whole = True
                return [str(data.get(name))] + [""] * (len(parts) - 1)
            return [str(p) for p in self.decompress(whole)]
        return parts

    def id_for_label(self, id_: str) -> str:
        return f"{id_}_{part_order()[0]}" if id_ else ""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        if not isinstance(value, list):
            value = self.decompress(value)
        attrs = dict(attrs or {})
        base_id = attrs.pop("id", f"id_{name}")
        css = attrs.pop("class", "")
        if attrs.get("aria-invalid"):
            css = f"{css} is-invalid"
        attrs.setdefault("aria-describedby", f"{base_id}_helptext")
        names = [f"_{part}" for part in self.part_names]
        values = dict(zip(names, value, strict=False))
        order = part_order() + (TIME_PARTS if self.with_time else ())

        def box(part: str) -> tuple[Any, ...]:
            suffix = f"_{part}"
            widget = self.widgets[names.index(suffix)]
            part_attrs = {
                **widget.attrs,
                **attrs,
                "id": f"{base_id}{suffix}",
                "class": f"{css} form-control date-part-{_WIDTHS[part]}".strip(),
            }
            return (
                f"{base_id}{suffix}",
                _LABELS[part],
                widget.render(f"{name}{suffix}", values.get(suffix), part_attrs, renderer),
            )

        date_boxes = format_html_join(
            "",
            '<div class="date-part"><label class="form-label" for="{}">{}</label>{}</div>',
            (box(p) for p in order if p in DATE_PARTS),
        )
        if not self.with_time:
            return format_html('<div class="date-parts">{}</div>', date_boxes)
        time_boxes = format_html_join(
            "",
            '<div class="date-part"><label class="form-label" for="{}">{}</label>{}</div>',
            (box(p) for p in TIME_PARTS),
        )
        return format_html(
            '<div class="date-parts">{}<div class="date-parts-time">{}</div></div>',
            date_boxes,
            time_boxes,
        )


def _from_iso(raw: str, with_time: bool) -> dt.date | dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(raw) if with_time else dt.date.fromisoformat(raw[:10])
    except ValueError:
        return None


class DatePartsField(forms.MultiValueField):
    """A day (``with_time``: a day and a time, an aware datetime in the current zone) typed in
    parts. Every mistake is said in words on the field; nothing typed raises."""

    def __init__(self, *, with_time: bool = False, **kwargs: Any):
        self.with_time = with_time
        count = len(DATE_PARTS) + (len(TIME_PARTS) if with_time else 0)
        kwargs.setdefault("widget", DatePartsWidget(with_time=with_time))
        kwargs.setdefault("help_text", "")
        super().__init__(
            fields=[forms.CharField(required=False, strip=True) for _ in range(count)],
            require_all_fields=False,
            **kwargs,
        )
        self.error_messages["required"] = (
            _("Enter the date and time.") if with_time else _("Enter the date.")
        )

    @property
    def hint(self) -> str:
        """How to type it, in the reader's order ("For example, 27 3 2026.")."""
        if self.with_time:
            return gettext("%(date)s. The time in the 24-hour clock, for example 14 05.") % {
                "date": example_hint()
            }
        return f"{example_hint()}."

    def compress(self, data_list: list[Any]) -> dt.date | dt.datetime | None:
        if not data_list:
            return None
        if getattr(self.widget, "unreadable_whole", False):
            raise forms.ValidationError(
                _("Enter a real date, year first: for example 2026-03-27."), code="invalid"
            )
        names = DATE_PARTS + (TIME_PARTS if self.with_time else ())
        raw = dict(zip(names, data_list, strict=False))
        missing = [n for n in part_order() if not raw.get(n)]
        if missing:
            words = {
                "day": _("The date must include a day."),
                "month": _("The date must include a month."),
                "year": _("The date must include a year."),
            }
            raise forms.ValidationError(words[missing[0]], code="incomplete")
        numbers = {}
        for name in names:
            text = str(raw.get(name) or "")
            if name in TIME_PARTS and not text:
                raise forms.ValidationError(_("Enter the time, hour and minute."), code="time")
            if not text.isdigit() or not text.isascii():
                raise forms.ValidationError(
                    {
                        "day": _("Enter the day as a number."),
                        "month": _("Enter the month as a number."),
                        "year": _("Enter the year as a number."),
                        "hour": _("Enter the hour as a number."),
                        "minute": _("Enter the minute as a number."),
                    }[name],
                    code="number",
                )
            # A run of digits longer than any part is out of range, whatever its value (and
            # never handed to int(), which refuses very long ones).
            numbers[name] = int(text) if len(text) <= 6 else 10**6
        if not 1 <= numbers["month"] <= 12:
            raise forms.ValidationError(_("The month must be between 1 and 12."), code="month")
        if not 1 <= numbers["day"] <= 31:
            raise forms.ValidationError(_("The day must be between 1 and 31."), code="day")
        if len(str(raw["year"])) != 4 or numbers["year"] < 1000:
            raise forms.ValidationError(_("Enter the year as 4 digits."), code="year")
        try:
            day = dt.date(numbers["year"], numbers["month"], numbers["day"])
        except ValueError:
            raise forms.ValidationError(_("Enter a real date."), code="invalid") from None
        if not self.with_time:
            return day
        if not 0 <= numbers["hour"] <= 23:
            raise forms.ValidationError(_("The hour must be between 0 and 23."), code="hour")
        if not 0 <= numbers["minute"] <= 59:
            raise forms.ValidationError(_("The minute must be between 0 and 59."), code="minute")
        wall = dt.datetime.combine(day, dt.time(numbers["hour"], numbers["minute"]))
        zone = timezone.get_current_timezone()
        at = wall.replace(tzinfo=zone)
        if at.astimezone(dt.UTC).astimezone(zone).replace(tzinfo=None) != wall:
            raise forms.ValidationError(
                _("The clocks went forward at that time, so it did not happen: check the hour."),
                code="skipped",
            )
        return at


# --- Doubts and read-back ------------------------------------------------------------------------


def swapped(day: dt.date) -> dt.date | None:
    """``day`` with its day and month swapped, when that is a different real date."""
    if day.day > 12 or day.day == day.month:
        return None
    return dt.date(day.year, day.day, day.month)


def doubts(day: dt.date, *, today: dt.date) -> list[str]:
    """What is surprising about ``day``: ``"future"``, ``"long_ago"`` (more than
    :data:`LONG_AGO_WEEKS` weeks back), ``"swapped"`` (the day and month read the other way
    round make a date nearer today)."""
    found = []
    if day > today:
        found.append("future")
    if day < today - dt.timedelta(weeks=LONG_AGO_WEEKS):
        found.append("long_ago")
    other = swapped(day)
    if other is not None and abs((other - today).days) < abs((day - today).days):
        found.append("swapped")
    return found


@dataclass(frozen=True)
class ReadBack:
    """What a form says back before it saves a date that is not today."""

    day: dt.date
    words: str  # "Tuesday 1 December 2026 at 09:00", or the day alone
    day_words: str
    token: str  # what the confirm button posts: the value confirmed, year first
    doubts: list[str] = field(default_factory=list)
    other_words: str = ""  # the swapped date, in words, when it is nearer today

    @property
    def future(self) -> bool:
        return "future" in self.doubts

    @property
    def long_ago(self) -> bool:
        return "long_ago" in self.doubts

    @property
    def weeks(self) -> int:
        return LONG_AGO_WEEKS


def read_back(value: dt.date | dt.datetime, *, with_time: bool) -> ReadBack | None:
    """The read-back of ``value`` (a day, or an aware instant shown in the current zone), or
    ``None`` when it is today (today's dates save in one step)."""
    today = timezone.localdate()
    if isinstance(value, dt.datetime):
        local = timezone.localtime(value)
        day = local.date()
    else:
        local = None
        day = value
    if day == today:
        return None
    day_words = spoken_date(day)
    if with_time and local is not None:
        words = gettext("%(day)s at %(time)s") % {
            "day": day_words,
            "time": formats.date_format(local, "TIME_FORMAT"),
        }
        token = local.strftime("%Y-%m-%dT%H:%M")
    else:
        words = day_words
        token = day.isoformat()
    found = doubts(day, today=today)
    other = swapped(day) if "swapped" in found else None
    return ReadBack(
        day=day,
        words=words,
        day_words=day_words,
        token=token,
        doubts=found,
        other_words=spoken_date(other) if other else "",
    )
