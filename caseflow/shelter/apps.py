from django.apps import AppConfig


class ShelterConfig(AppConfig):
    name = "caseflow.shelter"
    label = "shelter"

    def ready(self) -> None:
        from caseflow.cases.features import register_feature
        from caseflow.shelter.feature import FEATURE

        register_feature(FEATURE)
