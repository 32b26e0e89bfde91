"""What Hearth says, sentence by sentence: the playback half of the voice loop, as pure code.

A state machine in the manner of :mod:`audio.listener`: the voice loop hands it typed inputs (a
sentence to say, the reply's end, a piece of speech made, the mouth falling free, a barge-in) and
acts on the typed outputs it returns (make this sentence, play this piece, this sentence is said).
It runs no model, plays nothing and reads no clock, so every order of events is tested in
microseconds; the loop does the work (a worker thread makes the speech, the mouth plays it).

How far it looks ahead: one sentence is made at a time, and at most one sentence beyond the one
being said, so the next sentence is ready when this one ends, and a barge-in wastes at most one
sentence of Piper's work. A sentence is begun (its reply has started) once its first piece is made;
a piece is played only when the mouth is free, since an earcon may be playing.

Rings (a timer's, an alarm's) share the mouth: a ring waits for a quiet moment, when no sentence
is begun, made or queued and the loop says nobody is in the middle of a request (``MouthFree``'s
``quiet``); then it plays period after period until every item ringing is cleared. Sentences that
arrive meanwhile wait behind it (one is made ahead, as always) and are said once it stops.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum

from audio.messages import FinishReply, Speak
from audio.tts import SpeechChunk, SpeechParameters

log = logging.getLogger(__name__)


class Phase(StrEnum):
    """What the mouth's side of the voice loop is doing."""

    IDLE = "idle"
    """No sentence is begun (one may be queued behind the synthesis of a dropped one)."""
    MAKING = "making"
    """The next sentence's first piece is being made; nothing of it plays yet."""
    READY = "ready"
    """The sentence being said waits for the mouth: its next piece is made, or nothing is left."""
    PLAYING = "playing"
    """A piece of the sentence being said is on the mouth."""
    GAP = "gap"
    """The sentence's last piece played and its next is still being made (Piper slower than speech:
    live only, since file mode waits for every synthesis)."""
    RINGING = "ringing"
    """A ring is on the mouth, period after period; sentences wait behind it."""


# Inputs ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SentenceQueued:
    """The supervisor sent a sentence to say (or the loop a local one: a negative job number)."""

    job: Speak


@dataclass(frozen=True)
class ReplyEnding:
    """The supervisor sent the reply's end: no more sentences will come for it."""

    finish: FinishReply


@dataclass(frozen=True)
class PieceMade:
    """The worker made the next piece for the :class:`Synthesize` numbered ``token``."""

    token: int
    chunk: SpeechChunk


@dataclass(frozen=True)
class SentenceMade:
    """The worker made every piece for ``token`` (or gave up on the rest, see ``failure``)."""

    token: int
    failure: str = ""
    """Why the rest of the sentence cannot be made (a missing voice, a bad speaker number)."""


@dataclass(frozen=True)
class MouthFree:
    """Nothing is playing: a piece, an earcon or a hint has been heard to its end."""

    quiet: bool = False
    """Nobody is in the middle of a request (the listener is not taking one): a ring may begin."""


@dataclass(frozen=True)
class RingQueued:
    """Ring for schedule item ``item`` (once: an item already ringing, or waiting to, is kept)."""

    item: int


@dataclass(frozen=True)
class RingCleared:
    """Stop ringing for ``item`` (None: for every item), for the reason ``by``."""

    item: int | None
    by: str


@dataclass(frozen=True)
class CutOff:
    """Barge-in: stop now and drop the rest of the reply."""


@dataclass(frozen=True)
class Stop:
    """Shutdown: finish the sentence being said, drop what was not begun (the supervisor keeps it),
    and take nothing more."""


PlaybackInput = (
    SentenceQueued
    | ReplyEnding
    | PieceMade
    | SentenceMade
    | MouthFree
    | RingQueued
    | RingCleared
    | CutOff
    | Stop
)


# Outputs -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Synthesize:
    """Make the speech for ``job`` on the worker: an immutable request, nothing shared."""

    token: int
    """Names this request in the worker's answers (local sentences share a job number)."""
    job: Speak
    params: SpeechParameters
    starts_reply: bool
    """The sentence begins a reply, so a long one is cut at its first clause to be heard sooner."""


