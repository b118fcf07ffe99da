from django.apps import AppConfig


class CycleConfig(AppConfig):
    name = "caseflow.cycle"
    label = "cycle"

    def ready(self) -> None:
        from caseflow.cases.features import register_feature
        from caseflow.cycle.feature import FEATURE

        register_feature(FEATURE)
