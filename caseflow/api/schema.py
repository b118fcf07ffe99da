"""How the OpenAPI schema describes the integration key (imported when the app is ready)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class IntegrationKeyScheme(OpenApiAuthenticationExtension):
    target_class = "caseflow.api.authentication.IntegrationKeyAuthentication"
    name = "integrationKey"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "The integration's key, shown once when the agency admin registers it.",
        }
