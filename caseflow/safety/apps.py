from django.apps import AppConfig


class SafetyConfig(AppConfig):
    name = "caseflow.safety"
    label = "safety"

    def ready(self) -> None:
        from caseflow.confidentiality.models import Category
        from caseflow.confidentiality.pack import register_provider
        from caseflow.safety import packs

        register_provider(Category.SAFETY_PLAN, packs.safety_plan_rows)
        register_provider(Category.COURT_ORDERS, packs.protective_order_rows)
