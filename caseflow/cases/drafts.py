"""Drafts of long forms, saved on the server as the advocate types (see ``models.Draft``)."""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from caseflow.audit.services import record
from caseflow.cases.models import Case, Draft

#: A form's key: lower-case words joined by hyphens ("safety-plan", "note-new").
FORM_KEY = re.compile(r"[a-z][a-z0-9-]{0,59}")
#: Fields never kept: the CSRF token, the draft marker itself.
SKIPPED = frozenset({"csrfmiddlewaretoken", "_draft"})
#: The most a draft may hold (its JSON, in bytes): long plans fit; nothing runs away.
MAX_BYTES = 200_000


class DraftTooLarge(Exception):
    pass


def _ttl() -> dt.timedelta:
    return dt.timedelta(days=settings.DRAFT_DAYS)


def draft_get(*, user: Any, case: Case, form: str) -> Draft | None:
    """The user's own draft of ``form`` on ``case``, if one is kept and not expired."""
    draft = Draft.objects.filter(case=case, user=user, form=form).first()
    if draft is None:
        return None
    if draft.updated_at < timezone.now() - _ttl():
        draft.delete()
        return None
    draft.case = case  # share the unwrapped data key
    return draft


def draft_save(*, user: Any, case: Case, form: str, data: dict[str, list[str]]) -> Draft:
    kept = {name: values for name, values in data.items() if name not in SKIPPED}
    if len(json.dumps(kept)) > MAX_BYTES:
        raise DraftTooLarge
    draft = Draft.objects.filter(case=case, user=user, form=form).first()
    if draft is None:
        draft = Draft(case=case, user=user, form=form)
    draft.data = kept
    draft.updated_at = timezone.now()
    draft.save()
    record(
        "draft.save",
        actor=user,
        case=case,
        obj=draft,
        detail={"form": form, "fields": sorted(kept)},
    )
    return draft


def draft_discard(*, user: Any, case: Case, form: str) -> bool:
    deleted, _ = Draft.objects.filter(case=case, user=user, form=form).delete()
    if deleted:
        record("draft.discard", actor=user, case=case, detail={"form": form})
    return bool(deleted)


def keep_drafts(form: Any, case: Case, key: str) -> None:
    """Have ``form`` (a crispy form with a ``helper``) keep its unsaved text as a draft named
    ``key`` while it is typed, and offer it back when opened again."""
    if not FORM_KEY.fullmatch(key):
        raise ValueError(f"not a draft key: {key!r}")
    form.helper.attrs.update(
        {
            "data-draft-url": reverse("cases:draft", args=[case.public_id, key]),
            "data-draft-key": key,
        }
    )


def draft_context(case: Case, key: str) -> dict[str, str]:
    """For a template that writes its own ``<form>`` tag: ``draft_url`` and ``draft_key``."""
    if not FORM_KEY.fullmatch(key):
        raise ValueError(f"not a draft key: {key!r}")
    return {"draft_url": reverse("cases:draft", args=[case.public_id, key]), "draft_key": key}
