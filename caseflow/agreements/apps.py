from django.apps import AppConfig


class AgreementsConfig(AppConfig):
    name = "caseflow.agreements"
    label = "agreements"

    def ready(self) -> None:
        from caseflow.agreements.models import AgreementFollowUpKind
        from caseflow.inbox.kinds import register_followup_kinds

        register_followup_kinds(AgreementFollowUpKind)
        from caseflow.agreements.panels import case_panel
        from caseflow.cases.panels import register_panel

        register_panel(case_panel, order=20)
        from caseflow.agreements import today

        today.register()
        from caseflow.agreements.timeline import SOURCES
        from caseflow.cases.timeline import register_timeline_source

        for source in SOURCES:
            register_timeline_source(source)
