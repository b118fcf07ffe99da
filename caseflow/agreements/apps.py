from django.apps import AppConfig


class AgreementsConfig(AppConfig):
    name = "caseflow.agreements"
    label = "agreements"

    def ready(self) -> None:
        from caseflow.agreements.feature import FEATURE
        from caseflow.cases.features import register_feature

        register_feature(FEATURE)
