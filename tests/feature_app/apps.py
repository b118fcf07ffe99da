from django.apps import AppConfig


class FeatureAppConfig(AppConfig):
    name = "tests.feature_app"
    label = "feature_app"

    def ready(self) -> None:
        from caseflow.cases.features import register_feature
        from tests.feature_app.feature import FEATURE

        register_feature(FEATURE)
