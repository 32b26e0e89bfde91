"""The end-of-speech segmenter as pure code: fed frame durations and probabilities, no audio."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audio.segmenter import (
    EndReason,
    Phase,
    Segmenter,
    SegmenterEvent,
    SpeechEnded,
    SpeechPaused,
    SpeechResumed,
    SpeechStarted,
)
from config.schema import VadSettings

FRAME = 0.05
"""A convenient frame for arithmetic; one test uses Silero's real 32 ms."""
SPEECH, QUIET = 0.9, 0.05
SETTINGS = VadSettings(
    threshold=0.5,
    start_speech_seconds=0.2,
    end_silence_seconds=0.5,
    min_utterance_seconds=0.3,
    max_utterance_seconds=2.0,
    no_speech_timeout_seconds=1.0,
)


def frames(probability: float | None, seconds: float, frame: float = FRAME) -> list[float | None]:
    return [probability] * round(seconds / frame)


def feed(
    segmenter: Segmenter, probabilities: list[float | None], frame: float = FRAME
) -> list[SegmenterEvent]:
    events = (segmenter.process(frame, probability) for probability in probabilities)
    return [event for event in events if event is not None]


def test_speech_starts_after_start_speech_seconds_dated_from_its_first_frame():
    segmenter = Segmenter(SETTINGS)
    assert feed(segmenter, frames(QUIET, 0.5) + frames(SPEECH, 0.15)) == []
    assert feed(segmenter, frames(SPEECH, 0.05)) == [SpeechStarted(0.7, start=0.5)]
    assert segmenter.phase is Phase.SPEAKING


def test_start_latency_with_silero_frames_is_the_setting_rounded_up_to_a_frame():
    silero = 512 / 16_000
    segmenter = Segmenter(SETTINGS)
    assert feed(segmenter, [QUIET] * 10 + [SPEECH] * 6, silero) == []
    # 7 frames are 224 ms, the first whole number of frames past 200 ms.
    assert feed(segmenter, [SPEECH], silero) == [SpeechStarted(0.544, start=0.32)]


def test_over_a_reply_a_shorter_run_of_speech_starts_an_utterance():
    # "Stop." said over Hearth's reply: about 0.2 s of voice in the echo canceller's output.
    settings = SETTINGS.model_copy(update={"start_over_reply_seconds": 0.1})
    over_reply = Segmenter(settings)
    events = [over_reply.process(FRAME, p, over_reply=True) for p in [QUIET] * 3 + [SPEECH] * 2]
    assert [e for e in events if e is not None] == [SpeechStarted(0.25, start=0.15)]
    # It ends as an utterance, however short: its transcript decides (a stop word or nothing).
    ended = [over_reply.process(FRAME, QUIET, over_reply=True) for _ in range(10)]
    assert [e for e in ended if e is not None][-1] == SpeechEnded(
        0.75, EndReason.SILENCE, start=0.15, end=0.25
    )
    # The same frames with nobody speaking over Hearth are a blip, not the start of a request.
    assert feed(Segmenter(settings), [QUIET] * 3 + [SPEECH] * 2 + [QUIET]) == []


def test_a_run_of_speech_broken_by_silence_starts_over():
    segmenter = Segmenter(SETTINGS)
    events = feed(segmenter, [SPEECH] * 3 + [QUIET] + [SPEECH] * 4)
    assert events == [SpeechStarted(0.4, start=0.2)]


def test_a_pause_offers_the_speech_so_far_and_a_resume_withdraws_it():
    segmenter = Segmenter(SETTINGS)
    events = feed(
        segmenter,
        frames(SPEECH, 0.5) + frames(QUIET, 0.15) + frames(SPEECH, 0.2) + frames(QUIET, 0.5),
    )
    assert events == [
        SpeechStarted(0.2, start=0.0),
        SpeechPaused(0.55, start=0.0, end=0.5),
        SpeechResumed(0.7, silence_start=0.5, silence_end=0.65),
        SpeechPaused(0.9, start=0.0, end=0.85, longest_pause=0.15),  # the pause before it
        SpeechEnded(1.35, EndReason.SILENCE, start=0.0, end=0.85),
    ]
    assert events[-1].is_utterance
    assert segmenter.phase is Phase.WAITING
    first_pause, _, last_pause, ended = events[1:]
    assert last_pause.ended_by(ended)  # what was begun at the last pause is for the utterance
    assert not first_pause.ended_by(ended)  # the speaker went on from the first


