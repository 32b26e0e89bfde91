"""What a transcription of a request is given besides its audio (``HearingCues``, pure), and a
speculation's work dropped when its pause is not the end."""

from __future__ import annotations

from concurrent.futures import Future

import numpy as np

from audio.ear import CONTEXT_MAX_SECONDS, HearingCues, Judging, Speculation
from audio.format import seconds_to_samples
from audio.messages import FinishReply
from audio.segmenter import EndReason, SpeechEnded, SpeechPaused

PRE_ROLL = seconds_to_samples(0.3)


def cues() -> HearingCues:
    made = HearingCues(["Jarvis"], ["Tallinn"], end_silence_seconds=0.8, pre_roll_samples=PRE_ROLL)
    made.set_known_names(("Priya",))
    return made


def audio(speech_seconds: float) -> np.ndarray:
    return np.zeros(PRE_ROLL + seconds_to_samples(speech_seconds), dtype=np.int16)


QUESTION = FinishReply(
    reply=3,
    context="Q: Which one is current? A: The green one or the blue one?",
    answer_phrases={"first": "The green one.", "second": "The blue one."},
    hotwords=("green", "blue"),
)


def test_names_are_the_wake_names_the_settings_hot_words_and_those_memory_knows():
    heard = cues()
    assert heard.names() == ("Jarvis", "Tallinn", "Priya")
    assert heard.names(wake_names=False) == ("Tallinn", "Priya")


def test_a_request_said_apart_from_the_wake_phrase_is_given_no_wake_name():
    heard = cues()
    straight_on = heard.request(audio(1.0), seconds_to_samples(0.9), 2.0, listening=True,
                                follow_up=False)  # fmt: skip
    apart = heard.request(audio(1.0), 0, 2.0, listening=True, follow_up=False)
    assert straight_on.hotwords == ("Jarvis", "Tallinn", "Priya")
    assert straight_on.wake_end == seconds_to_samples(0.9)
    assert apart.hotwords == ("Tallinn", "Priya")
    # In a follow-up the name stays: there it helped.
    follow_up = heard.request(audio(1.0), 0, 2.0, listening=False, follow_up=True)
    assert follow_up.hotwords == ("Jarvis", "Tallinn", "Priya")


def test_a_follow_up_to_a_closed_question_scores_its_answers_with_the_exchange():
    heard = cues()
    heard.reply_finished(QUESTION)
    answer = heard.request(audio(1.0), 0, 9.0, listening=False, follow_up=True, weigh_end=True)
    assert answer.hotwords == ("green", "blue", "Jarvis", "Tallinn", "Priya")
    assert answer.answer_phrases == QUESTION.answer_phrases
    assert answer.answer_context == answer.context == QUESTION.context
    assert answer.weigh_end and not answer.spelling
    # A new request after the wake word is not an answer to it.
    request = heard.request(audio(1.0), 0, 9.0, listening=True, follow_up=False)
    assert request.answer_phrases == {} and request.answer_context == request.context == ""
    assert request.hotwords == ("Tallinn", "Priya")


def test_only_a_short_follow_up_is_given_the_last_exchange_as_context():
    heard = cues()
    heard.reply_finished(FinishReply(reply=1, context="Q: Capital of Kenya? A: Nairobi."))
    short = heard.request(audio(CONTEXT_MAX_SECONDS), 0, 9.0, listening=False, follow_up=True)
    long = heard.request(audio(CONTEXT_MAX_SECONDS + 0.1), 0, 9.0, listening=False,
                         follow_up=True)  # fmt: skip
    assert short.context == "Q: Capital of Kenya? A: Nairobi."
    assert long.context == ""
    assert short.answer_phrases == {} and short.answer_context == ""  # no question was asked
    heard.conversation_ended()
    after = heard.request(audio(1.0), 0, 30.0, listening=False, follow_up=True)
    assert after.context == ""


def test_an_answer_that_may_be_spelled_is_read_as_letters_too():
    heard = cues()
    heard.reply_finished(FinishReply(reply=2, context="Q: Your editor? A: How is it spelled?",
                                     spelling=True))  # fmt: skip
    assert heard.request(audio(1.0), 0, 9.0, listening=False, follow_up=True).spelling
    assert not heard.request(audio(1.0), 0, 9.0, listening=True, follow_up=False).spelling


def test_speech_running_on_from_a_request_the_cap_cut_is_given_its_words():
    heard = cues()
    heard.request_heard(SpeechEnded(20.0, EndReason.CAP, 5.0, 20.0), "my brother is coming over")
    assert heard.request(audio(3.0), 0, 20.5, listening=True, follow_up=False).context == (
        "my brother is coming over"
    )
    # A silence as long as an utterance's end: a new request.
    assert heard.request(audio(3.0), 0, 20.8, listening=True, follow_up=False).context == ""
    heard.request_heard(SpeechEnded(25.0, EndReason.SILENCE, 21.0, 24.0), "and his dog")
    assert heard.request(audio(3.0), 0, 24.1, listening=True, follow_up=False).context == ""


def test_a_speculation_dropped_cancels_the_work_still_waiting_for_the_worker():
    words: Future = Future()
    speculation = Speculation(SpeechPaused(1.5, 0.5, 1.2), words)
    assert speculation.judging is Judging.WORDS
    speculation.cancel()
    assert words.cancelled()
    running: Future = Future()
    running.set_running_or_notify_cancel()
    readings: Future = Future()
    speculation = Speculation(SpeechPaused(1.5, 0.5, 1.2), running, Judging.EAR, readings=readings)
    speculation.cancel()
    assert readings.cancelled() and not running.cancelled()  # a running one finishes, unread
