from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "caseflow.api"
    label = "api"
    verbose_name = "API and webhooks"

    def ready(self) -> None:
        from caseflow.api import schema  # noqa: F401 - registers the key's security scheme
        from caseflow.api.services import anyone_listening
        from caseflow.outbox import events

        events.register_audience(anyone_listening)
