"""The Celery application: broker from settings (Redis, or the file-system broker by default)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "caseflow.settings")

# Every task shares one base class (caseflow.lib.tasks.CaseflowTask).
app = Celery("caseflow", task_cls="caseflow.lib.tasks:CaseflowTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
