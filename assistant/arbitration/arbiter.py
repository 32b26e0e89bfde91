"""The household's arbitration on this device: claims and what was heard, sent to the others
through a transport; verdicts, waited for by the brain.

One thread does all the talking to the transport, in the order things happened: a claim is
always sent before any progress past it, so a peer that sees this device heard past a moment
knows every claim it made before it. The supervisor feeds it (``claim`` on a request after a wake
word, ``heard`` on every heartbeat) without waiting; the brain's thread waits for ``verdict``.

The wait is on the household's clock, which in file mode is the recording's: two file-mode
Hearths over the same recording decide the same way however fast each runs. A deadline on the
wall clock (``timeout``) ends the wait for a device that stopped telling; a transport that
cannot be reached gives ``Outcome.ALONE`` at once.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass
from typing import Protocol

from assistant.arbitration.claims import (
    Claim,
    Peer,
    Verdict,
    alone,
    decide,
    progress_held,
    settled,
)
from assistant.reply import HeardUtterance
from assistant.schedule import Clock
from audio import State

log = logging.getLogger(__name__)

POLL_SECONDS = 0.05
"""How often a waiting decision looks at the others' claims again."""
KEEPALIVE_SECONDS = 1.0
"""How often a device says it is there even when it heard nothing new (file mode waits)."""
CLOCK_CHECK_SECONDS = 60.0
"""How often a live device compares its clock with the household's."""
PEER_TIMEOUT_SECONDS = 5.0
"""A device not heard from for this long is gone (switched off, or a run that ended)."""
FILE_MODE_TIMEOUT_SECONDS = 30.0
"""File mode waits on the audio clock: for as long as another run, alive, needs to reach the
wake (its own replies are made in wall time first), up to this many wall seconds (less than the
brain watch's stall, so a long wait is never taken for a stuck turn)."""


class Unreachable(Exception):
    """The transport cannot reach the others now."""


class Transport(Protocol):
    """How claims and progress travel between the devices of a household."""

    def claim(self, claim: Claim) -> None:
        """Tell the others of a claim; Unreachable when they cannot be told."""
        ...

    def heard_until(self, device: str, at: float) -> None:
        """Tell the others everything ``device`` heard before ``at`` is claimed."""
        ...

    def view(self, since: float, peer_timeout: float) -> tuple[list[Claim], list[Peer]]:
        """Claims made at or after ``since``, and the devices heard from in the last
        ``peer_timeout`` seconds."""
        ...

    clock_owner: str
    """Whose clock is the household's, as a log line names it ("the shared database's")."""

    def clock_ahead(self, wall: float) -> float | None:
        """How far the household's clock is ahead of ``wall``, this device's clock read just
        before; None while it cannot be told (no other device heard from yet). Unreachable as
        above."""
        ...

    def close(self) -> None:
        """Let go of the connection."""
        ...


@dataclass(frozen=True)
class ArbitrationPolicy:
    """How long claims count as the same wake, and how long to wait for the others."""

    window: float = 1.5
    timeout: float = 3.0
    live: bool = False
    """Claims are stamped with this device's clock (not a recording's): it is compared with the
    household's, which they must agree with to within the window."""


@dataclass(frozen=True)
class _Claimed:
    key: float
    """The request's audio-clock second: how the brain asks for its verdict."""
    claim: Claim


@dataclass(frozen=True)
class _HeardUntil:
    at: float


@dataclass(frozen=True)
class _Idle:
    """Nothing new: time to send a keepalive or to look again at a waiting decision."""


_IDLE = _Idle()


@dataclass
class _Pending:
    claim: Claim
    since: float
    """When it was claimed, on the monotonic clock."""
    deadline: float


