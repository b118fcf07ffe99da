"""Checking every row of a batch with caseflow's own forms, and preparing it for the commit.

Nothing here re-states a rule: each part of a row is bound to the form that takes it in by hand
(the intake form, the safe-contact form, the risk-level form, the follow-up and check-in forms,
the safety plan's protective-order fields, the note form), and the form's own messages are
reported against the column the admin mapped. A row with any error is not imported; the commit
refuses a batch with any error at all (all-or-nothing). The conflict and re-referral checks are
asked too: a row that matches is opened as a new case and flagged, never merged.
"""

from __future__ import annotations

import datetime as dt
import gc
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext

from caseflow import policy
from caseflow.accounts.models import Team, User
from caseflow.cases import journey
from caseflow.cases import services as case_services
from caseflow.cases.forms import IntakeForm, RiskLevelForm
from caseflow.cases.models import Case, Channel, PartyRole, RiskLevel, SafeContactProfile
from caseflow.casework.forms import NoteFields
from caseflow.checkins import services as checkin_services
from caseflow.checkins.forms import CheckInForm, FollowUpForm, SafeContactForm
from caseflow.imports.models import ImportRecord
from caseflow.imports.reader import Table
from caseflow.imports.template import BY_KEY, NOTE_SLOTS, REQUIRED
from caseflow.lib.encryption import blind_index
from caseflow.safety.forms import PlanForm


@dataclass
class Problem:
    row: int
    column: str
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"row": self.row, "column": self.column, "message": self.message}


@dataclass
class Prepared:
    """One row, checked: what the commit writes."""

    row: int
    source_id: str
    team: Team
    advocate: User
    case: dict[str, Any]
    survivor: dict[str, Any]
    other_party: dict[str, Any] | None
    safe_contact: dict[str, Any] | None = None
    risk: dict[str, Any] | None = None
    followup: dict[str, Any] | None = None
    checkin: dict[str, Any] | None = None
    plan: dict[str, Any] | None = None
    notes: list[dict[str, Any]] = field(default_factory=list)
    existing: ImportRecord | None = None


@dataclass
class Checked:
    """What a check found: counts, the problems and the flags, by row. The rows themselves are
    not kept (a caller that writes them is handed each one as it is checked)."""

    rows: int = 0
    valid: int = 0
    new: int = 0
    notes: int = 0
    problems: list[Problem] = field(default_factory=list)
    #: (row, kind): "conflict", "earlier_case", "same_survivor".
    flags: list[tuple[int, str]] = field(default_factory=list)

    @property
    def error_rows(self) -> int:
        return len({p.row for p in self.problems})

    def counts(self) -> dict[str, int]:
        return {
            "rows": self.rows,
            "valid": self.valid,
            "errors": self.error_rows,
            "new": self.new,
            "update": self.valid - self.new,
            "flagged": len({row for row, _kind in self.flags}),
        }


def _column(mapping: dict[str, str], key: str) -> str:
    """How the report names a field: the file's own heading, else the template's label."""
    return mapping.get(key) or str(BY_KEY[key].label)


def _errors(
    form: forms.Form, names: dict[str, str], mapping: dict[str, str], row: int
) -> list[Problem]:
    out = []
    for name, errors in form.errors.as_data().items():
        key = names.get(name)
        column = _column(mapping, key) if key else gettext("the row")
        for error in errors:
            if "value" in (error.params or {}):
                # Django's message repeats the value given: the report keeps no value.
                message = gettext(
                    "This is not one of the values caseflow takes here: see the template."
                )
            else:
                message = " ".join(error.messages)
            out.append(Problem(row, column, message))
    return out


def _choice(value: str, choices: Iterable[tuple[str, Any]]) -> str:
    """A code given as itself or as its label, in any case."""
    text = value.strip().lower()
    for code, label in choices:
        if text in (str(code).lower(), str(label).lower()):
            return str(code)
    return value.strip()


def _yes(value: str) -> bool:
    return value.strip().lower() in ("yes", "y", "true", "1", "sí", "si", "x")


def _date_time(value: str, default_time: str) -> str:
    value = value.strip()
    return f"{value} {default_time}" if len(value) == 10 else value.replace("T", " ")[:16]


