"""Filters of the audit workspace and the break-glass review form."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

from django import forms
from django.core.signals import setting_changed
from django.utils.choices import BaseChoiceIterator
from django.utils.translation import get_language, gettext

from caseflow.accounts.models import User
from caseflow.audit import actions
from caseflow.cases.models import BREAK_GLASS_COMMENT_NEEDED, BreakGlassOutcome
from caseflow.lib.i18n import gettext_lazy as _

#: The parts of caseflow an action belongs to (the part of its name before the dot), in words.
AREAS = {
    "access": _("Access reviews"),
    "agency": _("Agency settings"),
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
    "cover": _("Cover"),
    "dashboard": _("Home page"),
    "demographics": _("Demographics"),
    "disclosure": _("Disclosures"),
    "draft": _("Drafts"),
    "evidence": _("Evidence files"),
    "fields": _("Field settings"),
    "followup": _("Follow-ups"),
    "goal": _("Needs, goals and services"),
    "hard_date": _("Safety plans"),
    "hud_answers": _("HUD entry and exit answers"),
    "incident": _("Incidents"),
    "instrument": _("Risk assessments"),
    "language": _("Language settings"),
    "legal_hold": _("Purges"),
    "meeting": _("Risk meetings"),
    "need": _("Needs, goals and services"),
    "needs": _("Needs, goals and services"),
    "note": _("Case notes"),
    "operator": _("Operators' admin"),
    "partners": _("Risk meetings"),
    "party": _("People on a case"),
    "plan": _("Safety plans"),
    "purge": _("Purges"),
    "referral": _("Referrals to other services"),
    "release": _("Releases"),
    "report": _("Reports"),
    "research_consent": _("Releases"),
    "retention": _("Retention"),
    "risk": _("Risk assessments"),
    "safe_contact": _("Safe contact"),
    "service": _("Needs, goals and services"),
    "security": _("Sign-in and security"),
    "service_count": _("Services counted for funders"),
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
    # Shelter and refuge
    "shelter": _("Shelter and refuge"),
    "community": _("Community education and surveys"),
    # Court
    "hearing": _("Court hearings"),
    # What follows harm
    "cycle_mark": _("What follows harm"),
    "cycle_kind": _("What follows harm"),
    # Her own rating
    "wellbeing": _("The survivor's own rating"),
    # Financial assistance
    "assistance": _("Financial assistance"),
    "payment": _("Financial assistance"),
    # Integrations and webhooks
    "api": _("Integrations"),
    "integration": _("Integrations"),
    "webhook": _("Integrations"),
    # The duty line
    "call": _("Duty line calls"),
    # Moving in
    "import": _("Imports of caseloads and staff"),
    "transfer": _("Transfers"),
}


#: The area of an action whose part of caseflow is not named above.
OTHER_AREA = _("Other")


def area_of(name: str) -> str:
    return AREAS.get(name.split(".", 1)[0], OTHER_AREA)


#: :func:`action_choices` in each language, for the process (the actions are registered once,
#: at import): forgotten when the settings that choose the catalogs change.
_CHOICES: dict[str | None, list] = {}


def _forget_choices(*, setting: str, **kwargs: Any) -> None:
    if setting in {"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "INSTALLED_APPS"}:
        _CHOICES.clear()


setting_changed.connect(_forget_choices, dispatch_uid="caseflow.oversight.forms.choices")


class _Normal(BaseChoiceIterator):
    """Choices already in the form Django's fields keep them in (value and label, or a group's
    name and its list of them), given to a field as they are: a list would be normalised again
    on every form, some 80 calls for the actions' choices (a twelfth of the audit page's
    CPU)."""

    def __init__(self, choices: list) -> None:
        self.choices = choices

    def __iter__(self) -> Iterator:
        return iter(self.choices)


def action_choices() -> list:
    """Every registered action by its label, grouped by area; each group of several starts with
    "Any of these" (every action whose name starts with the group's prefix). Sorted in the
    active language, once per language."""
    language = get_language()
    choices = _CHOICES.get(language)
    if choices is None:
        choices = _CHOICES[language] = _action_choices()
    return choices


def _action_choices() -> list:
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
        queryset=User.objects.none(),
        required=False,
        label=_("Staff member"),
        empty_label=_("Anyone"),
    )
    case = forms.CharField(required=False, max_length=40, label=_("Case reference"))
    before = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def __init__(self, *args, people, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["action"].choices = _Normal(action_choices())
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
    outcome = forms.ChoiceField(
        label=_("Was the emergency access justified?"),
        choices=BreakGlassOutcome.choices,
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose whether the emergency access was justified.")},
    )
    comment = forms.CharField(
        label=_("Review comment"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_(
            "Why, and what follows from it (e.g. a word with the colleague). Needed when the "
            "access was not justified or needs follow-up; a follow-up is then added for you."
        ),
    )

    def clean(self) -> dict:
        data = super().clean() or {}
        if (
            data.get("outcome") in BREAK_GLASS_COMMENT_NEEDED
            and not (data.get("comment") or "").strip()
        ):
            self.add_error("comment", _("Say why, in a sentence or two."))
        return data
