"""Ducking, as plain code: the ring is full until a person is heard over it, then 20 dB down for
the rest of the period sounding and every period after, until the ring is over; a reply's pieces
likewise, until the ducking is reset."""

import numpy as np

from audio.ducking import DUCK_GAIN, DUCK_PROBABILITY, Ducker, RingDucker

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


def test_a_reply_piece_ducked_mid_way_and_the_next_piece_full_again_once_reset():
    reply = Ducker()
    first = np.arange(1, 1001, dtype=np.int16) * 10
    assert np.array_equal(reply.play(first, 2000), first)
    assert reply.duck(0.1, 2100) is None
    rest = reply.duck(0.6, 2400)
    np.testing.assert_array_equal(rest, (first[400:] * DUCK_GAIN).astype(np.int16))
    second = np.full(500, 8000, dtype=np.int16)
    assert np.all(reply.play(second, 3000) == 800), "still ducked while the person speaks"
    assert reply.duck(0.9, 3600) is None, "once until reset"
    reply.reset()
    assert np.array_equal(reply.play(second, 4000), second)
    assert len(Ducker().duck(0.9, 10)) == 0  # nothing playing: ducked, nothing to replay
