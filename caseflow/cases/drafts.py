"""Drafts of long forms, saved on the server as the advocate types (see ``models.Draft``).

A draft is forgotten once its form is saved, after ``DRAFT_DAYS`` without a change (an hourly
beat task, :func:`drafts_forget_expired`), when its author loses the case
(:func:`drafts_forget_lost`, from the assignment) and when its author is deactivated
(:func:`drafts_forget_user` from the staff page; the hourly task also catches an account
switched off any other way)."""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import User
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


def _forget(drafts, reason: str, *, actor: Any = None) -> int:
    """Delete ``drafts``, recording one event per case (counts and the reason, no content)."""
    counted: dict[tuple[int, int], int] = {}
    pks = []
    for pk, case_id, agency_id in drafts.values_list("pk", "case_id", "case__agency_id"):
        counted[(case_id, agency_id)] = counted.get((case_id, agency_id), 0) + 1
        pks.append(pk)
    if not pks:
        return 0
    deleted, _ = Draft.objects.filter(pk__in=pks).delete()
    for (case_id, agency_id), number in sorted(counted.items()):
        record(
            "draft.forget",
            actor=actor,
            object_type="case",
            object_id=str(case_id),
            agency_id=agency_id,
            detail={"case_id": case_id, "count": number, "reason": reason},
        )
    return deleted


@transaction.atomic
def drafts_forget_expired(now: dt.datetime | None = None) -> int:
    """Forget every draft unchanged for ``DRAFT_DAYS``, and every draft of an author who is no
    longer active. Idempotent: a second run finds nothing. Returns how many went."""
    now = now or timezone.now()
    expired = _forget(Draft.objects.filter(updated_at__lt=now - _ttl()), "expired")
    inactive = Q(user__is_active=False) | Q(user__membership__is_active=False)
    return expired + _forget(Draft.objects.filter(inactive), "deactivated")


def drafts_forget_user(*, actor: Any, user: Any) -> int:
    """Forget every draft of ``user`` (deactivated)."""
    return _forget(Draft.objects.filter(user=user), "deactivated", actor=actor)


def drafts_forget_lost(*, actor: Any, case: Case) -> int:
    """Forget the drafts on ``case`` of everyone who may no longer change it (after an
    assignment changed who works it)."""
    authors = Draft.objects.filter(case=case).values_list("user_id", flat=True).distinct()
    lost = [
        user.pk
        for user in User.objects.filter(pk__in=list(authors))
        if not policy.may(user, case, "edit")
    ]
    if not lost:
        return 0
    lost_drafts = Draft.objects.filter(case=case, user_id__in=lost)
    return _forget(lost_drafts, "unassigned", actor=actor)


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
