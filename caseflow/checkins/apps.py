from django.apps import AppConfig


class CheckinsConfig(AppConfig):
    name = "caseflow.checkins"
    label = "checkins"

    def ready(self) -> None:
        from caseflow.cases.features import register_feature
        from caseflow.checkins.feature import FEATURE

        register_feature(FEATURE)
