import json
import os

from django.contrib.auth import views as auth_views
from django.contrib.auth.models import Group, User
from django.http import HttpResponse, HttpResponseForbidden
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from oauth2_provider.models import Application


@csrf_exempt
def control(request, what):
    """The tests' own door: register a client, add or change a person. Only with the token
    the tests started the provider with."""
    if request.headers.get("X-Control-Token") != os.environ["PROVIDER_CONTROL_TOKEN"]:
        return HttpResponseForbidden()
    data = json.loads(request.body)
    if what == "client":
        app, _ = Application.objects.update_or_create(
            client_id=data["client_id"],
            defaults={
                "name": data["client_id"],
                "client_type": Application.CLIENT_CONFIDENTIAL,
                "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
                "redirect_uris": " ".join(data["redirect_uris"]),
                "algorithm": Application.RS256_ALGORITHM,
                "skip_authorization": True,
                "hash_client_secret": False,
                "client_secret": data["client_secret"],
            },
        )
        return HttpResponse("ok")
    if what == "user":
        user, _ = User.objects.get_or_create(username=data["username"])
        user.set_password(data.get("password", "provider-pass"))
        user.first_name = data.get("first_name", "")
        user.last_name = data.get("last_name", "")
        user.email = data.get("email", "")
        user.is_active = data.get("active", True)
        user.save()
        user.groups.set([Group.objects.get_or_create(name=g)[0] for g in data.get("groups", [])])
        return HttpResponse(str(user.pk))
    return HttpResponseForbidden()


urlpatterns = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("control/<str:what>/", control),
]
