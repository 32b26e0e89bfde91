"""Playing what Hearth says without stopping the ears: on a timeline, or on a live speaker."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import numpy as np

from audio.io import AudioSink

log = logging.getLogger(__name__)


class TimelineMouth:
    """Speech placed on the audio clock (file mode): busy until the clock passes its end."""

    live = False

    def __init__(self, sink: AudioSink):
        self._sink = sink
        self._until = 0

    def start(self, samples: np.ndarray, at_sample: int) -> None:
        """Put ``samples`` on the timeline at ``at_sample``."""
        self._sink.play(samples, at_sample)
        self._until = max(self._until, at_sample + len(samples))

    def busy(self, clock: int) -> bool:
        """True while the clock is inside the last sound placed."""
        return clock < self._until

    def wake_when_done(self, signal: Callable[[], None]) -> None:
        """Nothing to do: a sound on the timeline ends where the loop's own clock passes it."""

    failure = ""
    """A timeline never fails to play."""

    def stop(self, clock: int) -> None:
        """Barge-in: the rest of the sound is treated as unsaid from ``clock`` on."""
        self._until = min(self._until, clock)

    def close(self) -> None:
        self._sink.close()


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
