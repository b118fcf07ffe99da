"""Forms for a payment, its receipts, a supervisor's decision and the agency's settings.

A receipt is checked here by :func:`caseflow.cases.evidence.check_file` (type, content, size,
damage); the case's quota is checked by the service, under a lock. Amounts are read as
``Decimal`` in the reader's number format ("45.50", "45,50"), never as a float.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from babel.core import UnknownLocaleError
from babel.numbers import get_currency_name
from django import forms
from django.utils import timezone, translation
from django.utils.translation import gettext

from caseflow.assistance.models import CURRENCIES, MAX_AMOUNT, FundingSource, PayeeKind, Purpose
from caseflow.cases import evidence as files
from caseflow.lib.form_parts import submit_helper
from caseflow.lib.i18n import gettext_lazy as _

TEXT_MAX = 4000
#: How far back a payment may be dated: a year further back is a typing slip.
OLDEST_YEARS = 5


def currency_choices() -> list[tuple[str, str]]:
    """ISO 4217 codes named in the reader's language (CLDR, through Babel)."""
    locale = translation.to_locale(translation.get_language() or "en")
    try:
        return [(code, f"{get_currency_name(code, locale=locale)} ({code})") for code in CURRENCIES]
    except (UnknownLocaleError, ValueError):
        return [(code, f"{get_currency_name(code, locale='en')} ({code})") for code in CURRENCIES]


class ReceiptField(forms.FileField):
    """One receipt: a photo or a PDF, checked like any evidence file."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", forms.ClearableFileInput(attrs={"accept": files.ACCEPT}))
        kwargs.setdefault("label", _("Receipt"))
        kwargs.setdefault(
            "help_text",
            _("A photo or a PDF of the receipt. Stored encrypted; it counts in the case's space."),
        )
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        upload = super().clean(data, initial)
        if not upload:
            return []
        upload.seek(0)
        try:
            return [files.check_file(upload.name or "receipt", upload.read())]
        except files.EvidenceRefused as exc:
            raise forms.ValidationError(
                [str(exc), gettext("Nothing was saved: choose the file again.")]
            ) from exc


class PaymentForm(forms.Form):
    amount = forms.DecimalField(
        label=_("Amount"),
        max_digits=10,
        decimal_places=2,
        min_value=Decimal("0.01"),
        max_value=MAX_AMOUNT,
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
        error_messages={
            "min_value": _("Give an amount above zero."),
            "invalid": _("Give the amount as a number, for example 85.50."),
        },
    )
    currency = forms.ChoiceField(label=_("Currency"))
    purpose = forms.ChoiceField(label=_("What it paid for"), choices=Purpose.choices)
    payee_kind = forms.ChoiceField(label=_("Paid to"), choices=PayeeKind.choices)
    payee_name = forms.CharField(
        label=_("Name of the hotel, company or person paid"),
        max_length=200,
        required=False,
        help_text=_("Not needed when the survivor is paid. Stored encrypted."),
    )
    funding_source: forms.ModelChoiceField = forms.ModelChoiceField(
        label=_("Paid from"), queryset=FundingSource.objects.none(), empty_label=None
    )
    paid_on = forms.DateField(
        label=_("Paid on"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    details = forms.CharField(
        label=_("Details"),
        max_length=TEXT_MAX,
        required=False,
        widget=forms.Textarea({"rows": 2}),
        help_text=_("For example: two nights, 3 to 5 May. Stored encrypted."),
    )
    receipt = ReceiptField(required=False)

    def __init__(self, *args, sources, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["funding_source"].queryset = sources
        self.fields["currency"].choices = currency_choices()
        self.helper = submit_helper(_("Record the payment"))

    def clean_paid_on(self) -> dt.date:
        value = self.cleaned_data["paid_on"]
        today = timezone.localdate()
        if value > today:
            raise forms.ValidationError(_("A payment cannot be dated in the future."))
        if value.year < today.year - OLDEST_YEARS:
            raise forms.ValidationError(_("Check the year: that is more than five years ago."))
        return value

    def clean(self):
        cleaned = super().clean()
        kind = cleaned.get("payee_kind")
        name = (cleaned.get("payee_name") or "").strip()
        if kind and kind != PayeeKind.SURVIVOR and not name:
            self.add_error("payee_name", _("Say who was paid."))
        cleaned["payee_name"] = name
        return cleaned


class ReceiptForm(forms.Form):
    receipt = ReceiptField(required=True)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Add the receipt"))


class Decision(forms.Form):
    APPROVE, DECLINE = "approve", "decline"
    decision = forms.ChoiceField(
        label=_("Your decision"),
        widget=forms.RadioSelect,
        choices=[(APPROVE, _("Approve the payment")), (DECLINE, _("Do not approve it"))],
    )
    reason = forms.CharField(
        label=_("Reason"),
        max_length=TEXT_MAX,
        required=False,
        widget=forms.Textarea({"rows": 2}),
        help_text=_("Needed when it is not approved. The advocate reads it. Stored encrypted."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Save the decision"))

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("decision") == self.DECLINE and not (cleaned.get("reason") or "").strip():
            self.add_error("reason", _("Say why it is not approved."))
        return cleaned


class SettingsForm(forms.Form):
    currency = forms.ChoiceField(label=_("Currency"))
    approval_limit = forms.DecimalField(
        label=_("Approval needed above"),
        max_digits=10,
        decimal_places=2,
        min_value=Decimal("0"),
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
        help_text=_(
            "A payment above this amount waits for a supervisor of the case's team before it "
            "counts as paid. With 0, every payment needs approval."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["currency"].choices = currency_choices()


class FundForm(forms.Form):
    name = forms.CharField(
        label=_("Name of the fund"),
        max_length=80,
        help_text=_("For example VOCA, FVPSA, or a local fund."),
    )
