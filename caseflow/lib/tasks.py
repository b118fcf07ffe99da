"""The base class of every caseflow Celery task: the options they all share, declared once.

Tasks take ids, call one service and are idempotent, so running one twice is harmless and
running it late is better than never: acknowledged only when done (a killed worker's task runs
again, once), no result kept, and retried with back-off while the database or the broker is
briefly away. A task adds only what is its own (its name, another error to retry on).
"""

from __future__ import annotations

from celery.contrib.django.task import DjangoTask
from django.db import InterfaceError, OperationalError


class CaseflowTask(DjangoTask):
    """Celery's Django task (``delay_on_commit``) with caseflow's shared options."""

    acks_late = True
    reject_on_worker_lost = True
    ignore_result = True
    autoretry_for = (OperationalError, InterfaceError, ConnectionError)
    retry_backoff = 10
    retry_backoff_max = 120
    max_retries = 5
