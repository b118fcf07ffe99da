from django.urls import path

from caseflow.accounts import views

app_name = "accounts"

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("staff/", views.staff_list, name="staff_list"),
    path("staff/new/", views.staff_edit, name="staff_new"),
    path("staff/<int:user_id>/", views.staff_edit, name="staff_edit"),
    path("teams/new/", views.team_edit, name="team_new"),
    path("teams/<int:team_id>/", views.team_edit, name="team_edit"),
]
