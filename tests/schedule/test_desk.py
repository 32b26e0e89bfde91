"""The desk: requests become stored items and plain sentences; questions are answered in the
follow-up; the brain asks it first, and the model hears the clock and what it cannot do."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.brain import Brain
from assistant.card_keeper import CardKeeper
from assistant.conversation import ConversationHistory
from assistant.ollama import OllamaClient
from assistant.reply import AwaitAnswer, HeardUtterance, Note, Sentence
from assistant.schedule import (
    AudioClock,
    ItemKind,
    ItemState,
    ScheduleDesk,
    Scheduler,
    ScheduleStore,
    ScheduleUnavailable,
)
from assistant.schedule.desk import CALENDAR_REPEAT_REFUSED, SCHEDULE_UNREACHABLE
from config import OllamaSettings, packaged_file
from memory import Memory
from tests.ollama_server import OllamaServer, Reply
from tests.withdrawal import withdrawn_turn

LONDON = ZoneInfo("Europe/London")
SATURDAY_5PM = datetime(2026, 3, 28, 17, 0, tzinfo=LONDON)


class Room:
    """A desk over a real store, spoken to every ten audio seconds."""

    def __init__(self, database, scheduler: bool = True):
        self.store = ScheduleStore.open(database)
        self.scheduler = Scheduler(self.store) if scheduler else None
        self.desk = ScheduleDesk(AudioClock(SATURDAY_5PM.timestamp()), LONDON, self.scheduler)
        self.t = 0.0

    def say(self, text: str, scores: dict[str, float] | None = None):
        self.t += 10
        return self.desk.take(HeardUtterance(text, t=self.t, answer_scores=scores or {}))

    def hears(self, text: str, scores: dict[str, float] | None = None) -> list[str]:
        parts = self.say(text, scores)
        assert parts is not None, f"{text!r} was not taken"
        return [part.text for part in parts if isinstance(part, Sentence)]


@pytest.fixture
def room(database):
    room = Room(database)
    yield room
    room.store.close()


def test_the_clock_is_answered_without_a_model(room):
    assert room.hears("What time is it?") == ["It's 5 PM."]
    assert room.hears("What's the date?") == ["It's Saturday, 28 March 2026."]
    assert room.hears("What day is it today?") == ["It's Saturday, 28 March."]
    assert room.say("What is the capital of Kenya?") is None


def test_a_timer_is_stored_and_said_back_and_its_event_noted(room):
    parts = room.say("Set a timer for ten minutes.")
    assert [p.text for p in parts if isinstance(p, Sentence)] == ["Timer set for 10 minutes."]
    note = next(p for p in parts if isinstance(p, Note))
    assert note.event == "timer_started" and note.fields["seconds"] == 600
    [timer] = room.scheduler.active(ItemKind.TIMER)
    assert timer.seconds == 600 and timer.due_at == SATURDAY_5PM.timestamp() + 10 + 600


def test_with_two_timers_an_unclear_request_asks_which_and_takes_the_answer(room):
    room.hears("Set a pasta timer for 3 minutes.")
    room.hears("Set a timer for 5 minutes called eggs.")
    parts = room.say("How long is left?")
    question = [p.text for p in parts if isinstance(p, Sentence)]
    assert question == ["You have 2 timers: pasta, 3 minutes left and eggs, 5 minutes. Which one?"]
    awaited = next(p for p in parts if isinstance(p, AwaitAnswer))
    assert set(awaited.hotwords) == {"pasta", "eggs"}
    assert room.desk.pending
    # 4:40 is said to the minute, as a person would.
    assert room.hears("The eggs.") == ["5 minutes left on your eggs timer."]
    assert not room.desk.pending


def test_a_misheard_name_finds_its_timer_and_the_answer_may_come_from_the_audio(room):
    room.hears("Set a pasta timer for 8 minutes.")
    room.hears("Set an eggs timer for 6 minutes.")
    assert room.hears("Can solve the faster timer?") == ["Pasta timer cancelled."]
    room.hears("Set a pasta timer for 8 minutes.")
    room.hears("Cancel the timer.")
    pasta = next(t for t in room.scheduler.active(ItemKind.TIMER) if t.name == "pasta")
    eggs = next(t for t in room.scheduler.active(ItemKind.TIMER) if t.name == "eggs")
    # tiny.en wrote nothing useful; the audio fits "eggs" far better than the others.
    scores = {f"item:{pasta.id}": -2.5, f"item:{eggs.id}": -0.4, "all": -3.0}
    assert room.hears("Mm.", scores) == ["Eggs timer cancelled."]


def test_a_new_request_wins_over_a_pending_question(room):
    room.hears("Set a pasta timer for 3 minutes.")
    room.hears("Set an eggs timer for 5 minutes.")
    room.hears("Pause the timer.")
    assert room.hears("Cancel all timers.") == ["All 2 timers cancelled."]
    assert room.scheduler.active(ItemKind.TIMER) == []


def test_an_unanswered_question_lets_the_next_utterance_go_to_the_model(room):
    room.hears("Set a pasta timer for 3 minutes.")
    room.hears("Set an eggs timer for 5 minutes.")
    room.hears("How long is left?")
    assert room.say("Tell me a joke about penguins.") is None
    assert not room.desk.pending


def test_add_pause_resume_and_a_missing_length_is_asked_for(room):
    room.hears("Set a pasta timer for 8 minutes.")
    assert room.hears("Add five minutes to the pasta timer.") == [
        "Added 5 minutes to your pasta timer. 13 minutes left."
    ]
    assert room.hears("Pause the timer.") == ["Your pasta timer is paused with 13 minutes left."]
    [paused] = room.scheduler.active(ItemKind.TIMER)
    assert paused.state is ItemState.PAUSED
    assert room.hears("Resume the timer.") == [
        "Your pasta timer is running again, 13 minutes left."
    ]
    assert room.hears("Set a timer.") == ["For how long?"]
    assert room.hears("An hour and a half.") == ["Timer set for 1 hour and 30 minutes."]


def test_alarms_reminders_and_routines_are_stored_and_said_back(room):
    assert room.hears("Wake me up every weekday at seven.") == ["Alarm set for 7 AM every weekday."]
    assert room.hears("Set an alarm for 6.30 tomorrow.") == ["Alarm set for 6:30 AM tomorrow."]
    assert room.hears("What alarms do I have?") == [
        "You have 2 alarms: 7 AM every weekday and 6:30 AM tomorrow."
    ]
    assert room.hears("Remind me to water the tomatoes at 7pm.") == [
        "Okay, I'll remind you to water the tomatoes at 7 PM today."
    ]
    assert room.hears("Every weekday at half past seven, give me something encouraging.") == [
        "Okay. 7:30 AM every weekday, I'll give you something encouraging."
    ]
    [routine] = room.scheduler.active(ItemKind.ROUTINE)
    assert routine.text == "give me something encouraging" and "BYDAY=MO,TU,WE,TH,FR" in (
        routine.rule or ""
    )
    assert room.hears("Cancel my alarm.")[0].endswith("Which one?")
    assert room.hears("The 6:30 one.") == ["Cancelled your alarm for 6:30 AM tomorrow."]
    assert len(room.scheduler.active(ItemKind.ALARM)) == 1


def test_an_alarm_heard_without_its_time_asks_for_it(room):
    assert room.hears("Set an alarm for half-passics.") == ["What time should I set the alarm for?"]
    assert room.hears("Half past six in the morning.") == ["Alarm set for 6:30 AM tomorrow."]


def test_without_a_scheduler_only_the_clock_is_taken(database):
    room = Room(database, scheduler=False)
    assert room.hears("What's the time?") == ["It's 5 PM."]
    assert room.say("Set a timer for ten minutes.") is None  # never a promise it cannot keep
    room.store.close()


def test_a_schedule_that_cannot_be_reached_is_said_and_opened_again_once_it_can(database):
    # A Hearth started while its shared database was down: the desk opens the schedule on use.
    store = ScheduleStore.open(database)
    outage = [True]

    def open_scheduler() -> Scheduler:
        if outage[0]:
            raise ScheduleUnavailable("postgresql://127.0.0.1/hearth: connection refused")
        return Scheduler(store)

    desk = ScheduleDesk(AudioClock(SATURDAY_5PM.timestamp()), LONDON,
                        open_scheduler=open_scheduler)  # fmt: skip
    [said] = desk.take(HeardUtterance("Set a timer for ten minutes.", t=1.0))
    assert said.text == SCHEDULE_UNREACHABLE and store.items() == []  # nothing promised
    assert [p.text for p in desk.take(HeardUtterance("What time is it?", t=2.0))] == ["It's 5 PM."]
    outage[0] = False
    said = [p.text for p in desk.take(HeardUtterance("Set a timer for ten minutes.", t=3.0))
            if isinstance(p, Sentence)]  # fmt: skip
    assert "10 minutes" in said[0] and [i.kind for i in store.items()] == [ItemKind.TIMER]
    store.close()


@pytest.fixture
def server():
    server = OllamaServer().start()
    yield server
    server.stop()


def brain_with_desk(database, url: str, desk: ScheduleDesk) -> Brain:
    settings = OllamaSettings(url=url, connect_timeout_seconds=0.5)
    return Brain(
        Memory.open(database),
        OllamaClient(settings),
        CardKeeper(packaged_file("personality.yaml")),
        ConversationHistory(6000, compaction=False),
        desk=desk,
    )


def test_the_brain_asks_the_desk_first_and_works_with_the_model_unreachable(database):
    desk = ScheduleDesk(AudioClock(SATURDAY_5PM.timestamp()), LONDON)
    brain = brain_with_desk(database, "http://127.0.0.1:9", desk)
    parts = list(brain.respond(HeardUtterance("What time is it?", t=90.0)))
    assert [p.text for p in parts if isinstance(p, Sentence)] == ["It's 5:01 PM."]
    brain.memory.close()


def test_the_model_is_told_the_time_and_that_it_cannot_set_timers(database, server):
    server.script(Reply(text="It is a fine evening."))
    desk = ScheduleDesk(AudioClock(SATURDAY_5PM.timestamp()), LONDON)
    brain = brain_with_desk(database, server.url, desk)
    list(brain.respond(HeardUtterance("Is it evening yet?", t=0.0)))
    system = server.chat_requests()[0]["messages"][0]["content"]
    assert "It is now Saturday, 28 March 2026, 5 PM local time (Europe/London" in system
    assert "you cannot set, change or cancel any of them" in system
    brain.memory.close()


def test_a_turn_withdrawn_while_the_model_thinks_leaves_the_desks_question_open(database, server):
    # "Set a timer." asks "For how long?"; the next request is not the answer and goes to the
    # model, and its speaker goes on ("... twenty minutes, sorry"): that turn is withdrawn, and
    # the request heard whole may still answer the question.
    room = Room(database)
    brain = brain_with_desk(database, server.url, room.desk)
    said = [p.text for p in brain.respond(HeardUtterance("Set a timer.", t=1.0))
            if isinstance(p, Sentence)]  # fmt: skip
    assert said == ["For how long?"]
    server.script(Reply(text="Sure.", delay_first=3.0))
    withdrawn_turn(brain, HeardUtterance("Hmm, let me think.", t=4.0))
    assert room.desk.pending
    said = [p.text for p in brain.respond(HeardUtterance("Twenty minutes.", t=8.0))
            if isinstance(p, Sentence)]  # fmt: skip
    assert said == ["Timer set for 20 minutes."]
    [timer] = room.scheduler.active(ItemKind.TIMER)
    assert timer.seconds == 1200
    brain.memory.close()
    room.store.close()


def test_a_reminder_due_within_the_minute_is_confirmed_with_its_minutes(room):
    # At 5:00:10 PM: due at 5:00:40 PM, said with its minutes, not as "5 PM" (hours away).
    assert room.hears("In 30 seconds remind me to stir the sauce.") == [
        "Okay, I'll remind you to stir the sauce at 5:00 PM today."
    ]


def test_a_cancel_naming_what_is_not_set_cancels_nothing(room):
    # The only reminder, or the only alarm, was cancelled for a request that named another:
    # "Cancelled your reminder to feed the cat" for "cancel my reminder to call the bank".
    room.hears("Remind me at 5 PM to feed the cat.")
    assert room.hears("Cancel my reminder to call the bank.") == [
        "You have no reminder to call the bank. You have one to feed the cat."
    ]
    assert len(room.scheduler.active(ItemKind.REMINDER)) == 1
    room.hears("Set an alarm for 7 PM.")
    assert room.hears("Cancel my alarm at 7 AM.") == [
        "You have no alarm at 7:00 AM. Your alarm is at 7 PM today."
    ]
    assert len(room.scheduler.active(ItemKind.ALARM)) == 1
    assert room.hears("Cancel my alarm at 7 PM.") == ["Cancelled your alarm for 7 PM today."]
    assert room.hears("Cancel my reminder to feed the cat.") == [
        "Cancelled your reminder to feed the cat."
    ]


def test_a_timer_of_no_length_or_past_a_week_is_not_set(room):
    # "minus five minutes" was set as five minutes; "a billion hours" was set, and its due date
    # (the year 116105) broke `hearth schedule list --json`.
    assert room.hears("Set a timer for minus five minutes.") == [
        "A timer needs a length. For how long?"
    ]
    assert room.hears("Ten minutes.") == ["Timer set for 10 minutes."]
    assert room.hears("Set a timer for a billion hours.") == [
        "I can set a timer for up to a week, not 1000000000 hours."
    ]
    assert room.hears("Add 200 hours to the timer.") == [
        "A timer can run for up to a week; I've left it as it was."
    ]
    [timer] = room.scheduler.active(ItemKind.TIMER)
    assert timer.seconds == 600


def test_a_timer_named_that_is_not_there_is_said_so_plainly(room):
    room.hears("Set an eggs timer for 5 minutes.")
    [question] = room.hears("Cancel the toast timer.")
    assert question.startswith("I don't have a timer called toast. You have one timer: ")


def test_an_alarm_is_named_by_its_time_for_the_claim_check(room):
    room.hears("Set an alarm for 7 PM.")
    assert {"7 pm", "7:00 pm"} <= set(room.desk.standing_names())


def test_a_date_is_kept_and_one_no_calendar_has_is_said(database):
    # "on February 29th" and "on March 31st" were dropped: set for tomorrow, without a word.
    store = ScheduleStore.open(database)
    desk = ScheduleDesk(AudioClock(datetime(2026, 2, 10, 12, 0, tzinfo=LONDON).timestamp()),
                        LONDON, Scheduler(store))  # fmt: skip
    said = [
        [p.text for p in desk.take(HeardUtterance(text, t=10.0 * n)) if isinstance(p, Sentence)]
        for n, text in enumerate(
            (
                "Remind me on March 31st at 9 AM to pay the rent.",
                "Set an alarm for 7 AM on February 29th.",
                "Set an alarm for 7 AM on the 30th of February.",
                "Remind me on the 5th at 10 am to call mum.",
                "Every month on the 31st at 9 AM, remind me to pay the rent.",
            ),
            start=1,
        )
    ]
    store.close()
    assert said == [
        ["Okay, I'll remind you to pay the rent at 9 AM on 31 March."],
        ["Alarm set for 7 AM on 29 February 2028."],  # the next leap year
        ["There's no 30th of February. When should it be?"],
        ["Okay, I'll remind you to call mum at 10 AM on 5 March."],
        [CALENDAR_REPEAT_REFUSED],
    ]


def test_a_daily_alarm_set_on_the_night_the_clocks_skip_its_time_is_said_as_meant(database):
    # 00:50 GMT on the night the clocks go forward: 1:30 does not exist tonight, so the first
    # ring is at 2:30 BST, but the alarm is a 1:30 one ("2:30 AM every day" was said).
    store = ScheduleStore.open(database)
    night = datetime(2026, 3, 29, 0, 50, tzinfo=LONDON)
    desk = ScheduleDesk(AudioClock(night.timestamp()), LONDON, Scheduler(store))
    parts = desk.take(HeardUtterance("Wake me up every day at 1:30 AM.", t=1.0))
    store.close()
    assert [p.text for p in parts if isinstance(p, Sentence)] == [
        "Alarm set for 1:30 AM every day."
    ]


def test_a_date_in_a_reminders_words_is_what_it_is_about_not_when(room):
    # Read as when, "for the 5th of May" moved a reminder for tomorrow to May, and cut it out of
    # the reminder's words.
    assert room.hears("Remind me tomorrow at 9 to book the restaurant for the 5th of May.") == [
        "Okay, I'll remind you to book the restaurant for the 5th of may at 9 AM tomorrow."
    ]
    assert room.hears(
        "Remind me tomorrow at 9 to buy a card for Sam's birthday on April 20th."
    ) == ["Okay, I'll remind you to buy a card for sam's birthday on april 20th at 9 AM tomorrow."]


@pytest.mark.parametrize(
    "cancel",
    [
        "Cancel my reminder for tomorrow.",
        "Cancel the reminder for 9 AM.",
        "Cancel my reminder at 9.",
    ],
)
def test_the_only_reminder_asked_for_by_when_it_is_is_cancelled(room, cancel):
    room.hears("Remind me tomorrow at 9 to water the plants.")
    assert room.hears(cancel) == ["Cancelled your reminder to water the plants."]


def test_a_reminder_about_a_monthly_thing_is_no_monthly_reminder(room):
    assert room.hears("Remind me tomorrow at 9 to pay the monthly rent.") == [
        "Okay, I'll remind you to pay the monthly rent at 9 AM tomorrow."
    ]
