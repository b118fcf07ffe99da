"""Filters of the audit workspace and the break-glass review form."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.utils.translation import gettext

from caseflow.accounts.models import User
from caseflow.audit import actions
from caseflow.lib.i18n import gettext_lazy as _

#: The parts of caseflow an action belongs to (the part of its name before the dot), in words.
AREAS = {
    "access": _("Access reviews"),
    "agreement": _("Contact agreements"),
    "alert": _("Alerts"),
    "audit": _("The audit trail"),
    "break_glass": _("Emergency access"),
    "calendar": _("Calendar feeds"),
    "calendar_token": _("Calendar feeds"),
    "case": _("Cases"),
    "checkin": _("Check-ins"),
    "checkin_schedule": _("Check-ins"),
    "checkins": _("Check-ins"),
    "dashboard": _("Home page"),
    "disclosure": _("Disclosures"),
    "draft": _("Drafts"),
    "fields": _("Field settings"),
    "followup": _("Follow-ups"),
    "instrument": _("Risk assessments"),
    "legal_hold": _("Purges"),
    "party": _("People on a case"),
    "plan": _("Safety plans"),
    "purge": _("Purges"),
    "release": _("Releases"),
    "report": _("Reports"),
    "retention": _("Retention"),
    "risk": _("Risk assessments"),
    "safe_contact": _("Safe contact"),
    "security": _("Sign-in and security"),
    "session": _("Sign-in and security"),
    "staff": _("Staff"),
    "team": _("Teams"),
    "timeline": _("Case timeline"),
    # The survivor's journey
    "closure": _("Closing cases"),
    "closure_reason": _("Closing cases"),
    "episode": _("Episodes of support"),
    "intake": _("Episodes of support"),
    "journey": _("Episodes of support"),
    "reopen_request": _("Episodes of support"),
}


def area_of(name: str) -> str:
    prefix = name.split(".", 1)[0]
    return AREAS.get(prefix, prefix.replace("_", " ").capitalize())


def action_choices() -> list:
    """Every registered action by its label, grouped by area; each group of several starts with
    "Any of these" (every action whose name starts with the group's prefix)."""
    groups: dict[str, list[tuple[str, str]]] = {}
    prefixes: dict[str, set[str]] = {}
    for name, action in actions.ACTIONS.items():
        area = area_of(name)
        groups.setdefault(area, []).append((name, action.label))
        prefixes.setdefault(area, set()).add(name.split(".", 1)[0] + ".")
    choices: list = [("", _("Anything"))]
    for area in sorted(groups):
        items = sorted(groups[area], key=lambda item: item[1])
        if len(items) > 1 and len(prefixes[area]) == 1:
            items.insert(
                0,
                (
                    next(iter(prefixes[area])),
                    gettext("Any of these (%(area)s)") % {"area": str(area).lower()},
                ),
            )
        choices.append((area, items))
    return choices


class AuditFilterForm(forms.Form):
    date_from = forms.DateField(
        required=False, label=_("From"), widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        required=False, label=_("To (inclusive)"), widget=forms.DateInput(attrs={"type": "date"})
    )
    action = forms.ChoiceField(required=False, label=_("What they did"))
    user = forms.ModelChoiceField(
        queryset=User.objects.none(), required=False, label=_("Staff member")
    )
    case = forms.CharField(required=False, max_length=40, label=_("Case reference"))
    before = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def __init__(self, *args, people, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["action"].choices = action_choices()
        self.fields["user"].queryset = people.order_by("username").only(
            "username", "first_name", "last_name"
        )
        self.fields["user"].label_from_instance = lambda u: u.get_full_name() or u.username

    def clean(self):
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and end < start:
            self.add_error("date_to", _("The end date is before the start date."))
        return data

    def summary(self) -> dict:
        """The filters, as ids and dates only: what the audit event of this page records."""
        data = self.cleaned_data
        out: dict = {}
        for name in ("date_from", "date_to"):
            if isinstance(data.get(name), dt.date):
                out[name] = data[name].isoformat()
        if data.get("action"):
            out["action"] = data["action"]
        if data.get("user"):
            out["user"] = data["user"].pk
        return out


class ReviewForm(forms.Form):
    comment = forms.CharField(
        label=_("Review comment"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Was the emergency access justified? What follows from it?"),
    )
