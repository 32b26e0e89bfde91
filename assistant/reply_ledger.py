"""The reply ledger: what Hearth owes the room, so a restart loses nothing and repeats nothing.

Each utterance opens a reply. Its sentences become numbered ``Speak`` commands, kept until the
voice process says each was played (``Spoken``); its end becomes a ``FinishReply``. After a voice
process dies, everything not yet acknowledged is sent again, in order, once: the sentences, then
the ends of the replies they belong to. A sentence that was being made when the voice process died
twice is not sent into the same fault a third time: a short note is said in its place. Pure: the
supervisor sends what it returns.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import dataclass, field, replace

from assistant.reply import AwaitAnswer, HeardUtterance
from audio import Command, FinishReply, Speak

CONTEXT_CHARS = 300
"""The end of the exchange given to speech-to-text for the follow-up."""
DEATHS_BEFORE_DROP = 2
"""A sentence in the making when this many voice processes died is dropped."""
DROPPED_NOTE = "I skipped a sentence I couldn't say."


@dataclass
class _Reply:
    heard: HeardUtterance
    said: list[str] = field(default_factory=list)
    """The sentences sent for it, in order (what the brain said, and any apology)."""
    answer: AwaitAnswer | None = None
    finish: FinishReply | None = None
    """Set once the reply is complete; sent after its last sentence."""


@dataclass(frozen=True)
class Dropped:
    """A sentence not sent again: ``note`` is said in its place."""

    job: int
    reply: int
    text: str
    note: Speak


class ReplyLedger:
    """Replies in progress, their unsaid sentences and their ends."""

    def __init__(self) -> None:
        self._replies: dict[int, _Reply] = {}
        self._unsaid: OrderedDict[int, Speak] = OrderedDict()
        self._deaths: Counter[int] = Counter()
        """Speak job -> voice processes that died while making it."""
        self._last_reply = 0
        self._last_job = 0

    # -- a reply's life ------------------------------------------------------------------------

    def open(self, heard: HeardUtterance) -> int:
        """A new reply to ``heard``; its number."""
        self._last_reply += 1
        self._replies[self._last_reply] = _Reply(heard)
        return self._last_reply

    def heard(self, reply: int) -> HeardUtterance | None:
        """What reply ``reply`` answers, while it is open."""
        entry = self._replies.get(reply)
        return entry.heard if entry else None

    def say(self, reply: int, text: str, voice: str | None, speed: float | None) -> Speak | None:
        """The command for a sentence of an open reply (None for a reply already complete or
        unknown: a late part from a brain that was given up on)."""
        entry = self._replies.get(reply)
        if entry is None or entry.finish is not None:
            return None
        self._last_job += 1
        speak = Speak(self._last_job, reply, text, voice, speed)
        self._unsaid[speak.job] = speak
        entry.said.append(text)
        return speak

    def announce(self, text: str, voice: str | None, speed: float | None) -> Speak:
        """A sentence said outside any conversation (an announcement): owed until said, as a
        reply's sentences are, and sent again after a restart. It has a reply number of its own,
        so a barge-in that cuts it cuts nothing else; no reply end follows it."""
        self._last_reply += 1
        self._last_job += 1
        speak = Speak(self._last_job, self._last_reply, text, voice, speed, announcement=True)
        self._unsaid[speak.job] = speak
        return speak

    def await_answer(self, reply: int, answer: AwaitAnswer) -> None:
        """The reply ends with a closed question."""
        entry = self._replies.get(reply)
        if entry is not None and entry.finish is None:
            entry.answer = answer

    def withdraw(self, reply: int) -> bool:
        """Forget reply ``reply`` if nothing of it was sent (its turn was withdrawn, to be
        heard again whole); whether it was forgotten."""
        entry = self._replies.get(reply)
        if entry is None or entry.said or entry.finish is not None:
            return False
        del self._replies[reply]
        return True

    def newest(self) -> int | None:
        """The reply opened last, while it is open."""
        return self._last_reply if self._last_reply in self._replies else None

    def end(self, reply: int) -> FinishReply | None:
        """The reply is complete: the command that ends it (None if it is not open)."""
        entry = self._replies.get(reply)
        if entry is None or entry.finish is not None:
            return None
        answer = entry.answer
        entry.finish = FinishReply(
            reply,
            context=f"{entry.heard.text} {self.said(reply)}"[-CONTEXT_CHARS:],
            answer_phrases=dict(answer.phrases) if answer else {},
            hotwords=answer.hotwords if answer else (),
            spelling=answer.spelling if answer else False,
        )
        finish = entry.finish
        self._forget_finished()
        return finish

    def said(self, reply: int) -> str:
        """The sentences sent for an open reply, joined."""
        entry = self._replies.get(reply)
        return " ".join(entry.said) if entry else ""

    def spoken(self, job: int) -> None:
        """The voice process played sentence ``job`` to its end (or cut it off)."""
        self._unsaid.pop(job, None)
        self._deaths.pop(job, None)
        self._forget_finished()

    # -- what is owed ----------------------------------------------------------------------------

    @property
    def idle(self) -> bool:
        """Nothing is owed: every reply complete and said."""
        return not self._unsaid and not self._replies

    def owed(self) -> tuple[int, ...]:
        """Replies begun and not yet said to the end: a new voice process waits for them."""
        return tuple(self._replies)

    def unanswered(self) -> list[tuple[int, HeardUtterance]]:
        """Open replies the brain has not completed, in order: a new brain answers them."""
        return [(n, entry.heard) for n, entry in self._replies.items() if entry.finish is None]

    def resend(self) -> list[Command]:
        """For a new voice process: every unsaid sentence in order, then the replies' ends."""
        commands: list[Command] = list(self._unsaid.values())
        commands += [entry.finish for entry in self._replies.values() if entry.finish]
        return commands

    # -- faults ----------------------------------------------------------------------------------

    def voice_died(self, making: int | None) -> Dropped | None:
        """A voice process died while making sentence ``making`` (None: no sentence). The second
        time the same sentence is in the making, it is replaced by a short note."""
        speak = self._unsaid.get(making) if making is not None else None
        if speak is None:
            return None
        self._deaths[speak.job] += 1
        if self._deaths[speak.job] < DEATHS_BEFORE_DROP:
            return None
        del self._deaths[speak.job]
        note = replace(speak, text=DROPPED_NOTE)
        self._unsaid[speak.job] = note  # in its place: the order of the reply is kept
        return Dropped(speak.job, speak.reply, speak.text, note)

    def abandon(self, reply: int, apology: str) -> list[Command]:
        """The brain gave no more of reply ``reply``: it ends with ``apology``."""
        speak = self.say(reply, apology, None, None)
        finish = self.end(reply)
        return [command for command in (speak, finish) if command is not None]

    def _forget_finished(self) -> None:
        waiting = {speak.reply for speak in self._unsaid.values()}
        for number in [n for n, e in self._replies.items() if e.finish and n not in waiting]:
            del self._replies[number]
