from django.apps import AppConfig


class AgreementsConfig(AppConfig):
    name = "caseflow.agreements"
    label = "agreements"

    def ready(self) -> None:
        from caseflow.agreements import packs
        from caseflow.confidentiality.models import Category
        from caseflow.confidentiality.pack import register_provider

        register_provider(Category.COURT_ORDERS, packs.agreement_order_rows)
        register_provider(Category.EVIDENCE, packs.evidence_rows)
