"""Wake word detection: openWakeWord models sharing one feature front end, on the audio clock.

openWakeWord is three models in a row. A mel spectrogram (32 bands every 10 ms) and an embedding
(96 values for each 80 ms step, from the last 76 mel frames, about 0.8 s) are the same for every
wake word, so one front end feeds all the wake models; each wake model turns its last 16 embeddings
(1.28 s) into a probability. The models and the TFLite runtime come from ``pyopen-wakeword``; the
front end is rebuilt here, as openWakeWord's own streaming code does it (each 80 ms step with 480
samples of context, the embedding over the newest 76 mel frames), to run with XNNPACK on one thread
(a quarter of the package's CPU, see ``audio.tflite``) and to know exactly where each score's audio
ends. ``pyopen-wakeword`` lags by
800 samples of audio and 4 mel frames instead; the scores agree (see the tests).

Start-up: the package starts its front end on 8 s of zeros and runs every model over them on the
first chunk (a burst of about 100 mel, 90 embedding and 65 wake-model runs, with 65 scores that
belong to no real audio). Here the history after a reset is what those 8 s of digital silence
leave, computed once at load time. A wake model scores from the very first 80 ms step instead of
waiting 1.28 s for its window to fill, so a wake word said in the first second is heard; measured
on Piper speech, tones and noise, the first steps' scores differ from those after 8 s of room
noise by under 0.05, so they need no warm-up gate.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyopen_wakeword

from audio.format import WAKE_CHUNK_SAMPLES, seconds_to_samples
from audio.tflite import TfLiteModel
from config import WakeModelSettings, WakeSettings

logger = logging.getLogger(__name__)

BUILTIN_MODELS = tuple(sorted(model.value for model in pyopen_wakeword.Model))
_MODELS_DIR = Path(pyopen_wakeword.__file__).parent / "models"

MEL_CONTEXT_SAMPLES = 480
"""Samples before each 80 ms step that its first 25 ms mel windows reach back into."""
MEL_BANDS = 32
MEL_FRAMES_PER_EMBEDDING = 76
EMBEDDING_SIZE = 96
VERIFY_BEFORE_SECONDS = 1.2
"""Audio before a detection's ``end_sample`` that verification transcribes: the whole phrase
(Piper's slow "Hey Jarvis" starts 0.95 s before), but little of the speech before it, which can
drown a quiet wake phrase (a 2 s window heard only "More milk." before a whispered one)."""
VERIFY_AFTER_SECONDS = 0.2
"""Audio after ``end_sample`` that verification waits for: a detection can fire before the name is
finished (slow speech running into a request), and the window ends on a word, not inside one."""


class WakeModelError(ValueError):
    """A wake model that cannot be found or is not an openWakeWord model."""


@dataclass(frozen=True)
class WakeDetection:
    """A wake model's scores stayed above its threshold for its trigger frames."""

    model: str
    """The model's name: a built-in name or the custom file's stem."""
    phrase: str
    """What the user says to wake Hearth with this model, e.g. "hey jarvis"."""
    score: float
    """The highest probability in the run of frames that fired."""
    end_sample: int
    """Audio-clock sample at which the audio that fired ends (the phrase ends near it)."""
    verify_after_seconds: float = VERIFY_AFTER_SECONDS
    """How much audio after ``end_sample`` verification waits for."""

    @property
    def verify_window(self) -> tuple[int, int]:
        """The audio-clock samples [start, end) to transcribe to verify this detection."""
        start = self.end_sample - seconds_to_samples(VERIFY_BEFORE_SECONDS)
        return max(0, start), self.end_sample + seconds_to_samples(self.verify_after_seconds)


def wake_phrase(settings: WakeModelSettings) -> str:
    """The phrase for a wake model: from settings, else from the model's name (hey_jarvis_v2 ->
    "hey jarvis")."""
    if settings.phrase:
        return settings.phrase
    words = Path(settings.model).stem.lower().replace("-", "_").split("_")
    # Custom models are often named with a version, e.g. hey_computer_v0.2.tflite
    while len(words) > 1 and re.fullmatch(r"v?\d+(\.\d+)*", words[-1]):
        words.pop()
    return " ".join(word for word in words if word)


def _model_path(name: str) -> Path:
    if name in BUILTIN_MODELS:
        return _MODELS_DIR / f"{name}.tflite"
    path = Path(name).expanduser()
    if path.suffix != ".tflite" and len(path.parts) == 1:
        raise WakeModelError(
            f"unknown wake model {name!r}: use one of {', '.join(BUILTIN_MODELS)}"
            " or the path of a .tflite file"
        )
    if not path.is_file():
        raise WakeModelError(f"wake model file not found: {path}")
    return path


class WakeFeatures:
    """openWakeWord's shared front end: each 80 ms of audio in, one 96-value embedding out."""

    def __init__(self, *, threads: int = 1) -> None:
        """Load the mel spectrogram and embedding models, each running on ``threads`` threads."""
        self._mel = TfLiteModel(
            _MODELS_DIR / "melspectrogram.tflite",
            threads=threads,
            input_shape=(1, MEL_CONTEXT_SAMPLES + WAKE_CHUNK_SAMPLES),
        )
        self._embedding = TfLiteModel(
            _MODELS_DIR / "embedding_model.tflite",
            threads=threads,
            input_shape=(1, MEL_FRAMES_PER_EMBEDDING, MEL_BANDS, 1),
        )
        silent_mels = self._mels(np.zeros(MEL_CONTEXT_SAMPLES + WAKE_CHUNK_SAMPLES, np.float32))
        self._silent_mels = np.tile(silent_mels[-1], (MEL_FRAMES_PER_EMBEDDING, 1))
        self.silent_embedding = self._embed(self._silent_mels)
        """The embedding of digital silence, which fills every history after a reset."""
        self.reset()

    def _mels(self, window: np.ndarray) -> np.ndarray:
        # The scaling is the one openWakeWord's embedding model was trained on
        return self._mel.run(window[np.newaxis]).reshape(-1, MEL_BANDS) / 10 + 2

    def _embed(self, mels: np.ndarray) -> np.ndarray:
        return self._embedding.run(mels[np.newaxis, :, :, np.newaxis]).reshape(EMBEDDING_SIZE)

    def reset(self) -> None:
        """Forget the audio heard so far, as if 8 s of silence came before what comes next."""
        self._context = np.zeros(MEL_CONTEXT_SAMPLES, np.float32)
        self._history = self._silent_mels.copy()

    def process(self, chunk: np.ndarray) -> np.ndarray:
        """The embedding of the 76 mel frames (0.775 s) that end with this 80 ms int16 chunk."""
        if chunk.shape != (WAKE_CHUNK_SAMPLES,):
            raise ValueError(f"a wake chunk is {WAKE_CHUNK_SAMPLES} samples, not {chunk.shape}")
        window = np.concatenate([self._context, chunk.astype(np.float32)])
        mels = self._mels(window)
        self._context = window[-MEL_CONTEXT_SAMPLES:]
        self._history = np.concatenate([self._history[len(mels) :], mels])
        return self._embed(self._history)

    def close(self) -> None:
        """Free the models."""
        self._mel.close()
        self._embedding.close()


class _WakeModel:
    """One wake model and its trigger state."""

    def __init__(self, settings: WakeModelSettings, threads: int) -> None:
        path = _model_path(settings.model)
        try:
            self.model = TfLiteModel(path, threads=threads)
        except ValueError as error:
            raise WakeModelError(f"{path} is not a usable wake model: {error}") from error
        shape = self.model.input_shape
        if len(shape) != 3 or shape[2] != EMBEDDING_SIZE or self.model.output_shape != (1, 1):
            self.model.close()
            raise WakeModelError(
                f"{path} is not an openWakeWord model: it takes {shape} and gives "
                f"{self.model.output_shape}, not (1, N, {EMBEDDING_SIZE}) and (1, 1)"
            )
        self.windows = shape[1]
        self.name = settings.model if settings.model in BUILTIN_MODELS else path.stem
        self.phrase = wake_phrase(settings)
        self.threshold = settings.threshold
        self.trigger_frames = settings.trigger_frames
        self.reset()

    def reset(self) -> None:
        self.run_frames = 0
        self.run_score = 0.0
        self.quiet_until = 0
        """Audio-clock sample before which this model cannot fire again (refractory)."""

    def score(self, embeddings: np.ndarray) -> float:
        return float(self.model.run(embeddings[np.newaxis, -self.windows :]).item())


class WakeWordDetector:
    """Several wake models over one shared front end, with thresholds, triggers and refractory."""

    def __init__(self, settings: WakeSettings, *, threads: int = 1) -> None:
        """Load the front end and every model in ``settings`` (``threads`` each; one is cheapest).

        Raises ``WakeModelError`` naming a model that is missing or not an openWakeWord model.
        """
        models: list[_WakeModel] = []
        try:
            for model_settings in settings.models:
                models.append(_WakeModel(model_settings, threads))
        except WakeModelError:
            for model in models:
                model.model.close()
            raise
        self._models = tuple(models)
        self._features = WakeFeatures(threads=threads)
        self._refractory_samples = seconds_to_samples(settings.refractory_seconds)
        self._history_size = max(model.windows for model in self._models)
        logger.info(
            "wake models loaded: %s",
            ", ".join(f"{model.name} ({model.phrase!r})" for model in self._models),
        )
        self.reset()

    @property
    def phrases(self) -> tuple[str, ...]:
        """The wake phrases, one per model, in the order of the settings."""
        return tuple(model.phrase for model in self._models)

    def reset(self) -> None:
        """Start afresh: the front end hears silence before the next chunk, no run, no refractory.

        Not needed between chunks of one stream; ``process`` resets by itself when the audio clock
        jumps (audio was skipped), because splicing distant audio together can look like speech.
        """
        self._features.reset()
        self._embeddings = np.tile(self._features.silent_embedding, (self._history_size, 1))
        self._pending = np.zeros(0, np.int16)
        self._next_sample: int | None = None
        for model in self._models:
            model.reset()

    def process(self, chunk: np.ndarray, end_sample: int) -> list[WakeDetection]:
        """Feed int16 audio of any length whose last sample is just before ``end_sample``.

        The models step every 80 ms; samples short of a whole step wait for the next chunk.
        Returns the detections made by the steps this chunk completed (usually none).
        """
        start_sample = end_sample - len(chunk)
        if self._next_sample is not None and start_sample != self._next_sample:
            logger.debug("wake audio jumped from %s to %s", self._next_sample, start_sample)
            self.reset()
        self._next_sample = end_sample
        pending = np.concatenate([self._pending, chunk.astype(np.int16, copy=False)])
        detections: list[WakeDetection] = []
        offset = 0
        while len(pending) - offset >= WAKE_CHUNK_SAMPLES:
            step = pending[offset : offset + WAKE_CHUNK_SAMPLES]
            offset += WAKE_CHUNK_SAMPLES
            detections.extend(self._step(step, end_sample - (len(pending) - offset)))
        self._pending = pending[offset:]
        return detections

    def _step(self, chunk: np.ndarray, end_sample: int) -> list[WakeDetection]:
        embedding = self._features.process(chunk)
        self._embeddings = np.concatenate([self._embeddings[1:], embedding[np.newaxis]])
        detections = []
        for model in self._models:
            score = model.score(self._embeddings)
            if score < model.threshold:
                model.run_frames, model.run_score = 0, 0.0
                continue
            model.run_frames += 1
            model.run_score = max(model.run_score, score)
            if model.run_frames >= model.trigger_frames and end_sample >= model.quiet_until:
                detections.append(
                    WakeDetection(model.name, model.phrase, model.run_score, end_sample)
                )
                logger.debug("wake %s at sample %s (%.3f)", model.name, end_sample, model.run_score)
                model.quiet_until = end_sample + self._refractory_samples
                model.run_frames, model.run_score = 0, 0.0
        return detections

    def close(self) -> None:
        """Free every model."""
        self._features.close()
        for model in self._models:
            model.model.close()
