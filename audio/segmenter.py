"""End of speech: a pure segmenter fed one voice-activity result per frame, on the audio clock.

Modelled on Home Assistant's ``VoiceCommandSegmenter``: no audio, no models, no wall clock. It is
fed a frame's duration and the VAD's speech probability and says what happened, with countdowns in
audio time refilled by :meth:`Segmenter.reset`, one private method per phase and one place that
changes phase. Its clock is the sum of the frames fed, kept in whole samples so that long recordings
do not drift; so the pipeline feeds every frame of the audio clock, passing ``None`` while the
probability is unknown (the VAD's warm-up, a closed microphone).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from enum import Enum, StrEnum
from typing import Any, ClassVar

from audio.format import samples_to_seconds, seconds_to_samples
from config import VadSettings

HYSTERESIS = 0.15
"""How far below the threshold a probability must fall to count as silence (at most half the
threshold); between the two the previous frame's verdict stands, so a hovering value cannot flap."""


@dataclass(frozen=True)
class ClockEvent:
    """Base of the voice loop's events: something that happened at audio-clock second ``t``."""

    event: ClassVar[str]
    """The name in the JSONL event stream (DESIGN.md)."""
    t: float

    def as_record(self) -> dict[str, Any]:
        """The event as one line of the event stream: ``{"t": ..., "event": ..., **fields}``."""
        record: dict[str, Any] = {"t": self.t, "event": self.event}
        for field in fields(self)[1:]:  # every field after ``t``
            value = getattr(self, field.name)
            record[field.name] = value.value if isinstance(value, Enum) else value
        return record

    def to_json(self) -> str:
        """:meth:`as_record` as a JSON line (without the newline)."""
        return json.dumps(self.as_record(), ensure_ascii=False)


class Phase(StrEnum):
    """Where the segmenter is within an utterance."""

    WAITING = "waiting"
    """No utterance yet: counting a run of speech towards a start, and the wait if armed."""
    SPEAKING = "speaking"
    """Inside an utterance, hearing speech."""
    PAUSED = "paused"
    """Inside an utterance, counting trailing silence towards its end."""


class EndReason(StrEnum):
    """Why the segmenter stopped waiting."""

    SILENCE = "silence"
    """Trailing silence lasted ``end_silence_seconds``: the utterance is complete."""
    CAP = "cap"
    """The utterance reached ``max_utterance_seconds`` and was cut there; speech going on after the
    cut may begin the next utterance, so nothing is lost."""
    TOO_SHORT = "too_short"
    """Speech shorter than ``min_utterance_seconds`` (a cough, a clatter): a blip, not a request."""
    NOTHING_SAID = "nothing_said"
    """Armed to wait for a request, and no speech started within ``no_speech_timeout_seconds``."""


@dataclass(frozen=True)
class SpeechStarted(ClockEvent):
    """Speech lasted ``start_speech_seconds``; ``start`` is its first frame, so none is lost."""

    event: ClassVar[str] = "speech_start"
    start: float


@dataclass(frozen=True)
class SpeechPaused(ClockEvent):
    """Trailing silence began: ``start``..``end`` is the speech so far, worth transcribing now so
    the transcript is ready if the silence turns out to be the end (and can say how long a silence
    ends it: :meth:`Segmenter.end_after`)."""

    event: ClassVar[str] = "speech_pause"
    start: float
    end: float
    longest_pause: float = 0.0
    """The longest silence within this utterance before this pause: the speaker's rhythm."""

    def ended_by(self, ended: SpeechEnded) -> bool:
        """Whether ``ended`` ends the utterance as it stood at this pause: the speaker did not go
        on, so what was begun for the speech so far (its transcript, a stop check) is for it."""
        return (self.start, self.end) == (ended.start, ended.end)


@dataclass(frozen=True)
class SpeechResumed(ClockEvent):
    """Speech came back before the end: a transcription begun at the pause is out of date.
    ``silence_start``..``silence_end`` is the pause the speaker went on from (its silent frames
    and any of unknown voice activity between them)."""

    event: ClassVar[str] = "speech_resume"
    silence_start: float
    silence_end: float


