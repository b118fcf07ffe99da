from django.apps import AppConfig


class PartnersConfig(AppConfig):
    name = "caseflow.partners"
    label = "partners"

    def ready(self) -> None:
        from caseflow.cases.features import register_feature
        from caseflow.partners.feature import FEATURE

        register_feature(FEATURE)
