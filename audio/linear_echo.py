"""Hearth's own voice taken out of the microphone by a linear filter alone, for the stop check.

WebRTC's AEC3 (``audio.echo``) follows its linear filter with a suppressor that, while Hearth
speaks, silences whatever it cannot tell from the echo. A person's short "Stop." said over the
reply loses its "s" and "p" there: a fricative 10 to 15 dB under the echo is taken for the echo,
and tiny.en hears the vowel left as "Up.", "Yeah" or nothing (``python -m bench.echo --stop``).
That output is right for everything else Hearth hears over a reply (the wake word, Silero, the
free transcript), and stays so; this filter's output is heard only to confirm a stop.

It is the subtraction without the suppression: a partitioned-block frequency-domain adaptive
filter (the multidelay filter of Soo and Pang, 1990, as in speexdsp and AEC3's own linear stage)
models the room from what was played to what the microphone heard and subtracts its prediction.
The echo it leaves is 15 to 25 dB down in the bench's measured and simulated rooms, and the
person's voice passes whole. It adapts only while nobody is speaking (the caller says so), so a
person's words never teach it to cancel them. About 0.006 CPU seconds per audio second here.
"""

from __future__ import annotations

import numpy as np

from audio.format import SAMPLE_RATE, VAD_FRAME_SAMPLES

TAIL_SECONDS = 0.512
"""How much of the room the filter models. The bench's rooms keep echo energy for 0.2 to 1 s;
0.512 s left the least echo under a person's "Stop." (0.256 s left 4 dB more, and 0.768 s
learned too slowly in a reply's first seconds)."""
STEP = 0.5
"""The normalised step of each update: half the error is corrected per block."""
REGULARISATION = 0.01
"""Added to each frequency's reference power, as a share of the mean over frequencies: a
frequency the reply barely sounds at learns slowly instead of from noise."""


class LinearEchoFilter:
    """One adaptive filter for one microphone, fed blocks of microphone and reference samples."""

    def __init__(
        self,
        block: int = VAD_FRAME_SAMPLES,
        tail_seconds: float = TAIL_SECONDS,
        step: float = STEP,
        sample_rate: int = SAMPLE_RATE,
    ) -> None:
        self._block = block
        partitions = max(1, round(tail_seconds * sample_rate / block))
        bins = block + 1
        self._weights = np.zeros((partitions, bins), dtype=np.complex128)
        self._spectra = np.zeros((partitions, bins), dtype=np.complex128)
        """The reference's last ``partitions`` blocks (each with the one before), newest first."""
        self._previous = np.zeros(block)
        self._step = step

    def process(
        self, microphone: np.ndarray, reference: np.ndarray, *, adapt: bool = True
    ) -> np.ndarray:
        """The microphone block minus the filter's prediction of the echo of ``reference`` (what
        was played meanwhile), int16; the filter learns from the block when ``adapt``."""
        block = self._block
        if len(microphone) != block or len(reference) != block:
            raise ValueError(
                f"blocks of {block} samples, not {len(microphone)} and {len(reference)}"
            )
        played = reference.astype(np.float64)
        self._spectra = np.roll(self._spectra, 1, axis=0)
        # Overlap-save: each block's spectrum is taken with the block before it.
        self._spectra[0] = np.fft.rfft(np.concatenate([self._previous, played]))
        self._previous = played
        predicted = np.fft.irfft(np.sum(self._weights * self._spectra, axis=0), 2 * block)[block:]
        error = microphone.astype(np.float64) - predicted
        if adapt and np.any(played):
            self._learn(error)
        return np.clip(np.round(error), -32768, 32767).astype(np.int16)

    def _learn(self, error: np.ndarray) -> None:
        """One normalised update of every partition, constrained to a linear convolution."""
        block = self._block
        spectrum = np.fft.rfft(np.concatenate([np.zeros(block), error]))
        power = np.sum(np.abs(self._spectra) ** 2, axis=0)
        # Per frequency, normalised by the reference power the whole filter sees (an NLMS
        # update in each frequency), so a quiet stretch of the reply learns as fast as a loud one.
        norm = power + REGULARISATION * np.mean(power) + 1e3 * block
        gradient = np.conj(self._spectra) * (spectrum / norm)
        # The gradient constraint: each partition stays a filter of ``block`` taps, so the
        # circular convolution of the frequency domain is never learned as if it were linear.
        taps = np.fft.irfft(gradient, 2 * block, axis=1)
        taps[:, block:] = 0
        self._weights += self._step * np.fft.rfft(taps, axis=1)
