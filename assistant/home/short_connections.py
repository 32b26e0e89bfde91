"""Connections the broker ends as soon as it has accepted them: another client with the same id.

An MQTT broker lets one client hold an id: when a second connects with it, the broker closes the
first, which reconnects and closes the second, and so on, every second, for as long as both run
(two Hearths given one ``mqtt.device_id``, or an old one still running beside its replacement).
Each side only sees a connection dropped with no reason, which reads as a broker that cannot be
reached. Counted here, a pure tally on a clock the caller gives, so the cause can be named once.
"""

from __future__ import annotations

from dataclasses import dataclass

SHORT_SECONDS = 5.0
"""A connection ended sooner than this after it was accepted counts as short."""
IN_A_ROW = 3
"""This many short connections in a row are another client taking the id, not bad luck."""


@dataclass
class ShortConnections:
    """The connections the broker ended soon after accepting them, in a row."""

    in_a_row: int = 0
    _accepted_at: float | None = None

    @property
    def taken_over(self) -> bool:
        """Whether another client is taking this one's id (until a connection lasts)."""
        return self.in_a_row >= IN_A_ROW

    def accepted(self, now: float) -> None:
        """The broker accepted a connection."""
        self._accepted_at = now

    def ended(self, now: float) -> bool:
        """A connection ended; True exactly once, when the short ones first reach
        ``IN_A_ROW`` (the moment to say why)."""
        accepted, self._accepted_at = self._accepted_at, None
        if accepted is None:
            return False  # a connection that never was: the broker is simply unreachable
        if now - accepted >= SHORT_SECONDS:
            self.in_a_row = 0
            return False
        self.in_a_row += 1
        return self.in_a_row == IN_A_ROW
