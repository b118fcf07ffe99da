"""Which language caseflow speaks to whom (the middleware, on every request).

A member of staff's own choice (their profile) wins over their agency's locale, which an agency
admin picks; without either, the deployment's LANGUAGE_CODE. Someone not signed in gets the
language their browser asks for, among caseflow's. The choices are cached (they are read on
every request) and the cache is cleared whenever one changes; without the cache they are read
from the database (see :mod:`caseflow.lib.softcache`). For a signed-in member of staff the
middleware reads both, and the agency's settings other parts of a page may ask for, in one round
trip to the cache.

The languages a survivor speaks, and how they need to communicate, are the case's:
:mod:`caseflow.cases.language`."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation

from caseflow.accounts.models import (
    AdvocateTitle,
    LanguageSetting,
    advocate_title,
    agency_page_keys,
)
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.lib.i18n import reset_idva, use_idva
from caseflow.lib.softcache import forget, read_ahead, read_ahead_end, remember

_CACHE_SECONDS = 3600


def _user_key(user_id: int) -> str:
    return f"caseflow:language:user:{user_id}"


def _agency_key(agency_id: int) -> str:
    return f"caseflow:language:agency:{agency_id}"


_NONE = "-"  # cached "no choice made"


def agency_language(agency_id: int) -> str:
    """The agency's locale, or the deployment's default."""

    def read() -> str:
        row = LanguageSetting.objects.filter(agency_id=agency_id, user__isnull=True).first()
        return row.language if row else _NONE

    found = remember(_agency_key(agency_id), read, _CACHE_SECONDS)
    return settings.LANGUAGE_CODE if found == _NONE else found


def user_choice(user_id: int) -> str:
    """The member of staff's own choice, or "" when they follow their agency."""

    def read() -> str:
        row = LanguageSetting.objects.filter(user_id=user_id).first()
        return row.language if row else _NONE

    found = remember(_user_key(user_id), read, _CACHE_SECONDS)
    return "" if found == _NONE else found


def language_for(user) -> str | None:
    """The language ``user`` reads caseflow in; None for someone with no agency."""
    membership = getattr(user, "membership", None) if user.is_authenticated else None
    if membership is None:
        return None
    return user_choice(user.pk) or agency_language(membership.agency_id)


def set_agency_language(agency_id: int, language: str) -> None:
    LanguageSetting.objects.update_or_create(
        agency_id=agency_id, user=None, defaults={"language": language}
    )
    forget(_agency_key(agency_id))


def set_user_language(user, language: str) -> None:
    """``language`` "" returns the user to their agency's locale."""
    if language:
        LanguageSetting.objects.update_or_create(
            agency_id=user.membership.agency_id, user=user, defaults={"language": language}
        )
    else:
        LanguageSetting.objects.filter(user=user).delete()
    forget(_user_key(user.pk))


class LanguageMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware (browser language for the sign-in pages) with the profile and
    the agency's locale first for signed-in staff."""

    def process_request(self, request: HttpRequest) -> None:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            membership = getattr(user, "membership", None)
            if membership is not None:
                # One round trip for the settings below and those the page may read.
                agency_id = membership.agency_id
                keys = [_user_key(user.pk), _agency_key(agency_id), *agency_page_keys(agency_id)]
                request._caseflow_read = read_ahead(keys)  # type: ignore[attr-defined]
        language = language_for(user) if user is not None else None
        if language is None:
            super().process_request(request)
            return
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        # The agency's word for its advocates, looked up only by a page that names the role.
        membership = getattr(user, "membership", None)
        if membership is not None:
            agency_id = membership.agency_id
            request._caseflow_idva = use_idva(  # type: ignore[attr-defined]
                lambda: advocate_title(agency_id) == AdvocateTitle.IDVA
            )

    def process_response(self, request: HttpRequest, response):
        response = super().process_response(request, response)
        # The next request, or work done outside one on this thread, starts from the default.
        translation.deactivate()
        token = getattr(request, "_caseflow_idva", None)
        if token is not None:
            reset_idva(token)
        read = getattr(request, "_caseflow_read", None)
        if read is not None:
            read_ahead_end(read)
        return response


def context(request: HttpRequest) -> dict:
    """The JavaScript's own words, translated."""
    return {
        "js_strings": {
            "problemOne": str(_("There is a problem with one answer:")),
            "problemMany": str(_("There is a problem with %(count)s answers:")),
            "staySignedIn": str(_("Stay signed in")),
            "signOutIn": str(_("You will be signed out in %(count)s seconds.")),
            "unsavedKept": str(_("Unsaved text is kept for you.")),
            "unsavedFrom": str(_("You have unsaved text in this form from %(saved)s.")),
            "putBack": str(_("Put it back")),
            "discard": str(_("Discard it")),
            "languagesMatch": str(_("%(count)s languages match")),
        },
    }
