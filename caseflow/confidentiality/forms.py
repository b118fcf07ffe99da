"""Forms for releases, referral packs, compelled disclosures, retention, field settings, reports."""

from __future__ import annotations

import datetime as dt

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext

from caseflow.cases.models import FIELD_PLACES, IntakeField, Party, PartyRole
from caseflow.confidentiality import services
from caseflow.confidentiality.models import Category, CompelledKind
from caseflow.lib.form_parts import date_field, submit_helper
from caseflow.lib.i18n import gettext_lazy as _

TEXT_MAX = 2000
CATEGORY_REQUIRED = _("Choose at least one category of information.")


def _categories_field(label: str) -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        choices=Category.choices,
        widget=forms.CheckboxSelectMultiple,
        label=label,
        error_messages={"required": CATEGORY_REQUIRED},
    )


def _not_future(value: dt.date | None, what: str) -> None:
    if value is not None and value > timezone.localdate():
        raise forms.ValidationError(_("%(what)s cannot be in the future.") % {"what": what})


def _party_label(party: Party) -> str:
    return f"{party.get_role_display()}: {party.full_name}"


class ReleaseForm(forms.Form):
    consenting_party = forms.ChoiceField(
        label=_("Who consented"),
        help_text=_("The survivor, or for a child the guardian. Never the case's other party."),
    )
    for_child = forms.ChoiceField(
        required=False, label=_("On behalf of a child (if a guardian consents for a child)")
    )
    recipient = forms.CharField(max_length=200, label=_("Recipient organisation"))
    purpose = forms.CharField(
        label=_("Purpose"), max_length=TEXT_MAX, widget=forms.Textarea({"rows": 2})
    )
    categories = _categories_field(_("Information the survivor agreed to share"))
    signed_on = date_field(_("Signed on"))
    expires_on = date_field(
        _("Expires on"),
        error_messages={"required": _("Give an expiry date: every release is time-limited.")},
        help_text=_("At most 12 months after signing."),
    )

    def __init__(self, *args, parties: list[Party], **kwargs):
        super().__init__(*args, **kwargs)
        self.parties = {p.public_id: p for p in parties}
        consenting_party = self.fields["consenting_party"]
        assert isinstance(consenting_party, forms.ChoiceField)
        consenting_party.choices = [("", "—")] + [
            (p.public_id, _party_label(p)) for p in parties if p.role != PartyRole.CHILD
        ]
        for_child = self.fields["for_child"]
        assert isinstance(for_child, forms.ChoiceField)
        for_child.choices = [("", "—")] + [
            (p.public_id, _party_label(p)) for p in parties if p.role == PartyRole.CHILD
        ]
        self.helper = submit_helper(_("Record release"))

    def clean_recipient(self) -> str:
        value = self.cleaned_data["recipient"].strip()
        if not value:
            raise forms.ValidationError(_("Name the recipient organisation."))
        return value

    def clean_signed_on(self) -> dt.date:
        value = self.cleaned_data["signed_on"]
        _not_future(value, _("The signing date"))
        return value

    def clean(self):
        data = super().clean()
        party = self.parties.get(data.get("consenting_party") or "")
        child = self.parties.get(data.get("for_child") or "")
        data["party"], data["child"] = party, child
        if party is not None:
            problem = services.consent_problem(party.case, party, child)
            if problem:
                self.add_error("consenting_party", problem)
        signed, expires = data.get("signed_on"), data.get("expires_on")
        if signed and expires:
            problem = services.expiry_problem(signed, expires)
            if problem:
                self.add_error("expires_on", problem)
        return data