class Lookups:
    """The agency's teams and staff, read once per batch."""

    def __init__(self, agency_id: int) -> None:
        self.agency_id = agency_id
        self.teams = Team.objects.filter(agency_id=agency_id)
        self.by_team = {t.name.strip().lower(): t for t in self.teams}
        self.users = {
            u.username.lower(): u
            for u in User.objects.filter(membership__agency_id=agency_id, is_active=True)
        }
        self.records = {
            r.source_id: r
            for r in ImportRecord.objects.filter(agency_id=agency_id).select_related("case")
        }
        self._intake: dict[int, set[int]] = {}

    def may_open(self, user: User, team: Team) -> bool:
        if user.pk not in self._intake:
            self._intake[user.pk] = set(policy.intake_teams(user).values_list("pk", flat=True))
        return team.pk in self._intake[user.pk]


#: A full garbage collection every this many rows. Each row's forms leave reference cycles that
#: the younger generations pass on, so without it a check's memory grows with the file (some
#: 37 KiB a row) until the interpreter next runs a full collection.
COLLECT_EVERY = 100


def check(
    table: Table,
    mapping: dict[str, str],
    *,
    agency_id: int,
    each: Callable[[Prepared], None] | None = None,
) -> Checked:
    """Check every row, one at a time; nothing is written here. ``each`` is handed every row
    that passes, as it passes (after its conflict and re-referral checks), until a row
    fails."""
    result = Checked(rows=len(table))
    lookups = Lookups(agency_id)
    seen_ids: dict[str, int] = {}
    seen_people: dict[str, int] = {}
    for index, row in enumerate(table, start=1):
        if index % COLLECT_EVERY == 0:
            gc.collect()
        number, cells = row.number, row.values
        values = {key: cells.get(heading, "").strip() for key, heading in mapping.items()}
        problems: list[Problem] = []
        for heading in mapping.values():
            if heading in row.formulas:
                problems.append(
                    Problem(
                        number,
                        heading,
                        gettext(
                            "This cell holds a formula: caseflow never runs formulas. Type its "
                            "value instead."
                        ),
                    )
                )
        prepared = _check_row(number, values, mapping, lookups, problems)
        source_id = values.get("source_id", "")
        if source_id:
            if source_id in seen_ids:
                problems.append(
                    Problem(
                        number,
                        _column(mapping, "source_id"),
                        gettext("Row %(first)s has the same id: each case can appear only once.")
                        % {"first": seen_ids[source_id]},
                    )
                )
            else:
                seen_ids[source_id] = number
        if problems or prepared is None:
            result.problems.extend(problems)
            continue
        person = case_services.identity_index_for(
            prepared.survivor["full_name"], prepared.survivor.get("date_of_birth")
        ) or blind_index("import-person", prepared.survivor["full_name"].lower())
        if person in seen_people:
            result.flags.append((number, "same_survivor"))
        else:
            seen_people[person] = number
        if prepared.existing is None:
            result.flags.extend((number, kind) for kind in _matches(prepared, agency_id))
        result.valid += 1
        result.new += prepared.existing is None
        result.notes += len(prepared.notes)
        if each is not None and not result.problems:
            each(prepared)
    return result


def _matches(prepared: Prepared, agency_id: int) -> list[str]:
    """The conflict and re-referral checks a new case goes through at intake."""
    kinds = []
    people = [
        (PartyRole.SURVIVOR, prepared.survivor["full_name"], prepared.survivor.get("date_of_birth"))
    ]
    if prepared.other_party:
        people.append(
            (
                PartyRole.OTHER_PARTY,
                prepared.other_party["full_name"],
                prepared.other_party.get("date_of_birth"),
            )
        )
    if case_services.conflict_check(agency_id=agency_id, people=people).found:
        kinds.append("conflict")
    match = journey.survivor_match(
        agency_id=agency_id,
        full_name=prepared.survivor["full_name"],
        date_of_birth=prepared.survivor.get("date_of_birth"),
    )
    if match is not None:
        from caseflow.cases.models import Party

        if Party.objects.filter(match, case__agency_id=agency_id, role=PartyRole.SURVIVOR).exists():
            kinds.append("earlier_case")
    return kinds


