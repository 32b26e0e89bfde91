"""The ring's ducking, as plain code: full until a person is heard over it, then 20 dB down for
the rest of the period sounding and every period after, until the ring is over."""

import numpy as np

from audio.ring_ducking import DUCK_GAIN, DUCK_PROBABILITY, RingDucker

SOUND = np.full(1000, 10_000, dtype=np.int16)


def test_full_until_a_person_is_heard_then_the_rest_quieter():
    ring = RingDucker(SOUND)
    assert np.array_equal(ring.period(5000), SOUND)
    assert ring.duck(DUCK_PROBABILITY - 0.01, 5100) is None
    assert ring.duck(None, 5200) is None  # a frame not scored
    rest = ring.duck(DUCK_PROBABILITY, 5300)
    assert len(rest) == 700 and np.all(rest == 10_000 * DUCK_GAIN)
    assert ring.duck(0.9, 5400) is None, "once per ring"
    assert np.all(ring.period(9000) == 10_000 * DUCK_GAIN), "the next period is quiet too"


def test_between_periods_nothing_to_replay_and_a_new_ring_starts_full():
    ring = RingDucker(SOUND)
    ring.period(0)
    assert len(ring.duck(0.8, 1500)) == 0  # the period ended: nothing sounds now
    ring.reset()
    assert np.array_equal(ring.period(3000), SOUND)
    assert RingDucker(SOUND).duck(0.8, 10) is not None  # before any period: ducked, empty
