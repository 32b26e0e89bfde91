"""Playing what Hearth says without stopping the ears: on a timeline, or on a live speaker."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import numpy as np

from audio.format import SAMPLE_RATE
from audio.io import AudioSink

log = logging.getLogger(__name__)


SAID_KEPT_SECONDS = 30.0
"""How far back a mouth remembers what it said, as the echo canceller's reference."""
REPORT_SECONDS = 0.25


class TimelineMouth:
    """Speech placed on the audio clock (file mode): busy until the clock passes its end.

    A sound reaches the sink as the clock passes it, a quarter of a second at a time, so one cut
    short by a barge-in ends there in the output too, and one whose process dies ends where its
    clock stopped.
    """

    live = False

    def __init__(self, sink: AudioSink):
        self._sink = sink
        self._until = 0
        self._sound: tuple[int, np.ndarray] | None = None
        self._reported = 0
        """Samples of the current sound handed to the sink so far."""
        self._said: list[tuple[int, np.ndarray]] = []

    def start(self, samples: np.ndarray, at_sample: int) -> None:
        """Put ``samples`` on the timeline at ``at_sample``."""
        self._report(until=None)  # the sound before is over
        sound = np.asarray(samples, dtype=np.int16)
        self._sound, self._reported = (at_sample, sound), 0
        self._until = max(self._until, at_sample + len(sound))
        kept = at_sample - round(SAID_KEPT_SECONDS * SAMPLE_RATE)
        self._said = [(at, said) for at, said in self._said if at + len(said) > kept]
        self._said.append((at_sample, sound))

    def busy(self, clock: int) -> bool:
        """True while the clock is inside the last sound placed."""
        self._report(until=clock)
        return clock < self._until

    def wake_when_done(self, signal: Callable[[], None]) -> None:
        """Nothing to do: a sound on the timeline ends where the loop's own clock passes it."""

    def said(self, start_sample: int, samples: int, recorded_at: float | None = None) -> np.ndarray:
        """What was played at audio-clock samples ``start_sample`` on, sounds mixed as in the
        room (``recorded_at`` is the live speaker's; a timeline has its own clock)."""
        mixed = np.zeros(samples, dtype=np.int32)
        for at, sound in self._said:
            first, last = max(at, start_sample), min(at + len(sound), start_sample + samples)
            if first < last:
                mixed[first - start_sample : last - start_sample] += sound[first - at : last - at]
        return np.clip(mixed, -32768, 32767).astype(np.int16)

    failure = ""
    """A timeline never fails to play."""

    def stop(self, clock: int) -> None:
        """Barge-in: the rest of the sound is unsaid from ``clock`` on."""
        self._report(until=clock)
        self._sound = None
        self._until = min(self._until, clock)
        self._said = [(at, sound[: max(0, clock - at)]) for at, sound in self._said]

    def close(self) -> None:
        self._report(until=None)
        self._sink.close()

    def _report(self, until: int | None) -> None:
        """Hand the sink the current sound up to audio-clock sample ``until`` (None: all of it),
        in pieces of at least :data:`REPORT_SECONDS`."""
        if self._sound is None:
            return
        at, sound = self._sound
        end = len(sound) if until is None else min(max(until - at, 0), len(sound))
        if end < len(sound) and end - self._reported < round(REPORT_SECONDS * SAMPLE_RATE):
            return
        if end > self._reported:
            self._sink.play(sound[self._reported : end], at + self._reported)
            self._reported = end
        if end == len(sound):
            self._sound = None


class SpeakerMouth:
    """Speech on a live speaker, played by a thread so the microphone keeps being read.

    The speaker is opened when there is something to say, so a speaker that is missing at start
    or unplugged later costs the sentences said meanwhile (reported, not fatal), and playing
    resumes when it is back.
    """

    live = True

    def __init__(self, open_sink: Callable[[], AudioSink]):
        self._open_sink = open_sink
        self._sink: AudioSink | None = None
        self._thread: threading.Thread | None = None
        self._done: Callable[[], None] = lambda: None
        self.failure = ""
        """Why the last sound could not be played; empty once a sound plays again."""

    def wake_when_done(self, signal: Callable[[], None]) -> None:
        """Call ``signal`` (from the player's thread) each time a sound has been heard or failed,
        so a loop waiting for work starts the next piece at once."""
        self._done = signal

    def start(self, samples: np.ndarray, at_sample: int) -> None:
        """Start playing ``samples`` now."""
        self._thread = threading.Thread(
            target=self._play, args=(samples, at_sample), name="hearth-speaker", daemon=True
        )
        self._thread.start()

    def busy(self, clock: int) -> bool:
        """True until the sound has been heard (or failed)."""
        return self._thread is not None and self._thread.is_alive()

    def said(self, start_sample: int, samples: int, recorded_at: float | None = None) -> np.ndarray:
        """What the speaker played while the microphone recorded ``samples`` samples from
        ``recorded_at`` (the monotonic clock); silence if that is not known."""
        played = getattr(self._sink, "played", None)
        if played is None or recorded_at is None:
            return np.zeros(samples, dtype=np.int16)
        return played(recorded_at, samples)

    def stop(self, clock: int) -> None:
        """Cut the sound short."""
        stop = getattr(self._sink, "stop", None)
        if stop is not None:
            stop()

    def release(self) -> None:
        """Close the speaker while idle (it reopens for the next sound), e.g. to re-scan devices."""
        if not self.busy(0) and self._sink is not None:
            self._sink.close()
            self._sink = None

    def close(self) -> None:
        self.stop(0)
        if self._thread is not None:
            self._thread.join(timeout=2)
        if self._sink is not None:
            self._sink.close()

    def _play(self, samples: np.ndarray, at_sample: int) -> None:
        try:
            if self._sink is None:
                self._sink = self._open_sink()
            self._sink.play(samples, at_sample)
        except Exception as error:  # handed to the loop, which says so in the event stream
            if not self.failure:
                log.error("playing speech failed: %s", error)
            if self._sink is not None:
                self._sink.close()
                self._sink = None  # opened afresh for the next sound
            self.failure = str(error) or type(error).__name__
        else:
            self.failure = ""
        finally:
            self._done()
