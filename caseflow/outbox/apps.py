from django.apps import AppConfig


class OutboxConfig(AppConfig):
    name = "caseflow.outbox"
    label = "outbox"
    verbose_name = "Outbox: background work started by requests"
