"""Learning off the reply path: facts the user stated, and compaction of a long conversation.

A worker thread with its own database connection and model client takes finished turns from a
queue, so extraction never delays speech. Results (notes, summaries) wait in an outbox until the
brain collects them at the start of the next turn: the conversation history is touched by one
thread only.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from assistant.chat_client import ChatClient, ChatMessage
from assistant.conversation import ConversationHistory, Exchange
from assistant.evidence import evidence_problem
from assistant.model_errors import ModelError
from assistant.reply import Note
from memory import (
    EXTRACTION_INSTRUCTIONS,
    EXTRACTION_SCHEMA,
    Action,
    Memory,
    MemoryInputError,
    MemoryUnavailable,
    Origin,
    Source,
    StoreError,
    extraction_request,
    parse_extraction,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Turn:
    user: str
    reply: str
    folded: tuple[Exchange, ...]
    summary_request: tuple[ChatMessage, ...]


@dataclass(frozen=True)
class _Marker:
    """Set once every item queued before it has been processed."""

    done: threading.Event


@dataclass(frozen=True)
class _Summary:
    folded: tuple[Exchange, ...]
    text: str


class Learner:
    """Extracts durable facts from finished turns and summarises older conversation."""

    def __init__(
        self,
        open_memory: Callable[[], Memory],
        open_client: Callable[[], ChatClient],
        learn_facts: bool = True,
    ):
        self._open_memory = open_memory
        self._open_client = open_client
        self._learn_facts = learn_facts
        self._inbox: queue.Queue[_Turn | _Marker | None] = queue.Queue()  # None: stop
        self._outbox: queue.Queue[Note | _Summary] = queue.Queue()
        self._thread = threading.Thread(target=self._work, name="hearth-learner", daemon=True)
        self._thread.start()

    def submit(self, user: str, reply: str, history: ConversationHistory) -> None:
        """Queue a finished turn (and, when due, the older half of the history to summarise)."""
        folded = history.due_for_compaction()
        request = tuple(history.summary_request(folded)) if folded else ()
        self._inbox.put(_Turn(user, reply, folded, request))

    def collect(self, history: ConversationHistory) -> Iterator[Note]:
        """Apply finished summaries to the history and hand over notes of what was learned."""
        while True:
            try:
                item = self._outbox.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, _Summary):
                history.compact(item.folded, item.text)
            else:
                yield item

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until every submitted turn is processed (for tests and shutdown)."""
        marker = _Marker(threading.Event())
        self._inbox.put(marker)
        return marker.done.wait(timeout)

    def close(self, timeout: float = 10.0) -> None:
        """Finish queued work and stop the thread."""
        self._inbox.put(None)
        self._thread.join(timeout)

    def _work(self) -> None:
        try:
            memory: Memory | None = self._open_memory()
        except StoreError as error:
            # The thread lives on without the memory: it still summarises, and a turn waiting
            # for it is never kept waiting.
            log.warning("not learning facts from the conversation: %s", error)
            memory = None
        client = self._open_client()
        try:
            while True:
                item = self._inbox.get()
                if item is None:
                    return
                if isinstance(item, _Marker):
                    item.done.set()
                else:
                    self._learn(item, memory, client)
        finally:
            if memory is not None:
                memory.close()
            client.close()

    def _learn(self, turn: _Turn, memory: Memory | None, client: ChatClient) -> None:
        if self._learn_facts and memory is not None:
            try:
                self._extract(turn, memory, client)
            except ModelError as error:
                log.info("could not learn from the last turn: %s", error)
            except Exception:  # learning is best effort; it must never stop the conversation
                log.exception("learning from a turn failed")
        if turn.folded:
            try:
                summary = client.chat(list(turn.summary_request), temperature=0.2)
            except ModelError as error:
                log.info("could not summarise older conversation: %s", error)
            except Exception:  # as learning: one bad answer must not end the learner's thread
                log.exception("summarising older conversation failed")
            else:
                self._outbox.put(_Summary(turn.folded, summary))

    def _extract(self, turn: _Turn, memory: Memory, client: ChatClient) -> None:
        messages = [
            ChatMessage("system", EXTRACTION_INSTRUCTIONS),
            ChatMessage("user", extraction_request(turn.user, turn.reply)),
        ]
        raw = client.chat(messages, schema=EXTRACTION_SCHEMA, temperature=0.0)
        for fact in parse_extraction(raw, turn.user):
            problem = evidence_problem(fact.statement, fact.evidence, turn.user)
            if problem is not None:
                # A model must not put words in a person's mouth, whatever the conversation said.
                log.warning("not learning %r: %s", fact.statement, problem)
                continue
            source = Source(Origin.EXTRACTED, utterance=turn.user, evidence=fact.evidence)
            try:
                outcome = memory.remember(fact.statement, fact.kind, source)
            except MemoryInputError as error:
                log.info("not learning %r: %s", fact.statement, error)
                continue
            except MemoryUnavailable as error:
                # Kept nowhere else: a fact held in this process until the database is back
                # would be lost with it, and told to no one. Said again, it is learned then.
                log.info("not learning from the last turn: %s", error)
                self._outbox.put(Note("memory", {"action": "not_learned",
                                                 "reason": "unreachable"}))  # fmt: skip
                return
            if outcome.action is Action.IGNORED_FORGOTTEN:
                continue
            self._outbox.put(
                Note("memory", {"action": outcome.action.value, "fact": outcome.fact.id,
                                "text": outcome.fact.text, "learned": True,
                                "conflicts": [f.id for f in outcome.conflicts]})
            )  # fmt: skip
