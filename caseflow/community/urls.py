"""Community education sessions and outcome surveys, under /community/."""

from django.urls import path

from caseflow.community import views

app_name = "community"

urlpatterns = [
    path("community/education/", views.education, name="education"),
    path(
        "community/education/<pid:session_id>/remove/",
        views.session_remove,
        name="session_remove",
    ),
    path("community/surveys/", views.surveys, name="surveys"),
    path("community/surveys/take-back/", views.survey_take_back, name="survey_take_back"),
]
