from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


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
        from caseflow.cases.journey import ClosureNeeds, register_closure_needs
        from caseflow.cases.trend import TrendSource, register_trend_source
        from caseflow.casework import needs

        register_closure_needs(
            ClosureNeeds(
                open_choices=needs.open_need_choices,
                labels=needs.need_labels,
                mark_met=needs.needs_met_at_closure,
            )
        )
        from caseflow.casework.selectors import incident_trend

        register_trend_source(
            TrendSource(
                kind="incidents",
                label=_("Incidents"),
                fetch=incident_trend,
                categories={"incident": (_("Incidents"), "#8a6100")},
                order=10,
            )
        )