def test_a_pause_judged_to_end_the_turn_sooner_or_later_ends_it_then():
    shorter, longer = Segmenter(SETTINGS), Segmenter(SETTINGS)
    for segmenter, seconds in ((shorter, 0.15), (longer, 0.8)):
        assert (
            feed(segmenter, frames(SPEECH, 1.0) + frames(QUIET, 0.05))[-1].event == "speech_pause"
        )
        segmenter.end_after(seconds)
    assert feed(shorter, frames(QUIET, 0.1)) == [
        SpeechEnded(1.15, EndReason.SILENCE, start=0.0, end=1.0)
    ]
    assert feed(longer, frames(QUIET, 0.7)) == []  # past end_silence_seconds: still waiting
    assert feed(longer, frames(QUIET, 0.05)) == [
        SpeechEnded(1.8, EndReason.SILENCE, start=0.0, end=1.0)
    ]


def test_a_pause_judged_after_its_silence_has_passed_ends_as_it_is_judged():
    # Live, the words that judge a pause come in wall time beside the frames, and may come after
    # the short silence they allow: the turn ends then, not at the next frame.
    segmenter = Segmenter(SETTINGS)
    feed(segmenter, frames(SPEECH, 1.0) + frames(QUIET, 0.05))
    assert segmenter.end_after(2.5) is None  # the words not known yet: the long wait
    assert feed(segmenter, frames(QUIET, 0.3)) == []
    assert segmenter.end_after(0.2) == SpeechEnded(1.35, EndReason.SILENCE, start=0.0, end=1.0)
    assert segmenter.phase is Phase.WAITING
    # Judged before its silence has passed, a pause ends when it has.
    feed(segmenter, frames(SPEECH, 1.0) + frames(QUIET, 0.05))
    assert segmenter.end_after(0.2) is None
    assert feed(segmenter, frames(QUIET, 0.15)) == [
        SpeechEnded(2.55, EndReason.SILENCE, start=1.35, end=2.35)
    ]


def test_a_judged_end_holds_for_its_own_pause_only():
    segmenter = Segmenter(SETTINGS)
    feed(segmenter, frames(SPEECH, 1.0) + frames(QUIET, 0.05))
    segmenter.end_after(5.0)
    events = feed(segmenter, frames(SPEECH, 0.2) + frames(QUIET, 0.5))
    assert [event.event for event in events] == ["speech_resume", "speech_pause", "speech_end"]
    assert events[-1].t == pytest.approx(1.25 + SETTINGS.end_silence_seconds, abs=0.001)
    segmenter.end_after(0.01)  # not paused: nothing to end
    assert segmenter.phase is Phase.WAITING


def test_the_end_carries_the_same_span_as_the_pause_that_led_to_it():
    segmenter = Segmenter(SETTINGS)
    pause, end = feed(segmenter, frames(SPEECH, 1.0) + frames(QUIET, 0.5))[1:]
    assert (pause.start, pause.end) == (end.start, end.end)


def test_hysteresis_keeps_a_hovering_probability_from_flapping():
    segmenter = Segmenter(SETTINGS)
    # Between 0.35 and 0.5 nothing changes: not speech from silence ...
    assert feed(segmenter, frames(0.45, 1.0)) == []
    # ... and not silence from speech, however it wavers around the threshold.
    assert feed(segmenter, frames(SPEECH, 0.2)) == [SpeechStarted(1.2, start=1.0)]
    assert feed(segmenter, [0.49, 0.51, 0.4, 0.36] * 5) == []
    assert feed(segmenter, [0.34]) == [SpeechPaused(2.25, start=1.0, end=2.2)]


def test_the_silence_band_is_at_most_half_a_low_threshold():
    segmenter = Segmenter(SETTINGS.model_copy(update={"threshold": 0.2}))
    feed(segmenter, frames(0.3, 0.2))
    assert feed(segmenter, [0.11]) == []
    assert feed(segmenter, [0.09]) == [SpeechPaused(0.3, start=0.0, end=0.25)]


def test_warm_up_frames_are_neither_speech_nor_silence():
    segmenter = Segmenter(SETTINGS)
    assert feed(segmenter, frames(None, 1.0)) == []
    assert segmenter.now == 1.0
    # Unknown frames inside a run of speech neither break it nor count towards it.
    events = feed(segmenter, [SPEECH, SPEECH, None, None, None, SPEECH, SPEECH])
    assert events == [SpeechStarted(1.35, start=1.0)]


def test_unknown_frames_do_not_count_as_trailing_silence():
    segmenter = Segmenter(SETTINGS)
    feed(segmenter, frames(SPEECH, 0.5) + frames(QUIET, 0.25))
    assert feed(segmenter, frames(None, 0.5) + frames(QUIET, 0.2)) == []
    assert feed(segmenter, frames(QUIET, 0.05)) == [
        SpeechEnded(1.5, EndReason.SILENCE, start=0.0, end=0.5)
    ]


