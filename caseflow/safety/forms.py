"""Forms for the safety plan, its review, diffs, the safe print and risk assessments."""

from __future__ import annotations

import datetime as dt
from typing import Any

from crispy_forms.bootstrap import InlineRadios
from crispy_forms.helper import FormHelper
from crispy_forms.layout import Div, Field, Fieldset, Layout, Submit
from django import forms
from django.conf import settings
from django.utils import timezone

from caseflow.cases.forms import configure_fields
from caseflow.lib.form_parts import date_field, submit_helper
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.safety import instruments as engine
from caseflow.safety import sections
from caseflow.safety.hard_dates import MOST_DAYS_BEFORE
from caseflow.safety.models import HardDateKind

TEXT_MAX = 4000
ORDER_SLOTS = 3
YES_NO = [("yes", _("Yes")), ("no", _("No")), ("", _("Not answered"))]


def _textarea(rows: int = 3) -> forms.Textarea:
    return forms.Textarea({"rows": rows})


class PlanForm(forms.Form):
    """Every section of the plan. ``version`` is the plan version the user opened."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)

    def __init__(self, *args: Any, order_slots: int = ORDER_SLOTS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.order_slots = order_slots
        for key, label, help_text in sections.TEXT_SECTIONS:
            self.fields[key] = forms.CharField(
                label=label,
                help_text=help_text,
                max_length=TEXT_MAX,
                required=False,
                widget=_textarea(),
            )
        self.fields["go_bag"] = forms.MultipleChoiceField(
            label=_("Go-bag checklist"),
            choices=sections.GO_BAG_ITEMS,
            required=False,
            widget=forms.CheckboxSelectMultiple,
            help_text=_("What is packed and kept somewhere safe."),
        )
        for slot in range(1, order_slots + 1):
            p = f"order_{slot}_"
            self.fields[p + "court"] = forms.CharField(
                label=_("Order %(slot)s: court") % {"slot": slot}, max_length=200, required=False
            )
            self.fields[p + "reference"] = forms.CharField(
                label=_("Order %(slot)s: order reference") % {"slot": slot},
                max_length=100,
                required=False,
            )
            self.fields[p + "granted"] = date_field(
                _("Order %(slot)s: granted on") % {"slot": slot}, required=False
            )
            self.fields[p + "expires"] = date_field(
                _("Order %(slot)s: expires on") % {"slot": slot}, required=False
            )
            self.fields[p + "conditions"] = forms.CharField(
                label=_("Order %(slot)s: conditions") % {"slot": slot},
                max_length=TEXT_MAX,
                required=False,
                widget=_textarea(2),
            )
        for key, label in sections.BARRIERS:
            self.fields[f"barrier_{key}"] = forms.CharField(
                label=label, max_length=TEXT_MAX, required=False, widget=_textarea(2)
            )
        self.helper = FormHelper()
        self.helper.layout = self._layout()
        self.helper.add_input(Submit("submit", _("Save as a new version")))

    def _layout(self) -> Layout:
        text = {key: key for key, _, _ in sections.TEXT_SECTIONS}
        orders = [
            Div(
                *(
                    Field(f"order_{slot}_{name}")
                    for name in ("court", "reference", "granted", "expires", "conditions")
                ),
                css_class="border rounded p-2 mb-2",
            )
            for slot in range(1, self.order_slots + 1)
        ]
        return Layout(
            "version",
            text["safe_contacts"],
            text["home"],
            text["leaving"],
            "go_bag",
            text["documents"],
            text["children"],
            text["pets"],
            text["technology"],
            text["work_school"],
            Fieldset(_("Protective orders"), *orders),
            text["emergency_numbers"],
            Fieldset(
                _("Emotional safety"),
                *(text[key] for key in sections.EMOTIONAL_KEYS if key != "staying"),
            ),
            Fieldset(_("Staying, or not ready to leave"), text["staying"]),
            Fieldset(
                _("Practical barriers to safety"),
                *(f"barrier_{key}" for key, _ in sections.BARRIERS),
            ),
        )

    @classmethod
    def initial_for(cls, content: dict[str, Any], version: int) -> dict[str, Any]:
        content = sections.normalise(content)
        initial: dict[str, Any] = {"version": version, "go_bag": content["go_bag"]}
        for key, _label, _help in sections.TEXT_SECTIONS:
            initial[key] = content[key]
        for slot, order in enumerate(content["protective_orders"], start=1):
            for name, value in order.items():
                initial[f"order_{slot}_{name}"] = value
        for key, _label in sections.BARRIERS:
            initial[f"barrier_{key}"] = content["barriers"][key]
        return initial

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for slot in range(1, self.order_slots + 1):
            granted = data.get(f"order_{slot}_granted")
            expires = data.get(f"order_{slot}_expires")
            if granted and expires and expires < granted:
                self.add_error(
                    f"order_{slot}_expires", _("The expiry date is before the date it was granted.")
                )
            filled = any(
                data.get(f"order_{slot}_{name}")
                for name in ("reference", "granted", "expires", "conditions")
            )
            if filled and not data.get(f"order_{slot}_court"):
                self.add_error(f"order_{slot}_court", _("Name the court that made this order."))
        return data

    def content(self) -> dict[str, Any]:
        data = self.cleaned_data
        orders = []
        for slot in range(1, self.order_slots + 1):
            p = f"order_{slot}_"
            order = {
                name: data.get(p + name) or ""
                for name in ("court", "reference", "granted", "expires", "conditions")
            }
            for name in ("granted", "expires"):
                value = order[name]
                if isinstance(value, dt.date):
                    order[name] = value.isoformat()
            orders.append(order)
        return {
            **{key: data.get(key, "") for key, _, _ in sections.TEXT_SECTIONS},
            "go_bag": list(data.get("go_bag") or []),
            "protective_orders": orders,
            "barriers": {key: data.get(f"barrier_{key}", "") for key, _ in sections.BARRIERS},
        }


class ReviewForm(forms.Form):
    review_by = forms.DateField(
        required=False,
        label=_("Next review by"),
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Leave blank to use the default for the case's risk level."),
    )

    def clean_review_by(self) -> dt.date | None:
        value = self.cleaned_data.get("review_by")
        if value is None:
            return None
        today = timezone.localdate()
        if value <= today:
            raise forms.ValidationError(_("The next review must be after today."))
        if value > today + dt.timedelta(days=366):
            raise forms.ValidationError(_("Review a safety plan at least once a year."))
        return value


class DiffForm(forms.Form):
    a = forms.IntegerField(min_value=1, label=_("From version"))
    b = forms.IntegerField(min_value=1, label=_("To version"))


#: The printed page's title unless the advocate chooses another: it says nothing of what it is.
NEUTRAL_TITLE = _("Notes")


class PrintForm(forms.Form):
    title = forms.CharField(
        label=_("Title on the paper"),
        max_length=60,
        required=False,
        help_text=_(
            "Shown at the top and in the browser's own title. Choose words that say "
            "nothing about the plan, such as 'Notes' or 'Shopping list'."
        ),
    )
    language = forms.ChoiceField(
        label=_("Language of the paper"),
        required=False,
        choices=[("", _("The same as this page")), *settings.LANGUAGES],
        help_text=_("Headings in the survivor's language; what you wrote stays as written."),
        widget=forms.Select(
            attrs={"class": "form-select", "aria-describedby": "print-language-help"}
        ),
    )
    omit = forms.MultipleChoiceField(
        label=_("Leave out"),
        choices=[(s.key, s.label) for s in sections.SECTIONS],
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )


class AssessmentForm(forms.Form):
    """One yes / no / not-answered choice per item of the instrument, and an optional override."""

    def __init__(self, *args: Any, instrument: engine.Instrument, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instrument = instrument
        for number, item in enumerate(instrument.items, start=1):
            self.fields[f"item_{item.id}"] = forms.ChoiceField(
                label=_("%(number)s. %(text)s") % {"number": number, "text": item.text},
                help_text=item.help,
                choices=YES_NO,
                required=False,
                initial="",
                widget=forms.RadioSelect,
            )
            if item.words:
                self.fields[f"words_{item.id}"] = forms.CharField(
                    label=_("What the survivor says"),
                    max_length=2000,
                    required=False,
                    widget=_textarea(3),
                    help_text=_("In their own words. Stored encrypted."),
                )
        self.fields["override_band"] = forms.ChoiceField(
            label=_("Professional-judgement override"),
            choices=[("", _("No override: use the scored band"))]
            + [(band.id, band.label) for band in instrument.bands],
            required=False,
        )
        self.fields["override_reason"] = forms.CharField(
            label=_("Reason for the override"),
            max_length=2000,
            required=False,
            widget=_textarea(3),
            help_text=_("Required when you override the band."),
        )
        self.helper = FormHelper()
        self.helper.layout = Layout(
            *(
                field
                for item in instrument.items
                for field in (
                    [InlineRadios(f"item_{item.id}")] + ([f"words_{item.id}"] if item.words else [])
                )
            ),
            "override_band",
            "override_reason",
        )
        self.helper.add_input(Submit("submit", _("Save assessment")))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not any(data.get(f"item_{item.id}") for item in self.instrument.items):
            raise forms.ValidationError(_("Answer at least one question."))
        if data.get("override_band") and not (data.get("override_reason") or "").strip():
            self.add_error(
                "override_reason", _("Give the reason for overriding the band the score gives.")
            )
        return data

    def words(self) -> dict[str, str]:
        """The survivor's own words, for the questions that ask for them (empty ones left out)."""
        return {
            item.id: text
            for item in self.instrument.items
            if item.words and (text := (self.cleaned_data.get(f"words_{item.id}") or "").strip())
        }

    def answers(self) -> dict[str, bool | None]:
        values = {"yes": True, "no": False}
        return {
            item.id: values.get(self.cleaned_data.get(f"item_{item.id}") or "")
            for item in self.instrument.items
        }


