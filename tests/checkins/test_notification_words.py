"""Notifications are kept as a message and its values, and written in the reader's language
when shown: a Spanish reader reads in Spanish what the scheduler or a colleague's action sent,
whatever language was active when it was sent. Old rows keep their stored words."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import translation

from caseflow.accounts.language import set_user_language
from caseflow.cases.services import break_glass_open
from caseflow.checkins import scheduler
from caseflow.inbox.kinds import WORDS_KEY
from caseflow.inbox.models import Notification, NotificationChannel
from caseflow.inbox.services import notify
from tests.checkins.helpers import MONDAY, make_checkin, make_followup

pytestmark = pytest.mark.django_db

DUE = MONDAY + dt.timedelta(hours=2)


def _words(note: Notification, language: str) -> str:
    with translation.override(language):
        return note.words


def test_a_scheduler_notification_is_stored_as_a_message_and_read_in_each_language(cast):
    make_checkin(cast.case, cast.assigned, DUE)
    scheduler.sweep(DUE, enqueue=lambda ids: None)
    note = Notification.objects.get(kind="checkin_due", channel=NotificationChannel.IN_APP)
    assert note.params[WORDS_KEY] == "Check-in due now on case %(reference)s."
    assert note.params["reference"] == cast.case.reference
    assert note.text == f"Check-in due now on case {cast.case.reference}."
    assert _words(note, "en-gb") == note.text
    assert _words(note, "es") == f"Seguimiento pendiente ahora en el caso {cast.case.reference}."


def test_a_follow_up_kind_is_written_as_its_label_in_the_readers_language(cast):
    make_followup(cast.case, cast.assigned, DUE, kind="court_date")
    scheduler.sweep(DUE, enqueue=lambda ids: None)
    note = Notification.objects.get(kind="followup_due", channel=NotificationChannel.IN_APP)
    assert note.params["followup"] == "court_date"
    assert "Court date" in note.text
    spanish = _words(note, "es")
    assert "court_date" not in spanish and "Court date" not in spanish
    assert spanish.startswith("Tarea pendiente (") and cast.case.reference in spanish


def test_a_colleagues_action_is_read_in_the_readers_own_language(cast, login):
    with translation.override("en-gb"):
        break_glass_open(actor=cast.same_team, reference="CASE-2", reason="Duty line call")
    Notification.objects.update(sent_at=dt.datetime.now(dt.UTC))
    set_user_language(cast.other_supervisor, "es")
    page = login(cast.other_supervisor).get(reverse("checkins:notifications")).content.decode()
    assert "Se abrió un acceso de emergencia al caso CASE-2" in page
    assert "Emergency access opened on case CASE-2" not in page


def test_the_email_is_written_in_the_recipients_language(cast):
    set_user_language(cast.assigned, "es")
    make_checkin(cast.case, cast.assigned, DUE)
    scheduler.sweep(DUE, enqueue=lambda ids: None)
    email = Notification.objects.get(kind="checkin_due", channel=NotificationChannel.EMAIL)
    assert scheduler.notification_deliver(notification_id=email.pk) == "sent"
    sent = mail.outbox[-1]
    assert "Seguimiento pendiente ahora" in sent.subject
    assert "Seguimiento pendiente ahora" in sent.body


def test_an_old_notification_without_a_message_keeps_its_words(cast):
    note = Notification.objects.create(
        recipient=cast.assigned, kind="conflict", key="old:1", text="Written before.", link="/"
    )
    assert note.params == {}
    assert _words(note, "es") == "Written before."


def test_a_message_its_translation_cannot_fill_falls_back_to_the_stored_words(cast):
    [note] = notify(
        recipients=[cast.assigned],
        kind="conflict",
        case=cast.case,
        key="k:1",
        message="Case %(reference)s was opened despite a possible conflict: please review it.",
        values={"reference": cast.case.reference},
    )
    Notification.objects.filter(pk=note.pk).update(params={WORDS_KEY: note.params[WORDS_KEY]})
    note.refresh_from_db()
    assert _words(note, "es") == note.text


def test_notify_needs_a_message_or_a_kinds_words(cast):
    with pytest.raises(ValueError):
        notify(recipients=[cast.assigned], kind="conflict", case=cast.case, key="k:2")