def _check_row(
    number: int,
    v: dict[str, str],
    mapping: dict[str, str],
    lookups: Lookups,
    problems: list[Problem],
) -> Prepared | None:
    for key in REQUIRED:
        if not v.get(key):
            problems.append(
                Problem(number, _column(mapping, key), gettext("This is needed and is empty."))
            )
    team = lookups.by_team.get(v.get("team", "").lower())
    if v.get("team") and team is None:
        problems.append(
            Problem(
                number,
                _column(mapping, "team"),
                gettext("There is no team of this name in your agency."),
            )
        )
    advocate = lookups.users.get(v.get("advocate", "").lower())
    if v.get("advocate") and advocate is None:
        problems.append(
            Problem(
                number,
                _column(mapping, "advocate"),
                gettext("Nobody active in your agency has this username."),
            )
        )
    elif advocate is not None and team is not None and not lookups.may_open(advocate, team):
        problems.append(
            Problem(
                number,
                _column(mapping, "advocate"),
                gettext("This person does not work cases in that team."),
            )
        )
    if team is None or advocate is None or problems:
        return None
    existing = lookups.records.get(v["source_id"])
    intake = IntakeForm(
        data={
            "team": team.pk,
            "reference": v.get("reference", ""),
            "summary": v.get("summary", ""),
            "survivor_full_name": v.get("survivor_full_name", ""),
            "survivor_date_of_birth": v.get("survivor_date_of_birth", ""),
            "survivor_phone": v.get("survivor_phone", ""),
            "survivor_email": v.get("survivor_email", ""),
            "other_full_name": v.get("other_full_name", ""),
            "other_date_of_birth": v.get("other_date_of_birth", ""),
        },
        teams=lookups.teams,
    )
    names = {n: n for n in intake.fields if n.startswith(("survivor_", "other_"))}
    names.update({"team": "team", "reference": "reference", "summary": "summary"})
    if not intake.is_valid():
        problems.extend(_errors(intake, names, mapping, number))
    elif intake.cleaned_data["reference"]:
        taken = Case.objects.filter(
            agency_id=lookups.agency_id, reference=intake.cleaned_data["reference"]
        )
        if existing is not None:
            taken = taken.exclude(pk=existing.case_id)
        if taken.exists():
            problems.append(
                Problem(
                    number,
                    _column(mapping, "reference"),
                    gettext("Another case already has this reference."),
                )
            )
    prepared = None
    if intake.is_valid():
        survivor = intake.survivor()
        prepared = Prepared(
            row=number,
            source_id=v["source_id"],
            team=team,
            advocate=advocate,
            case={
                "reference": intake.cleaned_data["reference"],
                "summary": intake.cleaned_data.get("summary", ""),
            },
            survivor=survivor,
            other_party=intake.other_party(),
            existing=existing,
        )
    profile = _check_safe_contact(number, v, mapping, problems, prepared)
    _check_risk(number, v, mapping, problems, prepared)
    _check_followup(number, v, mapping, advocate, problems, prepared)
    _check_checkin(number, v, mapping, advocate, profile, problems, prepared)
    _check_order(number, v, mapping, problems, prepared)
    _check_notes(number, v, mapping, problems, prepared)
    return None if problems else prepared


SAFE_NAMES = {
    "timezone": "safe_timezone",
    "channels": "safe_channels",
    "windows": "safe_times",
    "window_days_0": "safe_times",
    "voicemail_safe": "voicemail_safe",
    "safe_phone": "safe_phone",
    "safe_email": "safe_email",
    "third_party": "third_party",
    "code_word": "code_word",
}


def _check_safe_contact(number, v, mapping, problems, prepared) -> SafeContactProfile | None:
    if not any(v.get(k) for k in set(SAFE_NAMES.values())):
        return None
    channels = [
        _choice(c, Channel.choices) for c in v.get("safe_channels", "").replace(";", ",").split(",")
    ]
    form = SafeContactForm(
        data={
            "timezone": v.get("safe_timezone") or timezone.get_current_timezone_name(),
            "channels": [c for c in channels if c],
            "windows": "\n".join(v.get("safe_times", "").split(";")),
            "voicemail_safe": "on" if _yes(v.get("voicemail_safe", "")) else "",
            "safe_phone": v.get("safe_phone", ""),
            "safe_email": v.get("safe_email", ""),
            "third_party": v.get("third_party", ""),
            "code_word": v.get("code_word", ""),
        }
    )
    if not form.is_valid():
        problems.extend(_errors(form, SAFE_NAMES, mapping, number))
        return None
    d = form.cleaned_data
    data = {
        "timezone_name": d["timezone"],
        "rules": {
            "channels": d["channels"],
            "windows": d["windows"],
            "voicemail_safe": d["voicemail_safe"],
        },
        "details": {k: d[k] for k in ("safe_phone", "safe_email", "third_party", "code_word")},
    }
    if prepared is not None:
        prepared.safe_contact = data
    return SafeContactProfile(timezone=d["timezone"], rules=data["rules"])


