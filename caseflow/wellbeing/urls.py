"""Her own rating: recorded on a case under /cases/<id>/wellbeing/, and the agency's questions."""

from django.urls import path

from caseflow.wellbeing import views

app_name = "wellbeing"

urlpatterns = [
    path("cases/<pid:public_id>/wellbeing/new/", views.rating_new, name="new"),
    path("wellbeing/settings/", views.question_settings, name="settings"),
]
