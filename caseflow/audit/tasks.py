"""The sequencer and the head publisher, run by beat (see CELERY_BEAT_SCHEDULE): no arguments,
idempotent, safe to run twice at once (the sequencer's lock)."""

from celery import shared_task

from caseflow.audit import heads, sequencer


@shared_task
def sequence() -> int:
    return sequencer.sequence_pending()


@shared_task
def publish_head() -> int:
    head = heads.publish_head()
    return head.tree_size if head is not None else 0
