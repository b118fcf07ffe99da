from django.apps import AppConfig


class DemoConfig(AppConfig):
    name = "caseflow.demo"
    label = "demo"
