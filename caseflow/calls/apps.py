from django.apps import AppConfig


class CallsConfig(AppConfig):
    name = "caseflow.calls"
    label = "calls"

    def ready(self) -> None:
        from caseflow.calls.feature import FEATURE
        from caseflow.cases.features import register_feature

        register_feature(FEATURE)