@dataclass(frozen=True)
class SpeechEnded(ClockEvent):
    """The segmenter stopped waiting, for ``reason``. ``start``..``end`` is the utterance (or the
    blip), ending where the speech ended; for ``NOTHING_SAID`` it is the wait that heard nothing."""

    event: ClassVar[str] = "speech_end"
    reason: EndReason
    start: float
    end: float

    @property
    def is_utterance(self) -> bool:
        """Whether ``start``..``end`` holds something to transcribe."""
        return self.reason in (EndReason.SILENCE, EndReason.CAP)


SegmenterEvent = SpeechStarted | SpeechPaused | SpeechResumed | SpeechEnded


class Segmenter:
    """Finds where utterances start and end in a stream of per-frame speech probabilities.

    In standby it just keeps watching; :meth:`reset` with ``armed=True`` (after a wake) also starts
    a wait for the request that ends in ``NOTHING_SAID``. Every phase has a way out on the clock
    alone: the armed wait has its timeout, an utterance its cap, so a VAD that stops answering
    (``None`` forever) cannot hold an utterance open.
    """

    def __init__(self, settings: VadSettings) -> None:
        self._threshold = settings.threshold
        self._silence_below = settings.threshold - min(HYSTERESIS, settings.threshold / 2)
        self._start_speech = seconds_to_samples(settings.start_speech_seconds)
        self._start_over_reply = seconds_to_samples(settings.start_over_reply_seconds)
        self._end_silence = seconds_to_samples(settings.end_silence_seconds)
        self._min_utterance = seconds_to_samples(settings.min_utterance_seconds)
        self._max_utterance = seconds_to_samples(settings.max_utterance_seconds)
        self._no_speech_timeout = seconds_to_samples(settings.no_speech_timeout_seconds)
        self._clock = 0
        self.reset()

    @property
    def now(self) -> float:
        """Audio-clock seconds fed so far."""
        return samples_to_seconds(self._clock)

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def armed(self) -> bool:
        """Whether a wait for a request is running (it ends in an utterance or ``NOTHING_SAID``)."""
        return self._deadline is not None

    def end_after(self, silence_seconds: float) -> SpeechEnded | None:
        """End the utterance once the pause in progress has lasted ``silence_seconds`` (instead of
        ``end_silence_seconds``), as judged from what was said before it; the next pause goes
        back to the usual silence. Ignored unless paused.

        A pause that has lasted that long already ends now, and its end is returned: the words
        that judge a pause may come after the short silence they allow (live, the transcription
        runs in wall time beside the frames), and the turn then ends as they come, not at the
        next frame (up to a 64 ms block later)."""
        if self._phase is not Phase.PAUSED:
            return None
        self._end_silence_now = seconds_to_samples(silence_seconds)
        return self._ended_pause()

    def reset(self, *, armed: bool = False, in_speech: bool = False) -> None:
        """Forget any utterance in progress and refill the countdowns from now.

        ``armed`` starts a wait for a request: if no speech starts within
        ``no_speech_timeout_seconds`` the segmenter ends it with ``NOTHING_SAID``. ``in_speech``
        counts the speech going on now as an utterance from this moment, with no fresh start
        to confirm: a request said straight on from the wake phrase ("Hey Jarvis, mute") may be
        over before a new start could be.
        """
        self._phase = Phase.SPEAKING if in_speech else Phase.WAITING
        self._speech = in_speech  # the hysteresis verdict of the last known frame
        self._run_start: int | None = None  # first frame of the current run of speech
        self._run = 0  # speech samples in that run (unknown frames neither add nor break)
        self._utterance_start = self._clock
        self._speech_end = 0  # where the trailing silence began
        self._silence = 0  # trailing silence samples so far
        self._longest_pause = 0  # the longest silence the utterance went on after
        self._end_silence_now = self._end_silence  # the silence that ends this pause
        self._min_utterance_now = self._min_utterance  # shorter for one begun over a reply
        self._wait_start = self._clock
        self._deadline = self._clock + self._no_speech_timeout if armed else None

    def process(
        self, frame_seconds: float, speech_probability: float | None, *, over_reply: bool = False
    ) -> SegmenterEvent | None:
        """Consume one frame; a ``None`` probability is unknown: neither speech nor silence.

        ``over_reply``: Hearth is speaking and a person may cut in, so a shorter run of speech
        (``start_over_reply_seconds``) starts an utterance.
        """
        frame = seconds_to_samples(frame_seconds)
        if frame <= 0:
            raise ValueError(f"a frame must last at least one sample, not {frame_seconds} s")
        frame_start = self._clock
        self._clock += frame
        speech = self._classify(speech_probability)
        if self._phase is Phase.WAITING:
            start = self._start_over_reply if over_reply else self._start_speech
            event = self._waiting(frame_start, frame, speech, start)
            if isinstance(event, SpeechStarted) and over_reply:
                # Its transcript must be a stop word to act, so it is not dropped as a blip.
                self._min_utterance_now = self._start_over_reply
            return event
        if self._phase is Phase.SPEAKING:
            return self._speaking(frame_start, frame, speech)
        return self._paused(frame_start, frame, speech)

    def _classify(self, probability: float | None) -> bool | None:
        if probability is None:
            return None
        if probability >= self._threshold:
            self._speech = True
        elif probability < self._silence_below:
            self._speech = False
        return self._speech

    def _waiting(
        self, frame_start: int, frame: int, speech: bool | None, start_speech: int
    ) -> SegmenterEvent | None:
        if speech:
            if self._run_start is None:
                self._run_start = frame_start
            self._run += frame
            if self._run < start_speech:
                return None
            self._utterance_start = self._run_start
            self._enter(Phase.SPEAKING)
            return SpeechStarted(self.now, start=samples_to_seconds(self._utterance_start))
        if speech is False:
            self._run_start, self._run = None, 0
        # Checked only on a frame that is not speech, so someone who starts talking right at the
        # deadline is not cut off while the segmenter confirms the start.
        if self._deadline is not None and self._clock >= self._deadline:
            return self._end(EndReason.NOTHING_SAID, self._wait_start, self._clock)
        return None

    def _speaking(self, frame_start: int, frame: int, speech: bool | None) -> SegmenterEvent | None:
        if self._capped():
            return self._end(EndReason.CAP, self._utterance_start, self._clock)
        if speech is not False:
            return None
        self._speech_end, self._silence = frame_start, frame
        self._enter(Phase.PAUSED)
        return SpeechPaused(
            self.now,
            start=samples_to_seconds(self._utterance_start),
            end=samples_to_seconds(self._speech_end),
            longest_pause=samples_to_seconds(self._longest_pause),
        )

    def _paused(self, frame_start: int, frame: int, speech: bool | None) -> SegmenterEvent | None:
        if self._capped():
            return self._end(EndReason.CAP, self._utterance_start, self._clock)
        if speech:
            self._longest_pause = max(self._longest_pause, self._silence)
            self._enter(Phase.SPEAKING)
            return SpeechResumed(
                self.now,
                silence_start=samples_to_seconds(self._speech_end),
                silence_end=samples_to_seconds(frame_start),
            )
        if speech is False:
            self._silence += frame
        return self._ended_pause()

    def _ended_pause(self) -> SpeechEnded | None:
        """The end of the pause in progress, if it has lasted the silence that ends it."""
        if self._silence < self._end_silence_now:
            return None
        long_enough = self._speech_end - self._utterance_start >= self._min_utterance_now
        reason = EndReason.SILENCE if long_enough else EndReason.TOO_SHORT
        return self._end(reason, self._utterance_start, self._speech_end)

    def _capped(self) -> bool:
        return self._clock - self._utterance_start >= self._max_utterance

    def _end(self, reason: EndReason, start: int, end: int) -> SpeechEnded:
        event = SpeechEnded(
            self.now, reason, start=samples_to_seconds(start), end=samples_to_seconds(end)
        )
        if reason is not EndReason.TOO_SHORT:
            # The wait is over: a request was heard, or nothing was. A blip leaves it running.
            self._deadline = None
        self._enter(Phase.WAITING)
        return event

    def _enter(self, phase: Phase) -> None:
        """The one place the phase changes; a new wait for speech starts its run afresh, and a
        pause's judged end belongs to that pause."""
        if phase is Phase.WAITING:
            self._run_start, self._run = None, 0
            self._longest_pause = 0
            self._min_utterance_now = self._min_utterance
        self._end_silence_now = self._end_silence
        self._phase = phase