def test_the_cap_cuts_a_monologue_into_utterances_that_lose_nothing():
    segmenter = Segmenter(SETTINGS)
    events = feed(segmenter, frames(SPEECH, 5.0) + frames(QUIET, 0.5))
    ends = [event for event in events if isinstance(event, SpeechEnded)]
    assert [(end.reason, end.start, end.end) for end in ends] == [
        (EndReason.CAP, 0.0, 2.0),
        (EndReason.CAP, 2.0, 4.0),
        (EndReason.SILENCE, 4.0, 5.0),
    ]
    assert ends[0].t == 2.0  # cut the moment it reaches the cap
    assert all(end.is_utterance for end in ends)


def test_the_cap_also_ends_an_utterance_whose_vad_stopped_answering():
    segmenter = Segmenter(SETTINGS)
    feed(segmenter, frames(SPEECH, 1.0) + frames(QUIET, 0.1))
    assert feed(segmenter, frames(None, 0.9)) == [
        SpeechEnded(2.0, EndReason.CAP, start=0.0, end=2.0)
    ]


def test_speech_shorter_than_the_minimum_is_dropped_as_a_blip():
    segmenter = Segmenter(SETTINGS)
    events = feed(segmenter, frames(SPEECH, 0.25) + frames(QUIET, 0.5))
    assert events[-1] == SpeechEnded(0.75, EndReason.TOO_SHORT, start=0.0, end=0.25)
    assert not events[-1].is_utterance


def test_speech_of_exactly_the_minimum_is_an_utterance():
    segmenter = Segmenter(SETTINGS)
    events = feed(segmenter, frames(SPEECH, 0.3) + frames(QUIET, 0.5))
    assert events[-1] == SpeechEnded(0.8, EndReason.SILENCE, start=0.0, end=0.3)


def test_in_standby_the_segmenter_just_keeps_watching():
    segmenter = Segmenter(SETTINGS)
    assert feed(segmenter, frames(QUIET, 30.0)) == []
    assert not segmenter.armed


def test_armed_it_gives_up_when_nothing_is_said():
    segmenter = Segmenter(SETTINGS)
    feed(segmenter, frames(QUIET, 5.0))
    segmenter.reset(armed=True)
    assert feed(segmenter, frames(QUIET, 0.95)) == []
    assert feed(segmenter, frames(QUIET, 0.05)) == [
        SpeechEnded(6.0, EndReason.NOTHING_SAID, start=5.0, end=6.0)
    ]
    assert not segmenter.armed
    assert feed(segmenter, frames(QUIET, 5.0)) == []


def test_the_wait_is_audio_time_so_a_silent_vad_cannot_keep_it_open():
    segmenter = Segmenter(SETTINGS)
    segmenter.reset(armed=True)
    assert feed(segmenter, frames(None, 1.0)) == [
        SpeechEnded(1.0, EndReason.NOTHING_SAID, start=0.0, end=1.0)
    ]


def test_someone_who_starts_talking_at_the_deadline_is_not_cut_off():
    segmenter = Segmenter(SETTINGS)
    segmenter.reset(armed=True)
    events = feed(segmenter, frames(QUIET, 0.9) + frames(SPEECH, 0.6) + frames(QUIET, 0.5))
    assert [type(event) for event in events] == [SpeechStarted, SpeechPaused, SpeechEnded]
    assert events[0].start == 0.9
    assert events[-1].reason is EndReason.SILENCE
    assert not segmenter.armed  # the request was heard: the wait is over


def test_a_blip_leaves_the_wait_and_its_deadline_running():
    segmenter = Segmenter(SETTINGS)
    segmenter.reset(armed=True)
    events = feed(segmenter, frames(QUIET, 0.2) + frames(SPEECH, 0.25) + frames(QUIET, 0.55))
    assert [end.reason for end in events if isinstance(end, SpeechEnded)] == [
        EndReason.TOO_SHORT,
        EndReason.NOTHING_SAID,
    ]
    assert events[-1] == SpeechEnded(1.0, EndReason.NOTHING_SAID, start=0.0, end=1.0)


def test_reset_forgets_the_utterance_and_keeps_the_clock():
    segmenter = Segmenter(SETTINGS)
    feed(segmenter, frames(SPEECH, 0.4))
    segmenter.reset()
    assert (segmenter.phase, segmenter.now) == (Phase.WAITING, 0.4)
    assert feed(segmenter, frames(QUIET, 3.0)) == []  # no pause, no end of a forgotten utterance
    segmenter.reset(armed=True)
    assert feed(segmenter, frames(QUIET, 1.0))[-1].start == 3.4


def test_reset_forgets_the_hysteresis_verdict():
    segmenter = Segmenter(SETTINGS)
    feed(segmenter, frames(SPEECH, 0.4))
    segmenter.reset()
    assert feed(segmenter, frames(0.45, 1.0)) == []


