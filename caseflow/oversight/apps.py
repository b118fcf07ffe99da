from django.apps import AppConfig


class OversightConfig(AppConfig):
    """The supervisors' and auditors' workspace over the audit trail: timelines, who accessed a
    case, per-person activity, emergency-access review and alerts."""

    name = "caseflow.oversight"
    label = "oversight"
