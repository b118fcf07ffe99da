from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "caseflow.audit"
    label = "audit"
