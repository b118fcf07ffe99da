from django.apps import AppConfig


class InboxConfig(AppConfig):
    name = "caseflow.inbox"
    label = "inbox"
    verbose_name = "Inbox: follow-ups and notifications"

    def ready(self) -> None:
        from caseflow.inbox.kinds import GeneralFollowUpKind, register_followup_kinds

        register_followup_kinds(GeneralFollowUpKind)
