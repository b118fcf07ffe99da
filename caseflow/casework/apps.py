from django.apps import AppConfig


class CaseworkConfig(AppConfig):
    name = "caseflow.casework"
    label = "casework"

    def ready(self) -> None:
        from caseflow.cases.features import register_feature
        from caseflow.casework.feature import FEATURE

        register_feature(FEATURE)
