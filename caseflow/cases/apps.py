from django.apps import AppConfig


class CasesConfig(AppConfig):
    name = "caseflow.cases"
    label = "cases"
