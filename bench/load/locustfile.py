"""Advocates' and supervisors' days, as closed loops of audited page views (no think time).

Run by ``bench/load/run.py``, which signs the people in (one server-side session each, as after
password + second factor) and passes them here in ``LOAD_SESSIONS`` (a JSON file)."""

from __future__ import annotations

import itertools
import json
import os
import random

from locust import HttpUser, constant, task

_PEOPLE = json.loads(open(os.environ["LOAD_SESSIONS"]).read())  # noqa: SIM115
_COOKIE = _PEOPLE["cookie"]
_NEXT = {role: itertools.cycle(people) for role, people in _PEOPLE["people"].items()}


class _Person(HttpUser):
    abstract = True
    role = ""
    wait_time = constant(0)

    def on_start(self) -> None:
        me = next(_NEXT[self.role])
        self.cases = me["cases"]
        self.client.cookies.set(_COOKIE, me["session"])

    def page(self, url: str, name: str) -> None:
        with self.client.get(url, name=name, allow_redirects=False, catch_response=True) as r:
            if r.status_code != 200:
                r.failure(f"answered {r.status_code}")


class Advocate(_Person):
    """Dashboard, her caseload, case after case."""

    role = "advocate"
    weight = 4

    @task(2)
    def dashboard(self) -> None:
        self.page("/", "dashboard")

    @task(1)
    def caseload(self) -> None:
        self.page("/cases/", "case list")

    @task(5)
    def open_case(self) -> None:
        self.page(f"/cases/{random.choice(self.cases)}/", "case page")


class Supervisor(_Person):
    """The team's cases, the audit trail, who accessed a case."""

    role = "supervisor"
    weight = 1

    @task(1)
    def dashboard(self) -> None:
        self.page("/", "dashboard")

    @task(2)
    def open_case(self) -> None:
        self.page(f"/cases/{random.choice(self.cases)}/", "case page")

    @task(2)
    def audit_trail(self) -> None:
        self.page("/audit/", "audit events")

    @task(2)
    def who_accessed(self) -> None:
        self.page(f"/audit/cases/{random.choice(self.cases)}/access/", "who accessed")
