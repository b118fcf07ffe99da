"""Importing an agency's staff, with their teams and roles, from a CSV or XLSX file.

The file is read by :mod:`caseflow.imports.reader` (encodings, byte-order mark, formula cells,
sizes) and kept sealed in an :class:`ImportBatch` of the ``staff`` kind. Each row is one member
of staff: name, e-mail, role (the code or its words, in any of caseflow's languages, or the
agency's own title for its advocates), teams, active. Every row is checked with the agency
admin's own staff form before anything is written (the dry run); a team the file names that the
agency does not have yet is created at the commit, and the dry run says so.

Re-running a file is safe: a person is found by their e-mail among the agency's staff and
updated, never added twice; a row that changes nothing writes nothing. An e-mail already used by
an account outside the agency is refused without saying whose it is. New members of staff are
added through the admin's own "add staff" path (:func:`caseflow.agency.services.staff_save`): no
password, an enrolment link by e-mail, the person and their supervisors told of a casework role.
The commit is one transaction; the import is audited as one event with counts only, beside the
events each change of staff records as it would by hand.
"""

from __future__ import annotations

import base64
import csv
import io
import re
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models.functions import Lower
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext

from caseflow import policy
from caseflow.accounts.models import Membership, Role, Team, User, role_words
from caseflow.agency import services as agency_services
from caseflow.agency.forms import StaffForm
from caseflow.audit.services import record
from caseflow.imports import reader
from caseflow.imports.models import BatchKind, BatchState, ImportBatch
from caseflow.imports.rows import Problem
from caseflow.lib.i18n import gettext_lazy as _


class StaffBatchHasErrors(Exception):
    """The file has rows to correct: nothing is written."""


@dataclass(frozen=True)
class Column:
    key: str
    label: str | Promise
    example: str
    #: Other headings taken for this column (compared lower-case, "_" and "-" as spaces).
    aliases: tuple[str, ...] = ()
    required: bool = False


COLUMNS: tuple[Column, ...] = (
    Column("name", _("Full name"), "Alex Morgan", ("full name",), True),
    Column(
        "email", _("Work e-mail (each person's own)"), "alex.morgan@example.org", ("e mail",), True
    ),
    Column(
        "role",
        _("Role: advocate, supervisor, auditor or agency admin"),
        "advocate",
        (),
        True,
    ),
    Column(
        "teams",
        _(
            "Teams, separated by semicolons (a new name creates the team; blank: someone already "
            "here keeps their teams)"
        ),
        "North team",
        ("team",),
    ),
    Column(
        "active",
        _("Active (yes or no; blank: yes for someone new, unchanged for someone already here)"),
        "yes",
    ),
    Column(
        "username",
        _("Username (blank: made from the e-mail)"),
        "",
        ("user name",),
    ),
)

COLUMN_KEYS = tuple(c.key for c in COLUMNS)
BY_KEY = {c.key: c for c in COLUMNS}

_YES = ("yes", "y", "true", "1", "x", "sí", "si", "active", "activo")
_NO = ("no", "n", "false", "0", "inactive", "inactivo")


