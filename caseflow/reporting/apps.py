from django.apps import AppConfig


class ReportingConfig(AppConfig):
    name = "caseflow.reporting"
    label = "reporting"
