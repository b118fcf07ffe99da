from django.apps import AppConfig


class TransfersConfig(AppConfig):
    name = "caseflow.transfers"
    label = "transfers"

    def ready(self) -> None:
        from caseflow.cases.features import register_feature
        from caseflow.transfers.feature import FEATURE

        register_feature(FEATURE)
