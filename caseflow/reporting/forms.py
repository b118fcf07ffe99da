"""Choosing a funder report's period."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from caseflow.reporting.reports import Period, quarter, year


def _date(label: Any) -> forms.DateField:
    return forms.DateField(
        label=label,
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )


class PeriodForm(forms.Form):
    """A quarter, a year or a range of dates, as the report asks."""

    year = forms.IntegerField(min_value=2000, max_value=2100, label=_("Year"))
    quarter = forms.TypedChoiceField(
        coerce=int,
        required=False,
        choices=[
            (1, _("1 (January to March)")),
            (2, _("2 (April to June)")),
            (3, _("3 (July to September)")),
            (4, _("4 (October to December)")),
        ],
        label=_("Quarter"),
    )
    start = _date(_("From"))
    end = _date(_("To"))

    def __init__(self, *args: Any, kind: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kind = kind
        if kind != "quarter":
            del self.fields["quarter"]
        if kind != "range":
            del self.fields["start"]
            del self.fields["end"]
        else:
            del self.fields["year"]

    @staticmethod
    def defaults(kind: str) -> dict[str, Any]:
        today = timezone.localdate()
        if kind == "quarter":
            return {"year": today.year, "quarter": (today.month - 1) // 3 + 1}
        if kind == "year":
            return {"year": today.year}
        return {"start": today.replace(month=1, day=1) - dt.timedelta(days=365), "end": today}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.kind == "quarter" and not data.get("quarter"):
            self.add_error("quarter", _("Choose a quarter."))
        if self.kind == "range":
            start, end = data.get("start"), data.get("end")
            if not start or not end:
                self.add_error("end", _("Give the first and the last day."))
            elif end < start:
                self.add_error("end", _("The end of the period must not be before its start."))
            elif (end - start).days > 366 * 5:
                self.add_error("end", _("Choose a period of at most five years."))
        return data

    def period(self) -> Period:
        d = self.cleaned_data
        if self.kind == "quarter":
            return quarter(d["year"], d["quarter"])
        if self.kind == "year":
            return year(d["year"])
        return Period(d["start"], d["end"], f"{d['start']:%d %b %Y} – {d['end']:%d %b %Y}")