class HardDateForm(forms.Form):
    """A date that is hard for the survivor: a day is required (a hard date without one cannot
    be supported); her words for it are optional."""

    kind = forms.ChoiceField(label=_("What kind of day"), choices=HardDateKind.choices)
    words = forms.CharField(
        label=_("Her words for it (optional)"),
        max_length=200,
        required=False,
        help_text=_("As she puts it, for example “the day I left”."),
    )
    day = date_field(
        _("The day"),
        error_messages={
            "required": _("Give the day: a hard date needs a day, month and year."),
            "invalid": _("Give the day as a date: day, month and year."),
        },
    )
    yearly = forms.BooleanField(
        label=_("Every year"),
        required=False,
        help_text=_("An anniversary or a birthday comes back every year."),
    )
    support_days_before = forms.IntegerField(
        label=_("Days before it she wants a check-in"),
        initial=1,
        min_value=0,
        max_value=MOST_DAYS_BEFORE,
        help_text=_("0 for the day itself."),
        error_messages={
            "required": _("Say how many days before (0 for the day itself)."),
            "invalid": _("Give a whole number of days."),
        },
    )

    def __init__(
        self, *args: Any, field_config: dict[str, dict] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        # The agency may not collect her words, or call them something else.
        configure_fields(self, field_config, ("words",))
        self.helper = submit_helper(_("Add the hard date"))
