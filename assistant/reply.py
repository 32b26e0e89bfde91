"""A reply as the brain produces it: sentences to say, notes, an awaited answer, a new volume."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from audio import OutputLevel, Via, WakeMeasure


@dataclass(frozen=True)
class HeardUtterance:
    """What the person said, as the voice side heard it."""

    text: str
    via: Via = Via.WAKE
    t: float = 0.0
    """Audio-clock seconds at the end of the utterance."""
    answer_scores: dict[str, float] = field(default_factory=dict)
    """When an answer was awaited: how well each answer phrase fits the audio (by choice name)."""
    wake: WakeMeasure | None = None
    """A request after a wake word: how well the wake word was heard (the household's
    arbitration compares it with the other Hearths')."""
    spelled: str = ""
    """After a question whose answer may be spelled: the utterance read as letters, when the
    ear found that likelier than ``text`` (``fact_repair.as_meant`` judges which was meant)."""


@dataclass(frozen=True)
class Sentence:
    """One sentence to say, as soon as it is known."""

    text: str


@dataclass(frozen=True)
class Note:
    """Something worth a line in the event stream (memory action, conflict question, error)."""

    event: str
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class AwaitAnswer:
    """The reply ends with a question whose short answer comes from a closed set.

    The voice side biases recognition toward ``hotwords`` and scores each phrase against the
    audio of the next utterance.
    """

    phrases: dict[str, str]
    """Choice name -> a natural spoken answer for it."""
    hotwords: tuple[str, ...]
    spelling: bool = False
    """The answer may be a word spelled letter by letter ("V I M"): the voice side reads the
    next utterance as letters too, and keeps that reading where it is the likelier one."""


@dataclass(frozen=True)
class Defer:
    """Another Hearth answers this request: say nothing, and go back to standby."""


@dataclass(frozen=True)
class VolumeSet:
    """Hearth's output level changed (kept already): play at it from now on, sentences after
    this one included."""

    level: OutputLevel


@dataclass(frozen=True)
class RoutineAsk:
    """A routine came due: its prompt goes to the model, and the answer is said (or, silent,
    only recorded)."""

    item_id: int
    prompt: str
    silent: bool = False
    t: float = 0.0
    """Audio-clock seconds it came due at (the clock in its prompt)."""


@dataclass(frozen=True)
class RoutineResult:
    """How a routine's run went: the model's answer, or why there was none."""

    item_id: int
    text: str = ""
    failure: str = ""
    """Why the model gave no answer (unreachable, too slow, an error); empty when it answered."""
    spoken_failure: str = ""
    """The same, as said aloud."""

    @property
    def answered(self) -> bool:
        """The model answered (what it said is said, or recorded when silent)."""
        return not self.failure


ReplyPart = Sentence | Note | AwaitAnswer | Defer | VolumeSet | RoutineResult
