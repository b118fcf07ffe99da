from django.apps import AppConfig


class CheckinsConfig(AppConfig):
    name = "caseflow.checkins"
    label = "checkins"
