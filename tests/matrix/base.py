"""Building blocks of the authorization matrix rows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.conftest import ACTORS

ANON = {"anonymous": 302, "deactivated": 302}


def expect(default: int, **overrides: int) -> dict[str, int]:
    table = {actor: default for actor in ACTORS}
    table.update(ANON)
    table.update(overrides)
    return table


def casework(assigned: int, supervisor: int, others: int = 404, **kw: int) -> dict[str, int]:
    """A case URL: its assigned advocate, its team's supervisor, everyone else out of scope."""
    return expect(others, assigned=assigned, supervisor=supervisor, **kw)


NOT_ALLOWED = expect(405)
CASEWORKERS_ONLY = dict(
    assigned=200,
    same_team=200,
    other_team=200,
    supervisor=200,
    other_supervisor=200,
    other_agency=200,
)


@dataclass
class Row:
    GET: dict[str, int]
    POST: dict[str, int]
    # Which object fills the URL: "case", "party", "user", "team", "link", "report" (a funder
    # report's name), "call" (a duty-line call on no case, built by ``url`` once, not per case),
    # "batch" (an import batch of the cast's agency), "staff_batch" (a checked staff file of it),
    # "prepared" (a funder report the cast's supervisor asked to be prepared in the background).
    kwargs: str | None = None
    # For URLs of objects inside a case: (cast, case) -> URL. The case is ``cast.case`` and
    # ``cast.restricted_case`` in turn; the builder creates the object it needs on that case.
    url: Callable[[Any, Any], str] | None = None
    # Methods that need a recent password and second factor (``require_recent_auth``): with a
    # stale session every signed-in actor is sent to re-authenticate before anything else.
    reauth: tuple[str, ...] = ()
