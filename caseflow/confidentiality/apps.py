from django.apps import AppConfig


class ConfidentialityConfig(AppConfig):
    name = "caseflow.confidentiality"
    label = "confidentiality"

    def ready(self) -> None:
        from caseflow.cases.panels import register_panel
        from caseflow.confidentiality.models import ConfidentialityFollowUpKind
        from caseflow.confidentiality.panels import case_panel
        from caseflow.inbox.kinds import register_followup_kinds

        register_followup_kinds(ConfidentialityFollowUpKind)
        _register_pack_providers()
        register_panel(case_panel, order=40)

        from django.core import checks

        from caseflow.confidentiality.checks import check_narrative_declarations

        checks.register(check_narrative_declarations)
        from caseflow.cases.timeline import register_timeline_source
        from caseflow.confidentiality.timeline import SOURCES

        for source in SOURCES:
            register_timeline_source(source)


def _register_pack_providers() -> None:
    """What each category of a referral pack or case export holds, from the parts that keep it."""
    from caseflow.agreements import packs as agreement_packs
    from caseflow.casework import packs as casework_packs
    from caseflow.confidentiality.models import Category
    from caseflow.confidentiality.pack import register_provider
    from caseflow.safety import packs as safety_packs

    register_provider(Category.SAFETY_PLAN, safety_packs.safety_plan_rows)
    register_provider(Category.COURT_ORDERS, safety_packs.protective_order_rows)
    register_provider(Category.COURT_ORDERS, agreement_packs.agreement_order_rows)
    register_provider(Category.EVIDENCE, agreement_packs.evidence_rows)
    register_provider(Category.EVIDENCE, casework_packs.incident_rows)
    register_provider(Category.NARRATIVES, casework_packs.note_rows)
