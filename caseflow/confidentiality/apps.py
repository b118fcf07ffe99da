from django.apps import AppConfig


class ConfidentialityConfig(AppConfig):
    name = "caseflow.confidentiality"
    label = "confidentiality"
