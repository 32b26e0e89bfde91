"""Playing what Hearth says without stopping the ears: on a timeline, or on a live speaker."""

from __future__ import annotations

import logging
import threading

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

    def stop(self, clock: int) -> None:
        """Barge-in: the rest of the sound is treated as unsaid from ``clock`` on."""
        self._until = min(self._until, clock)

    def close(self) -> None:
        self._sink.close()


class SpeakerMouth:
    """Speech on a live speaker, played by a thread so the microphone keeps being read."""

    live = True

    def __init__(self, sink: AudioSink):
        self._sink = sink
        self._thread: threading.Thread | None = None
        self.error: Exception | None = None

    def start(self, samples: np.ndarray, at_sample: int) -> None:
        """Start playing ``samples`` now."""
        self.error = None
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

    def close(self) -> None:
        self.stop(0)
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._sink.close()

    def _play(self, samples: np.ndarray, at_sample: int) -> None:
        try:
            self._sink.play(samples, at_sample)
        except Exception as error:  # reported to the loop, which says so in the event stream
            log.error("playing speech failed: %s", error)
            self.error = error
