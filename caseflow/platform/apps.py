from django.apps import AppConfig


class PlatformConfig(AppConfig):
    name = "caseflow.platform"
    label = "platform"
