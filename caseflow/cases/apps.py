from django.apps import AppConfig


class CasesConfig(AppConfig):
    name = "caseflow.cases"
    label = "cases"

    def ready(self) -> None:
        from django.core import checks
        from django.urls import register_converter

        from caseflow.cases.checks import check_case_panels_registered
        from caseflow.cases.converters import PublicIdConverter

        register_converter(PublicIdConverter, "pid")
        checks.register(check_case_panels_registered)
        from caseflow.cases import history
        from caseflow.cases.timeline import register_timeline_source

        register_timeline_source(history.SOURCE)
        from caseflow.cases.language import language_for
        from caseflow.lib.i18n import register_user_language

        register_user_language(language_for)
        from caseflow.cases import episode_timeline

        register_timeline_source(episode_timeline.SOURCE)
