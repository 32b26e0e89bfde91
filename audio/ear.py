"""Hearing a request: what a transcription is given, what it gives back, and who makes it.

The voice loop hears a request in two steps. At a pause it begins a transcription on the hearing
worker (``audio.hearing_worker``) in case the pause ends the request: a :class:`Speculation`,
whose words then say how long a silence ends the pause, and whose end the ear may weigh as well
(``audio.end_of_turn``). At the end of the utterance the loop takes that transcription, or
transcribes afresh.

Either way the work is handed an immutable :class:`TranscriptionRequest`, read on the loop's
thread when it begins: the loop goes on changing its own state meanwhile. :class:`HearingCues`
decides what a request carries besides the audio (pure: no audio device, no clock), and
:class:`Ear` carries it out, reading nothing but the request.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from audio.end_of_turn import UNFINISHED_NEXT_WORDS, TurnShape, turn_shape
from audio.format import seconds_to_samples
from audio.messages import FinishReply
from audio.remote import Hearing
from audio.segmenter import EndReason, SpeechEnded, SpeechPaused
from audio.stt import EndReadings, SpeechToText, may_be_spelled
from support import Failpoint, Failpoints

REQUEST_AFTER_WAKE_SECONDS = 0.6
"""Audio after the wake word at least this long is heard again alone when the transcript of the
whole held only the wake phrase."""
CONTEXT_MAX_SECONDS = 2.0
"""Follow-ups up to this long (speech, without the pre-roll) are transcribed with the last exchange
as context."""


@dataclass(frozen=True)
class TranscriptionRequest:
    """Everything a transcription on the worker needs, read on the loop's thread when it began:
    the loop goes on changing its own fields meanwhile."""

    samples: np.ndarray
    hotwords: tuple[str, ...]
    context: str
    answer_phrases: dict[str, str] = field(default_factory=dict)
    """A closed question's answers to score on the audio (a follow-up after one), else none."""
    answer_context: str = ""
    wake_end: int = 0
    """Where in ``samples`` the wake word was detected, when they begin with its phrase; else 0."""
    weigh_end: bool = False
    """Begun at a pause the ear judges (``end_of_turn.weighs_by_ear``): words that read as
    complete are weighed by it too."""
    spelling: bool = False
    """A follow-up to a question whose answer may be spelled: read as letters too."""


@dataclass(frozen=True)
class EndToWeigh:
    """What the ear weighs at a pause: the words, the audio they were heard in and the model that
    heard them (``SpeechToText.end_readings``)."""

    model: SpeechToText
    samples: np.ndarray
    text: str
    hotwords: tuple[str, ...]
    context: str

    def readings(self) -> EndReadings | None:
        """Run on the worker: how likely the words are to end where they do."""
        return self.model.end_readings(
            self.samples, self.text, UNFINISHED_NEXT_WORDS,
            hotwords=self.hotwords, context=self.context,
        )  # fmt: skip


@dataclass(frozen=True)
class Transcription:
    """What a transcription heard."""

    text: str
    scores: dict[str, float]
    seconds: float = 0.0
    """Wall time the transcription took."""
    began: float = 0.0
    """When it began (monotonic)."""
    to_weigh: EndToWeigh | None = None
    """At a pause, for words that read as complete: what the ear may weigh (None: nothing)."""
    avg_logprob: float = 0.0
    """Whisper's average log probability of the words' tokens (closer to 0 is surer)."""
    spelled: str = ""
    """Where a spelled answer was possible: the utterance read as letters ("V I M."), when
    that reading is likelier than the free one; else empty."""


class Judging(Enum):
    """How far the judgement of a pause has come."""

    WORDS = "words"
    """Its transcription is still to be read."""
    EAR = "ear"
    """Its words have set the silence that ends the pause; the ear's reading may lengthen it."""
    DONE = "done"
    """Judged: nothing more will change the silence."""


@dataclass
class Speculation:
    """The transcription begun at a pause, in case the pause is the end of the request."""

    pause: SpeechPaused
    future: Future[Transcription]
    judging: Judging = Judging.WORDS
    submitted: float = field(default_factory=time.monotonic)
    """When it was handed to the worker (monotonic): a trace tells the queue from the work."""
    readings: Future[EndReadings | None] | None = None
    """The ear's reading of where the words end, once asked for."""

    def cancel(self) -> None:
        """Drop the work still waiting for the worker: the transcription, or the ear's reading
        of its end (a running one finishes, unread)."""
        self.future.cancel()
        if self.readings is not None:
            self.readings.cancel()


