"""The upload form and the column mapping."""

from __future__ import annotations

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Fieldset, Layout, Submit
from django import forms

from caseflow.imports.template import FIELDS
from caseflow.lib.i18n import gettext_lazy as _


class UploadForm(forms.Form):
    file = forms.FileField(
        label=_("Caseload file (.csv or .xlsx)"),
        help_text=_("One row per case, as in the template. Nothing is imported until you confirm."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.add_input(Submit("submit", _("Upload and choose the columns")))


class StaffUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Staff file (.csv or .xlsx)"),
        help_text=_(
            "One row per member of staff, as in the staff template. Nothing is written until you "
            "confirm."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.add_input(Submit("submit", _("Upload and check every row")))


class MappingForm(forms.Form):
    """For each of caseflow's fields, the column of the file that holds it."""

    def __init__(self, *args, headings: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", _("Not in this file"))] + [(h, h) for h in headings]
        groups: dict[str, list[str]] = {}
        for field in FIELDS:
            self.fields[field.key] = forms.ChoiceField(
                label=str(field.label), choices=choices, required=False
            )
            groups.setdefault(str(field.group), []).append(field.key)
        self.helper = FormHelper()
        self.helper.layout = Layout(*(Fieldset(name, *keys) for name, keys in groups.items()))
        self.helper.add_input(Submit("submit", _("Check every row (nothing is written)")))

    def mapping(self) -> dict[str, str]:
        return {k: v for k, v in self.cleaned_data.items() if v}
