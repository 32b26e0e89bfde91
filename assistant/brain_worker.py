"""The brain on a thread of its own, so the supervisor's loop keeps watching the voice process.

The thread builds everything the brain touches (the database connection, the model client, the
learner) and is the only one to use them. Turns go in through ``ask``; reply parts come out,
tagged with their reply number, through ``take``; the worker is readable (``fileno``) while
``take`` has something, so the supervisor's loop can sleep on it and on the voice process's pipe
at once and forward a sentence the moment it is known.

It reports progress as the voice process does: every piece of the model's stream (``Progress``)
and every part of the reply, so the supervisor can tell a slow turn from a stuck one. A stuck
worker cannot be stopped (a Python thread cannot be killed); the supervisor closes it without
waiting and starts another, which builds a brain of its own. The stuck thread keeps its own
memory connection, never shared: SQLite connections belong to the thread that made them, each
write is a transaction (so a thread stuck mid-turn leaves no half-write), and WAL lets the new
brain read and write beside it. If the stuck thread ever returns, it finds the close request and
shuts its brain down on its own thread.
"""

from __future__ import annotations

import logging
import queue
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from assistant.brain import Brain
from assistant.reply import (
    AwaitAnswer,
    Defer,
    HeardUtterance,
    Note,
    RoutineAsk,
    RoutineResult,
    Sentence,
    VolumeSet,
)
from assistant.turn_gate import TurnGate, TurnWithdrawn
from assistant.wake_queue import WakeQueue
from audio import trace
from memory import Fact, Kind, MemoryUnavailable, StoreError
from support import Failpoint, Failpoints

log = logging.getLogger(__name__)

MAX_HOTWORDS = 20
TURN_FAILED = "Sorry, something went wrong there."


@dataclass(frozen=True)
class SpeakText:
    """A sentence to say in the card's voice."""

    text: str
    voice: str | None
    speed: float | None


@dataclass(frozen=True)
class ReplyEnd:
    """The reply is complete."""


@dataclass(frozen=True)
class KnownNames:
    """Names the memory knows, for speech recognition to spell right."""

    words: tuple[str, ...]


@dataclass(frozen=True)
class CardVoice:
    """The personality card's voice, for what is said outside a turn (a reminder when due)."""

    voice: str | None
    speed: float | None


@dataclass(frozen=True)
class Progress:
    """A piece of the model's stream arrived: the turn is alive, though nothing is said yet."""


@dataclass(frozen=True)
class BrainFailed:
    """The brain could not be built; this worker answers nothing."""

    message: str


WorkerOutput = (
    SpeakText
    | Note
    | AwaitAnswer
    | Defer
    | VolumeSet
    | RoutineResult
    | ReplyEnd
    | KnownNames
    | CardVoice
    | Progress
    | BrainFailed
)
Job = HeardUtterance | RoutineAsk
"""A turn: an utterance to answer, or a routine to run."""


