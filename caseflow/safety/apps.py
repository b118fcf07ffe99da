from django.apps import AppConfig


class SafetyConfig(AppConfig):
    name = "caseflow.safety"
    label = "safety"
