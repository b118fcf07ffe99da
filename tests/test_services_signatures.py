"""Services take the acting user, never the HTTP request: what an audit event needs from the
request (its id, the client's address) travels in the request context
(:mod:`caseflow.lib.request_context`). This reads every public function of every services
module and fails on one that takes a request, or an acting user other than by keyword."""

from __future__ import annotations

import importlib
import inspect
import typing
from pathlib import Path

from django.http import HttpRequest

ROOT = Path(__file__).resolve().parent.parent / "caseflow"


def _service_modules() -> list[str]:
    # The case's lifecycle (opening, status, episodes, closure) is a service module too.
    paths = {*ROOT.glob("*/services*.py"), *ROOT.glob("*/services/*.py"), ROOT / "cases/journey.py"}
    names = []
    for path in sorted(paths):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join(parts))
    return names


def _public_functions():
    for name in _service_modules():
        module = importlib.import_module(name)
        for attr, obj in vars(module).items():
            if (
                not attr.startswith("_")
                and inspect.isfunction(obj)
                and obj.__module__ == module.__name__
            ):
                yield f"{name}.{attr}", obj


def _takes_a_request(function) -> bool:
    try:
        hints = typing.get_type_hints(function)
    except Exception:  # noqa: BLE001 - an unresolvable hint is read from the signature below
        hints = {}
    for param in inspect.signature(function).parameters.values():
        if param.name == "request":
            return True
        hint = hints.get(param.name, param.annotation)
        if hint is HttpRequest or HttpRequest in typing.get_args(hint):
            return True
        if isinstance(hint, str) and "HttpRequest" in hint:
            return True
    return False


def _actor_hint(function):
    try:
        return typing.get_type_hints(function)["actor"]
    except (NameError, KeyError):  # named only for type checking: read it as written
        return inspect.signature(function).parameters["actor"].annotation


def test_no_service_takes_the_request():
    functions = dict(_public_functions())
    # Not vacuous: every services module was read, and their functions with it.
    assert len(_service_modules()) >= 20
    assert len(functions) > 100
    assert "caseflow.cases.journey.case_open" in functions
    assert "caseflow.cases.services.case_assign" in functions
    assert "caseflow.confidentiality.services.purges.purge_execute" in functions
    assert sorted(name for name, f in functions.items() if _takes_a_request(f)) == []


def test_services_take_the_acting_user_by_keyword():
    with_actor = {
        name: f for name, f in _public_functions() if "actor" in inspect.signature(f).parameters
    }
    assert len(with_actor) > 60
    positional = sorted(
        name
        for name, f in with_actor.items()
        if inspect.signature(f).parameters["actor"].kind is not inspect.Parameter.KEYWORD_ONLY
    )
    assert positional == []
    # Typed: the acting user is a User, except where audit (below accounts) cannot name it.
    untyped = sorted(
        name
        for name, f in with_actor.items()
        if _actor_hint(f) in (typing.Any, "Any", inspect.Parameter.empty)
    )
    assert untyped == ["caseflow.audit.services.record"]


def test_the_check_sees_a_request_parameter():
    def by_name(*, actor, request): ...

    def by_type(*, actor, incoming: HttpRequest | None): ...

    def neither(*, actor, case): ...

    assert _takes_a_request(by_name) and _takes_a_request(by_type)
    assert not _takes_a_request(neither)
