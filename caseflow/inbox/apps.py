from django.apps import AppConfig

from caseflow.lib.i18n import gettext_lazy as _


class InboxConfig(AppConfig):
    name = "caseflow.inbox"
    label = "inbox"
    verbose_name = _("Inbox: follow-ups and notifications")
