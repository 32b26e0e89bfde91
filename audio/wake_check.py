"""Wake verification: whether a wake model's detection was the wake phrase, judged from its audio.

The wake models fire on near-misses ("Hey Charlie", "Hey, jars of jam" score 0.98 on
``hey_jarvis``), so a detection is checked before Hearth wakes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from audio.phrase import contains_phrase
from audio.stt import SpeechToText
from audio.wakeword import WakeDetection, wake_phrase
from config import WakeSettings


@dataclass(frozen=True)
class WakeVerdict:
    """What verification made of one detection."""

    accepted: bool
    heard: str = ""
    """Whisper's free transcript of the window (empty when none was needed)."""


class WakeVerifier:
    """Judges detections for the wake models in ``settings`` with the speech-to-text model."""

    def __init__(self, settings: WakeSettings, stt: SpeechToText) -> None:
        self._stt = stt
        self._verify = {wake_phrase(model): model.verify for model in settings.models}

    def judge(self, detection: WakeDetection, window: np.ndarray) -> WakeVerdict:
        """Accept or refuse ``detection`` given its window's audio (``detection.verify_window``)."""
        if not self._verify.get(detection.phrase, True):
            return WakeVerdict(True)
        heard = self._stt.transcribe(window).text
        return WakeVerdict(contains_phrase(heard, detection.phrase), heard)
