from django.apps import AppConfig


class AgencyConfig(AppConfig):
    """The agency admin's pages: staff, teams and their roles. No case content."""

    name = "caseflow.agency"
    label = "agency"
