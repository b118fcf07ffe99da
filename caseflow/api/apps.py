from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "caseflow.api"
    label = "api"
    verbose_name = "API and webhooks"

    def ready(self) -> None:
        from caseflow.api import schema  # noqa: F401 - registers the key's security scheme
        from caseflow.api.feature import FEATURE
        from caseflow.cases.features import register_feature

        register_feature(FEATURE)
