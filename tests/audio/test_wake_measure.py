"""How well a wake word was heard, on real recordings: the level over the room's noise floor, so
a Hearth beside a talking TV, hearing the voice louder but buried, yields to one across a quiet
room; in quiet rooms levels compare as levels."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.arbitration.claims import Claim, Outcome, decide
from audio.wake_measure import (
    FLOOR_SECONDS,
    QUIET_FLOOR_DB,
    WakeMeasure,
    level_db,
    noise_floor_db,
)
from tests.rooms import across, at_level, measured_room, noise_bed, recording, rms

RATE = 16_000
LEAD = int(FLOOR_SECONDS * RATE)


def heard(voice: np.ndarray, bed: np.ndarray) -> WakeMeasure:
    """The measure a device takes of ``voice`` said after ``FLOOR_SECONDS`` of its room's
    ``bed`` (which goes on under the voice)."""
    room = np.concatenate([np.zeros(LEAD), voice.astype(np.float64)]) + bed[: LEAD + len(voice)]
    audio = np.clip(room, -32768, 32767).astype(np.int16)
    return WakeMeasure(0.0, 0.95, level_db(audio[LEAD:]), noise_floor_db(audio[:LEAD]))


def bed(name: str, samples: int, target_rms: float) -> np.ndarray:
    return at_level(noise_bed(name, samples), target_rms).astype(np.float64)


def test_the_floor_of_a_noise_is_its_typical_moment_not_its_loudest():
    noise = at_level(noise_bed("noise3", LEAD), 1000.0)
    banged = noise.copy()
    banged[RATE : RATE + RATE // 3] = at_level(noise_bed("noise2", RATE // 3), 16000.0)
    level = 20 * np.log10(1000.0 / 32768)
    assert noise_floor_db(noise) == pytest.approx(level, abs=1.5)
    assert noise_floor_db(banged) == pytest.approx(level, abs=1.5)  # a door's bang: no rise
    assert level_db(banged) > level + 10
    assert noise_floor_db(np.zeros(0, dtype=np.int16)) < QUIET_FLOOR_DB


def test_beside_a_talking_tv_a_louder_voice_is_heard_worse_than_across_a_quiet_room():
    voice = recording("harvard-birch-canoe")
    samples = LEAD + len(voice)
    # Beside the TV: the voice at -21 dBFS, the TV's talk (a real speaker) at -24 dBFS.
    tv = bed("harvard-spk1-1", samples, 2000.0) + bed("noise2", samples, 300.0)
    beside_tv = heard(at_level(voice, 3000.0), tv)
    # Across a quiet room: the voice reverberant and 12 dB quieter, the room's hush at -70 dBFS.
    quiet = heard(at_level(across(voice, measured_room("room-impulse-1")), 750.0),
                  bed("noise3", samples, 10.0))  # fmt: skip
    assert beside_tv.level_db > quiet.level_db + 6  # louder by level alone
    assert quiet.clarity_db > beside_tv.clarity_db + 6  # but clearer across the quiet room
    claims = [Claim("living-room", 0.0, beside_tv.score, beside_tv.clarity_db),
              Claim("kitchen", 0.0, quiet.score, quiet.clarity_db)]  # fmt: skip
    assert decide(claims[0], claims[1:], window=1.0).outcome is Outcome.DEFERRED
    assert decide(claims[1], claims[:1], window=1.0).outcome is Outcome.ANSWERED


@pytest.mark.parametrize("hush_rms", [0.0, 10.0])
def test_in_quiet_rooms_near_and_far_compare_by_level(hush_rms):
    voice = recording("harvard-spk1-1")
    samples = LEAD + len(voice)
    hush = bed("noise3", samples, hush_rms) if hush_rms else np.zeros(samples)
    near = heard(at_level(voice, 3000.0), hush)
    far = heard(at_level(voice, 3000.0 / 4), hush)  # 12 dB quieter
    assert near.clarity_db - far.clarity_db == pytest.approx(near.level_db - far.level_db, abs=0.01)
    assert near.clarity_db - far.clarity_db == pytest.approx(12.0, abs=0.5)
    assert rms(voice) > 0
