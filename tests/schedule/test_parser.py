"""The local parser, on what tiny.en actually wrote for each phrase in five voices (heard.tsv),
on written phrasings, on utterances that belong to the model, and on generated times and lengths."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.schedule import (
    AddTime,
    AskClock,
    CancelAlarm,
    CancelReminder,
    CancelTimer,
    ClockQuestion,
    ClockTime,
    DayRef,
    ListAlarms,
    ListReminders,
    ListTimers,
    Meridiem,
    PartOfDay,
    PauseTimer,
    Repeat,
    ResumeTimer,
    SetAlarm,
    SetReminder,
    SetRoutine,
    SetTimer,
    TimeLeft,
    Volume,
    VolumeChange,
    Weekday,
    When,
    parse_request,
)
from assistant.schedule.intents import EVERY_DAY, WEEKDAYS
from tests.schedule.phrases import PHRASES

HEARD = Path(__file__).with_name("data") / "heard.tsv"
SEVEN = When(time=ClockTime(7))

EXPECTED = {
    "Set a timer for ten minutes.": SetTimer(600),
    "Set a timer for 90 seconds.": SetTimer(90),
    "Set a timer for half an hour.": SetTimer(1800),
    "Set a timer for an hour and a half.": SetTimer(5400),
    "Set a ten minute timer.": SetTimer(600),
    "Start a timer for a minute and a half.": SetTimer(90),
    "Set a pasta timer for eight minutes.": SetTimer(480, "pasta"),
    "Set a timer for eight minutes called pasta.": SetTimer(480, "pasta"),
    "Pasta timer, eight minutes.": SetTimer(480, "pasta"),
    "Timer for twenty five minutes for the eggs.": SetTimer(1500, "eggs"),
    "How long is left on the pasta timer?": TimeLeft("pasta"),
    "How much time is left?": TimeLeft(),
    "Cancel the pasta timer.": CancelTimer("pasta"),
    "Cancel all timers.": CancelTimer(every=True),
    "Add five minutes to the pasta timer.": AddTime(300, "pasta"),
    "Pause the timer.": PauseTimer(),
    "Resume the timer.": ResumeTimer(),
    "Wake me up at seven.": SetAlarm(SEVEN, wake_up=True),
    "Set an alarm for six thirty tomorrow.": SetAlarm(
        When(day=DayRef.TOMORROW, time=ClockTime(6, 30))
    ),
    "Set an alarm for half past six.": SetAlarm(When(time=ClockTime(6, 30))),
    "Set an alarm for quarter to eight.": SetAlarm(When(time=ClockTime(7, 45))),
    "Wake me up every weekday at seven.": SetAlarm(SEVEN, WEEKDAYS, wake_up=True),
    "Set an alarm for 7 a.m.": SetAlarm(When(time=ClockTime(7, 0, Meridiem.AM))),
    "Set an alarm for noon.": SetAlarm(When(time=ClockTime(12))),
    "What alarms do I have?": ListAlarms(),
    "Cancel my alarm.": CancelAlarm(),
    "Remind me to water the tomatoes at seven pm.": SetReminder(
        "water the tomatoes", When(time=ClockTime(7, 0, Meridiem.PM))
    ),
    "In twenty minutes, remind me to call mum.": SetReminder("call mum", When(after_seconds=1200)),
    "Every Sunday at ten, remind me to put the bins out.": SetReminder(
        "put the bins out", When(time=ClockTime(10)), Repeat((Weekday.SUNDAY,))
    ),
    "Remind me tonight at eight to take the bread out.": SetReminder(
        "take the bread out", When(part=PartOfDay.NIGHT, time=ClockTime(8))
    ),
    "Remind me tomorrow morning to call the dentist.": SetReminder(
        "call the dentist", When(day=DayRef.TOMORROW, part=PartOfDay.MORNING)
    ),
    "Every weekday at half past seven, give me something encouraging.": SetRoutine(
        "give me something encouraging", When(time=ClockTime(7, 30)), WEEKDAYS
    ),
    "Turn the volume up.": Volume(VolumeChange.UP),
    "Louder.": Volume(VolumeChange.UP),
    "Set the volume to forty percent.": Volume(VolumeChange.SET, 40),
    "Mute.": Volume(VolumeChange.MUTE),
    "Unmute.": Volume(VolumeChange.UNMUTE),
    "What time is it?": AskClock(ClockQuestion.TIME),
    "What's the time?": AskClock(ClockQuestion.TIME),
    "What's the date?": AskClock(ClockQuestion.DATE),
    "What day is it today?": AskClock(ClockQuestion.DAY),
}

# What tiny.en wrote that means something else, and what the parser rightly makes of it.
MISHEARD = {
    "Set a timer for a 10-minute scheduled pasta.": SetTimer(600),
    "Hosta timer, eight minutes.": SetTimer(480, "hosta"),
    "Host a timer, eight minutes.": SetTimer(480),
    "Hospital timer eight minutes.": SetTimer(480, "hospital"),
    "past your timer 8 minutes": SetTimer(480),
    "Set it across the timer for 8 minutes.": SetTimer(480),
    "Set it past the timer for 8 minutes.": SetTimer(480),  # beam 5, Piper's voice
    "Set a faster timer for 8 minutes.": SetTimer(480, "faster"),  # beam 5, espeak's f3
    "Time for 25 minutes for the next.": SetTimer(1500, "next"),
    "How long is left on the past of timer?": TimeLeft(),  # "which one?" if several
    "Can solve the faster timer?": CancelTimer("faster"),  # "faster" sounds like "pasta"
    "Start a timer for a minute and I have": SetTimer(60),
    "Set the volume to 4%.": Volume(VolumeChange.SET, 4),
    "What's the day?": AskClock(ClockQuestion.DAY),
    "Check out the alarm for noon.": SetAlarm(When(time=ClockTime(12))),
    # "half past six" heard as "half-passics": the alarm is understood, and Hearth asks the time.
    "Set an alarm for half-passics.": SetAlarm(When()),
    "Set in the alarm for half-passes.": SetAlarm(When()),
    "Remind me tonight I think to take the bread out.": SetReminder(
        "i think to take the bread out", When(part=PartOfDay.NIGHT)
    ),
    "Wake me up every weekday at 7am.": SetAlarm(
        When(time=ClockTime(7, 0, Meridiem.AM)), WEEKDAYS, wake_up=True
    ),
    "Wake me up at 7 room.": SetAlarm(SEVEN, wake_up=True),
    # tiny.en spells the British "mum" the American way; the words are kept as heard.
    "In 20 minutes, remind me to call mom.": SetReminder("call mom", When(after_seconds=1200)),
    "in 20 minutes. Remind me to call mom.": SetReminder("call mom", When(after_seconds=1200)),
    # Understood as a request with its time lost: Hearth asks "When?" instead of guessing.
    "Wake me up, Cameron!": SetAlarm(When(), wake_up=True),
    "wake me up every week next time.": SetAlarm(When(), wake_up=True),
    "Set an alarm for set will name them.": SetAlarm(When()),
    "Set an alarm for you.": SetAlarm(When()),
    "Remind me to vlogger not to me, don't ask M and PM.": SetReminder(
        "vlogger not to me don't ask m and pm", When()
    ),
    "Remind me to water the tomato at the 7'VM.": SetReminder(
        "water the tomato at the 7 vm", When()
    ),
    "If 20 minutes, remind me to call mine.": SetReminder("call mine", When()),
    "and reach on 810, remind me to put them in out.": SetReminder("put them in out", When()),
    "Remind me to hide a gate to take the red out.": SetReminder(
        "hide a gate to take the red out", When()
    ),
    "Remind me to eye-tapped to take the breath out.": SetReminder(
        "eye tapped to take the breath out", When()
    ),
}

# Heard so wrongly that no local parser could know (they go to the model, which may ask).
LOST = {
    "It's time for half an hour.", "I'm a former hanger and I have", "So, it took a minute time.",
    "Hammer for 25 minutes for the eggs.", "in the timer.",
    "Check out the alarm for the past six.", "setting along for quarter to eight.",
    "It's an alarm for corridor to date.", "7-1-4-7 AM", "I'm gonna learn from 4.7.",
    "Set in a lock for noon.", "Can't solve my alarm",
    "Every weekday a half past seven, give me something encouraging.",
    "Every week they have passed salmon, give me something encouraging.",
    "Every week that half past Sanran give me something encouraging.", "Turn the bottom up.",
    "Loud it!", "LOUD", "Loud it.", "Meet.", "", "a mute.", "I'm mute.", "I knew it.", "on mute.",
    "What's the gate?", "What day is it to me?", "What they did today?",
}  # fmt: skip


def heard_rows() -> list[tuple[str, str, str]]:
    with HEARD.open(encoding="utf-8") as handle:
        return [(row["phrase"], row["voice"], row["heard"]) for row in csv.DictReader(
            handle, delimiter="\t")]  # fmt: skip


def test_every_phrase_has_an_expectation_and_the_table_covers_every_phrase():
    assert set(EXPECTED) == set(PHRASES)
    assert {row[0] for row in heard_rows()} == set(PHRASES)


@pytest.mark.parametrize("phrase", PHRASES)
def test_each_phrase_as_written(phrase):
    assert parse_request(phrase) == EXPECTED[phrase]


@pytest.mark.parametrize(("phrase", "voice", "heard"), heard_rows())
def test_each_phrase_as_tiny_en_heard_it(phrase, voice, heard):
    if heard in LOST:
        assert parse_request(heard) is None
    else:
        assert parse_request(heard) == MISHEARD.get(heard, EXPECTED[phrase])


def test_most_of_what_tiny_en_heard_is_understood():
    rows = heard_rows()
    understood = [row for row in rows if row[2] not in LOST and row[2] not in MISHEARD]
    assert len(understood) / len(rows) > 0.7  # 5 voices, 2 across rooms, 41 phrases


@pytest.mark.parametrize(
    ("said", "intent"),
    [
        ("10 min timer", SetTimer(600)),
        ("What's left on the pasta timer?", TimeLeft("pasta")),
        ("How on is left on the egg timer?", TimeLeft("egg")),  # tiny.en, Piper, speech window
        ("What is the timer for?", None),
        ("What is left to do today?", None),
        ("a timer for 10 minutes.", SetTimer(600)),
        ("set a timer for 1 hour 30 minutes", SetTimer(5400)),
        ("set a timer for 2 and a half minutes", SetTimer(150)),
        ("set a timer for a quarter of an hour", SetTimer(900)),
        ("Set a timer for 8 minutes called pasta", SetTimer(480, "pasta")),
        ("pasta timer 8 minutes", SetTimer(480, "pasta")),
        ("set a timer", SetTimer(None)),
        ("Set a second timer for 5 minutes", SetTimer(300)),
        ("and 5 minutes to the pasta timer.", AddTime(300, "pasta")),  # tiny.en for "add"
        ("what timers do I have?", ListTimers()),
        ("Hey Jarvis, could you please set a timer for 5 minutes?", SetTimer(300)),
        ("wake me up at 6:45", SetAlarm(When(time=ClockTime(6, 45)), wake_up=True)),
        ("set an alarm for 6.30 pm", SetAlarm(When(time=ClockTime(6, 30, Meridiem.PM)))),
        ("set an alarm for 7 oh 5", SetAlarm(When(time=ClockTime(7, 5)))),
        ("set an alarm for 20 past 6", SetAlarm(When(time=ClockTime(6, 20)))),
        ("set an alarm for midnight", SetAlarm(When(time=ClockTime(0)))),
        ("wake me up every day at 7", SetAlarm(SEVEN, EVERY_DAY, wake_up=True)),
        ("set an alarm for 9 on sunday", SetAlarm(When(weekday=Weekday.SUNDAY, time=ClockTime(9)))),
        ("cancel all alarms", CancelAlarm(every=True)),
        ("cancel the 7 o'clock alarm", CancelAlarm(ClockTime(7))),
        ("remind me to call mum", SetReminder("call mum", When())),
        ("what reminders do I have", ListReminders()),
        ("cancel the reminder to call mum", CancelReminder("call mum")),
        ("every day at 7 silently tell me the news",
         SetRoutine("tell me the news", SEVEN, EVERY_DAY, silent=True)),
        ("Turn it down.", Volume(VolumeChange.DOWN)),
    ],
)  # fmt: skip
def test_written_phrasings(said, intent):
    assert parse_request(said) == intent


@pytest.mark.parametrize(
    "said",
    [
        "What time is it in Tokyo?",
        "What is the time difference between London and Lisbon?",
        "What day is Christmas this year?",
        "Who invented the alarm clock?",
        "What is the alarm clock for?",
        "Remind me what we talked about.",
        "remind me, what is the capital of France?",
        "I need a reminder.",
        "Tell me about egg timers in history.",
        "It is time for bed.",
        "Remember that my sister lives in Madrid.",
        "What do you remember about Priya?",
        "The volume of a sphere is what?",
        "pasta",
    ],
)
def test_what_is_meant_for_the_model_is_left_to_it(said):
    assert parse_request(said) is None


@given(st.integers(0, 5), st.integers(0, 59), st.integers(0, 59))
def test_any_length_in_digits_is_read_whole(hours, minutes, seconds):
    parts = [f"{value} {unit}" for value, unit in
             ((hours, "hours"), (minutes, "minutes"), (seconds, "seconds")) if value]  # fmt: skip
    if not parts:
        return
    said = "set a timer for " + " and ".join(parts)
    assert parse_request(said) == SetTimer(hours * 3600 + minutes * 60 + seconds)


@given(st.integers(1, 12), st.integers(0, 59), st.sampled_from(["am", "pm", "a.m.", "p.m."]))
def test_any_written_clock_time_is_read(hour, minute, meridiem):
    said = f"set an alarm for {hour}:{minute:02d} {meridiem}"
    expected = Meridiem.AM if meridiem.startswith("a") else Meridiem.PM
    assert parse_request(said) == SetAlarm(When(time=ClockTime(hour, minute, expected)))
