"""The base class of tasks started through the outbox, and the relay's beat task."""

from __future__ import annotations

import logging
import os
import time
from typing import Any

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from caseflow.lib.tasks import CaseflowTask
from caseflow.outbox import services
from caseflow.outbox.models import Intent

log = logging.getLogger(__name__)


def _test_pause() -> None:
    """Tests of crash recovery set this to hold a task's transaction open long enough to kill
    the worker running it."""
    pause = os.environ.get("CASEFLOW_TEST_TASK_PAUSE", "")
    if pause:
        log.warning("task paused for %s seconds (CASEFLOW_TEST_TASK_PAUSE)", pause)
        time.sleep(float(pause))


class OutboxTask(CaseflowTask):
    """A task sent by the outbox: it receives its intent's id (``intent_id``) with its own
    arguments, and marks the intent done in the same transaction as its work, so a worker lost
    mid-task leaves the intent pending and the relay sends it again."""

    def __call__(self, *args: Any, intent_id: int | None = None, **kwargs: Any) -> Any:
        if intent_id is None:
            return super().__call__(*args, **kwargs)
        with transaction.atomic():
            result = super().__call__(*args, **kwargs)
            _test_pause()
            Intent.objects.filter(pk=intent_id, completed_at__isnull=True).update(
                completed_at=timezone.now()
            )
        return result

    def on_failure(self, exc, task_id, args, kwargs, einfo) -> None:  # type: ignore[no-untyped-def]
        intent_id = (kwargs or {}).get("intent_id")
        if intent_id is not None:
            Intent.objects.filter(pk=intent_id).update(last_error=type(exc).__name__[:100])
        super().on_failure(exc, task_id, args, kwargs, einfo)


@shared_task(name="caseflow.outbox.tasks.relay")
def relay() -> None:
    services.relay()
