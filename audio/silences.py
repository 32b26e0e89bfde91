"""Long silences inside an utterance, shortened before Whisper hears it: a pure function of samples.

Whisper learned from subtitles, where a long silence ends a caption. Given "what's the weather like
in", a second of silence and "Lisbon this weekend", tiny.en writes "What's the weather like in?"
and stops: the speaker was not cut off, yet the end of the request is lost. With the silence
shortened to :data:`SILENCE_HEARD_SECONDS` it hears the whole request (bench/end_of_turn.py's
requests with a pause where a speaker looks for a word, Piper and espeak-ng voices after "Hey
Jarvis": 20 of 30 kept their end as said, 25 of 30 with the silences shortened). Only silences the
voice activity detector heard between the utterance's words are shortened, each keeping its two
edges, where speech fades in and out.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from audio.format import seconds_to_samples

SILENCE_HEARD_SECONDS = 0.3
"""What is kept of a longer silence inside an utterance: still a pause to Whisper, which writes
its commas and full stops from them, but no caption's end."""


def shortened(samples: np.ndarray, silences: Iterable[tuple[int, int]]) -> np.ndarray:
    """``samples`` with every silence longer than :data:`SILENCE_HEARD_SECONDS` cut down to it,
    keeping half of that at each edge; ``silences`` are ``(start, end)`` sample indices into
    ``samples``, in any order (overlapping or out-of-range ones are clipped to the samples)."""
    keep = seconds_to_samples(SILENCE_HEARD_SECONDS)
    cuts, heard_to = [], 0
    for start, end in sorted(silences):
        start, end = max(start, heard_to), min(end, len(samples))
        if end - start > keep:
            cuts.append((start + keep // 2, end - (keep - keep // 2)))
        heard_to = max(heard_to, end)
    if not cuts:
        return samples
    kept, position = [], 0
    for cut_start, cut_end in cuts:
        kept.append(samples[position:cut_start])
        position = cut_end
    kept.append(samples[position:])
    return np.concatenate(kept)