@pytest.mark.parametrize("frame_seconds", [0.0, -0.032, 0.00001])
def test_a_frame_must_last_at_least_one_sample(frame_seconds):
    with pytest.raises(ValueError, match="at least one sample"):
        Segmenter(SETTINGS).process(frame_seconds, SPEECH)


def test_events_serialise_as_event_stream_lines():
    event = SpeechEnded(1.35, EndReason.SILENCE, start=0.0, end=0.85)
    record = {"t": 1.35, "event": "speech_end", "reason": "silence", "start": 0.0, "end": 0.85}
    assert event.as_record() == record
    assert json.loads(event.to_json()) == record
    assert SpeechResumed(0.7, silence_start=0.5, silence_end=0.65).as_record() == {
        "t": 0.7,
        "event": "speech_resume",
        "silence_start": 0.5,
        "silence_end": 0.65,
    }
    names = {kind.event for kind in (SpeechStarted, SpeechPaused, SpeechResumed, SpeechEnded)}
    assert names == {"speech_start", "speech_pause", "speech_resume", "speech_end"}


SILERO_FRAME = 512 / 16_000
STEPS = st.lists(
    st.one_of(
        st.none(),
        st.floats(0, 1),
        st.sampled_from([SPEECH] * 4 + [QUIET] * 4),  # runs long enough to start and end
        st.sampled_from(["reset", "arm"]),
    ),
    max_size=600,
)


@given(STEPS)
def test_any_stream_follows_the_grammar_of_utterances(steps):
    """Invariant: events spell (start (pause resume)* [pause] end)* with consistent times, a
    nothing-said only while armed, and after enough unknown frames the segmenter is idle."""
    segmenter = Segmenter(SETTINGS)
    inside = paused = armed = False
    last_end = 0.0
    for step in steps:
        if step in ("reset", "arm"):
            segmenter.reset(armed=step == "arm")
            inside = paused = False
            armed = step == "arm"
            continue
        event = segmenter.process(SILERO_FRAME, step)
        if event is None:
            continue
        assert event.t == segmenter.now
        match event:
            case SpeechStarted():
                assert not inside and last_end <= event.start <= event.t
                inside = True
            case SpeechPaused():
                assert inside and not paused and event.start <= event.end <= event.t
                paused = True
            case SpeechResumed():
                assert inside and paused
                paused = False
            case SpeechEnded(reason=EndReason.NOTHING_SAID):
                assert armed and not inside
                armed = False
            case SpeechEnded():
                assert inside and event.start <= event.end <= event.t
                length = event.end - event.start
                if event.reason is EndReason.CAP:
                    assert length < SETTINGS.max_utterance_seconds + SILERO_FRAME
                    armed = False
                elif event.reason is EndReason.SILENCE:
                    assert length >= SETTINGS.min_utterance_seconds
                    assert event.t - event.end >= SETTINGS.end_silence_seconds
                    armed = False
                else:
                    assert length < SETTINGS.min_utterance_seconds
                inside = paused = False
                last_end = event.end
        assert segmenter.armed == armed
    # A way out of every phase: the clock alone ends any utterance and any wait.
    enough = SETTINGS.max_utterance_seconds + SETTINGS.no_speech_timeout_seconds
    feed(segmenter, frames(None, enough, SILERO_FRAME), SILERO_FRAME)
    assert segmenter.phase is Phase.WAITING and not segmenter.armed


def test_a_reset_in_speech_counts_the_speech_going_on_as_an_utterance_from_then():
    segmenter = Segmenter(SETTINGS)
    feed(segmenter, frames(SPEECH, 0.4))
    segmenter.reset(armed=True, in_speech=True)
    assert segmenter.armed and segmenter.phase is Phase.SPEAKING
    events = feed(segmenter, frames(SPEECH, 0.35) + frames(QUIET, 0.5))
    assert [type(event) for event in events] == [SpeechPaused, SpeechEnded]
    assert events[-1] == SpeechEnded(1.25, EndReason.SILENCE, start=0.4, end=0.75)
    assert not segmenter.armed  # the request was heard: the wait is over


def test_a_short_end_after_a_reset_in_speech_is_a_blip_and_the_wait_runs_on():
    segmenter = Segmenter(SETTINGS)
    feed(segmenter, frames(SPEECH, 0.4))
    segmenter.reset(armed=True, in_speech=True)
    events = feed(segmenter, frames(SPEECH, 0.1) + frames(QUIET, 0.5))
    assert events[-1] == SpeechEnded(1.0, EndReason.TOO_SHORT, start=0.4, end=0.5)
    assert segmenter.armed
