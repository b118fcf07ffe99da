"""The small form "What did the other party do afterwards?", and the agency's own kinds."""

from __future__ import annotations

from typing import Any

from django import forms

from caseflow.accounts import zones
from caseflow.cycle.services import WORDS_MAX
from caseflow.lib.form_parts import moment_field, submit_helper
from caseflow.lib.i18n import gettext_lazy as _


class MarkForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("What did the other party do afterwards?"), widget=forms.RadioSelect
    )
    at = moment_field(_("When"))
    words = forms.CharField(
        label=_("In her own words (optional)"),
        help_text=_("What she said about it, as she said it. Stored encrypted."),
        max_length=WORDS_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(
        self, *args: Any, kinds: list[tuple[str, str]], words: dict | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        kind = self.fields["kind"]
        assert isinstance(kind, forms.ChoiceField)
        kind.choices = kinds
        self.fields["at"].help_text = zones.your_time()
        setting = words or {}
        if setting.get("hidden"):
            del self.fields["words"]
        elif setting.get("label"):
            self.fields["words"].label = setting["label"]
        self.helper = submit_helper(_("Record what followed"))


class AgencyKindForm(forms.Form):
    label = forms.CharField(label=_("A kind of your agency's own"), max_length=80)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Add the kind"))
