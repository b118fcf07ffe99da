from django.apps import AppConfig


class CourtConfig(AppConfig):
    name = "caseflow.court"
    label = "court"

    def ready(self) -> None:
        from caseflow.cases.features import register_feature
        from caseflow.court.feature import FEATURE

        register_feature(FEATURE)
