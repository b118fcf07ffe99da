"""Choosing a funder report's period: one of the report's fixed periods, from a list."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from caseflow.reporting.reports import Period, periods


class PeriodForm(forms.Form):
    """A quarter or a federal year that has ended, as the report is given out (see
    :func:`caseflow.reporting.reports.periods` for why there are no free dates)."""

    period = forms.ChoiceField(
        label=_("Period"),
        error_messages={"invalid_choice": _("Choose one of the periods in the list.")},
    )

    def __init__(
        self, *args: Any, kind: str, earliest: dt.date | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.kind = kind
        found = periods(kind, timezone.localdate(), earliest)
        self.periods = {p.start.isoformat(): p for p in found}
        field = self.fields["period"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(key, p.label) for key, p in self.periods.items()]
        if not self.periods:
            field.help_text = _("No period has ended since the agency's first case.")

    def default(self) -> dict[str, Any]:
        return {"period": next(iter(self.periods), None)}

    def chosen(self) -> Period:
        return self.periods[self.cleaned_data["period"]]
