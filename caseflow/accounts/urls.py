from django.urls import path

from caseflow.accounts import views

app_name = "accounts"

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("keep-alive/", views.keep_alive, name="keep_alive"),
    path("second-factor/", views.second_factor, name="second_factor"),
    path("second-factor/enrol/", views.enrol, name="enrol"),
    path("second-factor/enrol/qr.svg", views.enrol_qr, name="enrol_qr"),
    path("second-factor/recovery-codes/", views.recovery_codes, name="recovery_codes"),
    path("reauth/", views.reauth, name="reauth"),
    path("security/", views.security, name="security"),
    path("logout-everywhere/", views.logout_everywhere, name="logout_everywhere"),
    path("password/", views.password_change, name="password_change"),
    path("link/<str:uidb64>/<str:token>/", views.account_link, name="link"),
]
