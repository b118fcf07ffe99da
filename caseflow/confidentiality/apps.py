from django.apps import AppConfig


class ConfidentialityConfig(AppConfig):
    name = "caseflow.confidentiality"
    label = "confidentiality"

    def ready(self) -> None:
        from django.core import checks

        from caseflow.cases.features import register_feature
        from caseflow.confidentiality.checks import check_narrative_declarations, check_pack_rows
        from caseflow.confidentiality.feature import FEATURE

        register_feature(FEATURE)
        checks.register(check_narrative_declarations)
        checks.register(check_pack_rows)
