"""What Hearth keeps of a conversation: recent exchanges within a budget, older ones summarised."""

from __future__ import annotations

from dataclasses import dataclass

from assistant.ollama import ChatMessage
from assistant.reply_limit import words_within

SUMMARY_REQUEST = (
    "Summarise this earlier part of a spoken conversation in at most four short sentences, "
    "keeping names, decisions, open questions and anything the user asked to be kept in mind. "
    "Write plain text."
)


@dataclass(frozen=True)
class Exchange:
    """One question and the answer Hearth gave (as far as it was said)."""

    user: str
    assistant: str

    @property
    def chars(self) -> int:
        return len(self.user) + len(self.assistant)


class ConversationHistory:
    """Recent exchanges, kept under ``budget_chars``; older ones folded into a summary."""

    def __init__(self, budget_chars: int, compaction: bool = True):
        self.budget_chars = budget_chars
        self.compaction = compaction
        self.summary: str | None = None
        self._exchanges: list[Exchange] = []

    @property
    def exchanges(self) -> tuple[Exchange, ...]:
        return tuple(self._exchanges)

    @property
    def last(self) -> Exchange | None:
        """The latest exchange (context for hearing a follow-up right)."""
        return self._exchanges[-1] if self._exchanges else None

    def add(self, user: str, assistant: str) -> None:
        """Record an exchange; without compaction, the oldest fall away to stay in budget."""
        self._exchanges.append(Exchange(user, assistant))
        if not self.compaction:
            while len(self._exchanges) > 1 and self._size() > self.budget_chars:
                self._exchanges.pop(0)

    def messages(self) -> list[ChatMessage]:
        """The exchanges as chat messages, oldest first."""
        messages = []
        for exchange in self._exchanges:
            messages.append(ChatMessage("user", exchange.user))
            if exchange.assistant:
                messages.append(ChatMessage("assistant", exchange.assistant))
        return messages

    def due_for_compaction(self) -> tuple[Exchange, ...]:
        """The older half to summarise once over budget, or nothing."""
        if not self.compaction or self._size() <= self.budget_chars or len(self._exchanges) < 2:
            return ()
        return tuple(self._exchanges[: len(self._exchanges) // 2])

    def compact(self, folded: tuple[Exchange, ...], summary: str) -> None:
        """Replace exchanges that were summarised (if still the oldest) with the new summary."""
        if tuple(self._exchanges[: len(folded)]) != folded:
            return  # the history moved on meanwhile; a later compaction will catch up
        del self._exchanges[: len(folded)]
        # A model in a repetition loop can answer with pages: kept whole, that summary went
        # with every prompt and, being over budget itself, asked for another at every turn.
        self.summary = words_within(summary.strip(), self.summary_max_chars) or self.summary

    @property
    def summary_max_chars(self) -> int:
        """The longest summary kept: a third of the budget, the rest for recent exchanges."""
        return self.budget_chars // 3

    def summary_request(self, folded: tuple[Exchange, ...]) -> list[ChatMessage]:
        """Messages asking the model to summarise ``folded`` (with the previous summary)."""
        lines = [f"Earlier summary: {self.summary}"] if self.summary else []
        for exchange in folded:
            lines += [f"User: {exchange.user}", f"Assistant: {exchange.assistant}"]
        return [ChatMessage("system", SUMMARY_REQUEST), ChatMessage("user", "\n".join(lines))]

    def _size(self) -> int:
        return sum(exchange.chars for exchange in self._exchanges) + len(self.summary or "")
