from django.apps import AppConfig


class CasesConfig(AppConfig):
    name = "caseflow.cases"
    label = "cases"

    def ready(self) -> None:
        from django.core import checks
        from django.urls import register_converter

        from caseflow.cases.checks import check_features
        from caseflow.cases.converters import PublicIdConverter
        from caseflow.cases.feature import FEATURE
        from caseflow.cases.features import register_feature

        register_converter(PublicIdConverter, "pid")
        checks.register(check_features)
        register_feature(FEATURE)
