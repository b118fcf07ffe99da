from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "caseflow.accounts"
    label = "accounts"
