from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


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
        from caseflow.agreements.selectors import breach_trend
        from caseflow.cases.trend import TrendSource, register_trend_source

        register_trend_source(
            TrendSource(
                kind="breaches",
                label=_("The other party's breaches"),
                fetch=breach_trend,
                categories={"breach": (_("Breaches"), "#b02a37")},
                order=20,
            )
        )