class HearingCues:
    """What the conversation so far lends a transcription besides its audio: the names to listen
    for, the last exchange as context, a closed question's answers, and the words of a request
    the length cap cut."""

    def __init__(
        self,
        wake_names: Iterable[str],
        hotwords: Iterable[str],
        *,
        end_silence_seconds: float,
        pre_roll_samples: int,
    ):
        self._wake_names = tuple(wake_names)
        self._hotwords = tuple(hotwords)
        """The settings' hot words."""
        self._end_silence_seconds = end_silence_seconds
        self._pre_roll = pre_roll_samples
        self._known_names: tuple[str, ...] = ()
        """The names memory knows (the supervisor sends them)."""
        self._exchange = ""
        """The last exchange, as context for a short follow-up."""
        self._answer: FinishReply | None = None
        """The reply just finished, when it asked a closed question or one spelled back."""
        self._cut: tuple[float, str] | None = None
        """Where the last request was cut at the length cap, and its transcript."""

    def names(self, *, wake_names: bool = True) -> tuple[str, ...]:
        """The names a transcription is given: the wake names (unless ``wake_names`` is false),
        the settings' hot words and the names memory knows."""
        wake = self._wake_names if wake_names else ()
        return (*wake, *self._hotwords, *self._known_names)

    def set_known_names(self, names: tuple[str, ...]) -> None:
        """The names memory knows, from now on."""
        self._known_names = names

    def reply_finished(self, finish: FinishReply) -> None:
        """A reply is over: its exchange is the context, and a question in it awaits its answer."""
        self._exchange = finish.context
        self._answer = finish if finish.answer_phrases or finish.spelling else None

    def conversation_ended(self) -> None:
        """The conversation is over: what was said in it lends nothing to the next."""
        self._answer = None
        self._exchange = ""

    def request_heard(self, end: SpeechEnded, text: str) -> None:
        """A request was taken with ``text``: remembered if the length cap cut it."""
        self._cut = (end.end, text) if end.reason is EndReason.CAP else None

    def request(
        self,
        samples: np.ndarray,
        wake_end: int,
        start: float,
        *,
        listening: bool,
        follow_up: bool,
        weigh_end: bool = False,
    ) -> TranscriptionRequest:
        """The request to transcribe ``samples`` (the utterance from ``start``, with its pre-roll
        and, when ``wake_end``, the wake phrase before it): ``listening`` when heard after the
        wake word, ``follow_up`` when in the window after a reply (or a request taken back that
        was one); ``weigh_end`` at a pause where the ear's reading of the end judges the turn."""
        # The request said after a pause that keeps it apart from the wake phrase holds no wake
        # name, and as a prompt the name pulled Whisper toward another way of writing ("What's
        # 37.67-75.7?" for a real speaker's "... minus 75.7"). A follow-up keeps it: with the
        # last exchange as context, short follow-ups were heard worse without it (measured).
        apart_from_wake = listening and not follow_up and not wake_end
        hotwords = self.names(wake_names=not apart_from_wake)
        answer = self._answer if follow_up else None
        if answer is not None:
            hotwords = (*answer.hotwords, *hotwords)
        # A short follow-up ("And what about Uganda?") needs the last exchange to be heard right;
        # a longer one carries its own context, and the prompt would only pull it toward words
        # said before ("my editor is Vim" heard as "... has been" after an unrelated exchange).
        # Measured without the pre-roll: a slow "And what about Uganda?" (1.6 s) is still short.
        short = len(samples) - self._pre_roll <= seconds_to_samples(CONTEXT_MAX_SECONDS)
        context = self._said_just_before(start) or (self._exchange if follow_up and short else "")
        answers = answer.answer_phrases if answer is not None else {}
        return TranscriptionRequest(
            samples, hotwords, context, dict(answers), self._exchange if answers else "",
            wake_end, weigh_end=weigh_end, spelling=answer is not None and answer.spelling,
        )  # fmt: skip

    def _said_just_before(self, start: float) -> str:
        """What the speaker said just before ``start``, if their speech runs on from a request the
        cap cut: Whisper, given a piece that begins mid-sentence with no prompt, stops after its
        first sentence (a 15 s piece of a monologue came back as "is coming over with his new
        girlfriend."). A pause short of an utterance's end still counts as running on."""
        if self._cut is None:
            return ""
        cut_at, text = self._cut
        return text if start - cut_at < self._end_silence_seconds else ""


class Ear:
    """Carries out a :class:`TranscriptionRequest`, on the hearing worker or the loop."""

    def __init__(self, stt: Hearing, request_words: Callable[[str], str], failpoints: Failpoints):
        self._stt = stt
        self._request_words = request_words
        """A transcript without a leading wake phrase (the listener's; its phrases never change,
        so it is safe off the loop's thread)."""
        self._failpoints = failpoints

    def transcribe(self, request: TranscriptionRequest) -> Transcription:
        """Hear ``request``: it reads nothing of the loop but the request."""
        began = time.monotonic()
        self._failpoints.crash_if(Failpoint.TRANSCRIBE_CRASH)
        stt = self._stt
        samples = heard_in = request.samples
        transcript = stt.transcribe(samples, hotwords=request.hotwords, context=request.context)
        rest = samples[request.wake_end :] if request.wake_end else samples[:0]
        if len(rest) >= seconds_to_samples(REQUEST_AFTER_WAKE_SECONDS) and not (
            self._request_words(transcript.text).strip()
        ):
            # Whisper, given the wake phrase, a pause and then the request, may write the wake
            # phrase's sentence and stop ("Hey, Jarvis." for a whole request across a room):
            # the speech after the wake is heard again on its own.
            heard_in = rest
            transcript = stt.transcribe(rest, hotwords=request.hotwords, context=request.context)
        # Read as letters by the local model only: a service's transcript reports no
        # likelihood to weigh the letters against. The brain judges whether they were spelled.
        spelled = ""
        if request.spelling and isinstance(stt, SpeechToText) and may_be_spelled(transcript.text):
            letters = stt.spelled(heard_in)
            if letters is not None and letters.avg_logprob > transcript.avg_logprob:
                spelled = letters.text  # "V I M." where the free reading was "We I am."
        scores = {}
        if request.answer_phrases:
            scores = stt.score(samples, request.answer_phrases, context=request.answer_context)
        to_weigh = None
        # Weighed by the model that wrote the words, and only by it: a service's transcript would
        # cost a device that hands its hearing off a local encoding at every pause.
        if request.weigh_end and isinstance(stt, SpeechToText):
            words = self._request_words(transcript.text)
            if turn_shape(words) is TurnShape.COMPLETE:
                to_weigh = EndToWeigh(
                    stt, heard_in, transcript.text, request.hotwords, request.context
                )
        return Transcription(
            transcript.text, scores, time.monotonic() - began, began, to_weigh,
            transcript.avg_logprob, spelled,
        )  # fmt: skip
