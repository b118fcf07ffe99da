from django.apps import AppConfig


class CasesConfig(AppConfig):
    name = "caseflow.cases"
    label = "cases"

    def ready(self) -> None:
        from django.urls import register_converter

        from caseflow.cases.converters import PublicIdConverter

        register_converter(PublicIdConverter, "pid")
