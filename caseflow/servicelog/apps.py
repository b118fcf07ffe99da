from django.apps import AppConfig


class ServicelogConfig(AppConfig):
    name = "caseflow.servicelog"
    label = "servicelog"

    def ready(self) -> None:
        from caseflow.cases.features import register_feature
        from caseflow.servicelog.feature import FEATURE

        register_feature(FEATURE)
