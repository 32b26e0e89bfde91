"""The file-mode mouth: what reaches the output timeline as the clock passes, and what it said."""

from __future__ import annotations

import numpy as np

from audio.mouth import REPORT_SECONDS, TimelineMouth

PIECE = round(REPORT_SECONDS * 16_000)


class Timeline:
    """A sink that keeps what it is given, as the supervisor's output timeline does."""

    def __init__(self) -> None:
        self.sounds: list[tuple[int, np.ndarray]] = []
        self.closed = False

    def play(self, samples: np.ndarray, at_sample: int) -> None:
        self.sounds.append((at_sample, samples.copy()))

    def close(self) -> None:
        self.closed = True

    def audio(self, length: int) -> np.ndarray:
        out = np.zeros(length, dtype=np.int16)
        for at, sound in self.sounds:
            out[at : at + len(sound)] += sound
        return out


def ramp(samples: int) -> np.ndarray:
    return (np.arange(samples) % 1000 + 1).astype(np.int16)


def test_a_sound_reaches_the_timeline_as_the_clock_passes_it_in_quarter_seconds():
    timeline = Timeline()
    mouth = TimelineMouth(timeline)
    sound = ramp(4 * PIECE)
    mouth.start(sound, 1000)
    assert mouth.busy(1000) and timeline.sounds == []
    assert mouth.busy(1000 + PIECE // 2) and timeline.sounds == []  # less than a piece yet
    assert mouth.busy(1000 + PIECE + 10)
    assert [(at, len(s)) for at, s in timeline.sounds] == [(1000, PIECE + 10)]
    assert not mouth.busy(1000 + 4 * PIECE)
    np.testing.assert_array_equal(timeline.audio(1000 + 4 * PIECE)[1000:], sound)


def test_a_sound_cut_short_ends_where_it_was_stopped_on_the_timeline_and_in_what_was_said():
    timeline = Timeline()
    mouth = TimelineMouth(timeline)
    sound = ramp(4 * PIECE)
    mouth.start(sound, 0)
    mouth.busy(PIECE)
    mouth.stop(2 * PIECE + 5)
    assert not mouth.busy(2 * PIECE + 5)
    mouth.close()
    heard = timeline.audio(4 * PIECE)
    np.testing.assert_array_equal(heard[: 2 * PIECE + 5], sound[: 2 * PIECE + 5])
    assert not heard[2 * PIECE + 5 :].any()
    assert not mouth.said(2 * PIECE + 5, PIECE).any()
    assert timeline.closed


def test_what_was_said_is_the_reference_at_the_same_audio_clock_samples():
    mouth = TimelineMouth(Timeline())
    first, second = ramp(3000), ramp(2000) * 2
    mouth.start(first, 100)
    mouth.busy(10_000)
    mouth.start(second, 2000)  # a later sound overlapping an earlier one is mixed, as in a room
    said = mouth.said(0, 5000)
    expected = np.zeros(5000, dtype=np.int32)
    expected[100:3100] += first
    expected[2000:4000] += second
    np.testing.assert_array_equal(said, expected.astype(np.int16))
    assert not mouth.said(4000, 512).any()


def test_closing_hands_over_the_rest_of_a_sound():
    timeline = Timeline()
    mouth = TimelineMouth(timeline)
    mouth.start(ramp(3 * PIECE), 0)
    mouth.close()
    assert sum(len(sound) for _, sound in timeline.sounds) == 3 * PIECE
