"""Voice activity: Silero VAD v6, streamed one 32 ms frame at a time with its state carried over.

The ONNX file is the one that ships inside ``faster-whisper``. Each call sees the frame plus the
last 64 samples of the previous one, and the model's recurrent state (``h``, ``c``) runs on from
frame to frame, as the model was trained to be used.
"""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path

import numpy as np

from audio.format import VAD_FRAME_SAMPLES, seconds_to_samples

logger = logging.getLogger(__name__)

CONTEXT_SAMPLES = 64
"""Samples of the previous frame that the model sees before each frame."""
WARM_UP_FRAMES = 6
"""Frames after a reset whose probability is unknown. Started cold in the middle of Piper speech,
the first five frames differ from a warm stream's by up to 0.86 (and disagree at the 0.5
threshold up to 16% of the time); from the sixth on by under 0.2."""
STALE_AFTER_SECONDS = 1.0
"""A gap in the frames heard longer than this starts a fresh state. A shorter one (the quiet
between words, spared in standby) keeps it: the audio just before is still what it knows, and a
reset would make the next six frames unknown in the middle of a phrase."""
_STALE_AFTER_SAMPLES = seconds_to_samples(STALE_AFTER_SECONDS)
_STATE_SHAPE = (1, 1, 128)


def _default_model() -> Path:
    # Located, not imported: importing faster-whisper costs 36 MB a VAD-only process need not hold
    spec = importlib.util.find_spec("faster_whisper")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("Silero VAD ships with faster-whisper, which is not installed")
    return Path(spec.origin).parent / "assets" / "silero_vad_v6.onnx"


class VoiceActivity:
    """Silero VAD over 512-sample frames of 16 kHz int16 audio, one ONNX thread."""

    def __init__(self, model_path: Path | None = None) -> None:
        """Load the model (``faster-whisper``'s bundled Silero v6 unless a path is given)."""
        import onnxruntime

        path = model_path or _default_model()
        if not path.is_file():
            raise FileNotFoundError(f"Silero VAD model not found: {path}")
        options = onnxruntime.SessionOptions()
        # One frame is a tiny graph: more threads only add hand-over cost on a 2-core device
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self._session = onnxruntime.InferenceSession(
            str(path), sess_options=options, providers=["CPUExecutionProvider"]
        )
        logger.debug("voice activity model loaded from %s", path)
        self.reset()

    def reset(self) -> None:
        """Forget the audio so far; the next ``WARM_UP_FRAMES`` frames answer ``None``."""
        self._h = np.zeros(_STATE_SHAPE, np.float32)
        self._c = np.zeros(_STATE_SHAPE, np.float32)
        self._context = np.zeros(CONTEXT_SAMPLES, np.float32)
        self._frames = 0
        self._next_sample: int | None = None
        """Where the frame after the last one heard starts (None: no frame placed yet)."""

    def process(self, frame: np.ndarray, at_sample: int | None = None) -> float | None:
        """The probability that this 512-sample int16 frame holds speech, or ``None`` while the
        model warms up after a reset (unknown: neither speech nor silence).

        ``at_sample`` is where the frame starts on the stream's clock. A frame heard more than
        :data:`STALE_AFTER_SECONDS` after the last one (or before it: another stream) starts
        from a fresh state: the recurrent state is of audio before the gap, and carried across
        a long one it can stay wrong for seconds. After a quiet standby whose frames it was
        spared, it scored a request said across a room 0.1 where a fresh state scored 0.6, and
        the request's first words were lost ("the frosty air" heard from "air" on, or nothing).
        """
        if frame.shape != (VAD_FRAME_SAMPLES,):
            raise ValueError(f"a VAD frame is {VAD_FRAME_SAMPLES} samples, not {frame.shape}")
        if at_sample is not None:
            last = self._next_sample
            if last is None or not 0 <= at_sample - last <= _STALE_AFTER_SAMPLES:
                self.reset()
            self._next_sample = at_sample + VAD_FRAME_SAMPLES
        samples = frame.astype(np.float32) / 32768
        window = np.concatenate([self._context, samples])[np.newaxis]
        probability, self._h, self._c = self._session.run(
            None, {"input": window, "h": self._h, "c": self._c}
        )
        self._context = samples[-CONTEXT_SAMPLES:]
        self._frames += 1
        return float(probability.item()) if self._frames > WARM_UP_FRAMES else None
