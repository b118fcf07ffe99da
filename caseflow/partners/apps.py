from django.apps import AppConfig


class PartnersConfig(AppConfig):
    name = "caseflow.partners"
    label = "partners"

    def ready(self) -> None:
        from caseflow.cases.panels import register_panel
        from caseflow.cases.timeline import register_timeline_source
        from caseflow.inbox.kinds import register_followup_kinds
        from caseflow.partners import today
        from caseflow.partners.models import PartnersFollowUpKind
        from caseflow.partners.panels import case_panel
        from caseflow.partners.timeline import SOURCES

        register_followup_kinds(PartnersFollowUpKind)
        register_panel(case_panel, order=45)
        today.register()
        for source in SOURCES:
            register_timeline_source(source)
