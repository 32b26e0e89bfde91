"""The typed vocabulary between the supervisor and the voice process.

Commands to the voice process are imperatives (``Speak``, ``FinishReply``); reports from it are
nouns or past tense (``Heard``, ``Spoken``, ``Heartbeat``). All are small frozen dataclasses that
pickle across a multiprocessing pipe.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from audio.listener import State, Via
from audio.loudness import OutputLevel
from audio.wake_measure import WakeMeasure

# -- commands: supervisor -> voice process ---------------------------------------------------------


@dataclass(frozen=True)
class Speak:
    """Say one sentence as part of reply ``reply``; acknowledged by ``Spoken(job)`` once played."""

    job: int
    reply: int
    text: str
    voice: str | None = None
    """Piper voice name or path for this sentence (the personality card's); None: settings."""
    speed: float | None = None
    announcement: bool = False
    """Said outside any conversation (Home Assistant's announce): held until nobody is in the
    middle of a request or a reply, then said with the microphone closed."""


@dataclass(frozen=True)
class FinishReply:
    """Reply ``reply`` has no more sentences: open the follow-up window once they are spoken."""

    reply: int
    context: str = ""
    """The exchange just had, given to speech-to-text so a short follow-up is heard in context."""
    answer_phrases: dict[str, str] = field(default_factory=dict)
    """When the reply asked a closed question: choice name -> spoken answer, scored on the audio."""
    hotwords: tuple[str, ...] = ()
    """Words to bias recognition toward for the next utterance (the answers' values)."""
    spelling: bool = False
    """The next utterance may spell a word letter by letter: read it as letters too."""


@dataclass(frozen=True)
class SetHotwords:
    """Names to bias recognition toward from now on (the wake name is always included)."""

    words: tuple[str, ...]


@dataclass(frozen=True)
class StandDown:
    """Reply ``reply`` will not come: another Hearth answers the request. Back to standby
    silently (no follow-up window)."""

    reply: int


@dataclass(frozen=True)
class TakeBack:
    """The last request's turn was withdrawn (its speaker went on, or woke Hearth again, before
    the reply began): hear it again whole with what they are saying now, or the new request."""


@dataclass(frozen=True)
class Shutdown:
    """Stop: finish the sentence being spoken, then exit."""


@dataclass(frozen=True)
class SetOutput:
    """Play every sound from now on at ``level`` (the volume, and the output mute)."""

    level: OutputLevel


@dataclass(frozen=True)
class SetMicrophone:
    """Close (``muted``) or open the microphone: while closed the room is not heard at all, the
    wake word included."""

    muted: bool


@dataclass(frozen=True)
class StopSaying:
    """Stop what is being said now, and what is waiting to be said, as a spoken "stop" over a
    reply does (Home Assistant's stop button)."""


@dataclass(frozen=True)
class Ring:
    """Ring for schedule item ``item`` (a timer or an alarm that came due) until a ``StopRing``
    for it, or a stop word said over the ring (reported as ``RingStopped``).

    The ring begins at the first quiet moment: never in the middle of a sentence Hearth is
    saying or of a request someone is making. Ringing an item that already rings changes
    nothing, so a ring sent again after a restart never rings twice."""

    item: int


@dataclass(frozen=True)
class StopRing:
    """End the ring of ``item`` (every ring when None); the sound stops once none is left."""

    item: int | None = None


@dataclass(frozen=True)
class HoldAt:
    """File mode: hear the recording no further than audio second ``t`` until a later hold (None:
    no hold), reporting ``Held`` on reaching it.

    The supervisor's schedule runs on the audio clock: it holds the voice loop at the next moment
    something may come due, decides it there, and releases the loop after sending what it
    decided, so a ring lands at the same sample every run."""

    t: float | None


Command = (
    Speak
    | FinishReply
    | StandDown
    | TakeBack
    | SetHotwords
    | Shutdown
    | SetOutput
    | SetMicrophone
    | StopSaying
    | Ring
    | StopRing
    | HoldAt
)

# -- reports: voice process -> supervisor ----------------------------------------------------------


@dataclass(frozen=True)
class Ready:
    """Models are loaded and the input is open."""

    live: bool


class JobKind(StrEnum):
    """Long work the voice process does, each held to a deadline of its own."""

    TRANSCRIBE = "transcribe"
    """On the loop's thread: it blocks the loop, so heartbeats and frames pause meanwhile."""
    SPEAK = "speak"
    """A synthesis (Piper making the next piece of a sentence) on the speech worker's thread:
    the loop beats and hears on meanwhile."""

    @property
    def blocks_the_loop(self) -> bool:
        """Whether heartbeats and frames may stand still while it runs."""
        return self is JobKind.TRANSCRIBE


@dataclass(frozen=True)
class Job:
    """Long work in progress (see :class:`JobKind`), announced in the heartbeats."""

    kind: JobKind
    started: float
    """On the monotonic clock."""
    deadline: float | None = None
    """Seconds this one may take, when the voice process knows better than the configured
    deadline for its kind (a synthesis, from the pace learned so far). The supervisor holds it
    to no less than the heartbeat timeout and no more than the configured deadline."""
    speak_job: int | None = None
    """A synthesis: the ``Speak.job`` whose sentence is being made, so a sentence that kills the
    voice process is known by its number."""


@dataclass(frozen=True)
class Heartbeat:
    """Sent from the voice loop itself, so it stops when the loop is stuck."""

    frames: int
    """Audio frames consumed so far: stalls when a live device stops delivering."""
    t: float
    state: State
    """The listener's state."""
    jobs: tuple[Job, ...] = ()
    """Jobs in progress."""
    waiting: bool = False
    """File mode waiting for the reply: frames stand still on purpose."""


@dataclass(frozen=True)
class Heard:
    """An utterance to answer."""

    text: str
    via: Via
    t: float
    answer_scores: dict[str, float] = field(default_factory=dict)
    wake: WakeMeasure | None = None
    """How well the wake word that opened it was heard (a request after a wake word)."""
    spelled: str = ""
    """After a question whose answer may be spelled: the utterance read as letters, when
    likelier than ``text`` ("V I M." for "We I am.")."""


@dataclass(frozen=True)
class WentOn:
    """The speaker of the last request went on at audio second ``t``, or the wake word was said
    again (``wake``), before its reply began: withdraw its turn if it has said and done nothing
    (answered with ``TakeBack``)."""

    t: float
    wake: bool = False


@dataclass(frozen=True)
class Spoken:
    """Sentence ``job`` has been played to the end (or cut off by a stop word)."""

    job: int
    interrupted: bool = False


@dataclass(frozen=True, eq=False)
class Played:
    """File mode: a sound on the audio clock, for the supervisor's output timelines."""

    at_sample: int
    samples: Any
    """16 kHz mono int16 numpy array."""
    by: str = "hearth"
    """``hearth`` for what Hearth said; ``room`` for a scripted room's line (the demo)."""


@dataclass(frozen=True)
class Record:
    """One line of the event stream from the voice side: ``{"t", "event", ...}``."""

    fields: dict[str, Any]


@dataclass(frozen=True)
class InputEnded:
    """The input recording is finished (file mode); the voice process exits after this."""

    t: float


@dataclass(frozen=True)
class Failed:
    """The voice process cannot go on (a model failed to load, a device is unusable)."""

    reason: str
    retry: bool = True
    """False when a restart cannot help (a missing model): the supervisor gives up at once."""


@dataclass(frozen=True)
class Held:
    """File mode: the audio clock reached the hold at ``t`` (seconds) and waits there."""

    t: float


class RingEnd(StrEnum):
    """Why a ring stopped in the voice process itself."""

    STOP_WORD = "stop_word"
    """A person stopped it: a stop word said over it, or Home Assistant's stop button."""
    TIMEOUT = "timeout"
    """It rang past the listener's longest ring with no word from the supervisor (a backstop)."""


@dataclass(frozen=True)
class RingStopped:
    """The rings of ``items`` stopped at audio second ``t`` without a ``StopRing``."""

    items: tuple[int, ...]
    t: float
    by: RingEnd


Report = (
    Ready
    | Heartbeat
    | Heard
    | WentOn
    | Spoken
    | Played
    | Record
    | InputEnded
    | Failed
    | Held
    | RingStopped
)