@dataclass(frozen=True)
class Began:
    """``job`` is now the sentence being said (its first piece is made): a reply has started."""

    job: Speak


@dataclass(frozen=True)
class Play:
    """Put ``chunk`` on the mouth now; ``first``: the sentence's first piece (``speak_start``)."""

    job: Speak
    chunk: SpeechChunk
    first: bool


@dataclass(frozen=True)
class Said:
    """``job`` was played to its end; ``more``: another sentence is queued or begun after it."""

    job: Speak
    more: bool


@dataclass(frozen=True)
class NotMade:
    """Part of ``job`` could not be made (``message`` says why); the rest of it is skipped."""

    job: Speak
    message: str


@dataclass(frozen=True)
class Dropped:
    """``job`` will not be said (barge-in, or its reply was cut): acknowledge it as interrupted."""

    job: Speak


@dataclass(frozen=True)
class Abandon:
    """Stop making ``token`` after its current piece: nobody will hear it."""

    token: int


@dataclass(frozen=True)
class Silence:
    """Stop the mouth now (barge-in)."""


@dataclass(frozen=True)
class ReplyDone:
    """Every sentence of the reply has been said and the mouth is free: ``finish`` ends it."""

    finish: FinishReply


@dataclass(frozen=True)
class RingBegan:
    """``items`` ring from now on (the first ones at a quiet moment, or joining a ring)."""

    items: tuple[int, ...]


@dataclass(frozen=True)
class PlayRing:
    """Put one period of the ring on the mouth now."""


@dataclass(frozen=True)
class RingEnded:
    """``items`` no longer ring (``by`` says why); ``sound_over``: nothing rings any more."""

    items: tuple[int, ...]
    by: str
    sound_over: bool


PlaybackOutput = (
    Synthesize
    | Began
    | Play
    | Said
    | NotMade
    | Dropped
    | Abandon
    | Silence
    | ReplyDone
    | RingBegan
    | PlayRing
    | RingEnded
)


@dataclass
class _Sentence:
    """A sentence taken from the queue: its pieces as they are made, until each has played."""

    job: Speak
    token: int
    pieces: deque[SpeechChunk] = field(default_factory=deque)
    made: bool = False
    """Every piece is made (or the rest could not be)."""
    sounded: bool = False
    """Its first piece has been put on the mouth."""


