"""The linear echo filter on a known room: it learns the room from what was played, takes the echo
out, and passes a person's voice whole while it is told not to learn."""

from __future__ import annotations

import numpy as np
import pytest

from audio.linear_echo import LinearEchoFilter

BLOCK = 512
RATE = 16_000


def a_room(seconds: float = 0.3, seed: int = 3) -> np.ndarray:
    """A made-up impulse response: a direct path, then a decaying random tail (a small room)."""
    rng = np.random.default_rng(seed)
    taps = round(seconds * RATE)
    response = rng.normal(0, 1, taps) * np.exp(-np.arange(taps) / (0.05 * RATE))
    response[0] = 4.0
    return response / np.abs(response).max()


def played(seconds: float, seed: int = 1) -> np.ndarray:
    """A speech-like reference: noise shaped to fall off with frequency, loud and quiet in turn."""
    rng = np.random.default_rng(seed)
    samples = round(seconds * RATE)
    noise = np.convolve(rng.normal(0, 1, samples), np.ones(8) / 8, mode="same")
    syllables = 0.6 + 0.4 * np.sin(2 * np.pi * 4 * np.arange(samples) / RATE)
    return np.clip(noise * syllables * 6000, -32768, 32767).astype(np.int16)


def run(
    linear: LinearEchoFilter, microphone: np.ndarray, reference: np.ndarray, adapt: bool = True
) -> np.ndarray:
    blocks = len(microphone) // BLOCK
    return np.concatenate(
        [
            linear.process(
                microphone[i * BLOCK : (i + 1) * BLOCK],
                reference[i * BLOCK : (i + 1) * BLOCK],
                adapt=adapt,
            )
            for i in range(blocks)
        ]
    )


def db(numerator: np.ndarray, denominator: np.ndarray) -> float:
    power = np.mean(numerator.astype(np.float64) ** 2)
    return float(10 * np.log10(power / np.mean(denominator.astype(np.float64) ** 2)))


def test_the_echo_of_what_was_played_is_taken_out_once_the_room_is_learned():
    reference = played(8.0)
    echo = np.convolve(reference.astype(np.float64), a_room())[: len(reference)]
    microphone = np.clip(echo, -32768, 32767).astype(np.int16)
    out = run(LinearEchoFilter(), microphone, reference)
    # It learns about 4 dB a second from this reference (a reply's first seconds are heard
    # with more echo left; it keeps what it learned from one reply to the next).
    first, late = slice(0, RATE), slice(6 * RATE, len(out))
    assert db(microphone[first], out[first]) < 10
    assert db(microphone[late], out[late]) > 25


def test_a_person_heard_while_it_does_not_learn_passes_whole_and_the_echo_stays_out():
    reference = played(9.0)
    response = a_room()
    echo = np.convolve(reference.astype(np.float64), response)[: len(reference)]
    linear = LinearEchoFilter()
    learn = 7 * RATE // BLOCK * BLOCK  # whole blocks, so the second part follows on
    run(linear, np.clip(echo[:learn], -32768, 32767).astype(np.int16), reference[:learn])
    # Now a person speaks (a tone as loud as the echo) and the filter is told not to learn.
    t = np.arange(len(reference) - learn) / RATE
    person = 3000 * np.sin(2 * np.pi * 440 * t)
    microphone = np.clip(echo[learn:] + person, -32768, 32767).astype(np.int16)
    out = run(linear, microphone, reference[learn:], adapt=False)
    person = person[: len(out)]
    left = out - person
    assert db(left, echo[learn : learn + len(out)]) < -25  # the echo is still taken out
    assert np.corrcoef(out, person)[0, 1] > 0.99  # and the person is what remains


def test_nothing_learned_nothing_taken_out():
    reference = played(1.0)
    rng = np.random.default_rng(5)
    microphone = rng.normal(0, 3000, len(reference)).astype(np.int16)
    out = run(LinearEchoFilter(), microphone, reference, adapt=False)
    np.testing.assert_array_equal(out, microphone[: len(out)])


def test_it_takes_blocks_of_its_own_size():
    with pytest.raises(ValueError, match="512"):
        LinearEchoFilter().process(np.zeros(480, np.int16), np.zeros(480, np.int16))
