from django.apps import AppConfig


class WellbeingConfig(AppConfig):
    name = "caseflow.wellbeing"
    label = "wellbeing"

    def ready(self) -> None:
        from caseflow.cases.features import register_feature
        from caseflow.wellbeing.feature import FEATURE

        register_feature(FEATURE)
