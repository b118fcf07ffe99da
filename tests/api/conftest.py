"""Integrations for the API tests: registered by the agency admin through the service, each
with its real key, called over HTTP with the test client."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from caseflow import policy
from caseflow.api import services
from caseflow.api.models import Integration
from caseflow.lib import softcache

NOW = dt.datetime(2026, 3, 10, 14, 0, tzinfo=dt.UTC)

ALL_SCOPES = [
    policy.SCOPE_REFERRALS_WRITE,
    policy.SCOPE_CASES_SUMMARY,
    policy.SCOPE_REPORTS,
]


@dataclass
class Caller:
    integration: Integration
    key: str
    client: Any

    def headers(self, **extra: str) -> dict[str, str]:
        return {"HTTP_AUTHORIZATION": f"Bearer {self.key}", **extra}

    def get(self, url: str, **extra: str) -> Any:
        return self.client.get(url, **self.headers(**extra))

    def post(self, url: str, body: Any, **extra: str) -> Any:
        data = body if isinstance(body, bytes | str) else json.dumps(body)
        return self.client.generic(
            "POST", url, data, content_type="application/json", **self.headers(**extra)
        )


@pytest.fixture(autouse=True)
def _pinned_now():
    with time_machine.travel(NOW, tick=False):
        softcache.reset()
        yield
        softcache.reset()


@pytest.fixture
def make_caller(cast, client):
    def make(
        scopes: list[str] | None = None,
        *,
        admin: Any = None,
        team: Any = None,
        name: str = "Hotline platform",
        **kw: Any,
    ) -> Caller:
        integration, key = services.integration_register(
            actor=admin or cast.agency_admin,
            name=name,
            scopes=ALL_SCOPES if scopes is None else scopes,
            team=team,
            expires_at=kw.pop("expires_at", timezone.now() + dt.timedelta(days=90)),
            **kw,
        )
        return Caller(integration, key, client)

    return make


HOTLINE_PAYLOAD = {
    "team": "Team 1",
    "survivor": {
        "full_name": "Rowan Fictional",
        "date_of_birth": "1990-04-02",
        "phone": "07700 900123",
        "email": "rowan@example.invalid",
    },
    "other_party": {"full_name": "Sam Invented", "date_of_birth": "1988-01-15"},
    "summary": "Called the hotline on Tuesday night; wants a call back after 6pm.",
}
