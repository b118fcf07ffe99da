from django.apps import AppConfig


class AgreementsConfig(AppConfig):
    name = "caseflow.agreements"
    label = "agreements"
