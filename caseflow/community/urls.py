"""Community education sessions and outcome surveys, under /community/."""

from django.urls import path

from caseflow.community import views

app_name = "community"

urlpatterns = [
    path("community/education/", views.education, name="education"),
    path("community/surveys/", views.surveys, name="surveys"),
]
