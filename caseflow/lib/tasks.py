"""The base class of every caseflow Celery task: the options they all share, declared once.

Tasks take ids, call one service and are idempotent, so running one twice is harmless and
running it late is better than never: acknowledged only when done (a killed worker's task runs
again, once), no result kept, and retried with back-off while the database or the broker is
briefly away. A task adds only what is its own (its name, another error to retry on).

Each run is served in its own request context (:mod:`caseflow.lib.request_context`): audit
events written by the task carry the task's id and no address, never those of the request that
enqueued it or of the work the worker did before.
"""

from __future__ import annotations

from typing import Any

from celery.contrib.django.task import DjangoTask
from django.db import InterfaceError, OperationalError

from caseflow.lib.request_context import serving


class CaseflowTask(DjangoTask):
    """Celery's Django task (``delay_on_commit``) with caseflow's shared options."""

    acks_late = True
    reject_on_worker_lost = True
    ignore_result = True
    autoretry_for = (OperationalError, InterfaceError, ConnectionError)
    retry_backoff = 10
    retry_backoff_max = 120
    max_retries = 5

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with serving(request_id=self.request.id or ""):
            return super().__call__(*args, **kwargs)
