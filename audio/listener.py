"""The conversation's state machine, on the audio clock.

A pure object: the pipeline hands it typed input events (a verified wake, the segmenter's speech
events, transcripts, the reply's start and end, clock ticks), each stamped with audio-clock seconds,
and gets back a tuple of typed output events to act on and to write to the JSONL event stream. It
never reads a clock, so a 25-second follow-up window is tested in milliseconds.

Timing decisions (see also :class:`Listener`):

- The follow-up window is ``follow_up_seconds`` from the moment speaking ends, as DESIGN.md says
  ("for 25 seconds after it speaks"); the auto-mute settle is inside it, not added to it.
- Speech that *began* before the window's deadline is taken, however late it ends. The segmenter
  confirms a start ``start_speech_seconds`` after it began, so a window with nobody talking closes
  that much after its deadline, when no start from before it can still be reported.
- Listening after a wake gives up on the segmenter's ``NOTHING_SAID`` and goes back to standby, not
  to a follow-up window: the user asked for attention and said nothing, so the conversation is over.
- A ring (a timer's, an alarm's) is a state of its own: the loop begins one only in standby or
  in a window nobody is speaking in, and while it rings a stop word ends it without the wake word;
  nothing else said then is taken as a request (a kitchen talks over a timer).
- Every state but standby has a way out on the clock alone, so no lost input leaves Hearth deaf:
  listening ends when no request can still be under way (the wait for speech, the longest
  utterance and a margin); thinking after ``reply_wait_seconds`` with no reply begun, speaking
  after as long with nothing of the reply said or made (:class:`Tick`'s ``saying``), both with an
  apology (:class:`ReplyAbandoned`); a window held for an utterance once the longest one is over.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import ClassVar

from audio.phrase import find_phrase, wake_name
from audio.segmenter import ClockEvent, EndReason, SpeechEnded, SpeechStarted
from audio.stt import DOUBTFUL_PHRASES
from config import ListenerSettings, VadSettings

logger = logging.getLogger(__name__)

_APOSTROPHES = "'\u2019"
_WORD = re.compile(rf"[^\W_]+(?:[{_APOSTROPHES}][^\W_]+)*")
_DROP_APOSTROPHES = str.maketrans("", "", _APOSTROPHES)
_FILLERS = frozenset({"please", "ok", "okay", "oh", "um", "uh", "no", "just", "now"})
"""Words allowed around a stop word: "Okay, stop." and "No, never mind." are still stop words."""
_STOP_MAX_WORDS = 8
"""A stop word is a short utterance on its own; anything longer is a request that mentions one."""
_LEADING_PUNCTUATION = " \t\n,.;:!?-\u2013\u2014\u2026"
SPEECH_MARGIN_SECONDS = 1.0
"""Beyond the longest utterance (and the wait for it), before a listening state stops waiting for
its transcript: more than the segmenter takes to confirm an end (a frame or two)."""
APOLOGY = "Sorry, I got no answer."


class State(StrEnum):
    """Where the conversation is."""

    STANDBY = "standby"
    """Only a wake word opens a conversation; speech without one earns at most a hint."""
    LISTENING = "listening"
    """Woken: waiting for the request."""
    THINKING = "thinking"
    """A request was taken; the pipeline is preparing the reply."""
    SPEAKING = "speaking"
    """The reply is being spoken."""
    FOLLOW_UP = "follow_up"
    """After a reply: a request needs no wake word until the window closes."""
    RINGING = "ringing"
    """A timer or an alarm rings: a stop word, with no wake word, ends it."""


class Via(StrEnum):
    """How a request was taken."""

    WAKE = "wake"
    FOLLOW_UP = "follow_up"
    SCHEDULE = "schedule"
    """Not heard: the schedule asked (a routine's prompt, an announcement of a due item)."""


class FollowUpCloseReason(StrEnum):
    """Why a follow-up window closed."""

    TIMEOUT = "timeout"
    UTTERANCE = "utterance"
    """A request was taken in it."""
    WAKE = "wake"
    """The wake word was said in it: listening starts afresh."""
    STOP_WORD = "stop_word"
    RING = "ring"
    """A timer or an alarm began to ring in it."""


class ConversationEndReason(StrEnum):
    """Why the conversation went back to standby."""

    STOP_WORD = "stop_word"
    TIMEOUT = "timeout"
    """The follow-up window passed with nothing said."""
    NOTHING_SAID = "nothing_said"
    """Woken, then nothing (or nothing Whisper could hear) was said."""
    NO_REPLY = "no_reply"
    """A request was taken and its reply never came, or stopped coming."""
    DEFERRED = "deferred"
    """Another Hearth heard the same wake word better and answers it."""
    RING = "ring"
    """A ring began in the follow-up window."""


# Inputs: what the pipeline tells the listener. The segmenter's SpeechStarted and SpeechEnded are
# inputs too, passed on as they are.


@dataclass(frozen=True)
class WakeDetected:
    """A wake detection that passed verification, at audio-clock second ``t``."""

    t: float


@dataclass(frozen=True)
class WakeRefused:
    """A wake model fired at audio-clock second ``t`` and verification refused the detection."""

    t: float


@dataclass(frozen=True)
class Transcript:
    """What was said in the utterance ``start``..``end``; empty when Whisper heard nothing."""

    t: float
    text: str
    start: float
    end: float


@dataclass(frozen=True)
class ReplyStarted:
    """The first audio of a reply (an answer or a spoken error) is playing."""

    t: float


@dataclass(frozen=True)
class ReplyFinished:
    """The reply is done, or there was nothing to say (a command answered with an earcon only).

    ``asks_question`` marks a reply that ended in a question (a memory conflict): it is passed on to
    :class:`FollowUpOpened` so the pipeline can bias recognition towards the expected answers.
    """

    t: float
    asks_question: bool = False


@dataclass(frozen=True)
class TakenBack:
    """The request's turn was withdrawn after :class:`WentOnAsked`: it had said and done
    nothing. The request is heard again whole, with what its speaker is saying now; or, when it
    was asked for by the wake word, a new request is heard in its place."""

    t: float


@dataclass(frozen=True)
class Deferred:
    """The request is another Hearth's to answer: back to standby without a word."""

    t: float


@dataclass(frozen=True)
class Tick:
    """Audio time passed with nothing else to report; lets a window close at its deadline."""

    t: float
    saying: bool = False
    """A reply's speech is playing or being made: the reply is going on."""


@dataclass(frozen=True)
class StopRequested:
    """Stop was asked from outside the room's audio (Home Assistant's stop button): it acts as a
    stop word heard at ``t`` would, in every state where one would be heard."""

    t: float


@dataclass(frozen=True)
class RingStarted:
    """A ring began to sound (the loop begins one only in standby or a quiet window)."""

    t: float


@dataclass(frozen=True)
class RingOver:
    """Every ring has stopped (the schedule ended them)."""

    t: float


ListenerInput = (
    WakeDetected
    | WakeRefused
    | SpeechStarted
    | SpeechEnded
    | Transcript
    | ReplyStarted
    | ReplyFinished
    | TakenBack
    | Deferred
    | Tick
    | StopRequested
    | RingStarted
    | RingOver
)


# Outputs: what the pipeline acts on and logs, in the order it should act on them.


@dataclass(frozen=True)
class WakeAccepted(ClockEvent):
    """Listening for a request (again): play the wake earcon, arm the segmenter's wait."""

    event: ClassVar[str] = "wake"


@dataclass(frozen=True)
class UtteranceHeard(ClockEvent):
    """A request to answer, taken ``via`` a wake or the follow-up window."""

    event: ClassVar[str] = "utterance"
    text: str
    via: Via
    start: float
    end: float


@dataclass(frozen=True)
class WentOnAsked(ClockEvent):
    """The speaker of the request just taken went on at ``start``, before its reply began: ask
    for the turn back, to hear the request whole (answered with :class:`TakenBack`, if at all)."""

    event: ClassVar[str] = "went_on_asked"
    start: float
    wake: bool = False
    """Asked for by the wake word said again: the speaker starts over ("Hey Jarvis, stop", or
    a request said better), and a new request takes the turn's place."""


@dataclass(frozen=True)
class RequestReopened(ClockEvent):
    """The request taken at ``start`` is heard again, from there to the end of what its speaker
    is saying now; they paused from ``paused_from`` to ``went_on_at``."""

    event: ClassVar[str] = "request_reopened"
    start: float
    paused_from: float
    went_on_at: float
    via: Via


@dataclass(frozen=True)
class HintGiven(ClockEvent):
    """Someone spoke in standby without the wake word: say ``text`` quietly."""

    event: ClassVar[str] = "hint"
    text: str


@dataclass(frozen=True)
class FollowUpOpened(ClockEvent):
    """Requests need no wake word if they begin before ``until``."""

    event: ClassVar[str] = "follow_up_open"
    until: float
    after_question: bool


@dataclass(frozen=True)
class FollowUpClosed(ClockEvent):
    event: ClassVar[str] = "follow_up_close"
    reason: FollowUpCloseReason


@dataclass(frozen=True)
class ConversationEnded(ClockEvent):
    """Back to standby: play the end-of-listening earcon."""

    event: ClassVar[str] = "conversation_end"
    reason: ConversationEndReason


@dataclass(frozen=True)
class ReplyAbandoned(ClockEvent):
    """The reply never came, or stopped coming: drop what is left of it and say ``text``."""

    event: ClassVar[str] = "reply_abandoned"
    text: str


@dataclass(frozen=True)
class StopSpeaking(ClockEvent):
    """Barge-in: cut the reply short now."""

    event: ClassVar[str] = "stop_speaking"


@dataclass(frozen=True)
class StopRinging(ClockEvent):
    """A person's stop (a stop word over the ring, Home Assistant's stop button), or the longest
    ring passed: end every ring now."""

    event: ClassVar[str] = "stop_ringing"
    timed_out: bool = False


@dataclass(frozen=True)
class StateChanged(ClockEvent):
    event: ClassVar[str] = "state"
    old: State
    new: State


ListenerOutput = (
    WakeAccepted
    | UtteranceHeard
    | WentOnAsked
    | RequestReopened
    | HintGiven
    | FollowUpOpened
    | FollowUpClosed
    | ConversationEnded
    | ReplyAbandoned
    | StopSpeaking
    | StopRinging
    | StateChanged
)

RING_STOP_WORDS = (
    "stop the timer",
    "stop the alarm",
    "stop it",
    "stop ringing",
    "turn it off",
    "turn off the timer",
    "turn off the alarm",
    "cancel",
    "cancel it",
    "dismiss",
    "enough",
    "shut up",
    "i'm up",
    "thanks",
)
"""Said over a ring, these stop it as the stop words do (over a reply they would be requests)."""


class Listener:
    """Standby, listening, thinking, speaking and the follow-up window, driven by :meth:`handle`.

    Contract with the pipeline:

    - Pass the segmenter's events for a frame before that frame's :class:`Tick`.
    - Pass a standby utterance's :class:`~audio.segmenter.SpeechEnded` only once any wake detection
      inside it has been verified or refused (a refusal passed as :class:`WakeRefused`), so a
      slow verification does not earn a hint, nor does an utterance in which a wake model fired:
      whoever said it was talking to Hearth, and "Say Jarvis first" would tell them they had not.
    - On :class:`WakeAccepted`, arm the segmenter (``reset(armed=True)``); its ``NOTHING_SAID`` is
      how listening gives up. Do not arm it in the follow-up window, which has its own deadline.
    - Ignore the microphone while :meth:`microphone_open` says so.
    - Tick every frame, saying whether a reply's speech is playing or being made; on
      :class:`ReplyAbandoned`, drop the rest of the reply and say its text.

    Transcripts are ignored while thinking; while speaking they and wake words count only with
    barge-in. Speech that begins while thinking, soon after the request was taken, is its speaker
    going on: :class:`WentOnAsked` asks for the turn back, and on :class:`TakenBack` the request is
    heard again from its start (:class:`RequestReopened`) to the end of what is said now. The wake
    word while thinking asks for the turn back too, and on :class:`TakenBack` a new request is
    listened for; a turn that has said or done something is not given back, and is answered.

    A failed reply is still a reply: the pipeline speaks the error between
    :class:`ReplyStarted` and :class:`ReplyFinished` and the follow-up window opens after it.
    """

    def __init__(
        self,
        settings: ListenerSettings,
        vad: VadSettings,
        wake_phrases: Sequence[str],
        ring_seconds: float = 900.0,
    ) -> None:
        if not wake_phrases:
            raise ValueError("the listener needs at least one wake phrase")
        self._settings = settings
        self._wake_phrases = tuple(wake_phrases)
        self._hint_text = f"Say {wake_name(wake_phrases[0])} first"
        self._confirm_seconds = vad.start_speech_seconds
        longest = vad.max_utterance_seconds + SPEECH_MARGIN_SECONDS
        self._limits = {
            State.LISTENING: vad.no_speech_timeout_seconds + longest,
            State.THINKING: settings.reply_wait_seconds,
            State.SPEAKING: settings.reply_wait_seconds,
            State.RINGING: ring_seconds,
        }
        """How long each waiting state lasts with nothing to show for it."""
        self._hold_limit = longest
        # Barge-in must hear the wake or stop word over the reply, so it keeps the microphone open.
        self._mute = settings.auto_mute and not settings.barge_in
        self._handlers: dict[State, Callable[[ListenerInput], list[ListenerOutput]]] = {
            State.STANDBY: self._standby,
            State.LISTENING: self._listening,
            State.THINKING: self._thinking,
            State.SPEAKING: self._speaking,
            State.FOLLOW_UP: self._follow_up,
            State.RINGING: self._ringing,
        }
        self._state = State.STANDBY
        self._until = 0.0  # the follow-up window's deadline
        self._holding = False  # the window waits for an utterance that began before its deadline
        self._closed_until = 0.0  # auto-mute settle: the microphone stays closed until then
        self._last_hint: float | None = None
        self._no_hints_until = 0.0
        """After deferring: the follow-ups said to the Hearth that answers earn no hint here."""
        self._refused_at: float | None = None  # the last refused wake detection in standby
        self._gives_up_at: float | None = None  # the waiting state's timed exit
        self._taken: UtteranceHeard | None = None  # the last request taken
        self._went_on_at: float | None = None  # thinking: its speaker went on here
        self._woken_at: float | None = None  # thinking: the wake word was said again here
        self._withdrawn: UtteranceHeard | None = None
        """Listening after the wake word took its turn back: the request, asked again if
        nothing new is said."""
        self._reopened: RequestReopened | None = None  # listening: it is heard again whole

    @property
    def state(self) -> State:
        return self._state

    def handle(self, event: ListenerInput) -> tuple[ListenerOutput, ...]:
        """Take one input; return what happened, in the order the pipeline should act on it."""
        outputs: list[ListenerOutput] = []
        if self._gives_up_at is not None and event.t >= self._gives_up_at:
            # Waited too long: the event finds the state already left, and is not acted on (a
            # late utterance is not to earn a hint just after its wake word was accepted).
            return tuple(self._give_up(event.t))
        # An event past the deadline finds the window already closed, ticked or not.
        if self._window_expired(event):
            outputs += self._end(event.t, ConversationEndReason.TIMEOUT)
        outputs += self._handlers[self._state](event)
        # The event may have released the window after its deadline (a blip, an empty transcript).
        if self._window_expired(event):
            outputs += self._end(event.t, ConversationEndReason.TIMEOUT)
        return tuple(outputs)

    def request_words(self, text: str) -> str:
        """``text`` without a leading wake phrase: the words of the request."""
        return self._strip(text)

    def interrupts(self, text: str) -> bool:
        """Whether ``text``, heard over a reply being spoken (with barge-in) or over a ring, stops
        it: the voice loop need not wait for the end of the utterance to know."""
        if self._state is State.RINGING:
            return self._stops_ring(self._strip(text))
        barging = self._state is State.SPEAKING and self._settings.barge_in
        return barging and self._stops_reply(self._strip(text))

    def microphone_open(self, t: float) -> bool:
        """Whether audio at ``t`` is heard: with auto-mute, not while speaking nor settling."""
        if not self._mute:
            return True
        return self._state is not State.SPEAKING and t >= self._closed_until

    def _standby(self, event: ListenerInput) -> list[ListenerOutput]:
        match event:
            case WakeDetected(t=t):
                return [WakeAccepted(t), self._change(State.LISTENING, t)]
            case WakeRefused(t=t):
                self._refused_at = t
            case SpeechEnded(t=t) if event.is_utterance:
                refused, self._refused_at = self._refused_at, None
                if refused is not None and refused >= event.start:
                    return []  # a wake model fired in it (see the class's contract)
                return self._hint_maybe(t)
            case RingStarted(t=t):
                return [self._change(State.RINGING, t)]
        return []

    def _ringing(self, event: ListenerInput) -> list[ListenerOutput]:
        # A wake word alone does not stop a ring: its transcript ("Hey Jarvis, stop") decides.
        match event:
            case Transcript(t=t, text=text) if self._stops_ring(self._strip(text)):
                return [StopRinging(t), self._change(State.STANDBY, t)]
            case StopRequested(t=t):
                return [StopRinging(t), self._change(State.STANDBY, t)]
            case RingOver(t=t):
                return [self._change(State.STANDBY, t)]
        return []

    def _listening(self, event: ListenerInput) -> list[ListenerOutput]:
        match event:
            case WakeDetected(t=t):
                # Said again: still listening, but the segmenter's wait starts afresh, for a
                # new request (not the one being heard again).
                self._gives_up_at = t + self._limits[State.LISTENING]
                self._reopened = None
                return [WakeAccepted(t)]
            case SpeechEnded(t=t, reason=EndReason.NOTHING_SAID):
                return self._nothing_said(t)
            case Transcript():
                reopened = self._reopened
                return self._request(event, reopened.via if reopened else Via.WAKE)
        return []

    def _thinking(self, event: ListenerInput) -> list[ListenerOutput]:
        match event:
            case SpeechStarted(t=t, start=start) if self._may_go_on(start):
                # The latest ask is what a turn given back answers; the first start stays where
                # the speaker went on (an ask refused while the turn was still being prepared).
                self._woken_at = None
                if self._went_on_at is None:
                    self._went_on_at = start
                return [WentOnAsked(t, start)]
            case WakeDetected(t=t) if self._taken is not None:
                # Said while the model thinks: whoever said it wants a new turn, if this one
                # can still be dropped (nothing said or done); else it is answered, as before.
                self._woken_at = t
                return [WentOnAsked(t, t, wake=True)]
            case TakenBack(t=t) if self._woken_at is not None:
                change = self._change(State.LISTENING, t)
                self._withdrawn = self._taken
                return [WakeAccepted(t), change]
            case TakenBack(t=t) if self._taken is not None and self._went_on_at is not None:
                taken = self._taken
                reopened = RequestReopened(t, taken.start, taken.end, self._went_on_at, taken.via)
                change = self._change(State.LISTENING, t)
                self._reopened = reopened
                return [reopened, change]
            case ReplyStarted(t=t):
                return [self._change(State.SPEAKING, t)]
            case ReplyFinished():
                return self._open_window(event, spoke=False)
            case Deferred(t=t):
                self._no_hints_until = t + self._settings.follow_up_seconds
                return self._end(t, ConversationEndReason.DEFERRED)
        return []

    def _speaking(self, event: ListenerInput) -> list[ListenerOutput]:
        barge_in = self._settings.barge_in
        match event:
            case Tick(t=t, saying=True):
                self._gives_up_at = t + self._limits[State.SPEAKING]
            case ReplyFinished():
                return self._open_window(event, spoke=True)
            case WakeDetected(t=t) if barge_in:
                return [StopSpeaking(t), WakeAccepted(t), self._change(State.LISTENING, t)]
            case Transcript(t=t, text=text) if barge_in and self._stops_reply(self._strip(text)):
                return [StopSpeaking(t), *self._end(t, ConversationEndReason.STOP_WORD)]
            case StopRequested(t=t):
                return [StopSpeaking(t), *self._end(t, ConversationEndReason.STOP_WORD)]
        return []

    def _follow_up(self, event: ListenerInput) -> list[ListenerOutput]:
        match event:
            case WakeDetected(t=t):
                return self._wake_in_window(t)
            case SpeechStarted():
                # Only starts from before the deadline get here (see _window_expired).
                self._holding = True
            case SpeechEnded():
                # A finished utterance still owes its transcript; a blip frees the window.
                self._holding = event.is_utterance
            case Transcript():
                return self._request(event, Via.FOLLOW_UP)
            case StopRequested(t=t):
                return self._end(t, ConversationEndReason.STOP_WORD)
            case RingStarted(t=t):
                return [
                    FollowUpClosed(t, FollowUpCloseReason.RING),
                    ConversationEnded(t, ConversationEndReason.RING),
                    self._change(State.RINGING, t),
                ]
        return []

    def _request(self, event: Transcript, via: Via) -> list[ListenerOutput]:
        """A transcript while listening or in the window: a request, a stop word, or nothing.

        The wake phrase is stripped in both: in the window it is the wake word, not words of the
        request, and after a wake the pre-roll may carry its tail into the request's audio.
        """
        t = event.t
        text = self._strip(event.text)
        if self._is_stop(text):
            return self._end(t, ConversationEndReason.STOP_WORD)
        if not text and _words(event.text):
            # Only the wake phrase: the wake word, said again or said to start a follow-up.
            if via is Via.FOLLOW_UP:
                return self._wake_in_window(t)
            self._gives_up_at = t + self._limits[State.LISTENING]
            return [WakeAccepted(t)]
        if not text:
            if via is Via.WAKE or self._state is State.LISTENING:
                return self._nothing_said(t)
            # Whisper heard nothing: the window stays open until its own deadline.
            self._holding = False
            return []
        heard = UtteranceHeard(t, text, via, start=event.start, end=event.end)
        self._taken = heard
        return [
            *self._closing(t, FollowUpCloseReason.UTTERANCE),
            heard,
            self._change(State.THINKING, t),
        ]

    def _may_go_on(self, start: float) -> bool:
        """Whether speech that began at ``start``, while thinking, goes on with the request just
        taken: it began after the request's end and soon enough after the turn was taken, and
        nothing of the reply has begun.

        The window counts from the taking, not from the request's end: a request that trailed
        off ("what's the capital of ...") was taken only after the long trailing silence, and a
        speaker still looking for the word then finds it a moment later."""
        taken = self._taken
        window = self._settings.went_on_seconds
        return window > 0 and taken is not None and taken.end <= start <= taken.t + window

    def _wake_in_window(self, t: float) -> list[ListenerOutput]:
        closed = self._closing(t, FollowUpCloseReason.WAKE)
        return [*closed, WakeAccepted(t), self._change(State.LISTENING, t)]

    def _open_window(self, event: ReplyFinished, *, spoke: bool) -> list[ListenerOutput]:
        """The follow-up window after a reply; the microphone settles only after one that was
        spoken: with nothing said there is no echo to die down, and a speaker who goes on past
        the cap (answered at once, with nothing) would lose the words said meanwhile."""
        t = event.t
        self._until = t + self._settings.follow_up_seconds
        self._closed_until = t + (self._settings.settle_seconds if spoke else 0.0)
        opened = FollowUpOpened(t, until=self._until, after_question=event.asks_question)
        return [opened, self._change(State.FOLLOW_UP, t)]

    def _window_expired(self, event: ListenerInput) -> bool:
        if self._state is not State.FOLLOW_UP:
            return False
        if self._holding:
            # Held for an utterance that began in time: none lasts longer than this.
            return event.t >= self._until + self._hold_limit
        if isinstance(event, SpeechStarted):
            # Judged by when the speech began, not by when the segmenter confirmed it.
            return event.start >= self._until
        return event.t >= self._until + self._confirm_seconds

    def _nothing_said(self, t: float) -> list[ListenerOutput]:
        """Listening heard no request. After the wake word took a turn back ("Hey Jarvis?" said
        to a slow answer), the request it took is asked again rather than lost."""
        withdrawn = self._withdrawn
        if withdrawn is None:  # (only ever set while listening)
            return self._end(t, ConversationEndReason.NOTHING_SAID)
        heard = replace(withdrawn, t=t)
        change = self._change(State.THINKING, t)
        self._taken = heard
        return [heard, change]

    def _give_up(self, t: float) -> list[ListenerOutput]:
        """A waiting state's time is up: listening heard no request, or the reply never came."""
        if self._state is State.LISTENING:
            # A backstop behind the segmenter's own "nothing said": the clock alone ends it.
            return self._end(t, ConversationEndReason.NOTHING_SAID)
        if self._state is State.RINGING:
            return [StopRinging(t, timed_out=True), self._change(State.STANDBY, t)]
        return [ReplyAbandoned(t, APOLOGY), *self._end(t, ConversationEndReason.NO_REPLY)]

    def _end(self, t: float, reason: ConversationEndReason) -> list[ListenerOutput]:
        """Back to standby, closing the window first if the conversation was in one."""
        outputs: list[ListenerOutput] = []
        if self._state is State.FOLLOW_UP:
            # Only a stop word or the deadline end a conversation from the window, and the two
            # enums spell those alike.
            outputs.append(FollowUpClosed(t, FollowUpCloseReason(reason.value)))
        return [*outputs, ConversationEnded(t, reason), self._change(State.STANDBY, t)]

    def _closing(self, t: float, reason: FollowUpCloseReason) -> list[ListenerOutput]:
        """The window's close, when a request or a wake takes the conversation out of it."""
        return [FollowUpClosed(t, reason)] if self._state is State.FOLLOW_UP else []

    def _hint_maybe(self, t: float) -> list[ListenerOutput]:
        interval = self._settings.hint_interval_seconds
        if interval == 0 or (self._last_hint is not None and t - self._last_hint < interval):
            return []
        if t < self._no_hints_until:
            return []
        self._last_hint = t
        return [HintGiven(t, self._hint_text)]

    def _strip(self, text: str) -> str:
        for phrase in self._wake_phrases:
            stripped = strip_wake_phrase(text, phrase)
            if stripped != text:
                return stripped
        return text.strip()

    def _is_stop(self, text: str) -> bool:
        return is_stop_phrase(text, self._settings.stop_words)

    def _stops_reply(self, text: str) -> bool:
        return stops_reply(text, self._settings.stop_words)

    def _stops_ring(self, text: str) -> bool:
        return is_stop_phrase(text, (*self._settings.stop_words, *RING_STOP_WORDS))

    def _change(self, new: State, t: float) -> StateChanged:
        """The one place the state changes; the returned event is its record."""
        old, self._state = self._state, new
        self._holding = False  # a hold belongs to the window it was made in
        # as do a speaker going on or waking it again, and a request reopened or withdrawn
        self._went_on_at = self._woken_at = self._reopened = self._withdrawn = None
        limit = self._limits.get(new)
        self._gives_up_at = None if limit is None else t + limit
        logger.info("listener %s -> %s at %.3f s", old, new, t)
        return StateChanged(t, old, new)


def _normalized(word: str) -> str:
    return word.lower().translate(_DROP_APOSTROPHES)


def _words(text: str) -> list[str]:
    """Lower-case words without punctuation or apostrophes ("That's" and "thats" agree)."""
    return [_normalized(word) for word in _WORD.findall(text)]


def strip_wake_phrase(text: str, phrase: str) -> str:
    """``text`` without a leading wake phrase, forgiving about punctuation, case and the greeting.

    "Hey, Jarvis. What time is it?" -> "What time is it?"; "Hi Jarvis what's on" -> "what's on"
    (Whisper's greeting need not match the phrase's). The name is matched by sound, as the wake
    verification matches it ("Hey Jervis, ..."). Text that does not start with the wake name
    comes back unchanged.
    """
    span = find_phrase(text, phrase, at_start=True)
    if span is None:
        return text
    return text[span[1] :].lstrip(_LEADING_PUNCTUATION)


def stops_reply(text: str, stop_words: Iterable[str]) -> bool:
    """Whether ``text``, heard over a reply being spoken (with barge-in), stops it: a stop
    phrase with a stop word in it that Whisper does not invent on noise. Those it does
    (``audio.stt.DOUBTFUL_PHRASES``: "thank you") may go with one ("That's all, thank you.").

    Over a reply Whisper hears AEC3's output, and it wrote what the canceller left of the echo,
    and of people talking over it, as "Thank you." in 7 of 90 stretches where nobody said a stop
    word (``python -m bench.echo --stop``, full set), each time stopping the reply. Said after the
    reply, "thank you" alone still ends the conversation.
    """
    invented = [word for word in stop_words if " ".join(_words(word)) in DOUBTFUL_PHRASES]
    kept = [word for word in stop_words if word not in invented]
    return is_stop_phrase(text, kept, also_fillers=invented)


def is_stop_phrase(text: str, stop_words: Iterable[str], also_fillers: Iterable[str] = ()) -> bool:
    """Whether the whole short utterance is a stop word, not a sentence that contains one.

    Case, punctuation and apostrophes do not matter; a few filler words may surround it ("Okay,
    stop.", "No, never mind."), it may be repeated ("Stop, stop!") or chained ("Thank you, that's
    all."), and a phrase may come back as one word ("Nevermind."). "Stop the music" is a request.
    ``also_fillers``: more words or phrases allowed around the stop words.
    """
    said = _words(text)
    if not said or len(said) > _STOP_MAX_WORDS:
        return False
    phrases = set()
    for stop_word in stop_words:
        words = _words(stop_word)
        if words:
            phrases |= {" ".join(words) + " ", "".join(words) + " "}
    if not phrases:
        return False
    stop = "|".join(re.escape(phrase) for phrase in sorted(phrases))
    fillers = {*_FILLERS, *(" ".join(_words(phrase)) for phrase in also_fillers)}
    filler = "|".join(re.escape(word + " ") for word in sorted(fillers) if word)
    pattern = f"(?:{filler})*(?:(?:{stop})(?:{filler})*)+"
    return re.fullmatch(pattern, "".join(word + " " for word in said)) is not None
