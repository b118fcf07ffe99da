from django.apps import AppConfig


class SafetyConfig(AppConfig):
    name = "caseflow.safety"
    label = "safety"

    def ready(self) -> None:
        from caseflow.inbox.kinds import register_followup_kinds
        from caseflow.safety.models import SafetyFollowUpKind

        register_followup_kinds(SafetyFollowUpKind)
        from caseflow.cases.panels import register_panel
        from caseflow.safety.panels import case_panel

        register_panel(case_panel, order=10)
        from caseflow.cases.timeline import register_timeline_source
        from caseflow.safety.timeline import SOURCES

        for source in SOURCES:
            register_timeline_source(source)
        from caseflow.safety import today

        today.register()
