"""Whether the shared memory could be reached, so that an outage is told once, not every turn.

A Hearth whose memory is on another machine keeps hearing and speaking while that database is
down. The person hears once that the memory is out of reach; again only after it came back and
was lost again. Requests that need the memory (remember, forget, ...) are refused aloud every
time: those did nothing, and saying so is not the repeated notice this guards against.
"""

from __future__ import annotations

from enum import StrEnum

UNREACHABLE = "I can't reach my memory right now"


class Reach(StrEnum):
    """The memory's state as the last call found it."""

    REACHED = "reached"
    LOST = "lost"


class MemoryReach:
    """The memory's reachability, from what each call to it found (pure: no I/O)."""

    def __init__(self) -> None:
        self._state = Reach.REACHED

    @property
    def state(self) -> Reach:
        """Reachable or lost, as last found."""
        return self._state

    def lost(self) -> bool:
        """A call found the memory out of reach: True when that is news (tell the person)."""
        news = self._state is Reach.REACHED
        self._state = Reach.LOST
        return news

    def reached(self) -> bool:
        """A call succeeded: True when the memory was lost until now (it is back)."""
        news = self._state is Reach.LOST
        self._state = Reach.REACHED
        return news


def refusal(cannot: str) -> str:
    """What is said when a request needing the memory cannot be done ("remember that")."""
    return f"{UNREACHABLE}, so I can't {cannot}."


WITHOUT_MEMORY = f"{UNREACHABLE}, so I'll answer without it."
"""Said once per outage before an answer given without recall."""
