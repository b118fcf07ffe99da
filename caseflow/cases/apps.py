from django.apps import AppConfig


class CasesConfig(AppConfig):
    name = "caseflow.cases"
    label = "cases"

    def ready(self) -> None:
        from django.core import checks

        from caseflow.cases.checks import check_case_panels_registered

        checks.register(check_case_panels_registered)
