"""Keeping the personality card current: re-read on change, keep the last good one on a bad edit."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from config import CARD_FILE, ConfigError, PersonalityCard, load_card, packaged_file

log = logging.getLogger(__name__)

BAD_CARD_ANNOUNCEMENT = (
    "My personality card has an error, so I'm keeping the last good one. The log says where."
)


@dataclass(frozen=True)
class CardState:
    """The card in force, and a problem to announce aloud (once per bad edit), if any."""

    card: PersonalityCard
    announce: str | None = None


class CardKeeper:
    """Serves the personality card, re-reading the file whenever it changes on disk."""

    def __init__(self, path: Path):
        self.path = path
        self._card: PersonalityCard | None = None
        self._signature: tuple[float, int] | None = None
        self._announced: str | None = None

    def current(self) -> CardState:
        """The card to use for the next reply; a bad edit is logged and announced once."""
        signature = self._stat()
        if self._card is not None and signature == self._signature:
            return CardState(self._card)
        self._signature = signature
        try:
            card = load_card(self.path)
        except ConfigError as error:
            return self._keep_last_good(str(error))
        if (problem := _voice_problem(card)) is not None:
            # Taken, every sentence after it failed to be said: Hearth went mute for good.
            # Looked for again next turn: installing the voice is the fix, not editing the card.
            self._signature = None
            return self._keep_last_good(f"{self.path}: voice.piper_voice: {problem}")
        self._card, self._announced = card, None
        log.info("personality card loaded from %s", self.path)
        return CardState(card)

    def _keep_last_good(self, problem: str) -> CardState:
        if problem != self._announced:
            log.error("personality card not used: %s", problem)
        if self._card is None:
            # Nothing good yet (a bad card at start-up): the packaged card keeps Hearth talking.
            self._card = load_card(packaged_file(CARD_FILE))
        if problem == self._announced:
            return CardState(self._card)
        self._announced = problem
        return CardState(self._card, BAD_CARD_ANNOUNCEMENT)

    def _stat(self) -> tuple[float, int] | None:
        try:
            stat = self.path.stat()
        except OSError:
            return None
        return (stat.st_mtime_ns, stat.st_size)


def _voice_problem(card: PersonalityCard) -> str | None:
    """Why the card's Piper voice cannot speak (not installed), or None."""
    from audio import VoiceNotFoundError, default_voice_dirs, resolve_voice

    if not card.voice.piper_voice:
        return None
    try:
        resolve_voice(card.voice.piper_voice, default_voice_dirs())
    except VoiceNotFoundError as error:
        return str(error)
    return None
