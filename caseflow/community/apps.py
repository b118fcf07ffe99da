from django.apps import AppConfig


class CommunityConfig(AppConfig):
    name = "caseflow.community"
    label = "community"
