"""The request's span, as pure bookkeeping: where it began and the pauses heard within it, across
a turn taken back because its speaker went on."""

from __future__ import annotations

from audio.listener import RequestReopened, Via
from audio.request_span import RequestSpan
from audio.segmenter import EndReason, SpeechEnded


def reopened(start: float = 1.0, paused_from: float = 3.0, went_on_at: float = 4.5):
    return RequestReopened(4.7, start, paused_from, went_on_at, Via.WAKE)


def test_a_request_begins_where_its_utterance_does_and_keeps_the_pauses_it_went_on_from():
    span = RequestSpan()
    span.speech_started()
    span.went_on((1.5, 2.2))
    span.went_on((2.6, 3.0))
    assert span.start(1.0) == 1.0 and span.reopened is None
    assert span.pauses == ((1.5, 2.2), (2.6, 3.0))
    span.speech_started()  # the next utterance starts with none
    assert span.pauses == ()


def test_a_request_taken_back_is_heard_from_its_first_word_with_every_pause_in_it():
    span = RequestSpan()
    span.speech_started()
    span.went_on((1.5, 2.2))
    span.taken()
    span.speech_started()  # its speaker goes on, while the model thinks
    assert span.reopen(reopened()) is None  # still talking
    span.went_on((5.0, 5.4))
    assert span.start(4.5) == 1.0
    # Its own pause, the one its speaker went on from, and the one in what they say now.
    assert span.pauses == ((1.5, 2.2), (3.0, 4.5), (5.0, 5.4))


def test_what_its_speaker_went_on_with_already_over_is_handed_back_to_be_taken():
    span = RequestSpan()
    span.speech_started()
    span.taken()
    span.speech_started()
    went_on = SpeechEnded(5.6, EndReason.SILENCE, start=4.5, end=5.2)
    span.ended_while_thinking(went_on)
    assert span.reopen(reopened()) == went_on
    # Speech that ended before they went on (a blip in the pause) is not it.
    span.taken()
    span.ended_while_thinking(SpeechEnded(4.0, EndReason.TOO_SHORT, start=3.4, end=3.6))
    assert span.reopen(reopened()) is None


def test_a_wake_word_or_a_new_request_taken_forgets_the_one_heard_again():
    span = RequestSpan()
    span.taken()
    span.reopen(reopened())
    span.new_request()
    assert span.reopened is None and span.start(9.0) == 9.0
    span.reopen(reopened())
    span.taken()
    assert span.reopened is None and span.start(9.0) == 9.0
