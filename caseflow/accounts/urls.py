from django.urls import path

from caseflow.accounts import provider_views, views

app_name = "accounts"

ACCOUNTS = "accounts/"

urlpatterns = [
    path(f"{ACCOUNTS}login/", views.LoginView.as_view(), name="login"),
    path(f"{ACCOUNTS}logout/", views.logout_view, name="logout"),
    path(f"{ACCOUNTS}keep-alive/", views.keep_alive, name="keep_alive"),
    path(f"{ACCOUNTS}second-factor/", views.second_factor, name="second_factor"),
    path(f"{ACCOUNTS}second-factor/enrol/", views.enrol, name="enrol"),
    path(f"{ACCOUNTS}second-factor/enrol/qr.svg", views.enrol_qr, name="enrol_qr"),
    path(f"{ACCOUNTS}second-factor/recovery-codes/", views.recovery_codes, name="recovery_codes"),
    path(f"{ACCOUNTS}reauth/", views.reauth, name="reauth"),
    path(f"{ACCOUNTS}security/", views.security, name="security"),
    path(f"{ACCOUNTS}logout-everywhere/", views.logout_everywhere, name="logout_everywhere"),
    path(f"{ACCOUNTS}password/", views.password_change, name="password_change"),
    path(f"{ACCOUNTS}link/<str:uidb64>/<str:token>/", views.account_link, name="link"),
    path(f"{ACCOUNTS}agency/<slug:slug>/", provider_views.agency_login, name="agency_login"),
    path(
        f"{ACCOUNTS}agency/<slug:slug>/start/",
        provider_views.provider_start,
        name="provider_start",
    ),
    path(
        f"{ACCOUNTS}provider/callback/",
        provider_views.provider_callback,
        name="provider_callback",
    ),
    path(f"{ACCOUNTS}provider/reauth/", provider_views.provider_reauth, name="provider_reauth"),
]