def template_csv() -> bytes:
    """The staff template with one example row, UTF-8 with a byte-order mark (Excel opens it
    in the right encoding)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(COLUMN_KEYS))
    writer.writeheader()
    writer.writerow({c.key: c.example for c in COLUMNS})
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def sample_for(actor: User) -> bytes:
    """A fictional staff file for ``actor``'s agency to try the import on: three new people
    (one in a team the agency does not have yet, which the check lists first), one member of
    staff already here, given again unchanged (re-importing never adds anyone twice), and one
    row with a role caseflow does not know, the error the check lists by row and column."""
    agency_id = _require_admin(actor)
    team = Team.objects.filter(agency_id=agency_id).order_by("name").first()
    first_team = team.name if team else "North team"
    here = (
        Membership.objects.filter(agency_id=agency_id, role=Role.ADVOCATE, user__is_active=True)
        .exclude(user__email="")
        .select_related("user")
        .order_by("user__username")
        .first()
    )
    people = [
        ("Robin Example (fictional)", "robin.example@example.org", "advocate", first_team),
        ("Kit Sample (fictional)", "kit.sample@example.org", "supervisor", first_team),
        ("Jo Placeholder (fictional)", "jo.placeholder@example.org", "advocate", "Night line"),
    ]
    if here is not None:
        name = here.user.get_full_name() or here.user.username
        people.append((name, here.user.email, "advocate", ""))
    people.append(("Sam Notreal (fictional)", "sam.notreal@example.org", "volunteer", first_team))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(COLUMN_KEYS))
    writer.writeheader()
    for name, email, role, teams in people:
        writer.writerow({"name": name, "email": email, "role": role, "teams": teams})
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def _norm(text: str) -> str:
    return " ".join(str(text).replace("_", " ").replace("-", " ").lower().split())


def columns_of(headings: list[str]) -> dict[str, str]:
    """{column key: the file's heading} for the headings the file has."""
    by_norm = {_norm(h): h for h in headings if h}
    found: dict[str, str] = {}
    for column in COLUMNS:
        for candidate in (column.key, *column.aliases):
            if _norm(candidate) in by_norm:
                found[column.key] = by_norm[_norm(candidate)]
                break
    for part in ("first_name", "last_name"):
        if _norm(part) in by_norm:
            found[part] = by_norm[_norm(part)]
    return found


def role_codes(agency_id: int) -> dict[str, str]:
    """Every way a role may be written, lower-case, to its code: the code itself, its words in
    each of caseflow's languages, and the agency's own title for its advocates."""
    words: dict[str, str] = {}
    for value in Role.values:
        words[value] = value
        words[_norm(value)] = value
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            for value in Role.values:
                words[_norm(str(Role(value).label))] = value
                words[_norm(role_words(value, agency_id))] = value
    return words


@dataclass
class StaffRow:
    """One row, checked: what the commit writes."""

    row: int
    user: User | None
    data: dict[str, Any]
    #: Team names as the file writes them, lower-case: existing teams or those to create.
    team_keys: list[str]
    unchanged: bool = False


@dataclass
class StaffChecked:
    rows: int = 0
    prepared: list[StaffRow] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    #: {lower-case name: name as first written}: teams the commit creates.
    new_teams: dict[str, str] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        return {
            "rows": self.rows,
            "valid": len(self.prepared),
            "errors": len({p.row for p in self.problems}),
            "new": sum(1 for p in self.prepared if p.user is None),
            "update": sum(1 for p in self.prepared if p.user is not None and not p.unchanged),
            "unchanged": sum(1 for p in self.prepared if p.unchanged),
            "teams_new": len(self.new_teams),
        }


def _username_from(email: str, taken: set[str]) -> str:
    local = email.split("@", 1)[0].lower()
    base = re.sub(r"[^a-z0-9._-]+", ".", local).strip("._-")[:36] or "staff"
    if len(base) < 3:
        base = f"{base}-staff"
    candidate, n = base, 1
    while candidate in taken or User.objects.filter(username__iexact=candidate).exists():
        n += 1
        candidate = f"{base}{n}"
    return candidate


def _split_name(values: dict[str, str]) -> tuple[str, str]:
    if values.get("name"):
        parts = values["name"].rsplit(None, 1)
        return (parts[0], parts[1]) if len(parts) == 2 else (parts[0], "")
    return values.get("first_name", ""), values.get("last_name", "")


def check(table: reader.Table, *, actor: User, agency_id: int) -> StaffChecked:
    """Check every row with the staff form's rules; nothing is written. Messages are in
    English (shown in the reader's language on the page), with no value from the file."""
    result = StaffChecked(rows=len(table))
    columns = columns_of(table.headings)
    missing = [
        c
        for c in COLUMNS
        if c.required and c.key not in columns and not (c.key == "name" and "first_name" in columns)
    ]
    for column in missing:
        result.problems.append(
            Problem(
                1,
                column.key,
                gettext("This column is missing: use the headings of the staff template."),
            )
        )
    if missing:
        return result
    teams = Team.objects.filter(agency_id=agency_id)
    by_team = {t.name.strip().lower(): t for t in teams}
    roles = role_codes(agency_id)
    emails = {row.values.get(columns["email"], "").strip().lower() for row in table} - {""}
    owners: dict[str, list[User]] = {}
    for owner in (
        User.objects.annotate(email_lower=Lower("email"))
        .filter(email_lower__in=emails)
        .select_related("membership")
    ):
        owners.setdefault(owner.email.lower(), []).append(owner)
    seen_emails: dict[str, int] = {}
    usernames: set[str] = set()
    for row in table:
        number, cells = row.number, row.values
        values = {key: cells.get(heading, "").strip() for key, heading in columns.items()}
        problems: list[Problem] = []

        def problem(
            key: str, message: str, number: int = number, out: list[Problem] = problems
        ) -> None:
            out.append(Problem(number, columns.get(key, key), message))

        for key, heading in columns.items():
            if heading in row.formulas:
                problem(
                    key,
                    gettext(
                        "This cell holds a formula: caseflow never runs formulas. Type its value "
                        "instead."
                    ),
                )
        email = values.get("email", "").lower()
        user: User | None = None
        if email:
            if email in seen_emails:
                problem(
                    "email",
                    gettext("Row %(first)s has the same e-mail: each person can appear only once.")
                    % {"first": seen_emails[email]},
                )
            else:
                seen_emails[email] = number
            found = owners.get(email, [])
            outside = [
                u
                for u in found
                if getattr(u, "membership", None) is None or u.membership.agency_id != agency_id
            ]
            if outside:
                problem(
                    "email",
                    gettext(
                        "This e-mail cannot be used for your agency's staff: ask the person for "
                        "their own work address here."
                    ),
                )
            elif len(found) > 1:
                problem(
                    "email",
                    gettext(
                        "Several of your staff have this e-mail: change it by hand on the staff "
                        "page first."
                    ),
                )
            elif found:
                user = found[0]
        role_text = values.get("role", "")
        role = roles.get(_norm(role_text), "") if role_text else ""
        if role_text and not role:
            problem(
                "role",
                gettext(
                    "This is not a role caseflow knows: write advocate, supervisor, auditor or "
                    "agency admin."
                ),
            )
        active_text = _norm(values.get("active", ""))
        if active_text and active_text not in _YES and active_text not in _NO:
            problem("active", gettext("Write yes or no."))
        if active_text:
            is_active = active_text in _YES
        else:
            # Blank: a new person is active; someone already here stays as they are.
            is_active = user is None or (user.is_active and user.membership.is_active)
        team_keys: list[str] = []
        names = [n.strip() for n in re.split(r"[;,]", values.get("teams", "")) if n.strip()]
        if not names and user is not None:
            # Blank: someone already here keeps their teams.
            names = [t.name.strip() for t in user.teams.all()]
        for name in names:
            key = name.lower()
            if key in team_keys:
                continue
            if len(name) > 120:
                problem("teams", gettext("A team's name can have at most 120 characters."))
                continue
            team_keys.append(key)
            if key not in by_team and key not in result.new_teams:
                result.new_teams[key] = name
        first_name, last_name = _split_name(values)
        if user is None:
            username = values.get("username", "").lower() or (
                _username_from(email, usernames) if email else ""
            )
            if username in usernames:
                problem("username", gettext("Another row of this file has the same username."))
        else:
            username = user.username
        usernames.add(username)
        form = StaffForm(
            data={
                "username": username,
                "first_name": first_name,
                "last_name": last_name,
                "email": values.get("email", ""),
                "role": role,
                "is_active": "on" if is_active else "",
                "teams": [by_team[k].pk for k in team_keys if k in by_team],
            },
            teams=teams,
            editing=user,
            agency_id=agency_id,
            initial={"username": username},
        )
        names_of = {
            "username": "username",
            "first_name": "name" if "name" in columns else "first_name",
            "last_name": "name" if "name" in columns else "last_name",
            "email": "email",
            "role": "role",
            "is_active": "active",
            "teams": "teams",
        }
        if not form.is_valid():
            for name, errors in form.errors.as_data().items():
                for error in errors:
                    if name == "role" and role_text and not role:
                        continue  # said above, in words
                    message = (
                        gettext("This is needed and is empty.")
                        if error.code == "required"
                        else " ".join(error.messages)
                    )
                    problem(names_of.get(name, name), message)
        data = {
            "username": username,
            "first_name": first_name,
            "last_name": last_name,
            "email": values.get("email", ""),
            "role": role,
            "is_active": is_active,
        }
        unchanged = False
        if user is not None and not problems:
            if user.pk == actor.pk and (role != user.membership.role or not is_active):
                problem("role", gettext("You cannot change your own role or deactivate yourself."))
            else:
                try:
                    agency_services._refuse_leaving_cases_without_primary(user, data)
                except ValidationError as exc:
                    problem("active" if not is_active else "role", " ".join(exc.messages))
            unchanged = (
                user.first_name == first_name
                and user.last_name == last_name
                and user.email == data["email"]
                and user.membership.role == role
                and user.membership.is_active == is_active
                and user.is_active == is_active
                and {t.name.strip().lower() for t in user.teams.all()} == set(team_keys)
            )
        if problems:
            result.problems.extend(problems)
            continue
        result.prepared.append(
            StaffRow(row=number, user=user, data=data, team_keys=team_keys, unchanged=unchanged)
        )
    return result


def _require_admin(actor: User, agency_id: int | None = None) -> int:
    found = policy.agency_id_of(actor)
    if not policy.is_agency_admin(actor) or found is None:
        raise PermissionDenied
    if agency_id is not None and found != agency_id:
        raise PermissionDenied
    return found


def _table(batch: ImportBatch) -> reader.Table:
    return reader.read(base64.b64decode(batch.content or ""), batch.file_format)


def _check(batch: ImportBatch, actor: User) -> StaffChecked:
    with translation.override("en"):
        return check(_table(batch), actor=actor, agency_id=batch.agency_id)


@transaction.atomic
def staff_upload(*, actor: User, name: str, data: bytes) -> ImportBatch:
    """Keep the file sealed and check every row (the dry run). Raises ``reader.FileRefused``."""
    agency_id = _require_admin(actor)
    fmt = reader.file_format(name)
    reader.read(data, fmt)
    batch = ImportBatch(
        agency_id=agency_id, created_by=actor, file_format=fmt, kind=BatchKind.STAFF
    )
    batch.content = base64.b64encode(data).decode()
    batch.save()
    checked = _check(batch, actor)
    batch.counts = checked.counts()
    batch.problems = [p.as_dict() for p in checked.problems]
    batch.state = BatchState.CHECKED
    batch.save(update_fields=["counts", "problems", "state"])
    record(
        "import.staff_check",
        actor=actor,
        object_type="importbatch",
        object_id=batch.public_id,
        agency_id=agency_id,
        detail=dict(batch.counts),
    )
    return batch


def new_teams(batch: ImportBatch, actor: User) -> list[str]:
    """The teams a checked batch would create, by name (read again from the sealed file)."""
    if batch.state != BatchState.CHECKED or not batch.wrapped_key:
        return []
    try:
        return sorted(_check(batch, actor).new_teams.values(), key=str.lower)
    except reader.FileRefused:
        return []


def staff_commit(*, actor: User, batch_id: int) -> dict[str, int]:
    """Write every row, all or nothing. A batch already imported is left as it is. Raises
    :class:`StaffBatchHasErrors` when a row no longer passes (nothing written)."""
    with transaction.atomic():
        batch = ImportBatch.objects.select_for_update().get(pk=batch_id)
        _require_admin(actor, batch.agency_id)
        if batch.kind != BatchKind.STAFF:
            raise StaffBatchHasErrors
        if batch.state == BatchState.DONE:
            return dict(batch.counts)
        if batch.state != BatchState.CHECKED:
            raise StaffBatchHasErrors
        checked = _check(batch, actor)
        if checked.problems:
            raise StaffBatchHasErrors
        teams = {t.name.strip().lower(): t for t in Team.objects.filter(agency_id=batch.agency_id)}
        for key, name in checked.new_teams.items():
            teams[key] = agency_services.team_save(actor=actor, team=None, name=name, members=[])
        for prepared in checked.prepared:
            if prepared.unchanged:
                continue
            if prepared.user is not None:
                # The membership as it is now, not as it was read for the check.
                prepared.user.membership = Membership.objects.get(user=prepared.user)
            agency_services.staff_save(
                actor=actor,
                user=prepared.user,
                data=prepared.data,
                teams=[teams[k] for k in prepared.team_keys],
            )
        counts = {
            **checked.counts(),
            "created": sum(1 for p in checked.prepared if p.user is None),
            "updated": sum(1 for p in checked.prepared if p.user is not None and not p.unchanged),
        }
        batch.counts = counts
        batch.problems = []
        batch.state = BatchState.DONE
        batch.finished_at = timezone.now()
        batch.save(update_fields=["counts", "problems", "state", "finished_at"])
        batch.forget_file()
        record(
            "import.staff_commit",
            actor=actor,
            object_type="importbatch",
            object_id=batch.public_id,
            agency_id=batch.agency_id,
            detail=counts,
        )
    return counts
