from django.apps import AppConfig


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