def _check_risk(number, v, mapping, problems, prepared) -> None:
    if not any(v.get(k) for k in ("risk_level", "risk_source", "risk_date")):
        return
    level = _choice(v.get("risk_level", ""), RiskLevel.choices)
    form = RiskLevelForm(
        data={"risk_level": level, "reason": v.get("risk_source", ""), "version": 1},
        current=RiskLevel.UNKNOWN,
    )
    date_field = forms.DateField(required=False)
    day = None
    try:
        day = date_field.clean(v.get("risk_date", ""))
        if day and day > timezone.localdate():
            raise forms.ValidationError(gettext("This date is in the future."))
    except forms.ValidationError as exc:
        for message in exc.messages:
            problems.append(Problem(number, _column(mapping, "risk_date"), message))
    if not form.is_valid():
        problems.extend(
            _errors(form, {"risk_level": "risk_level", "reason": "risk_source"}, mapping, number)
        )
        return
    if prepared is not None and day is not False:
        at = (
            timezone.make_aware(dt.datetime.combine(day, dt.time(12, 0))) if day else timezone.now()
        )
        prepared.risk = {"level": level, "source": form.cleaned_data["reason"], "at": at}


def _check_followup(number, v, mapping, advocate, problems, prepared) -> None:
    if not any(v.get(k) for k in ("followup_kind", "followup_due", "followup_details")):
        return
    from caseflow.inbox.kinds import followup_kind_choices

    form = FollowUpForm(
        data={
            "kind": _choice(v.get("followup_kind", "") or "task", followup_kind_choices()),
            "due_at": _date_time(v.get("followup_due", ""), "09:00"),
            "details": v.get("followup_details", ""),
            "assignee": advocate.pk,
        },
        assignees=User.objects.filter(pk=advocate.pk),
    )
    names = {"kind": "followup_kind", "due_at": "followup_due", "details": "followup_details"}
    if not form.is_valid():
        problems.extend(_errors(form, names, mapping, number))
    elif prepared is not None:
        d = form.cleaned_data
        prepared.followup = {"kind": d["kind"], "due_at": d["due_at"], "details": d["details"]}


def _check_checkin(number, v, mapping, advocate, profile, problems, prepared) -> None:
    if not any(v.get(k) for k in ("checkin_date", "checkin_time", "checkin_channel")):
        return
    tz = profile.timezone if profile is not None else timezone.get_current_timezone_name()
    form = CheckInForm(
        data={
            "date": v.get("checkin_date", ""),
            "time": v.get("checkin_time", ""),
            "channel": _choice(v.get("checkin_channel", ""), Channel.choices),
            "assignee": advocate.pk,
            "repeat": "",
        },
        assignees=User.objects.filter(pk=advocate.pk),
        tz=tz,
        channels=profile.channels if profile is not None else [],
    )
    names = {"date": "checkin_date", "time": "checkin_time", "channel": "checkin_channel"}
    if not form.is_valid():
        problems.extend(_errors(form, names, mapping, number))
        return
    d = form.cleaned_data
    local = dt.datetime.combine(d["date"], d["time"])
    due_at = checkin_services.to_utc(local, tz)
    problem = ""
    if due_at <= timezone.now():
        problem = gettext("Pick a time in the future.")
    else:
        problem = str(checkin_services.slot_problem(profile, due_at, d["channel"]))
    if problem:
        problems.append(Problem(number, _column(mapping, "checkin_date"), problem))
    elif prepared is not None:
        prepared.checkin = {"due_local": local, "channel": d["channel"]}


ORDER_PARTS = ("court", "reference", "granted", "expires", "conditions")


def _check_order(number, v, mapping, problems, prepared) -> None:
    if not any(v.get(f"order_{p}") for p in ORDER_PARTS):
        return
    form = PlanForm(
        data={"version": 0, **{f"order_1_{p}": v.get(f"order_{p}", "") for p in ORDER_PARTS}},
        order_slots=1,
    )
    names = {f"order_1_{p}": f"order_{p}" for p in ORDER_PARTS}
    if not form.is_valid():
        problems.extend(_errors(form, names, mapping, number))
    elif prepared is not None:
        prepared.plan = form.content()


def _check_notes(number, v, mapping, problems, prepared) -> None:
    for n in range(1, NOTE_SLOTS + 1):
        date, text = v.get(f"note_{n}_date", ""), v.get(f"note_{n}_text", "")
        if not date and not text:
            continue
        form = NoteFields(
            data={
                "kind": "internal",
                "direction": "none",
                "occurred_at": _date_time(date, "12:00"),
                "text": text,
            },
            incidents=[],
        )
        names = {"occurred_at": f"note_{n}_date", "text": f"note_{n}_text"}
        if not form.is_valid():
            problems.extend(_errors(form, names, mapping, number))
        elif prepared is not None:
            d = form.cleaned_data
            prepared.notes.append({"occurred_at": d["occurred_at"], "text": d["text"]})
