"""How fast each voice is synthesized on this machine, learned while it speaks.

A synthesis blocks the voice loop, so the watchdog cannot tell a slow one from a hung one by the
heartbeats: it waits for a deadline. One fixed deadline must allow a slow Pi its longest sentence,
which leaves a fast machine deaf for half a minute when Piper really hangs. With the pace learned
here, each synthesis is announced with a deadline scaled to its text, several times the slowest
pace seen. The supervisor bounds it: never shorter than the loop's own heartbeat timeout, never
longer than the configured deadline, which stays the only one until a voice has been heard once
(the voice Hearth starts with is heard as it loads: its warm-up run is the first measure).
"""

from __future__ import annotations

from collections import deque

PACE_WINDOW = 16
"""Pieces remembered per voice; the slowest of them sets the pace."""
MIN_CHARS = 20
"""A piece shorter than this is counted as this long: a short piece's fixed cost is not a pace."""
MARGIN = 8.0
"""How many times the slowest pace seen a synthesis may take: a busy machine is slower."""


class SynthesisPace:
    """Seconds per character of synthesis, per voice, and the deadline a text earns from them."""

    def __init__(self) -> None:
        self._seconds_per_char: dict[str, deque[float]] = {}

    def observe(self, voice: str, chars: int, seconds: float) -> None:
        """``voice`` made the speech for ``chars`` characters in ``seconds``."""
        window = self._seconds_per_char.setdefault(voice, deque(maxlen=PACE_WINDOW))
        window.append(seconds / max(chars, MIN_CHARS))

    def deadline(self, voice: str, chars: int) -> float | None:
        """Seconds a synthesis of ``chars`` characters in ``voice`` may take, or None while the
        voice has not been heard (the configured deadline applies)."""
        window = self._seconds_per_char.get(voice)
        if not window:
            return None
        return MARGIN * max(window) * max(chars, MIN_CHARS)
