from django.apps import AppConfig


class ImportsConfig(AppConfig):
    name = "caseflow.imports"
    label = "imports"
