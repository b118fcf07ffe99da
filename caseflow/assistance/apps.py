from django.apps import AppConfig


class AssistanceConfig(AppConfig):
    name = "caseflow.assistance"
    label = "assistance"

    def ready(self) -> None:
        from caseflow.assistance.feature import FEATURE
        from caseflow.cases.features import register_feature

        register_feature(FEATURE)
