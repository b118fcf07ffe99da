"""The OpenAPI schema: served, documented, and the committed copy is the one the code makes
(CI fails when an endpoint changes without ``docs/openapi.yaml``: regenerate it with
``uv run python manage.py spectacular --file docs/openapi.yaml``)."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

COMMITTED = Path(settings.BASE_DIR) / "docs" / "openapi.yaml"


def test_the_committed_schema_is_the_one_the_code_makes(db):
    out = StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)
    assert out.getvalue() == COMMITTED.read_text(), (
        "docs/openapi.yaml is stale: uv run python manage.py spectacular --file docs/openapi.yaml"
    )
    assert "/api/v1/referrals/" in out.getvalue()


def test_the_schema_and_its_page_are_served(db, client):
    schema = client.get(reverse("api:schema"))
    assert schema.status_code == 200
    assert b"/api/v1/cases/{public_id}/summary/" in schema.content
    docs = client.get(reverse("api:docs"))
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()