class Playback:
    """Sentences in, speech out, driven by :meth:`handle`; one instance per voice process.

    Contract with the loop:

    - Carry out every :class:`Synthesize` on the worker, one at a time, in order, and hand back
      each :class:`PieceMade` and then one :class:`SentenceMade` for it.
    - Hand in :class:`MouthFree` whenever the mouth is free (as often as it likes: it is ignored
      when there is nothing to play), and carry out :class:`Play` at once.
    """

    def __init__(self, params: SpeechParameters) -> None:
        self._params = params
        self._phase = Phase.IDLE
        self._queue: deque[Speak] = deque()
        self._current: _Sentence | None = None
        """The sentence being said (begun)."""
        self._next: _Sentence | None = None
        """The sentence after it, taken from the queue to be made."""
        self._making: int | None = None
        """The token of the request the worker is carrying out, if any (perhaps a dropped one)."""
        self._tokens = 0
        self._finish: FinishReply | None = None
        self._reply: int | None = None
        """The reply whose sentences were last taken to be made."""
        self._cut_replies: set[int] = set()
        self._stopping = False
        self._rings: list[int] = []
        """Items to ring, in the order they came: ringing (phase RINGING) or waiting to."""

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def ringing(self) -> tuple[int, ...]:
        """The items ringing now (empty while a ring waits for its quiet moment)."""
        return tuple(self._rings) if self._phase is Phase.RINGING else ()

    @property
    def rings_waiting(self) -> bool:
        """A ring waits for a quiet moment to begin."""
        return bool(self._rings) and self._phase is not Phase.RINGING

    @property
    def saying(self) -> Speak | None:
        """The sentence being said, if any."""
        return self._current.job if self._current is not None else None

    @property
    def idle(self) -> bool:
        """Nothing is begun, being made to be said, or queued."""
        return self._current is None and self._next is None and not self._queue

    @property
    def finishing(self) -> bool:
        """The end of a reply has arrived and waits for its sentences to be said."""
        return self._finish is not None

    @property
    def making(self) -> bool:
        """The worker is making speech (perhaps for a sentence already dropped)."""
        return self._making is not None

    def handle(self, event: PlaybackInput) -> tuple[PlaybackOutput, ...]:
        """Take one input; return what to do, in order."""
        outputs: list[PlaybackOutput] = []
        match event:
            case SentenceQueued(job=job):
                self._queued(job, outputs)
            case ReplyEnding(finish=finish):
                if finish.reply not in self._cut_replies and not self._stopping:
                    self._finish = finish
            case PieceMade(token=token, chunk=chunk):
                self._piece_made(token, chunk, outputs)
            case SentenceMade(token=token, failure=failure):
                self._sentence_made(token, failure, outputs)
            case MouthFree(quiet=quiet):
                self._mouth_free(outputs)
                if quiet:
                    self._ring_maybe(outputs)
            case RingQueued(item=item):
                self._ring_queued(item, outputs)
            case RingCleared(item=item, by=by):
                self._ring_cleared(item, by, outputs)
            case CutOff():
                self._cut_off(outputs)
            case Stop():
                self._stop(outputs)
        self._request(outputs)
        return tuple(outputs)

    # -- inputs ------------------------------------------------------------------------------------

    def _queued(self, job: Speak, outputs: list[PlaybackOutput]) -> None:
        if job.reply in self._cut_replies or self._stopping:
            outputs.append(Dropped(job))
        else:
            self._queue.append(job)

    def _piece_made(self, token: int, chunk: SpeechChunk, outputs: list[PlaybackOutput]) -> None:
        sentence = self._sentence(token)
        if sentence is None:
            return  # made for a sentence dropped meanwhile
        sentence.pieces.append(chunk)
        if sentence is self._next and self._current is None and not self._ring_sounding():
            self._begin(outputs)
        elif sentence is self._current and self._phase is Phase.GAP:
            self._change(Phase.READY)

    def _sentence_made(self, token: int, failure: str, outputs: list[PlaybackOutput]) -> None:
        if token == self._making:
            self._making = None
        sentence = self._sentence(token)
        if sentence is None:
            return
        sentence.made = True
        if failure:
            outputs.append(NotMade(sentence.job, failure))
        if sentence is self._next and self._current is None and not self._ring_sounding():
            self._begin(outputs)  # nothing could be made: it is begun and ends at once
        elif sentence is self._current and self._phase is Phase.GAP:
            self._change(Phase.READY)

    def _mouth_free(self, outputs: list[PlaybackOutput]) -> None:
        if self._phase is Phase.RINGING:
            outputs.append(PlayRing())
        elif self._phase is Phase.PLAYING:
            current = self._current
            assert current is not None
            if current.pieces:
                self._play(outputs)
            elif not current.made:
                self._change(Phase.GAP)
            else:
                self._end_sentence(outputs)
        elif self._phase is Phase.READY:
            current = self._current
            assert current is not None
            if current.pieces:
                self._play(outputs)
            else:
                self._end_sentence(outputs)
        elif self._phase is Phase.IDLE and self.idle and self._finish is not None:
            finish, self._finish = self._finish, None
            outputs.append(ReplyDone(finish))

    def _cut_off(self, outputs: list[PlaybackOutput]) -> None:
        ringing = self._phase is Phase.RINGING
        if not ringing:  # a ring is not a reply: only its own stop ends it
            outputs.append(Silence())
        if self._making is not None:
            outputs.append(Abandon(self._making))
        if self._reply is not None and self._reply >= 0:  # local speech is never cut for good
            self._cut_replies.add(self._reply)
        begun = [s.job for s in (self._current, self._next) if s is not None]
        outputs.extend(Dropped(job) for job in (*begun, *self._queue))
        self._current = self._next = None
        self._queue.clear()
        self._finish = None
        self._reply = None
        if not ringing:
            self._change(Phase.IDLE)

    def _stop(self, outputs: list[PlaybackOutput]) -> None:
        self._stopping = True
        self._queue.clear()  # what was not begun stays with the supervisor
        self._finish = None
        if self._next is not None and self._next.token == self._making:
            outputs.append(Abandon(self._next.token))
        self._next = None
        self._ring_cleared(None, "shutdown", outputs)  # the schedule rings it again after
        if self._current is None:
            self._change(Phase.IDLE)

    # -- the work ----------------------------------------------------------------------------------

    def _request(self, outputs: list[PlaybackOutput]) -> None:
        """Give the worker the next sentence, if it is free and nothing is already made ahead."""
        if self._making is not None or self._next is not None or not self._queue:
            return
        job = self._queue.popleft()
        starts_reply = job.reply != self._reply
        self._reply = job.reply
        self._tokens += 1
        self._next = _Sentence(job, self._tokens)
        self._making = self._tokens
        params = SpeechParameters(
            voice=job.voice or self._params.voice,
            speed=job.speed or self._params.speed,
            speaker=self._params.speaker,
            volume=self._params.volume,
        )
        outputs.append(Synthesize(self._tokens, job, params, starts_reply))
        if self._current is None and self._phase is not Phase.RINGING:
            self._change(Phase.MAKING)

    # -- rings -------------------------------------------------------------------------------------

    def _ring_queued(self, item: int, outputs: list[PlaybackOutput]) -> None:
        if item in self._rings or self._stopping:
            return
        self._rings.append(item)
        if self._phase is Phase.RINGING:
            outputs.append(RingBegan((item,)))  # joins the ring already sounding

    def _ring_maybe(self, outputs: list[PlaybackOutput]) -> None:
        """A quiet moment: a waiting ring begins if nothing is being said or about to be."""
        if (
            self._rings
            and self._phase is Phase.IDLE
            and self.idle
            and self._finish is None
            and self._making is None
        ):
            self._change(Phase.RINGING)
            outputs.append(RingBegan(tuple(self._rings)))
            outputs.append(PlayRing())

    def _ring_cleared(self, item: int | None, by: str, outputs: list[PlaybackOutput]) -> None:
        ended = tuple(ring for ring in self._rings if item is None or ring == item)
        if not ended:
            return
        self._rings = [ring for ring in self._rings if ring not in ended]
        sounding = self._phase is Phase.RINGING
        over = sounding and not self._rings
        outputs.append(RingEnded(ended, by, sound_over=over))
        if not over:
            return
        outputs.append(Silence())
        following = self._next
        if following is not None and (following.pieces or following.made):
            self._begin(outputs)  # what waited behind the ring is said now
        else:
            self._change(Phase.MAKING if following is not None else Phase.IDLE)

    def _ring_sounding(self) -> bool:
        """A ring is sounding: sentences made meanwhile wait for it to end."""
        return self._phase is Phase.RINGING

    def _begin(self, outputs: list[PlaybackOutput]) -> None:
        """The sentence made ahead becomes the one being said; it plays once the mouth is free."""
        self._current, self._next = self._next, None
        assert self._current is not None
        outputs.append(Began(self._current.job))
        self._change(Phase.READY)

    def _play(self, outputs: list[PlaybackOutput]) -> None:
        current = self._current
        assert current is not None
        chunk = current.pieces.popleft()
        outputs.append(Play(current.job, chunk, first=not current.sounded))
        current.sounded = True
        self._change(Phase.PLAYING)

    def _end_sentence(self, outputs: list[PlaybackOutput]) -> None:
        current = self._current
        assert current is not None
        self._current = None
        following = self._next
        outputs.append(Said(current.job, more=following is not None or bool(self._queue)))
        if following is not None and (following.pieces or following.made):
            self._begin(outputs)
        elif following is not None:
            self._change(Phase.MAKING)
        else:
            self._change(Phase.IDLE)
            self._mouth_free(outputs)  # the mouth is free: a reply end waiting for it is done now

    def _sentence(self, token: int) -> _Sentence | None:
        for sentence in (self._current, self._next):
            if sentence is not None and sentence.token == token:
                return sentence
        return None

    def _change(self, phase: Phase) -> None:
        """The one place the phase changes."""
        if phase is not self._phase:
            log.debug("playback %s -> %s", self._phase, phase)
            self._phase = phase
