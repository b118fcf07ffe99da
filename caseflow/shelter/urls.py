"""The bed board, booking and turn-aways under /shelter/, the agency's sites under
/shelter/sites/, and a case's stays under /cases/<id>/shelter/."""

from django.urls import path

from caseflow.shelter import views

app_name = "shelter"

CASE = "cases/<pid:public_id>/shelter/"

urlpatterns = [
    path("shelter/", views.board, name="board"),
    path("shelter/book/", views.book, name="book"),
    path("shelter/turned-away/", views.turn_away, name="turn_away"),
    path("shelter/sites/", views.sites, name="sites"),
    path("shelter/sites/edit/", views.site_edit, name="site_edit"),
    path("shelter/rooms/new/", views.room_new, name="room_new"),
    path("shelter/beds/new/", views.bed_new, name="bed_new"),
    path(f"{CASE}stays/<pid:stay_id>/", views.stay_detail, name="stay"),
    path(f"{CASE}stays/<pid:stay_id>/end/", views.stay_end, name="stay_end"),
]