class RevokeForm(forms.Form):
    reason = forms.CharField(
        max_length=TEXT_MAX, widget=forms.Textarea({"rows": 2}), label=_("Reason for revocation")
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Revoke release"))


class ResearchConsentForm(forms.Form):
    """Her answer, now: yes or no (a "no" after a "yes" is kept as withdrawn)."""

    agrees = forms.TypedChoiceField(
        choices=[("yes", _("Yes, she agrees")), ("no", _("No, she does not agree"))],
        coerce=lambda value: value == "yes",
        widget=forms.RadioSelect,
        label=_(
            "Does she agree to anonymised data about her support being shared with SafeLives "
            "Insights for research?"
        ),
        help_text=_(
            "Only exits of people who agreed go into the agency's Insights return: no name, "
            "date of birth, address or notes, only coded answers. She may change her mind at "
            "any time."
        ),
        error_messages={"required": _("Choose yes or no.")},
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Save her answer"))


class ReferralPackForm(forms.Form):
    recipient = forms.CharField(max_length=200, label=_("Recipient organisation"))
    categories = _categories_field(_("Information to include"))
    fmt = forms.ChoiceField(
        choices=[("html", _("Printable page")), ("csv", _("CSV file"))],
        label=_("Format"),
        initial="html",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Produce referral pack"))

    def clean_recipient(self) -> str:
        value = self.cleaned_data["recipient"].strip()
        if not value:
            raise forms.ValidationError(_("Name the recipient organisation."))
        return value


def release_label(release, today: dt.date) -> str:
    if release.revoked_at is not None:
        state = gettext("revoked")
    elif release.expires_on < today:
        state = gettext("expired")
    else:
        state = gettext("until %(date)s") % {"date": date_format(release.expires_on)}
    return f"{release.recipient} — {release.category_labels} ({state})"


class _ExportForm(forms.Form):
    """Choose a release of the case and name the recipient. Any release id reaches the service,
    which refuses (and audits) one that does not cover the export: the form does not decide."""

    release = forms.CharField(max_length=32, label=_("Under the release"))
    recipient = forms.CharField(
        max_length=200,
        label=_("Recipient organisation"),
        help_text=_("As named on the release."),
    )
    submit_label = ""

    def __init__(self, *args, releases: list, **kwargs):
        super().__init__(*args, **kwargs)
        today = timezone.localdate()
        self.fields["release"].widget = forms.Select(
            choices=[("", "—")] + [(r.public_id, release_label(r, today)) for r in releases]
        )
        self.fields["release"].error_messages["required"] = _("Choose the release to share under.")
        self.helper = submit_helper(self.submit_label)

    def clean_recipient(self) -> str:
        value = self.cleaned_data["recipient"].strip()
        if not value:
            raise forms.ValidationError(_("Name the recipient organisation."))
        return value


def evidence_label(evidence) -> str:
    size = ngettext("%(size)s byte", "%(size)s bytes", evidence.size) % {"size": evidence.size}
    day = date_format(evidence.created_at, "DATE_FORMAT")
    return f"{day} · {evidence.filename} · {evidence.content_type}, {size}"


class EvidencePackForm(_ExportForm):
    include_contact_log = forms.BooleanField(required=False, label=_("The contact log"))
    include_breaches = forms.BooleanField(required=False, label=_("The breach register"))
    evidence = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, label=_("Evidence files")
    )
    submit_label = _("Produce evidence pack")

    def __init__(self, *args, releases: list, evidence: list, **kwargs):
        super().__init__(*args, releases=releases, **kwargs)
        evidence_field = self.fields["evidence"]
        assert isinstance(evidence_field, forms.ChoiceField)
        evidence_field.choices = [(e.public_id, evidence_label(e)) for e in evidence]

    def clean(self):
        data = super().clean()
        if not (
            data.get("include_contact_log") or data.get("include_breaches") or data.get("evidence")
        ):
            raise forms.ValidationError(
                _("Choose what to include: the contact log, the breach register or evidence files.")
            )
        return data


class CaseExportForm(_ExportForm):
    categories = forms.MultipleChoiceField(
        choices=Category.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label=_("Information to include"),
        help_text=_("Leave all unticked to export every category the release covers."),
    )
    submit_label = _("Produce case export")


class CompelledForm(forms.Form):
    kind = forms.ChoiceField(choices=CompelledKind.choices, label=_("Court order or subpoena"))
    received_on = date_field(_("Received on"))
    issuer = forms.CharField(max_length=200, label=_("Issuing court or body"))
    reference = forms.CharField(max_length=120, label=_("Its reference"))
    demanded = forms.CharField(
        max_length=TEXT_MAX, widget=forms.Textarea({"rows": 3}), label=_("What was demanded")
    )
    recipient = forms.CharField(max_length=200, label=_("Disclosed to"))
    categories = _categories_field(_("What was disclosed"))
    disclosed_on = date_field(_("Disclosed on"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Record compelled disclosure"))

    def clean_received_on(self) -> dt.date:
        value = self.cleaned_data["received_on"]
        _not_future(value, _("The date received"))
        return value

    def clean(self):
        data = super().clean()
        received, disclosed = data.get("received_on"), data.get("disclosed_on")
        if disclosed is not None:
            try:
                _not_future(disclosed, _("The disclosure date"))
            except forms.ValidationError as exc:
                self.add_error("disclosed_on", exc)
            else:
                if received and disclosed < received:
                    self.add_error(
                        "disclosed_on",
                        _("The disclosure cannot come before the order was received."),
                    )
        return data


class RetentionForm(forms.Form):
    narratives_years = forms.IntegerField(
        min_value=1, max_value=100, label=_("Purge narratives and evidence, years after closure")
    )
    record_years = forms.IntegerField(
        min_value=1, max_value=100, label=_("Purge the whole record, years after closure")
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Save schedule"))

    def clean(self):
        data = super().clean()
        n, r = data.get("narratives_years"), data.get("record_years")
        if n is not None and r is not None and r < n:
            self.add_error("record_years", _("The whole record cannot go before its narratives."))
        return data


#: Where a setting applies, by the kind of place that stores the field (``FIELD_PLACES``).
_APPLIES_TO = {
    "party": _("The intake form, the person's edit form and the people on the case page."),
    "case": _("The intake form, the case edit form and the case page."),
    "note": _("The case-note forms, the note's page and the case timeline."),
    "incident": _("The incident form, the incident's page and what leaves the agency."),
    "cycle_mark": _(
        "The form for what followed harm, the case timeline and what leaves the agency."
    ),
    "demographics": _("The demographics form and page (counted only in funders' reports)."),
    "hard_date": _("The hard-date form, the safety plan, the timeline and what leaves the agency."),
    "hud": _("The HUD entry and exit page and the HUD report's questions that count it."),
}


class FieldSettingsForm(forms.Form):
    """One "hide" box and one label per optional field, applied wherever the field appears.

    Hiding a field stops collecting and showing it; values already stored are kept (until the
    case is purged) and show again if the field is collected again.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, label in IntakeField.choices:
            self.fields[f"{name}__hidden"] = forms.BooleanField(
                required=False,
                label=_("Do not collect: %(label)s") % {"label": label},
                help_text=_APPLIES_TO[FIELD_PLACES[name][0]],
            )
            self.fields[f"{name}__label"] = forms.CharField(
                max_length=80,
                required=False,
                label=_("Label for %(label)s (blank: the default)") % {"label": label},
            )
        self.helper = submit_helper(_("Save field settings"))

    @staticmethod
    def initial_from(config: dict[str, dict]) -> dict:
        initial = {}
        for name, values in config.items():
            initial[f"{name}__hidden"] = values["hidden"]
            initial[f"{name}__label"] = values["label"]
        return initial

    def values(self) -> dict[str, tuple[bool, str]]:
        d = self.cleaned_data
        return {
            name: (d[f"{name}__hidden"], d[f"{name}__label"].strip()) for name in IntakeField.values
        }


class ReportForm(forms.Form):
    period = forms.ChoiceField(
        choices=[("month", _("Month")), ("quarter", _("Quarter"))], label=_("Counts per")
    )
    dimensions = forms.MultipleChoiceField(
        choices=[(k, v[1]) for k, v in services.DIMENSIONS.items()],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label=_("Break down by"),
    )
    start = date_field(_("Cases opened from"))
    end = date_field(_("to"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Preview"), method="get")

    def clean(self):
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end:
            if end < start:
                self.add_error("end", _("The end of the period must not be before its start."))
            elif (end - start).days > 366 * 10:
                self.add_error("end", _("Choose a period of at most ten years."))
        return data


class ProposalForm(forms.Form):
    proposal = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class LegalHoldForm(forms.Form):
    proposal = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Why the record must be kept"),
        min_length=10,
        max_length=500,
        help_text=_("For example: family proceedings are ongoing; a court has asked for it."),
    )


class HoldForm(forms.Form):
    hold = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


# --- Chronology for someone outside the agency ---------------------------------------------------

INTERNAL, OUTSIDE = "internal", "outside"


def offer_authorities(form: forms.Form, releases: list, orders: list) -> None:
    """Fill ``form``'s ``release`` and ``order`` choices: what may authorise a chronology that
    leaves the agency (a release of the case, or a court order or subpoena recorded on it)."""
    today = timezone.localdate()
    form.fields["release"].widget = forms.Select(
        choices=[("", "—")] + [(r.public_id, release_label(r, today)) for r in releases]
    )
    order = form.fields["order"]
    assert isinstance(order, forms.ChoiceField)
    order.choices = [("", "—")] + [
        (o.pk, f"{o.get_kind_display()} received {o.received_on:%d %b %Y}, ref. {o.reference}")
        for o in orders
    ]


class ChronologyShareForm(forms.Form):
    """Who the chronology is for. Internal use is as ever; for someone outside the agency it
    needs a release covering that recipient, or a court order or subpoena recorded on the case
    (the service decides, and audits a refusal)."""

    audience = forms.ChoiceField(
        choices=[(INTERNAL, _("Our internal file")), (OUTSIDE, _("Someone outside the agency"))],
        widget=forms.RadioSelect,
        label=_("For"),
        initial=INTERNAL,
    )
    recipient = forms.CharField(
        max_length=200, required=False, label=_("Recipient (outside the agency)")
    )
    release = forms.CharField(max_length=32, required=False, label=_("Under the release"))
    order = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        label=_("Or under the court order or subpoena"),
    )
    fmt = forms.ChoiceField(
        choices=[("html", _("Printable page")), ("csv", _("CSV file"))],
        label=_("Format"),
        initial="html",
    )

    def __init__(self, *args, releases: list, orders: list, **kw):
        super().__init__(*args, **kw)
        offer_authorities(self, releases, orders)
        helper = FormHelper()
        helper.form_method = "post"
        helper.add_input(Submit("submit", _("Produce chronology")))
        self.helper = helper

    def clean(self):
        data = super().clean()
        if data.get("audience") != OUTSIDE:
            return data
        data["recipient"] = (data.get("recipient") or "").strip()
        if not data["recipient"]:
            self.add_error("recipient", _("Name who the chronology is for."))
        if bool(data.get("release")) == bool(data.get("order")):
            raise forms.ValidationError(
                _(
                    "For someone outside the agency, choose either the release that covers it or "
                    "the court order or subpoena that compels it."
                )
            )
        return data


class TimelineShareForm(forms.Form):
    """Who the case chronology is for, outside the agency, and on what authority: a release
    covering that recipient, or a court order or subpoena recorded on the case (the service
    decides, and audits a refusal)."""

    recipient = forms.CharField(max_length=200, label=_("Recipient (outside the agency)"))
    release = forms.CharField(max_length=32, required=False, label=_("Under the release"))
    order = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        label=_("Or under the court order or subpoena"),
    )

    def __init__(self, *args, releases: list, orders: list, **kw):
        super().__init__(*args, **kw)
        offer_authorities(self, releases, orders)
        helper = FormHelper()
        helper.form_method = "post"
        helper.add_input(Submit("submit", _("Produce the chronology")))
        self.helper = helper

    def clean(self):
        data = super().clean()
        if bool(data.get("release")) == bool(data.get("order")):
            raise forms.ValidationError(
                _(
                    "Choose either the release that covers it or the court order or subpoena that "
                    "compels it."
                )
            )
        return data


class OwnCopyForm(forms.Form):
    """What goes on the survivor's own copy of her record.

    Nothing is ticked at first. The copy is hers and so is the choice: the advocate reads the
    list through with her and ticks what she asks for, one record at a time. A paper that will be
    kept at home can be found by the other party, so nothing goes on it by default: an incident
    she would rather not have in the house, or a contact about the children she does not need to
    re-read, stays off unless she chooses it. (A "tick all" default would also make the quickest
    path the one that puts most of her record on paper.)
    """

    incidents = forms.MultipleChoiceField(
        label=_("Incidents"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Her account of what happened, with its date."),
    )
    contacts = forms.MultipleChoiceField(
        label=_("Contacts"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Contacts from the contact log, with their dates."),
    )
    language = forms.ChoiceField(
        label=_("Language of the copy"),
        help_text=_("Headings and dates in her language; her own words stay as she said them."),
    )
    consent = forms.BooleanField(
        label=_("She asked for this copy and agrees to take it"),
        error_messages={
            "required": _("Confirm that she asked for this copy and agrees to take it.")
        },
    )

    def __init__(
        self,
        *args,
        incidents: list[tuple[str, str]],
        contacts: list[tuple[str, str]],
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        for name, choices in (
            ("incidents", incidents),
            ("contacts", contacts),
            ("language", list(settings.LANGUAGES)),
        ):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = choices
        self.helper = submit_helper(_("Show her copy"))

    def clean(self):
        data = super().clean()
        if (
            not data.get("incidents")
            and not data.get("contacts")
            and not self.has_error("incidents")
        ):
            raise forms.ValidationError(
                _("Choose at least one incident or contact she wants on her copy.")
            )
        return data