class BrainWorker:
    """Runs ``Brain.respond`` for one utterance at a time on a dedicated thread.

    ``generation`` counts the brains built in this run (0 first); failpoints are armed by it.
    """

    def __init__(
        self,
        make_brain: Callable[[], Brain],
        generation: int = 0,
        environ: Mapping[str, str] | None = None,
    ):
        self.generation = generation
        self._failpoints = Failpoints.from_environment(generation, environ)
        self._make_brain = make_brain
        self._inbox: queue.Queue[tuple[int, Job] | None] = queue.Queue()
        self._outbox: WakeQueue[tuple[int, WorkerOutput]] = WakeQueue()
        self._ready = threading.Event()
        self._closed = False
        self._turn = 0
        """The reply being answered; the worker thread's alone."""
        self._gates: dict[int, TurnGate] = {}
        """The gates of the utterances asked and not yet answered, by reply number."""
        self.error: BaseException | None = None
        self._thread = threading.Thread(
            target=self._work, name=f"hearth-brain-{generation}", daemon=True
        )
        self._thread.start()

    @property
    def alive(self) -> bool:
        """True while the thread runs (a closed worker stuck in a turn is still alive)."""
        return self._thread.is_alive()

    def wait_ready(self, timeout: float) -> bool:
        """Block until the brain is built (or failed: see ``error``)."""
        return self._ready.wait(timeout)

    def ask(self, reply: int, heard: HeardUtterance) -> None:
        """Queue an utterance to answer as reply number ``reply``."""
        self._gates[reply] = TurnGate()
        self._inbox.put((reply, heard))

    def withdraw(self, reply: int) -> bool:
        """Take back the utterance of reply ``reply`` if its turn has said and done nothing
        (``assistant.turn_gate``): it then puts nothing more, not even its end. Whether it was
        taken back."""
        gate = self._gates.get(reply)
        return gate is not None and gate.withdraw()

    def run_routine(self, reply: int, routine: RoutineAsk) -> None:
        """Queue a routine to run as reply number ``reply`` (its answer is said as that reply)."""
        self._inbox.put((reply, routine))

    def fileno(self) -> int:
        """Readable while ``take`` has reply parts (and once after it took them: harmless)."""
        return self._outbox.fileno()

    def take(self) -> Iterator[tuple[int, WorkerOutput]]:
        """Reply parts produced so far, without waiting."""
        return self._outbox.take()

    def close(self, timeout: float = 10.0) -> None:
        """Finish the turn in progress (waiting up to ``timeout``; 0: not at all, for a stuck
        one), then close the memory and stop the thread. Closing twice is harmless."""
        if self._closed:
            return
        self._closed = True
        self._inbox.put(None)
        if timeout > 0:
            self._thread.join(timeout)
        self._outbox.close()

    def _put(self, reply: int, part: WorkerOutput) -> None:
        self._outbox.put((reply, part))

    def _work(self) -> None:
        try:
            brain = self._make_brain()
        except BaseException as error:
            log.error("cannot build the brain: %s", error)
            log.debug("building the brain failed", exc_info=True)
            self.error = error
            self._ready.set()
            self._put(0, BrainFailed(str(error) or type(error).__name__))
            return
        self._ready.set()
        brain.client = _ReportingClient(brain.client, self._piece_arrived)
        try:
            self._send_known_names(brain, 0)
            self._put(0, _card_voice(brain))
            while (item := self._inbox.get()) is not None:
                self._turn, job = item
                self._answer(brain, self._turn, job)
                self._gates.pop(self._turn, None)
                self._send_known_names(brain, self._turn)
                self._put(self._turn, _card_voice(brain))
        finally:
            brain.close()

    def _send_known_names(self, brain: Brain, reply: int) -> None:
        """The names the memory knows, for the ear; while it cannot be reached the ear keeps
        the names it has (the brain tells the person)."""
        try:
            facts = brain.memory.facts()
        except MemoryUnavailable:
            return
        except StoreError as error:  # the names are a help to the ear, never worth a turn
            log.warning("cannot read the names the memory knows: %s", error)
            return
        self._put(reply, KnownNames(known_names(facts)))

    def _piece_arrived(self) -> None:
        self._put(self._turn, Progress())

    def _answer(self, brain: Brain, reply: int, job: Job) -> None:
        self._failpoints.hang_if(Failpoint.BRAIN_HANG)
        routine = isinstance(job, RoutineAsk)
        gate = self._gates.get(reply) or TurnGate()  # a routine's is never withdrawn
        parts = brain.run_routine(job) if isinstance(job, RoutineAsk) else brain.respond(job, gate)
        try:
            for part in parts:
                if not isinstance(part, Note):
                    gate.commit()  # from here on the turn is said and done, not taken back
                if isinstance(part, Sentence):
                    if trace.ENABLED:
                        mark = {"mark": "sentence_ready", "at": time.monotonic()}
                        self._put(reply, Note("trace", mark))
                    voice = brain.card.voice if brain.card else None
                    part = SpeakText(
                        part.text,
                        voice.piper_voice if voice else None,
                        voice.speed if voice else None,
                    )
                self._put(reply, part)
            gate.commit()
        except TurnWithdrawn:
            parts.close()
            log.info("reply %d withdrawn: its speaker went on, or woke Hearth again", reply)
            return
        except Exception as error:  # a bug in a turn must not silence Hearth for good
            log.exception("the turn failed")
            self._put(reply, Note("error", {"what": "turn", "message": str(error)}))
            self._put(reply, SpeakText(TURN_FAILED, None, None))
            if routine:  # said once; never tried again into the same bug
                self._put(reply, RoutineResult(job.item_id, TURN_FAILED))
        self._put(reply, ReplyEnd())


def _card_voice(brain: Brain) -> CardVoice:
    voice = brain.card.voice if brain.card else None
    return CardVoice(voice.piper_voice if voice else None, voice.speed if voice else None)


class _ReportingClient:
    """The brain's model client, reporting each piece of a streamed reply as it arrives.

    Everything but ``chat_stream`` goes to the client itself.
    """

    def __init__(self, inner: Any, on_piece: Callable[[], None]):
        self._inner = inner
        self._on_piece = on_piece

    def chat_stream(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        for piece in self._inner.chat_stream(*args, **kwargs):
            self._on_piece()
            yield piece

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def known_names(facts: list[Fact]) -> tuple[str, ...]:
    """Capitalised names in the remembered facts ("Priya", "Lisbon", "Emacs"), newest last.

    A capital inside a sentence marks a name; a sentence's first word counts only in facts about
    people and places ("Priya is my sister"), where it usually is one.
    """
    names: dict[str, None] = {}
    for fact in facts:
        if fact.text is None:
            continue
        words = re.findall(r"[\w'-]+", fact.text)
        first_is_name = fact.kind in (Kind.PERSON, Kind.PLACE)
        for index, word in enumerate(words):
            if word[:1].isupper() and word not in _NOT_NAMES and (index or first_is_name):
                names.pop(word, None)
                names[word] = None
    return tuple(names)[-MAX_HOTWORDS:]


_NOT_NAMES = frozenset("I I'm I've I'll I'd My The He She They We Our Her His It".split())
