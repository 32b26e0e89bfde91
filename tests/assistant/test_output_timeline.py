"""File mode's output timeline as pure code: sounds settle once the clock passes their end, and a
dying voice process's sound stops where its clock stopped."""

from __future__ import annotations

import numpy as np

from assistant.output_timeline import OutputTimeline, Sound


def tone(at: int, length: int, value: int = 1) -> Sound:
    return Sound(at, np.full(length, value, dtype=np.int16))


def placed(sounds: list[Sound]) -> list[tuple[int, int]]:
    return [(sound.at_sample, len(sound.samples)) for sound in sounds]


def test_a_sound_is_written_once_the_clock_has_passed_its_end():
    timeline = OutputTimeline()
    assert timeline.played(tone(16000, 8000)) == []
    assert timeline.reached(1.25) == []  # sample 20000: still playing
    assert placed(timeline.reached(1.5)) == [(16000, 8000)]
    assert timeline.reached(3.0) == []  # once
    assert timeline.position == 3.0 and timeline.position_sample == 48000


def test_the_clock_never_goes_back():
    timeline = OutputTimeline()
    timeline.reached(2.0)
    timeline.reached(1.0)  # a late report from a process that is gone
    assert timeline.position == 2.0
    # A sound that ended before the clock settles at once.
    assert placed(timeline.played(tone(0, 100))) == [(0, 100)]


def test_a_dying_process_is_cut_where_its_clock_stopped_and_unbegun_sounds_are_dropped():
    timeline = OutputTimeline()
    timeline.played(tone(16000, 16000))
    timeline.played(tone(40000, 1000))  # not begun when the process died
    timeline.reached(1.5)  # sample 24000
    cut = timeline.cut()
    assert placed(cut) == [(16000, 8000)]
    assert timeline.rest() == [] and timeline.position == 1.5


def test_at_the_end_every_sound_held_is_written():
    timeline = OutputTimeline()
    timeline.played(tone(100, 50))
    timeline.played(tone(200, 50, value=2))
    rest = timeline.rest()
    assert placed(rest) == [(100, 50), (200, 50)]
    assert rest[1].samples[0] == 2
    assert timeline.rest() == []
