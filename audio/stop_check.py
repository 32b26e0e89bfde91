"""Whether a short utterance heard over Hearth's reply was "Stop.": a second opinion for barge-in.

Over a reply the voice loop hears AEC3's output (``audio.echo``), whose suppressor takes a
person's "Stop." down to its vowel: tiny.en wrote it as "Up.", "Yeah", "dot" or nothing, and
heard 7 of 24 stops in ``python -m bench.echo --stop --quick``. So when the free transcript of an
utterance over the reply is not a stop word, the stop check asks again, where the word is whole
and the question is narrow:

- on the microphone with Hearth's voice subtracted but not suppressed (``LinearHearing``, the
  linear filter of ``audio.linear_echo``), where the echo left is 15 to 25 dB down;
- by forced decoding (``SpeechToText.score``): how well "Stop." fits, as Whisper's mean
  log-probability per token, end-of-text included, so "Stop" as the start of a longer sentence
  fits badly. Free transcription must pick one of every sentence; a fit only has to clear a line.

The line, ``MIN_FIT``, was set on the bench's full set (four Piper and six espeak-ng voices, three
rooms, the echo from 6 dB under the person to 6 dB over): of the 93 stops whose transcript was not
a stop word, the check's best fit was -2.6 or better in 79 (the misses mostly 2.5 s into the
reply, before either canceller has learned the room); on the echo alone no fit passed -3.4, on
real people's sentences said over it none passed -2.9. The quick set, with the line at -2.75, hears
24 stops of 24 and no false one.

The fit is made on Whisper's speech window (``audio.whisper_window``), not the whole 30 s one the
line was first set on: on the quick set that costs 0.23 s of CPU per check instead of 0.62 s
(median, on two cores; the check's work comes on top of its 0.25 s wait before a stop so heard
acts), and hears 23 stops of 24, still none on the echo alone (highest fit -3.78) or on real talk
(-3.01, where the whole window gave -2.94).

Only "stop" is checked so: it is the word the line was measured for. The other stop words are
Whisper's inventions on noise ("Thank you.") or fit anything alike ("That's all." fit the echo
alone at -1.9), so forcing them proves nothing; they are heard by free transcription as before.

Hearth's own voice must never stop it, and Hearth may be saying "stop" itself ("If I talk for
too long, just say stop."): a stop found by the check is taken only if what Hearth played around
that moment does not say "stop". The sentences it was playing tell that at no cost; only when
one of them says "stop" is the sound played then transcribed, to know whether the word itself
fell in the stretch. So the check costs one forced pass per utterance heard over a reply.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from audio.format import seconds_to_samples
from audio.linear_echo import LinearEchoFilter
from audio.recent import RecentAudio

if TYPE_CHECKING:
    from audio.stt import SpeechToText

STOP_WORD = "stop"
STOP_PHRASES = ("Stop.", "Stop!", "Stop")
"""The stop word as Whisper writes it said alone; the best fitting of them counts."""
MIN_FIT = -2.75
"""The fit (mean log-probability per token, forced) from which "Stop." is taken as said."""
PRE_ROLL_SECONDS = 0.2
"""Audio kept from before the utterance's start for the check: Silero over the reply confirms
speech late (the "s" scores under 0.3), and more of the echo before it only lowers the fit."""
QUIET_AFTER_SECONDS = 0.25
"""How long the pause after the utterance has lasted when the check is made, that silence
included: "Stop." must be all that was said. "Drop the two when you add the figures" paused after
"Drop", and AEC3 took the quiet "the" that followed for echo (0.64 s of silence to Silero), so
at the pause alone "Stop." fit it as well as a real one (-1.97); with 0.2 s after it in, where
"the" is heard, -2.63, with 0.25 s -2.94. It is also the check's delay: a stop so heard is
decided about 0.25 s after the word (0.3 s allowed)."""
ECHO_DELAY_SECONDS = 0.3
"""What Hearth played is transcribed from this much earlier than the checked audio: its echo
reaches the microphone late (the room's path, the device's buffers)."""
ADAPT_BELOW = 0.3
"""Silero's score on a frame (AEC3's output) under which nobody is taken to be speaking, so the
linear filter may learn from the frame."""


def checks(stop_words: Iterable[str]) -> bool:
    """Whether the stop check applies: "stop" is one of the configured stop words."""
    return any(_words(word) == [STOP_WORD] for word in stop_words)


def says_stop(text: str) -> bool:
    """Whether ``text`` (what Hearth's own voice said) has the word "stop" in it anywhere."""
    return STOP_WORD in _words(text)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


@dataclass(frozen=True)
class StopCheck:
    """The stop check's findings on one utterance over the reply."""

    fit: float
    """How well "Stop." fits the filtered audio (the best of ``STOP_PHRASES``)."""
    echo_words: str | None = None
    """What Hearth played meanwhile (the sentences, or the sound transcribed when they say
    "stop"); None when the fit did not clear the line."""

    @property
    def heard(self) -> bool:
        """Whether the person said "Stop.": it fits, and Hearth itself was not saying it."""
        return (
            self.fit >= MIN_FIT and self.echo_words is not None and not says_stop(self.echo_words)
        )


@dataclass(frozen=True)
class Overheard:
    """A stretch of the stop check's ear (``LinearHearing.between``)."""

    filtered: np.ndarray
    """The microphone with Hearth's voice subtracted, over the stretch."""
    played: np.ndarray
    """What Hearth played, from ``ECHO_DELAY_SECONDS`` before the stretch to its end."""
    said: tuple[str, ...] | None = None
    """The text of the sentences Hearth was playing over the same span (None: not known)."""


def check_stop(stt: SpeechToText, heard: Overheard, hotwords: Iterable[str] = ()) -> StopCheck:
    """Check ``heard`` for "Stop."; what Hearth played is transcribed (with ``hotwords``) only if
    "Stop." fits and the sentences it was playing, if known, say "stop"."""
    # No prompt for the fit: the line was measured without one, and hot words move it. The
    # speech window: a check a third as costly acts that much sooner after the word.
    fits = stt.score(
        heard.filtered, {phrase: phrase for phrase in STOP_PHRASES}, whole_window=False
    )
    fit = max(fits.values(), default=float("-inf"))
    if fit < MIN_FIT:
        return StopCheck(fit)
    if heard.said is not None and not says_stop(" ".join(heard.said)):
        return StopCheck(fit, " ".join(heard.said))
    return StopCheck(fit, stt.transcribe(heard.played, hotwords=hotwords).text)


class LinearHearing:
    """The microphone with Hearth's voice subtracted but not suppressed, what was played and the
    text of the sentences played, kept by audio-clock sample for the stop check.

    Fed every frame; while nothing has been played for the room's tail the microphone is kept
    as it is and the filter is not run, so an idle Hearth pays nothing for it.
    """

    def __init__(self, history_samples: int, tail_samples: int, start_sample: int = 0) -> None:
        self._filter = LinearEchoFilter()
        self._filtered = RecentAudio(history_samples)
        self._played = RecentAudio(history_samples)
        for recent in (self._filtered, self._played):
            recent.skip_to(start_sample)
        self._tail = tail_samples
        self._quiet = tail_samples + 1  # samples since something was played: none yet
        self._sentences: list[tuple[int, int, str]] = []
        """Sentences played: first sample, the sample after the last, text."""
        self._told = False

    def playing(self, text: str, at: int, samples: int) -> None:
        """Hearth plays ``text``, ``samples`` long, from audio-clock sample ``at`` on."""
        self._told = True
        self._sentences = [s for s in self._sentences if s[1] > self._filtered.start]
        self._sentences.append((at, at + samples, text))

    def hear(self, microphone: np.ndarray, played: np.ndarray | None, *, speaking: bool) -> None:
        """One frame of the microphone and what was played meanwhile (None: nothing);
        ``speaking``: a person may be speaking in it, so the filter does not learn from it."""
        if played is None:
            played = np.zeros_like(microphone)
        self._quiet = 0 if np.any(played) else self._quiet + len(played)
        if self._quiet > self._tail:
            filtered = microphone
        else:
            filtered = self._filter.process(microphone, played, adapt=not speaking)
        self._filtered.append(filtered)
        self._played.append(played)

    def between(self, start: int, end: int) -> Overheard:
        """The filtered microphone from ``start`` to ``end``, and what was played from
        ``ECHO_DELAY_SECONDS`` before ``start`` to ``end`` with its sentences (if ever told:
        ``playing``)."""
        first = start - seconds_to_samples(ECHO_DELAY_SECONDS)
        said = tuple(text for at, until, text in self._sentences if at < end and until > first)
        return Overheard(
            self._filtered.between(start, end),
            self._played.between(first, end),
            said if self._told else None,
        )
