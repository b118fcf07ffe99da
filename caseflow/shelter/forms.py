"""Forms for sites, rooms and beds, stays and turn-aways."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from caseflow.lib.form_parts import date_field, submit_helper
from caseflow.shelter.models import Access

TEXT_MAX = 2000


def _features(label: Any) -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        label=label,
        required=False,
        choices=Access.choices,
        widget=forms.CheckboxSelectMultiple,
    )


class SiteForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=80,
        help_text=_("What staff call it. Choose a name that does not give the place away."),
    )
    address = forms.CharField(
        label=_("Address"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Kept encrypted and shown only to the staff who need it."),
    )
    active = forms.BooleanField(label=_("Open for bookings"), required=False, initial=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Save the site"))


class RoomForm(forms.Form):
    site = forms.ChoiceField(label=_("Site"))
    name = forms.CharField(label=_("Room"), max_length=80)
    features = _features(_("What the room offers"))

    def __init__(self, *args: Any, sites: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["site"].choices = sites  # type: ignore[attr-defined]
        self.fields["site"].error_messages["invalid_choice"] = _("Choose one of your sites.")
        self.helper = submit_helper(_("Add the room"))


class BedForm(forms.Form):
    room = forms.ChoiceField(label=_("Room"))
    label = forms.CharField(label=_("Bed"), max_length=40)
    features = _features(_("What the bed offers"))

    def __init__(self, *args: Any, rooms: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["room"].choices = rooms  # type: ignore[attr-defined]
        self.fields["room"].error_messages["invalid_choice"] = _("Choose a room of your sites.")
        self.helper = submit_helper(_("Add the bed"))


class StayForm(forms.Form):
    case = forms.ChoiceField(label=_("Case"))
    bed = forms.ChoiceField(label=_("Bed"))
    starts_on = date_field(_("First night"))
    ends_on = date_field(
        _("Leaves on"), required=False, help_text=_("Leave empty while no end is fixed.")
    )
    planned_end_on = date_field(_("Planned to leave on"), required=False)
    children = forms.IntegerField(
        label=_("Children staying with her"), min_value=0, max_value=20, initial=0
    )
    notes = forms.CharField(
        label=_("Notes"),
        required=False,
        max_length=TEXT_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(
        self,
        *args: Any,
        cases: list[tuple[str, str]],
        beds: list[tuple[str, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["case"].choices = [("", _("Choose a case")), *cases]  # type: ignore[attr-defined]
        self.fields["case"].error_messages["invalid_choice"] = _(
            "Choose one of the cases you work on."
        )
        self.fields["bed"].choices = beds  # type: ignore[attr-defined]
        self.fields["bed"].error_messages["invalid_choice"] = _(
            "This bed is not at a site you can book. Choose another bed."
        )
        self.helper = submit_helper(_("Book the stay"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        starts, ends = data.get("starts_on"), data.get("ends_on")
        planned = data.get("planned_end_on")
        if starts and ends and ends <= starts:
            self.add_error("ends_on", _("A stay ends at least one night after it starts."))
        if starts and planned and planned <= starts:
            self.add_error(
                "planned_end_on", _("The planned end is at least one night after the start.")
            )
        return data


class StayEndForm(forms.Form):
    ends_on = date_field(_("Left on"), help_text=_("Her last night was the night before."))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("End the stay"))


class TurnAwayForm(forms.Form):
    on = date_field(_("Date"))
    adults = forms.IntegerField(label=_("Adults"), min_value=1, max_value=20, initial=1)
    children = forms.IntegerField(label=_("Children"), min_value=0, max_value=20, initial=0)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Count this household"))


class NeedsForm(forms.Form):
    need = forms.MultipleChoiceField(
        label=_("Needs"),
        required=False,
        choices=Access.choices,
        widget=forms.CheckboxSelectMultiple,
    )
