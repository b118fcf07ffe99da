from django.apps import AppConfig
from django.conf import settings
from django.core import checks


def check_audit_signing_key(app_configs, **kwargs):
    """Production signs tree heads with its own key, never the public development one."""
    if settings.AUDIT_SIGNING_KEY == settings.AUDIT_DEV_SIGNING_KEY:
        return [
            checks.Error(
                "AUDIT_SIGNING_KEY is the development key: anyone can sign audit tree heads.",
                hint="Set AUDIT_SIGNING_KEY (see README, Production).",
                id="caseflow.audit.E001",
            )
        ]
    return []


class AuditConfig(AppConfig):
    name = "caseflow.audit"
    label = "audit"

    def ready(self) -> None:
        checks.register(check_audit_signing_key, checks.Tags.security, deploy=True)
