"""Which of several Hearths answers a wake word they all heard: a pure function of the claims.

Every Hearth that accepts a wake word claims it: when (household seconds: wall time, or a
recording's start plus its audio clock), how sure the wake model was, and how loud the speech
was over the room's noise (``audio.wake_measure``: a Hearth beside a playing TV hears the voice
louder and worse). Claims of different devices within ``window`` seconds of each other are the
same wake. The strongest claim answers; the others defer. A device decides once every other
device it knows of has either claimed this wake or heard past it without claiming (``settled``),
or when it gives up waiting (the caller's deadline).

The level counts most: a device across the room hears the same voice some 10 dB quieter, while
the wake model's score is near 1 on both. The score adds ``SCORE_DB`` dB per unit, so a clearly
surer detection can outweigh a few dB. Equal strengths go to the device whose name sorts first:
any rule works if every device applies the same one to the same claims, and a name is the same on
every device (an arrival order or a clock is not).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from audio import State

SCORE_DB = 20.0
"""dB of level one unit of wake score is worth when claims are compared."""


@dataclass(frozen=True)
class Claim:
    """One device's wake word."""

    device: str
    at: float
    """Household seconds (epoch) when the wake word was accepted."""
    score: float
    level_db: float
    """The wake word's level over its room's noise floor (or a quiet room's), in dB."""

    @property
    def strength(self) -> float:
        """How well it was heard: the level, plus the wake score's worth in dB."""
        return self.level_db + SCORE_DB * self.score


@dataclass(frozen=True)
class Peer:
    """Another device of the household, as far as it has told: everything it heard before
    ``heard_until`` (household seconds) it has claimed already."""

    device: str
    heard_until: float


class Outcome(StrEnum):
    """What a device does with its wake word (its event is ``wake_<outcome>``)."""

    ANSWERED = "answered"
    """Its claim was the strongest (or the only one)."""
    DEFERRED = "deferred"
    """Another device heard it better and answers."""
    ALONE = "alone"
    """The others could not be reached: it answers by itself rather than not at all."""


@dataclass(frozen=True)
class Verdict:
    """The decision for one claim."""

    outcome: Outcome
    winner: str
    claims: tuple[Claim, ...] = ()
    """The claims of this wake that were compared, strongest first."""

    @property
    def answers(self) -> bool:
        """Whether this device answers."""
        return self.outcome is not Outcome.DEFERRED

    def record(self, device: str) -> dict[str, object]:
        """The verdict as event fields, for the device ``device``."""
        claims = [{"device": claim.device, "score": round(claim.score, 3),
                   "level_db": round(claim.level_db, 1)} for claim in self.claims]  # fmt: skip
        return {"device": device, "winner": self.winner, "claims": claims}


def _rank(claim: Claim) -> tuple[float, str]:
    return (-claim.strength, claim.device)


def same_wake(mine: Claim, claims: Iterable[Claim], window: float) -> list[Claim]:
    """The other devices' claims of the wake ``mine`` is (within ``window`` seconds of it), one
    per device (its nearest), strongest first."""
    nearest: dict[str, Claim] = {}
    for claim in claims:
        if claim.device == mine.device or abs(claim.at - mine.at) > window:
            continue
        known = nearest.get(claim.device)
        if known is None or abs(claim.at - mine.at) < abs(known.at - mine.at):
            nearest[claim.device] = claim
    return sorted(nearest.values(), key=_rank)


def settled(mine: Claim, claims: Iterable[Claim], peers: Iterable[Peer], window: float) -> bool:
    """Whether every other device has claimed this wake or heard past it without claiming it:
    nothing that arrives later can change the decision."""
    claimed = {claim.device for claim in same_wake(mine, claims, window)}
    return all(
        peer.device in claimed or peer.heard_until > mine.at + window
        for peer in peers
        if peer.device != mine.device
    )


def decide(mine: Claim, claims: Iterable[Claim], window: float) -> Verdict:
    """Answer or defer: the strongest claim of this wake answers (ties: the first name)."""
    compared = sorted([mine, *same_wake(mine, claims, window)], key=_rank)
    winner = compared[0]
    outcome = Outcome.ANSWERED if winner.device == mine.device else Outcome.DEFERRED
    return Verdict(outcome, winner.device, tuple(compared))


def progress_held(state: State) -> bool:
    """Whether what a device has heard so far must not be told yet: while it listens to a
    request after a wake word, its claim is still to come, and peers must wait for it."""
    return state is State.LISTENING


def alone(device: str, mine: Sequence[Claim] = ()) -> Verdict:
    """The verdict when the others cannot be reached: answer."""
    return Verdict(Outcome.ALONE, device, tuple(mine))
