from django.apps import AppConfig

from caseflow.lib.i18n import gettext_lazy as _


class OutboxConfig(AppConfig):
    name = "caseflow.outbox"
    label = "outbox"
    verbose_name = _("Outbox: background work started by requests")
