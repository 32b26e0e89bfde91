"""Hearth's output level as pure code: the slider's steps, the cube law, mute, and the samples."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from audio.loudness import OutputLevel


def test_full_volume_leaves_the_samples_as_they_are():
    samples = np.array([0, 1000, -32768, 32767], dtype=np.int16)
    assert OutputLevel().apply(samples) is samples


def test_the_gain_follows_the_cube_of_the_level_as_pulseaudio_does():
    samples = np.full(100, 10_000, dtype=np.int16)
    assert OutputLevel(0.4).gain == pytest.approx(0.064)
    assert np.all(OutputLevel(0.4).apply(samples) == 640)
    assert np.all(OutputLevel(0.5).apply(samples) == 1250)


def test_mute_silences_and_keeps_the_level_to_come_back_to():
    muted = OutputLevel(0.7).with_mute(True)
    assert muted.gain == 0.0
    assert not np.any(muted.apply(np.full(10, 20_000, dtype=np.int16)))
    assert muted.with_mute(False) == OutputLevel(0.7)


def test_louder_and_quieter_move_in_steps_of_ten_percent_and_unmute():
    assert OutputLevel(0.7).louder() == OutputLevel(0.8)
    assert OutputLevel(0.7, muted=True).louder() == OutputLevel(0.8)
    assert OutputLevel(0.95).louder() == OutputLevel(1.0)
    assert OutputLevel(1.0).louder() == OutputLevel(1.0)
    assert OutputLevel(0.3).quieter() == OutputLevel(0.2)
    assert OutputLevel(0.15).quieter() == OutputLevel(0.1)


def test_quieter_stops_short_of_silence():
    """Silence is what "mute" or "volume zero" ask for, never a step too far down."""
    assert OutputLevel(0.1).quieter() == OutputLevel(0.1)
    assert OutputLevel(0.05).quieter() == OutputLevel(0.05)


def test_a_level_asked_for_is_set_within_the_slider():
    assert OutputLevel(0.2, muted=True).at(40) == OutputLevel(0.4)
    assert OutputLevel().at(0) == OutputLevel(0.0)
    assert OutputLevel().at(140) == OutputLevel(1.0)


@pytest.mark.parametrize("level", [-0.1, 1.01, float("nan"), float("inf")])
def test_a_level_outside_the_slider_is_refused(level):
    with pytest.raises(ValueError, match=r"outside 0\.0 to 1\.0"):
        OutputLevel(level)


@given(st.floats(0, 1), st.lists(st.integers(-32768, 32767), max_size=50))
def test_a_lower_level_is_never_louder(level, values):
    samples = np.array(values, dtype=np.int16)
    scaled = OutputLevel(level).apply(samples).astype(np.int32)
    assert np.all(np.abs(scaled) <= np.abs(samples.astype(np.int32)))
    assert np.all(np.sign(scaled) * np.sign(samples) >= 0)