class Arbiter:
    """This device's side of the household's arbitration (see the module's docstring)."""

    def __init__(self, transport: Transport, device: str, clock: Clock, policy: ArbitrationPolicy):
        self.device = device
        self._transport = transport
        self._clock = clock
        self._policy = policy
        self._inbox: queue.Queue[_Claimed | _HeardUntil | None] = queue.Queue()  # None: stop
        self._verdicts: dict[float, Verdict] = {}
        self._reached = True
        """Whether the transport worked last time (an outage is logged once, not every poll)."""
        self._clock_off = False
        """Whether this device's clock was last found too far off the household's."""
        self._ahead = 0.0
        """How far the household's clock was last found ahead of this device's (live): claims
        and progress are stamped on the household's, so a clock that is off still agrees."""
        self._decided = threading.Condition()
        # Known to the others from the start (before the voice models load): a device that
        # hears its first wake word sooner waits for this one's word on it.
        self._inbox.put(_HeardUntil(self._household(0.0, 0.0)))
        self._thread = threading.Thread(target=self._work, name="hearth-arbiter", daemon=True)
        self._thread.start()

    # -- the supervisor's side -------------------------------------------------------------------

    def heard(self, t: float, state: State) -> None:
        """A heartbeat: the voice process has heard up to audio second ``t``."""
        if not progress_held(state):
            self._inbox.put(_HeardUntil(self._household(t, t)))

    def claim(self, heard: HeardUtterance) -> None:
        """A request after a wake word: claim the wake (its verdict comes from ``verdict``)."""
        assert heard.wake is not None
        wake = heard.wake
        claim = Claim(self.device, self._household(wake.t, heard.t), wake.score, wake.clarity_db)
        self._inbox.put(_Claimed(heard.t, claim))

    # -- the brain's side ------------------------------------------------------------------------

    def verdict(self, heard: HeardUtterance) -> Verdict:
        """Whether this device answers the request ``heard``, once decided (claimed first)."""
        limit = time.monotonic() + self._policy.timeout + 2.0
        with self._decided:
            while heard.t not in self._verdicts:
                left = limit - time.monotonic()
                if left <= 0 or not self._thread.is_alive():
                    return alone(self.device)
                self._decided.wait(left)
            return self._verdicts.pop(heard.t)

    def close(self) -> None:
        """Stop the thread and close the transport."""
        self._inbox.put(None)
        self._thread.join(5.0)

    # -- the thread ------------------------------------------------------------------------------

    def _household(self, t: float, now: float) -> float:
        """Household seconds of audio second ``t``, the audio clock reading ``now``."""
        return self._clock.now(now).wall + self._ahead - (now - t)

    def _work(self) -> None:
        pending: dict[float, _Pending] = {}
        heard_until: float | None = None
        told: float | None = None
        told_at = 0.0
        checked_at = -CLOCK_CHECK_SECONDS
        try:
            while True:
                try:
                    item = self._inbox.get(timeout=POLL_SECONDS)
                except queue.Empty:
                    item = _IDLE
                match item:
                    case None:
                        return
                    case _Claimed(key=key, claim=claim):
                        now = time.monotonic()
                        pending[key] = _Pending(claim, now, now + self._policy.timeout)
                        if not self._tell(claim):
                            self._settle(pending, key, alone(self.device, [claim]))
                    case _HeardUntil(at=at):
                        heard_until = at
                now = time.monotonic()
                due = heard_until != told or now - told_at >= KEEPALIVE_SECONDS
                if heard_until is not None and due and self._tell(heard_until):
                    told, told_at = heard_until, now
                if pending:
                    self._decide(pending)
                if self._policy.live and now - checked_at >= CLOCK_CHECK_SECONDS:
                    measured = self._check_clock()
                    # Not measured (a slow or failed query): tried again in a second.
                    checked_at = now if measured else now - CLOCK_CHECK_SECONDS + 1.0
        finally:
            self._transport.close()

    def _tell(self, news: Claim | float) -> bool:
        """Send a claim, or how far this device has heard; False when nobody can be told."""
        try:
            if isinstance(news, Claim):
                self._transport.claim(news)
            else:
                self._transport.heard_until(self.device, news)
        except Unreachable as error:
            self._lost(error)
            return False
        self._back()
        return True

    def _check_clock(self) -> bool:
        """Measure how far the household's clock is ahead of this device's, to stamp claims
        on it: stamped on a clock 3 s off, one wake word's claims fell in two windows and both
        rooms answered (a Pi has no clock running while off, and keeps the time it last saved
        until NTP sets it). Said once when the gap is past half the window."""
        before = time.monotonic()
        try:
            ahead = self._transport.clock_ahead(self._clock.now().wall)
        except Unreachable:
            return False  # said by the claims' own outage
        took = time.monotonic() - before
        if ahead is None:
            return False  # nothing to compare with yet
        if took > self._policy.window / 4:
            return False  # a slow round trip (a reconnection) would read as the clocks' gap
        ahead -= took / 2  # the server read its clock about halfway through
        self._ahead = ahead
        off = abs(ahead) > self._policy.window / 2
        if off and not self._clock_off:
            log.warning(
                "this Hearth's clock is %.1f s %s the household's (%s): its wake words are "
                "matched on the household's clock, but timers and alarms keep this one. Is its "
                "time synchronised? (timedatectl status)",
                abs(ahead), "behind" if ahead > 0 else "ahead of", self._transport.clock_owner,
            )  # fmt: skip
        elif self._clock_off and not off:
            log.info("this Hearth's clock agrees with the household's again")
        self._clock_off = off
        return True

    def _lost(self, error: Unreachable) -> None:
        if self._reached:
            log.warning("cannot reach the other Hearths (answering by myself): %s", error)
        self._reached = False

    def _back(self) -> None:
        if not self._reached:
            log.info("the other Hearths can be reached again")
        self._reached = True

    def _decide(self, pending: dict[float, _Pending]) -> None:
        since = min(entry.claim.at for entry in pending.values()) - self._policy.window
        try:
            claims, peers = self._transport.view(since, PEER_TIMEOUT_SECONDS)
        except Unreachable as error:
            self._lost(error)
            for key in list(pending):
                self._settle(pending, key, alone(self.device, [pending[key].claim]))
            return
        window = self._policy.window
        for key in list(pending):
            entry = pending[key]
            if settled(entry.claim, claims, peers, window):
                self._settle(pending, key, decide(entry.claim, claims, window))
            elif time.monotonic() >= entry.deadline:
                waited = [
                    peer.device
                    for peer in peers
                    if peer.device != self.device and peer.heard_until <= entry.claim.at + window
                ]
                log.warning("no word from %s in time; deciding without them", ", ".join(waited))
                self._settle(pending, key, decide(entry.claim, claims, window))

    def _settle(self, pending: dict[float, _Pending], key: float, verdict: Verdict) -> None:
        entry = pending.pop(key, None)
        if entry is not None:
            waited = time.monotonic() - entry.since
            log.info(
                "wake word at %.2f: %s (%s answers), decided %.2f s after the claim",
                entry.claim.at, verdict.outcome.value, verdict.winner, waited,
            )  # fmt: skip
        with self._decided:
            self._verdicts[key] = verdict
            self._decided.notify_all()
