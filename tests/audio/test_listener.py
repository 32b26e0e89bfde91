"""The listener as a pure state machine: typed events and audio-clock times in, typed events out."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from audio.listener import (
    APOLOGY,
    SPEECH_MARGIN_SECONDS,
    ConversationEnded,
    ConversationEndReason,
    Deferred,
    FollowUpClosed,
    FollowUpCloseReason,
    FollowUpOpened,
    HintGiven,
    Listener,
    ListenerInput,
    ListenerOutput,
    ReplyAbandoned,
    ReplyFinished,
    ReplyStarted,
    RequestReopened,
    RingOver,
    RingStarted,
    State,
    StateChanged,
    StopRequested,
    StopRinging,
    StopSpeaking,
    TakenBack,
    Tick,
    Transcript,
    UtteranceHeard,
    Via,
    WakeAccepted,
    WakeDetected,
    WakeRefused,
    WentOnAsked,
    is_stop_phrase,
    stops_reply,
    strip_wake_phrase,
    wake_name,
)
from audio.segmenter import EndReason, SpeechEnded, SpeechStarted
from config.schema import ListenerSettings, VadSettings

VAD = VadSettings()
CONFIRM = VAD.start_speech_seconds
STOP_WORDS = ListenerSettings().stop_words
FRAME = 512 / 16_000


def make(*phrases: str, **overrides) -> Listener:
    return Listener(ListenerSettings(**overrides), VAD, phrases or ("hey jarvis",))


def thinking(text: str, taken: float = 3.0) -> Listener:
    """A listener woken at 1 s that took ``text``, said from 1.2 s to 2.3 s, at ``taken``."""
    listener = make()
    listener.handle(WakeDetected(1.0))
    listener.handle(Transcript(taken, text, start=1.2, end=2.3))
    return listener


def heard(t: float, text: str, length: float = 1.5) -> Transcript:
    """A transcript whose utterance ended 0.7 s of silence before ``t``."""
    return Transcript(t, text, start=t - 0.7 - length, end=t - 0.7)


def in_follow_up(listener: Listener, finished: float = 6.0) -> FollowUpOpened:
    """Wake at 1, ask, and hear a reply that ends at ``finished``."""
    listener.handle(WakeDetected(1.0))
    listener.handle(heard(3.6, "What time is it?"))
    listener.handle(ReplyStarted(4.0))
    opened = listener.handle(ReplyFinished(finished))[0]
    assert isinstance(opened, FollowUpOpened)
    return opened


def ticks(listener: Listener, start: float, stop: float) -> list[ListenerOutput]:
    """Tick every 32 ms frame from ``start`` to ``stop``, as the pipeline does."""
    outputs: list[ListenerOutput] = []
    frame = round(start / FRAME)
    while frame * FRAME <= stop:
        outputs += listener.handle(Tick(frame * FRAME))
        frame += 1
    return outputs


def closed_by_timeout(t: float) -> tuple[ListenerOutput, ...]:
    return (
        FollowUpClosed(t, FollowUpCloseReason.TIMEOUT),
        ConversationEnded(t, ConversationEndReason.TIMEOUT),
        StateChanged(t, State.FOLLOW_UP, State.STANDBY),
    )


# A conversation.


def test_wake_request_thinking_speaking_and_the_follow_up_window():
    listener = make()
    assert listener.handle(WakeDetected(1.0)) == (
        WakeAccepted(1.0),
        StateChanged(1.0, State.STANDBY, State.LISTENING),
    )
    assert listener.handle(SpeechStarted(1.9, start=1.7)) == ()
    assert listener.handle(SpeechEnded(3.5, EndReason.SILENCE, start=1.7, end=2.8)) == ()
    assert listener.handle(Transcript(3.6, "What time is it?", start=1.7, end=2.8)) == (
        UtteranceHeard(3.6, "What time is it?", Via.WAKE, start=1.7, end=2.8),
        StateChanged(3.6, State.LISTENING, State.THINKING),
    )
    assert listener.handle(ReplyStarted(4.0)) == (
        StateChanged(4.0, State.THINKING, State.SPEAKING),
    )
    assert listener.handle(ReplyFinished(6.0)) == (
        FollowUpOpened(6.0, until=31.0, after_question=False),
        StateChanged(6.0, State.SPEAKING, State.FOLLOW_UP),
    )


def test_a_second_question_ten_seconds_after_the_reply_is_taken_as_a_follow_up():
    listener = make()
    in_follow_up(listener, finished=6.0)
    assert ticks(listener, 6.0, 16.0) == []
    assert listener.handle(SpeechStarted(16.2, start=16.0)) == ()
    assert listener.handle(SpeechEnded(17.8, EndReason.SILENCE, start=16.0, end=17.1)) == ()
    assert listener.handle(Transcript(17.9, "And in Tokyo?", start=16.0, end=17.1)) == (
        FollowUpClosed(17.9, FollowUpCloseReason.UTTERANCE),
        UtteranceHeard(17.9, "And in Tokyo?", Via.FOLLOW_UP, start=16.0, end=17.1),
        StateChanged(17.9, State.FOLLOW_UP, State.THINKING),
    )


def test_a_question_thirty_seconds_after_the_reply_is_not_taken_but_hinted():
    listener = make()
    until = in_follow_up(listener, finished=6.0).until
    outputs = ticks(listener, 6.0, 36.0)
    assert outputs == list(closed_by_timeout(outputs[0].t))
    # Closed once no start from before the deadline can still be confirmed.
    assert until + CONFIRM <= outputs[0].t < until + CONFIRM + FRAME
    assert listener.handle(SpeechStarted(36.2, start=36.0)) == ()
    assert listener.handle(SpeechEnded(37.8, EndReason.SILENCE, start=36.0, end=37.1)) == (
        HintGiven(37.8, "Say Jarvis first"),
    )
    assert listener.handle(Transcript(37.9, "What about tomorrow?", 36.0, 37.1)) == ()
    assert listener.state is State.STANDBY


def test_a_late_question_is_simply_ignored_when_the_hint_was_given_recently():
    listener = make(hint_interval_seconds=300)
    assert listener.handle(SpeechEnded(0.5, EndReason.SILENCE, 0.0, 0.2)) == (
        HintGiven(0.5, "Say Jarvis first"),
    )
    in_follow_up(listener, finished=6.0)
    ticks(listener, 6.0, 36.0)
    assert listener.handle(SpeechEnded(37.8, EndReason.SILENCE, 36.0, 37.1)) == ()
    assert listener.state is State.STANDBY


def test_without_ticks_the_first_event_after_the_deadline_finds_the_window_closed():
    listener = make()
    in_follow_up(listener, finished=6.0)
    assert listener.handle(SpeechStarted(36.2, start=36.0)) == closed_by_timeout(36.2)
    listener = make()
    in_follow_up(listener, finished=6.0)
    outputs = listener.handle(SpeechEnded(37.8, EndReason.SILENCE, 36.0, 37.1))
    assert outputs == (*closed_by_timeout(37.8), HintGiven(37.8, "Say Jarvis first"))


# The window's deadline.


def test_speech_in_progress_at_the_deadline_holds_the_window_open():
    listener = make()
    in_follow_up(listener, finished=6.0)  # until 31.0
    assert listener.handle(SpeechStarted(30.1, start=29.9)) == ()
    assert ticks(listener, 30.1, 33.3) == []  # mid-sentence at the deadline: not cut off
    assert listener.handle(SpeechEnded(33.4, EndReason.SILENCE, 29.9, 32.7)) == ()
    assert ticks(listener, 33.4, 34.0) == []  # the transcript is still owed
    outputs = listener.handle(Transcript(34.1, "and what about tomorrow", 29.9, 32.7))
    assert outputs[1] == UtteranceHeard(34.1, "and what about tomorrow", Via.FOLLOW_UP, 29.9, 32.7)


def test_speech_confirmed_after_the_deadline_counts_from_when_it_began():
    listener = make()
    in_follow_up(listener, finished=6.0)  # until 31.0
    assert ticks(listener, 30.0, 31.19) == []
    # Began 10 ms before the deadline; the segmenter confirms it 224 ms later.
    assert listener.handle(SpeechStarted(31.214, start=30.99)) == ()
    assert ticks(listener, 31.214, 40.0) == []
    assert listener.state is State.FOLLOW_UP


def test_speech_that_began_at_the_deadline_is_too_late():
    listener = make()
    in_follow_up(listener, finished=6.0)  # until 31.0
    assert listener.handle(SpeechStarted(31.224, start=31.0)) == closed_by_timeout(31.224)


def test_a_blip_after_the_deadline_lets_the_window_close():
    listener = make()
    in_follow_up(listener, finished=6.0)
    listener.handle(SpeechStarted(30.9, start=30.7))
    assert ticks(listener, 30.9, 31.5) == []
    outputs = listener.handle(SpeechEnded(31.6, EndReason.TOO_SHORT, 30.7, 30.95))
    assert outputs == closed_by_timeout(31.6)


def test_a_hold_belongs_to_its_window_and_the_next_one_closes_on_time():
    listener = make()
    in_follow_up(listener, finished=6.0)
    listener.handle(SpeechStarted(10.2, start=10.0))
    listener.handle(SpeechEnded(12.0, EndReason.SILENCE, 10.0, 11.3))
    listener.handle(Transcript(12.1, "And tomorrow?", 10.0, 11.3))
    listener.handle(ReplyStarted(12.5))
    until = listener.handle(ReplyFinished(15.0))[0].until
    outputs = ticks(listener, 15.0, 60.0)
    assert outputs == list(closed_by_timeout(outputs[0].t))
    assert outputs[0].t < until + CONFIRM + FRAME


def test_an_empty_transcript_keeps_the_window_open_until_its_deadline():
    listener = make()
    in_follow_up(listener, finished=6.0)
    listener.handle(SpeechEnded(12.0, EndReason.SILENCE, 10.0, 11.3))
    assert listener.handle(Transcript(12.1, "", 10.0, 11.3)) == ()
    assert listener.state is State.FOLLOW_UP
    listener.handle(SpeechStarted(30.9, start=30.7))
    listener.handle(SpeechEnded(32.0, EndReason.SILENCE, 30.7, 31.3))
    assert listener.handle(Transcript(32.1, " ", 30.7, 31.3)) == closed_by_timeout(32.1)


# Wake phrase and stop words.


def test_a_wake_phrase_at_the_start_of_a_follow_up_is_stripped():
    listener = make()
    in_follow_up(listener)
    outputs = listener.handle(heard(12.0, "Hey, Jarvis. What time is it?"))
    assert outputs[1] == UtteranceHeard(12.0, "What time is it?", Via.FOLLOW_UP, 9.8, 11.3)


def test_the_wake_phrase_alone_in_the_window_is_the_wake_word():
    listener = make()
    in_follow_up(listener)
    assert listener.handle(heard(12.0, "Hey Jarvis.")) == (
        FollowUpClosed(12.0, FollowUpCloseReason.WAKE),
        WakeAccepted(12.0),
        StateChanged(12.0, State.FOLLOW_UP, State.LISTENING),
    )
    assert listener.handle(heard(15.0, "What's the weather?"))[0].via is Via.WAKE


def test_a_wake_detection_in_the_window_starts_listening_afresh():
    listener = make()
    in_follow_up(listener)
    assert listener.handle(WakeDetected(12.0)) == (
        FollowUpClosed(12.0, FollowUpCloseReason.WAKE),
        WakeAccepted(12.0),
        StateChanged(12.0, State.FOLLOW_UP, State.LISTENING),
    )


def test_the_wake_phrase_carried_into_a_request_by_the_pre_roll_is_stripped_too():
    listener = make()
    listener.handle(WakeDetected(1.0))
    assert listener.handle(heard(3.0, "Jarvis, turn it down."))[0].text == "turn it down."


def test_every_configured_wake_phrase_is_stripped_and_the_first_names_the_hint():
    listener = make("okay nabu", "alexa")
    in_follow_up(listener)
    assert listener.handle(heard(12.0, "Alexa, what's next?"))[1].text == "what's next?"
    assert make("okay nabu", "alexa").handle(SpeechEnded(1.0, EndReason.SILENCE, 0.0, 0.2)) == (
        HintGiven(1.0, "Say Nabu first"),
    )


@pytest.mark.parametrize(
    "text", ["Stop.", "Never mind.", "okay, be quiet", "Hey Jarvis, stop!", "Thank you."]
)
@pytest.mark.parametrize("where", [State.LISTENING, State.FOLLOW_UP])
def test_a_stop_word_alone_ends_the_conversation(text, where):
    listener = make()
    if where is State.FOLLOW_UP:
        in_follow_up(listener)
    else:
        listener.handle(WakeDetected(1.0))
    closed = [FollowUpClosed(12.0, FollowUpCloseReason.STOP_WORD)] * (where is State.FOLLOW_UP)
    assert listener.handle(heard(12.0, text)) == (
        *closed,
        ConversationEnded(12.0, ConversationEndReason.STOP_WORD),
        StateChanged(12.0, where, State.STANDBY),
    )


def test_a_sentence_that_contains_a_stop_word_is_a_request():
    listener = make()
    in_follow_up(listener)
    outputs = listener.handle(heard(12.0, "Stop the timer in the kitchen."))
    assert outputs[1].text == "Stop the timer in the kitchen."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("stop", True),
        ("Stop.", True),
        ("STOP!", True),
        ("Stop, stop!", True),
        ("Okay, stop.", True),
        ("Stop, please.", True),
        ("No, never mind.", True),
        ("Nevermind.", True),
        ("Be quiet!", True),
        ("That\u2019s all, thank you.", True),
        ("thats all", True),
        ("", False),
        ("Please.", False),
        ("Stop the music.", False),
        ("Don't stop.", False),
        ("Never mind the weather, what time is it?", False),
        ("stop " * 9, False),
    ],
)
def test_stop_words_match_the_whole_short_utterance_forgivingly(text, expected):
    assert is_stop_phrase(text, STOP_WORDS) is expected


def test_no_stop_words_means_nothing_is_one():
    assert not is_stop_phrase("stop", ())
    assert not is_stop_phrase("stop", ("", "..."))


@pytest.mark.parametrize(
    ("text", "phrase", "expected"),
    [
        ("Hey, Jarvis. What time is it?", "hey jarvis", "What time is it?"),
        ("hey jarvis what time is it", "hey jarvis", "what time is it"),
        ("Hi Jarvis, what's on?", "hey jarvis", "what's on?"),
        ("Jarvis... lights off", "hey jarvis", "lights off"),
        ("Hey Jarvis.", "hey jarvis", ""),
        ("OK Nabu, play jazz", "okay nabu", "play jazz"),
        ("Alexa: timer", "alexa", "timer"),
        ("Hey, what time is it?", "hey jarvis", "Hey, what time is it?"),
        ("Jarvisville is far", "hey jarvis", "Jarvisville is far"),
        ("What time is it, Jarvis?", "hey jarvis", "What time is it, Jarvis?"),
        ("Hey, what's up?", "hey", "what's up?"),
        ("", "hey jarvis", ""),
    ],
)
def test_strip_wake_phrase(text, phrase, expected):
    assert strip_wake_phrase(text, phrase) == expected


@pytest.mark.parametrize(
    ("phrase", "name"),
    [
        ("hey jarvis", "Jarvis"),
        ("alexa", "Alexa"),
        ("okay nabu", "Nabu"),
        ("ok nabu", "Nabu"),
        ("hey_mycroft", "Mycroft"),
        ("Hey Rhasspy", "Rhasspy"),
        ("hello there computer", "Computer"),
        ("hey", "Hey"),
    ],
)
def test_the_hint_names_the_wake_phrase_without_its_greeting(phrase, name):
    assert wake_name(phrase) == name


# Hints in standby.


def test_a_hint_at_most_once_per_interval_on_the_audio_clock():
    listener = make(hint_interval_seconds=300)
    given = [
        t
        for t in (10.0, 100.0, 309.9, 310.0, 320.0, 700.0)
        for output in listener.handle(SpeechEnded(t, EndReason.SILENCE, t - 1.0, t - 0.7))
        if isinstance(output, HintGiven)
    ]
    assert given == [10.0, 310.0, 700.0]


def test_no_hint_for_a_blip_nor_with_an_interval_of_zero():
    assert make().handle(SpeechEnded(1.0, EndReason.TOO_SHORT, 0.0, 0.25)) == ()
    never = make(hint_interval_seconds=0)
    assert never.handle(SpeechEnded(1.0, EndReason.SILENCE, 0.0, 0.5)) == ()
    assert never.handle(SpeechEnded(1e6, EndReason.CAP, 0.0, 15.0)) == ()


def test_no_hint_after_an_utterance_in_which_a_wake_model_fired_even_if_refused():
    listener = make(hint_interval_seconds=60)
    # "Hey Jarvis" across a room, refused by verification: the speaker was talking to Hearth
    assert listener.handle(WakeRefused(2.1)) == ()
    assert listener.handle(SpeechEnded(3.0, EndReason.SILENCE, 1.2, 2.3)) == ()
    assert listener.state is State.STANDBY
    # The refusal counts for that utterance only: later talk without a wake word earns the hint
    later = listener.handle(SpeechEnded(9.0, EndReason.SILENCE, 7.5, 8.3))
    assert later == (HintGiven(9.0, "Say Jarvis first"),)


def test_a_refusal_before_an_utterance_began_does_not_spare_it_the_hint():
    listener = make()
    listener.handle(WakeRefused(2.0))
    listener.handle(SpeechEnded(2.4, EndReason.TOO_SHORT, 1.8, 2.1))  # a blip: no hint anyway
    assert listener.handle(SpeechEnded(6.0, EndReason.SILENCE, 4.0, 5.3)) == (
        HintGiven(6.0, "Say Jarvis first"),
    )


def test_standby_takes_no_transcript():
    listener = make()
    assert listener.handle(heard(5.0, "What time is it?")) == ()
    assert listener.handle(ReplyFinished(5.0)) == ()
    assert listener.state is State.STANDBY


# Listening.


def test_nothing_said_after_a_wake_goes_back_to_standby():
    listener = make()
    listener.handle(WakeDetected(1.0))
    assert listener.handle(SpeechEnded(7.0, EndReason.NOTHING_SAID, 1.0, 7.0)) == (
        ConversationEnded(7.0, ConversationEndReason.NOTHING_SAID),
        StateChanged(7.0, State.LISTENING, State.STANDBY),
    )


def test_a_wake_followed_by_something_whisper_could_not_hear_goes_back_to_standby():
    listener = make()
    listener.handle(WakeDetected(1.0))
    assert listener.handle(heard(3.0, "")) == (
        ConversationEnded(3.0, ConversationEndReason.NOTHING_SAID),
        StateChanged(3.0, State.LISTENING, State.STANDBY),
    )


def test_the_wake_word_said_again_while_listening_restarts_the_wait():
    listener = make()
    listener.handle(WakeDetected(1.0))
    assert listener.handle(WakeDetected(3.0)) == (WakeAccepted(3.0),)
    assert listener.handle(heard(5.0, "Hey Jarvis!")) == (WakeAccepted(5.0),)
    assert listener.state is State.LISTENING


def test_listening_ignores_speech_events_other_than_its_verdict():
    listener = make()
    listener.handle(WakeDetected(1.0))
    assert listener.handle(SpeechStarted(1.5, start=1.3)) == ()
    assert listener.handle(SpeechEnded(2.0, EndReason.TOO_SHORT, 1.3, 1.5)) == ()
    # Well within listening's own timed exit (see test_every_waiting_state_gives_up_on_the_clock).
    assert listener.handle(Tick(20.0)) == ()
    assert listener.state is State.LISTENING


# Thinking and speaking.


def test_a_reply_with_nothing_to_say_still_opens_the_window():
    listener = make()
    listener.handle(WakeDetected(1.0))
    listener.handle(heard(3.0, "Remember that my favourite editor is Vim."))
    assert listener.handle(ReplyFinished(3.4)) == (
        FollowUpOpened(3.4, until=28.4, after_question=False),
        StateChanged(3.4, State.THINKING, State.FOLLOW_UP),
    )


def test_a_failed_reply_speaks_its_error_and_still_opens_the_window():
    listener = make()
    listener.handle(WakeDetected(1.0))
    listener.handle(heard(3.0, "Tell me a story."))
    listener.handle(ReplyStarted(4.0))
    # The stream broke mid-answer; the pipeline goes on to speak the error.
    assert listener.handle(ReplyStarted(9.0)) == ()
    outputs = listener.handle(ReplyFinished(11.0))
    assert outputs[-1] == StateChanged(11.0, State.SPEAKING, State.FOLLOW_UP)


def test_a_reply_that_ends_in_a_question_says_so_when_the_window_opens():
    listener = make()
    listener.handle(WakeDetected(1.0))
    listener.handle(heard(3.0, "Remember that my favourite editor is Emacs."))
    listener.handle(ReplyStarted(3.5))
    opened = listener.handle(ReplyFinished(8.0, asks_question=True))[0]
    assert opened == FollowUpOpened(8.0, until=33.0, after_question=True)


def test_thinking_ignores_transcripts_and_speech_begun_long_after_the_request():
    listener = make()
    listener.handle(WakeDetected(1.0))
    listener.handle(heard(3.0, "What time is it?"))  # said until 2.3 s
    # (Tick short of reply_wait_seconds: see test_every_waiting_state_gives_up_on_the_clock.)
    late = SpeechStarted(5.8, 5.6)  # 2.6 s after it was taken: someone else, or something new
    for event in (heard(4.0, "Stop."), late, Tick(50.0)):
        assert listener.handle(event) == ()
    assert listener.state is State.THINKING


@pytest.mark.parametrize(
    ("said", "then"),
    [
        ("Hey Jarvis, what's the weather like?", State.THINKING),  # a request said better
        ("Hey Jarvis, stop.", State.STANDBY),  # or none at all
    ],
)
def test_the_wake_word_while_thinking_drops_the_turn_for_a_new_request(said: str, then: State):
    listener = make()
    listener.handle(WakeDetected(1.0))
    listener.handle(heard(3.0, "What time is it?"))
    assert listener.handle(WakeDetected(7.0)) == (WentOnAsked(7.0, 7.0, wake=True),)
    assert listener.state is State.THINKING  # until the turn is given back
    assert listener.handle(TakenBack(7.05)) == (
        WakeAccepted(7.05),
        StateChanged(7.05, State.THINKING, State.LISTENING),
    )
    outputs = listener.handle(Transcript(9.5, said, start=7.0, end=8.8))
    assert listener.state is then
    if then is State.THINKING:
        assert outputs[0] == UtteranceHeard(
            9.5, "what's the weather like?", Via.WAKE, start=7.0, end=8.8
        )


def test_the_wake_word_alone_while_thinking_loses_nothing():
    # "Hey Jarvis?" said to a slow answer, and nothing after it: the request the wake word took
    # back is asked again, as it was heard.
    listener = make()
    listener.handle(WakeDetected(1.0))
    taken = listener.handle(heard(3.0, "What time is it?"))[0]
    listener.handle(WakeDetected(7.0))
    listener.handle(TakenBack(7.05))
    assert listener.handle(SpeechEnded(12.0, EndReason.NOTHING_SAID, 7.05, 12.0)) == (
        replace(taken, t=12.0),
        StateChanged(12.0, State.LISTENING, State.THINKING),
    )
    # Once only: that turn's own end is the usual one.
    listener.handle(ReplyFinished(14.0))
    assert listener.state is State.FOLLOW_UP


def test_the_latest_ask_is_what_a_turn_given_back_answers():
    # A wake word that got nothing back (the turn was still being prepared), then the speaker
    # going on: the request is heard again whole, not replaced.
    listener = thinking("What's the weather like?")
    listener.handle(WakeDetected(3.2))
    listener.handle(SpeechStarted(3.5, start=3.3))
    # Asked again after one refused: the speaker went on where they first did.
    listener.handle(SpeechStarted(5.2, start=5.0))
    assert listener.handle(TakenBack(5.3))[0] == RequestReopened(
        5.3, start=1.2, paused_from=2.3, went_on_at=3.3, via=Via.WAKE
    )


def test_a_turn_not_given_back_to_the_wake_word_is_answered():
    # It had said or done something (stored a fact): no TakenBack, and the reply comes.
    listener = make()
    listener.handle(WakeDetected(1.0))
    listener.handle(heard(3.0, "Remember that my car is blue."))
    listener.handle(WakeDetected(4.0))
    assert listener.handle(ReplyStarted(4.5)) == (
        StateChanged(4.5, State.THINKING, State.SPEAKING),
    )
    assert listener.handle(TakenBack(4.6)) == ()


def test_a_speaker_who_goes_on_before_the_reply_is_heard_again_whole():
    listener = thinking("What's the weather like?")
    # They go on 1.8 s after the request was taken at a pause: the turn is asked back.
    assert listener.handle(SpeechStarted(4.3, start=4.1)) == (WentOnAsked(4.3, start=4.1),)
    assert listener.state is State.THINKING
    reopened = RequestReopened(4.31, start=1.2, paused_from=2.3, went_on_at=4.1, via=Via.WAKE)
    assert listener.handle(TakenBack(4.31)) == (
        reopened,
        StateChanged(4.31, State.THINKING, State.LISTENING),
    )
    whole = Transcript(6.0, "What's the weather like in Paris tomorrow?", start=1.2, end=5.3)
    outputs = listener.handle(whole)
    assert outputs[0] == UtteranceHeard(
        6.0, "What's the weather like in Paris tomorrow?", Via.WAKE, start=1.2, end=5.3
    )
    assert listener.state is State.THINKING
    # And may go on again from the whole, which is still heard from its first word.
    listener.handle(SpeechStarted(6.5, start=6.3))
    assert listener.handle(TakenBack(6.6))[0] == RequestReopened(
        6.6, start=1.2, paused_from=5.3, went_on_at=6.3, via=Via.WAKE
    )


def test_a_speaker_looking_for_a_word_after_the_trailing_silence_is_heard_again_whole():
    # Taken 2.6 s after "of", the trailing silence (and the transcript) over; the word comes
    # 3.5 s after "of", within the window after the taking: one request, as said.
    listener = thinking("What's the capital of", taken=4.9)
    assert listener.handle(SpeechStarted(6.0, start=5.8)) == (WentOnAsked(6.0, start=5.8),)
    assert listener.handle(TakenBack(6.1))[0] == RequestReopened(
        6.1, start=1.2, paused_from=2.3, went_on_at=5.8, via=Via.WAKE
    )
    # Past the window after the taking: a new utterance, not this request going on.
    later = thinking("What's the capital of", taken=4.9)
    assert later.handle(SpeechStarted(7.6, start=7.5)) == ()


def test_a_follow_up_heard_again_whole_is_still_a_follow_up():
    listener = make()
    in_follow_up(listener, finished=6.0)
    listener.handle(Transcript(9.0, "And what about", start=7.0, end=8.3))
    listener.handle(SpeechStarted(9.8, start=9.6))
    assert listener.handle(TakenBack(9.9))[0].via is Via.FOLLOW_UP
    outputs = listener.handle(Transcript(11.0, "And what about Uganda?", start=7.0, end=10.2))
    assert outputs[0] == UtteranceHeard(
        11.0, "And what about Uganda?", Via.FOLLOW_UP, start=7.0, end=10.2
    )


def test_nobody_goes_on_once_the_reply_began_or_when_the_setting_is_off():
    listener = make()
    listener.handle(WakeDetected(1.0))
    listener.handle(Transcript(3.0, "What time is it?", start=1.2, end=2.3))
    listener.handle(ReplyStarted(3.2))
    assert listener.handle(SpeechStarted(3.6, start=3.4)) == ()  # speaking: the mic is muted
    off = make(went_on_seconds=0)
    off.handle(WakeDetected(1.0))
    off.handle(Transcript(3.0, "What time is it?", start=1.2, end=2.3))
    assert off.handle(SpeechStarted(3.2, start=3.0)) == ()


def test_a_turn_taken_back_unasked_is_no_reason_to_listen_again():
    listener = make()
    listener.handle(WakeDetected(1.0))
    listener.handle(Transcript(3.0, "What time is it?", start=1.2, end=2.3))
    assert listener.handle(TakenBack(3.1)) == ()
    assert listener.state is State.THINKING


def test_a_request_heard_again_that_comes_back_empty_ends_the_conversation():
    listener = make()
    in_follow_up(listener, finished=6.0)
    listener.handle(Transcript(9.0, "And what about", start=7.0, end=8.3))
    listener.handle(SpeechStarted(9.8, start=9.6))
    listener.handle(TakenBack(9.9))
    outputs = listener.handle(Transcript(11.0, "", start=7.0, end=10.2))
    assert outputs[-1] == StateChanged(11.0, State.LISTENING, State.STANDBY)


def test_a_request_another_hearth_answers_goes_back_to_standby_without_a_window():
    listener = make()
    listener.handle(WakeDetected(1.0))
    listener.handle(heard(3.0, "What time is it?"))
    assert listener.handle(Deferred(3.4)) == (
        ConversationEnded(3.4, ConversationEndReason.DEFERRED),
        StateChanged(3.4, State.THINKING, State.STANDBY),
    )
    assert listener.handle(heard(5.0, "And tomorrow?")) == ()  # no follow-up window: standby
    # The follow-up said to the Hearth that answers earns no hint here, a later request does.
    follow_up = SpeechEnded(6.0, EndReason.SILENCE, start=4.0, end=5.5)
    assert listener.handle(follow_up) == ()
    later = SpeechEnded(40.0, EndReason.SILENCE, start=38.0, end=39.5)
    assert [type(out) for out in listener.handle(later)] == [HintGiven]


def speaking(**overrides) -> Listener:
    listener = make(**overrides)
    listener.handle(WakeDetected(1.0))
    listener.handle(heard(3.0, "Tell me a story."))
    listener.handle(ReplyStarted(4.0))
    return listener


def test_barge_in_by_the_wake_word_stops_speaking_and_listens():
    listener = speaking(barge_in=True)
    assert listener.handle(WakeDetected(6.0)) == (
        StopSpeaking(6.0),
        WakeAccepted(6.0),
        StateChanged(6.0, State.SPEAKING, State.LISTENING),
    )
    assert listener.handle(ReplyFinished(6.1)) == ()  # the cut reply reports its end
    assert listener.state is State.LISTENING


def test_barge_in_by_a_stop_word_stops_speaking_and_ends_the_conversation():
    listener = speaking(barge_in=True)
    assert listener.handle(heard(6.0, "Stop!")) == (
        StopSpeaking(6.0),
        ConversationEnded(6.0, ConversationEndReason.STOP_WORD),
        StateChanged(6.0, State.SPEAKING, State.STANDBY),
    )


@pytest.mark.parametrize(
    ("text", "stops"),
    [
        ("Stop.", True),
        ("That's all, thank you.", True),
        ("Thank you, stop.", True),
        ("Okay, never mind.", True),
        ("Thank you.", False),  # what Whisper writes on AEC3's leftovers of the echo
        ("thank you thank you", False),
        ("Stop the music.", False),
    ],
)
def test_over_a_reply_a_stop_word_whisper_invents_stops_it_only_with_another(text, stops):
    assert stops_reply(text, STOP_WORDS) is stops
    listener = speaking(barge_in=True)
    assert listener.interrupts(text) is stops
    outputs = listener.handle(heard(6.0, text))
    assert (StopSpeaking(6.0) in outputs) is stops
    assert listener.state is (State.STANDBY if stops else State.SPEAKING)


def test_with_barge_in_other_speech_over_the_reply_is_ignored():
    listener = speaking(barge_in=True)
    assert listener.handle(heard(6.0, "wow, that's a long one")) == ()
    assert listener.state is State.SPEAKING


def test_without_barge_in_nothing_interrupts_the_reply():
    listener = speaking(barge_in=False)
    assert listener.handle(WakeDetected(6.0)) == ()
    assert listener.handle(heard(7.0, "Stop!")) == ()
    assert listener.state is State.SPEAKING


def test_a_stop_from_outside_cuts_the_reply_as_a_spoken_stop_would_even_without_barge_in():
    listener = speaking(barge_in=False)
    assert listener.handle(StopRequested(6.0)) == (
        StopSpeaking(6.0),
        ConversationEnded(6.0, ConversationEndReason.STOP_WORD),
        StateChanged(6.0, State.SPEAKING, State.STANDBY),
    )


def test_a_stop_from_outside_closes_the_follow_up_window():
    listener = make()
    in_follow_up(listener, finished=6.0)
    assert listener.handle(StopRequested(7.0)) == (
        FollowUpClosed(7.0, FollowUpCloseReason.STOP_WORD),
        ConversationEnded(7.0, ConversationEndReason.STOP_WORD),
        StateChanged(7.0, State.FOLLOW_UP, State.STANDBY),
    )


def test_a_stop_from_outside_leaves_standby_listening_and_thinking_as_they_are():
    listener = make()
    assert listener.handle(StopRequested(0.5)) == ()
    listener.handle(WakeDetected(1.0))
    assert listener.handle(StopRequested(1.5)) == ()
    assert listener.state is State.LISTENING
    listener.handle(heard(3.6, "What time is it?"))
    assert listener.handle(StopRequested(3.7)) == ()
    assert listener.state is State.THINKING


# The microphone.


def test_auto_mute_closes_the_microphone_while_speaking_and_settling():
    listener = speaking(auto_mute=True, settle_seconds=0.3)
    assert not listener.microphone_open(5.0)
    opened = listener.handle(ReplyFinished(10.0))[0]
    assert not listener.microphone_open(10.29)
    assert listener.microphone_open(10.3)
    # The settle is inside the window, which counts from the end of speaking.
    assert opened.until == 35.0


def test_a_reply_that_said_nothing_leaves_the_microphone_open_with_no_settle():
    listener = make(auto_mute=True, settle_seconds=0.3)
    listener.handle(WakeDetected(1.0))
    listener.handle(heard(3.0, "Tell me a story."))
    listener.handle(ReplyFinished(3.2))
    assert listener.state is State.FOLLOW_UP
    assert listener.microphone_open(3.2)


def test_the_microphone_is_open_outside_a_reply():
    listener = make(auto_mute=True)
    assert listener.microphone_open(0.0)
    listener.handle(WakeDetected(1.0))
    assert listener.microphone_open(1.0)
    listener.handle(heard(3.0, "What time is it?"))
    assert listener.microphone_open(3.0)


def test_without_auto_mute_the_microphone_stays_open():
    listener = speaking(auto_mute=False)
    assert listener.microphone_open(5.0)
    listener.handle(ReplyFinished(10.0))
    assert listener.microphone_open(10.0)


def test_barge_in_keeps_the_microphone_open_over_auto_mute():
    listener = speaking(auto_mute=True, barge_in=True)
    assert listener.microphone_open(5.0)


# Ringing.


def test_a_ring_is_stopped_by_a_stop_word_without_the_wake_word():
    listener = make()
    assert listener.handle(RingStarted(2.0)) == (StateChanged(2.0, State.STANDBY, State.RINGING),)
    assert listener.microphone_open(2.5)
    assert listener.interrupts("Stop!") and not listener.interrupts("Is dinner ready?")
    assert listener.handle(heard(6.0, "Is dinner ready?")) == ()  # talk over it: no request
    assert listener.handle(WakeDetected(7.0)) == ()  # the transcript decides, not the wake alone
    assert listener.handle(heard(9.0, "Okay, stop the timer.")) == (
        StopRinging(9.0),
        StateChanged(9.0, State.RINGING, State.STANDBY),
    )


@pytest.mark.parametrize(
    "said", ["Stop.", "Hey Jarvis, stop.", "Thank you.", "Turn it off.", "Okay, I'm up."]
)
def test_the_stop_words_and_the_ring_s_own_stop_it(said):
    listener = make()
    listener.handle(RingStarted(2.0))
    assert listener.handle(heard(5.0, said))[0] == StopRinging(5.0)
    assert listener.state is State.STANDBY


def test_home_assistants_stop_button_stops_a_ring():
    listener = make()
    listener.handle(RingStarted(2.0))
    assert listener.handle(StopRequested(4.0)) == (
        StopRinging(4.0),
        StateChanged(4.0, State.RINGING, State.STANDBY),
    )


def test_stop_the_timer_is_a_request_when_nothing_rings():
    listener = make()
    listener.handle(WakeDetected(1.0))
    outputs = listener.handle(heard(3.0, "Stop the timer."))
    [request] = [output for output in outputs if isinstance(output, UtteranceHeard)]
    assert request.text == "Stop the timer."


def test_a_ring_in_the_follow_up_window_ends_the_conversation():
    listener = make()
    in_follow_up(listener, finished=6.0)
    assert listener.handle(RingStarted(8.0)) == (
        FollowUpClosed(8.0, FollowUpCloseReason.RING),
        ConversationEnded(8.0, ConversationEndReason.RING),
        StateChanged(8.0, State.FOLLOW_UP, State.RINGING),
    )


def test_a_ring_the_schedule_ends_leads_back_to_standby_and_a_lost_end_times_out():
    listener = make()
    listener.handle(RingStarted(2.0))
    assert listener.handle(RingOver(30.0)) == (StateChanged(30.0, State.RINGING, State.STANDBY),)
    lasting = Listener(ListenerSettings(), VAD, ("hey jarvis",), ring_seconds=60.0)
    lasting.handle(RingStarted(2.0))
    assert lasting.handle(Tick(61.9)) == ()
    assert lasting.handle(Tick(62.0)) == (
        StopRinging(62.0, timed_out=True),
        StateChanged(62.0, State.RINGING, State.STANDBY),
    )


# Ways out, records, construction.


def reach(state: State) -> Listener:
    listener = make()
    steps = {
        State.STANDBY: [],
        State.LISTENING: [WakeDetected(1.0)],
        State.THINKING: [WakeDetected(1.0), heard(3.0, "What time is it?")],
        State.SPEAKING: [WakeDetected(1.0), heard(3.0, "What time is it?"), ReplyStarted(4.0)],
        State.FOLLOW_UP: [WakeDetected(1.0), heard(3.0, "What time is it?"), ReplyFinished(4.0)],
        State.RINGING: [RingStarted(1.0)],
    }[state]
    for step in steps:
        listener.handle(step)
    assert listener.state is state
    return listener


@pytest.mark.parametrize(
    ("state", "way_out", "to"),
    [
        (State.STANDBY, WakeDetected(50.0), State.LISTENING),
        (State.LISTENING, SpeechEnded(50.0, EndReason.NOTHING_SAID, 1.0, 7.0), State.STANDBY),
        (State.LISTENING, heard(50.0, "never mind"), State.STANDBY),
        (State.THINKING, ReplyStarted(50.0), State.SPEAKING),
        (State.THINKING, ReplyFinished(50.0), State.FOLLOW_UP),
        (State.SPEAKING, ReplyFinished(50.0), State.FOLLOW_UP),
        (State.FOLLOW_UP, Tick(50.0), State.STANDBY),
        (State.RINGING, heard(50.0, "Stop."), State.STANDBY),
        (State.RINGING, RingOver(50.0), State.STANDBY),
    ],
)
def test_every_state_has_a_way_out(state, way_out, to):
    listener = reach(state)
    listener.handle(way_out)
    assert listener.state is to


@pytest.mark.parametrize("state", list(State))
def test_every_state_has_a_way_out_on_the_clock_alone(state):
    """Whatever input is lost (a transcript, a reply, its end), time alone leads back to standby."""
    listener = reach(state)
    listener.handle(Tick(1000.0))
    assert listener.state is State.STANDBY


LONGEST = VAD.max_utterance_seconds + SPEECH_MARGIN_SECONDS
WAIT = ListenerSettings().reply_wait_seconds


def abandoned(t: float, old: State) -> tuple[ListenerOutput, ...]:
    return (
        ReplyAbandoned(t, APOLOGY),
        ConversationEnded(t, ConversationEndReason.NO_REPLY),
        StateChanged(t, old, State.STANDBY),
    )


def test_a_reply_that_never_begins_is_given_up_with_an_apology_after_the_reply_wait():
    listener = reach(State.THINKING)  # the request was taken at 3.0
    assert listener.handle(Tick(3.0 + WAIT - FRAME)) == ()
    assert listener.handle(Tick(3.0 + WAIT)) == abandoned(3.0 + WAIT, State.THINKING)
    # The reply, should it come after all, finds Hearth listening for the wake word again.
    assert listener.handle(ReplyStarted(3.0 + WAIT + 1)) == ()
    assert listener.handle(WakeDetected(3.0 + WAIT + 2))[0] == WakeAccepted(3.0 + WAIT + 2)


def test_the_reply_wait_is_a_setting():
    listener = make(reply_wait_seconds=5.0)
    listener.handle(WakeDetected(1.0))
    listener.handle(heard(3.0, "What time is it?"))
    assert listener.handle(Tick(8.0)) == abandoned(8.0, State.THINKING)


def test_a_reply_is_given_up_only_once_nothing_of_it_has_been_said_or_made_for_the_wait():
    listener = reach(State.SPEAKING)  # the reply began at 4.0
    # A long reply, said and made for a minute and a half: it is going on.
    for t in range(5, 95):
        assert listener.handle(Tick(float(t), saying=True)) == ()
    # Then it stops coming (the brain's next sentence never arrives).
    assert listener.handle(Tick(94.0 + WAIT - FRAME)) == ()
    assert listener.handle(Tick(94.0 + WAIT)) == abandoned(94.0 + WAIT, State.SPEAKING)


def test_listening_gives_up_once_no_request_can_still_be_under_way():
    listener = make()
    listener.handle(WakeDetected(1.0))
    deadline = 1.0 + VAD.no_speech_timeout_seconds + LONGEST
    assert listener.handle(Tick(deadline - FRAME)) == ()
    assert listener.handle(Tick(deadline)) == (
        ConversationEnded(deadline, ConversationEndReason.NOTHING_SAID),
        StateChanged(deadline, State.LISTENING, State.STANDBY),
    )


def test_the_wake_word_said_again_restarts_listening_s_timed_exit():
    listener = make()
    listener.handle(WakeDetected(1.0))
    listener.handle(WakeDetected(10.0))
    deadline = 10.0 + VAD.no_speech_timeout_seconds + LONGEST
    assert listener.handle(Tick(deadline - FRAME)) == ()
    assert listener.handle(Tick(deadline))[0].event == "conversation_end"


def test_a_window_held_for_an_utterance_closes_once_the_longest_one_would_be_over():
    listener = make()
    until = in_follow_up(listener, finished=6.0).until
    listener.handle(SpeechStarted(until + 0.1, start=until - 0.1))  # began just in time
    assert listener.handle(Tick(until + LONGEST - FRAME)) == ()  # held: its end is owed
    assert listener.handle(Tick(until + LONGEST)) == closed_by_timeout(until + LONGEST)


def test_output_events_serialise_as_event_stream_lines():
    heard_event = UtteranceHeard(3.6, "What time is it?", Via.WAKE, start=1.7, end=2.8)
    record = {
        "t": 3.6,
        "event": "utterance",
        "text": "What time is it?",
        "via": "wake",
        "start": 1.7,
        "end": 2.8,
    }
    assert heard_event.as_record() == record
    assert json.loads(heard_event.to_json()) == record
    changed = StateChanged(3.6, State.LISTENING, State.THINKING).as_record()
    assert changed == {"t": 3.6, "event": "state", "old": "listening", "new": "thinking"}
    closed = FollowUpClosed(31.2, FollowUpCloseReason.TIMEOUT).as_record()
    assert closed == {"t": 31.2, "event": "follow_up_close", "reason": "timeout"}
    kinds = (
        WakeAccepted,
        UtteranceHeard,
        HintGiven,
        FollowUpOpened,
        FollowUpClosed,
        ConversationEnded,
        ReplyAbandoned,
        StopSpeaking,
        StateChanged,
    )
    assert len({kind.event for kind in kinds}) == len(kinds)


def test_the_listener_needs_a_wake_phrase():
    with pytest.raises(ValueError, match="wake phrase"):
        Listener(ListenerSettings(), VAD, ())


# Any sequence of inputs.

TEXTS = [
    "",
    "What time is it?",
    "Hey Jarvis.",
    "Hey, Jarvis. What time is it?",
    "Stop.",
    "never mind",
    "Stop the music.",
]
GAPS = st.floats(0, 40)


def owed(t: float) -> list[ListenerInput]:
    """What the pipeline always delivers in the end: the segmenter's verdict on any wait or
    utterance in progress, a transcript for a finished one, the end of a reply; then silence."""
    return [
        SpeechEnded(t + 1, EndReason.NOTHING_SAID, t, t + 1),
        Transcript(t + 2, "", t, t + 1),
        ReplyFinished(t + 3),
        Tick(t + 1000),
    ]


class ListenerMachine(RuleBasedStateMachine):
    """Random inputs with non-decreasing times, against these invariants:

    - ``handle`` never raises; every output is stamped with the input's time and serialises;
    - state changes are reported as a chain that ends in :attr:`Listener.state`; a window close
      comes with every exit from FOLLOW_UP, a conversation end with every return to STANDBY;
    - no trap: from every reachable state the inputs the pipeline owes (:func:`owed`) bring the
      listener back to STANDBY, and so does a far tick alone (every state has a timed exit).
    """

    @initialize(barge_in=st.booleans(), auto_mute=st.booleans(), hint=st.sampled_from([0, 60]))
    def start(self, barge_in: bool, auto_mute: bool, hint: float) -> None:
        self.listener = make(barge_in=barge_in, auto_mute=auto_mute, hint_interval_seconds=hint)
        self.t = 0.0

    def feed(self, gap: float, build) -> None:
        self.t += gap
        event = build(self.t)
        before = self.listener.state
        outputs = self.listener.handle(event)
        self.listener.microphone_open(self.t)
        states = [before]
        for output in outputs:
            assert output.t == event.t
            assert json.loads(output.to_json())["event"] == output.event
            if isinstance(output, StateChanged):
                assert output.old is states[-1] and output.new is not output.old
                states.append(output.new)
        assert states[-1] is self.listener.state
        changes = list(pairwise(states))
        closes = [o for o in outputs if isinstance(o, FollowUpClosed)]
        ends = [o for o in outputs if isinstance(o, ConversationEnded)]
        assert len(closes) == sum(old is State.FOLLOW_UP for old, _ in changes)
        assert len(ends) == sum(new is State.STANDBY for _, new in changes)
        if any(isinstance(o, (StopSpeaking, HintGiven)) for o in outputs):
            assert before in (State.SPEAKING, State.STANDBY, State.FOLLOW_UP)

    @rule(gap=GAPS)
    def wake(self, gap: float) -> None:
        self.feed(gap, WakeDetected)

    @rule(gap=GAPS)
    def wake_refused(self, gap: float) -> None:
        self.feed(gap, WakeRefused)

    @rule(gap=GAPS, lag=st.floats(0.2, 0.5))
    def speech_started(self, gap: float, lag: float) -> None:
        self.feed(gap, lambda t: SpeechStarted(t, start=max(0.0, t - lag)))

    @rule(gap=GAPS, reason=st.sampled_from(EndReason), length=st.floats(0, 15))
    def speech_ended(self, gap: float, reason: EndReason, length: float) -> None:
        self.feed(gap, lambda t: SpeechEnded(t, reason, max(0.0, t - length), t))

    @rule(gap=GAPS, text=st.sampled_from(TEXTS))
    def transcript(self, gap: float, text: str) -> None:
        self.feed(gap, lambda t: Transcript(t, text, max(0.0, t - 2), max(0.0, t - 1)))

    @rule(gap=GAPS)
    def reply_started(self, gap: float) -> None:
        self.feed(gap, ReplyStarted)

    @rule(gap=GAPS, question=st.booleans())
    def reply_finished(self, gap: float, question: bool) -> None:
        self.feed(gap, lambda t: ReplyFinished(t, asks_question=question))

    @rule(gap=GAPS, saying=st.booleans())
    def tick(self, gap: float, saying: bool) -> None:
        self.feed(gap, lambda t: Tick(t, saying=saying))

    @rule(gap=GAPS)
    def stop_requested(self, gap: float) -> None:
        self.feed(gap, StopRequested)

    @rule(gap=GAPS)
    def taken_back(self, gap: float) -> None:
        self.feed(gap, TakenBack)

    @invariant()
    def no_trap(self) -> None:
        drained = copy.deepcopy(self.listener)
        for event in owed(self.t):
            drained.handle(event)
        assert drained.state is State.STANDBY

    @invariant()
    def the_clock_alone_leads_back_to_standby(self) -> None:
        drained = copy.deepcopy(self.listener)
        drained.handle(Tick(self.t + 1000))
        assert drained.state is State.STANDBY

    @invariant()
    def only_the_clock_is_needed_in_standby_and_an_idle_window(self) -> None:
        before = self.listener.state
        idle = copy.deepcopy(self.listener)
        idle.handle(Tick(self.t + 1000))
        waiting = (State.LISTENING, State.THINKING, State.SPEAKING)
        assert idle.state in (before, State.STANDBY)
        if before not in waiting and idle.state is State.FOLLOW_UP:
            idle.handle(SpeechEnded(self.t + 1001, EndReason.TOO_SHORT, self.t, self.t + 1))
            assert idle.state is State.STANDBY


ListenerMachine.TestCase.settings = settings(
    max_examples=300,
    stateful_step_count=40,
    deadline=None,  # CPU-bound: a loaded machine is slow
)
TestListenerMachine = ListenerMachine.TestCase
