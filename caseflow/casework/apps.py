from django.apps import AppConfig


class CaseworkConfig(AppConfig):
    name = "caseflow.casework"
    label = "casework"

    def ready(self) -> None:
        from caseflow.cases.panels import register_panel
        from caseflow.cases.timeline import register_timeline_source
        from caseflow.casework.models import CaseworkFollowUpKind
        from caseflow.casework.panels import case_panel, needs_panel
        from caseflow.casework.timeline import SOURCES
        from caseflow.inbox.kinds import register_followup_kinds

        register_followup_kinds(CaseworkFollowUpKind)
        register_panel(case_panel, order=15)
        register_panel(needs_panel, order=16)
        for source in SOURCES:
            register_timeline_source(source)
