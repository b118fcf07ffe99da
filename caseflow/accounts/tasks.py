"""Background work for accounts: e-mailing an enrolment or reset link (made in the task, so the
token is never in a task's arguments or the outbox)."""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task

from caseflow.accounts import links
from caseflow.outbox.tasks import OutboxTask


@shared_task(
    base=OutboxTask,
    name="caseflow.accounts.tasks.send_account_link",
    autoretry_for=(*OutboxTask.autoretry_for, SMTPException),
)
def send_account_link(user_id: int) -> bool:
    """E-mail the person a link to choose their password. A second run sends a second, equally
    valid link: harmless."""
    return links.link_send(user_id=user_id)
