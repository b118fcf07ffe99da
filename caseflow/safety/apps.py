from django.apps import AppConfig


class SafetyConfig(AppConfig):
    name = "caseflow.safety"
    label = "safety"

    def ready(self) -> None:
        from caseflow.cases.features import register_feature
        from caseflow.safety.feature import FEATURE

        register_feature(FEATURE)
