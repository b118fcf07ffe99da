"""What followed harm on a case, under /cases/<id>/cycle/, and the agency's own kinds."""

from django.urls import path

from caseflow.cycle import views

app_name = "cycle"

CASE = "cases/<pid:public_id>/cycle/"

urlpatterns = [
    path(f"{CASE}incidents/<pid:incident_id>/", views.mark_after_incident, name="after_incident"),
    path(f"{CASE}contacts/<pid:event_id>/", views.mark_after_contact, name="after_contact"),
    path("agency/cycle-kinds/", views.agency_kinds, name="kinds"),
]
