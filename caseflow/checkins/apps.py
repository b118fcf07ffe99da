from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CheckinsConfig(AppConfig):
    name = "caseflow.checkins"
    label = "checkins"

    def ready(self) -> None:
        from caseflow.accounts.credentials import register_credential_revoker
        from caseflow.cases import panels, selectors
        from caseflow.checkins import panels as checkin_panels
        from caseflow.checkins.selectors import next_checkin_due
        from caseflow.checkins.services import calendar_tokens_revoke_for

        selectors.register_next_due(next_checkin_due)
        panels.register_panel(checkin_panels.case_panel, order=30)
        register_credential_revoker(calendar_tokens_revoke_for)
        from caseflow.checkins import today

        today.register()
        from caseflow.cases.timeline import register_timeline_source
        from caseflow.checkins.timeline import SOURCE

        register_timeline_source(SOURCE)
        from caseflow.cases.journey import register_open_work
        from caseflow.cases.trend import TrendSource, register_trend_source
        from caseflow.checkins.selectors import checkin_trend, future_checkin_lines
        from caseflow.checkins.services import checkins_cancel_for_closure

        register_trend_source(
            TrendSource(
                kind="checkins",
                label=_("Check-ins"),
                fetch=checkin_trend,
                categories={
                    "reached": (_("Reached"), "#146c43"),
                    "not_reached": (_("Not reached or not safe"), "#6c757d"),
                },
                order=30,
            )
        )
        register_open_work(
            "checkins", _("Future check-ins"), future_checkin_lines, checkins_cancel_for_closure
        )
