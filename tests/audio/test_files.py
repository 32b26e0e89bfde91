"""File mode's source and sink: read and written a block at a time, the same as whole."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np

from audio import wav
from audio.files import TimelineSink, WavSource
from audio.format import SAMPLE_RATE
from audio.wav import read_wav, write_wav
from tests.audio.test_wav import FLOAT, wav_bytes


def noise(seconds: float, seed: int = 1) -> np.ndarray:
    generator = np.random.default_rng(seed)
    return generator.integers(-8000, 8000, round(seconds * SAMPLE_RATE)).astype(np.int16)


def test_the_source_reads_in_any_steps_what_the_whole_file_holds(tmp_path: Path) -> None:
    stereo = np.random.default_rng(2).uniform(-0.5, 0.5, (44100 * 23, 2))
    path = tmp_path / "room.wav"
    path.write_bytes(wav_bytes(stereo, 44100, bits=24))
    whole = read_wav(path)
    source = WavSource(path)
    assert source.total_samples == len(whole)
    pieces, step = [], 1
    while (block := source.read(step)) is not None:
        assert len(block) <= step
        pieces.append(block)
        step = step * 3 % 250007 + 1  # uneven steps, some past a ten-second block
    assert np.array_equal(np.concatenate(pieces), whole)
    source.close()


def test_a_source_resumed_past_a_point_reads_on_from_it(tmp_path: Path) -> None:
    audio = noise(25.0)
    write_wav(tmp_path / "room.wav", audio)
    source = WavSource(tmp_path / "room.wav")
    source.start_at(12 * SAMPLE_RATE + 17)
    assert np.array_equal(source.read(512), audio[12 * SAMPLE_RATE + 17 :][:512])
    source.start_at(10**9)
    assert source.read(512) is None


def test_a_converted_source_resumes_by_seeking_not_by_converting_what_came_before(
    tmp_path: Path, monkeypatch
) -> None:
    """A voice process restarted an hour into 48 kHz stereo converted the hour before its first
    heartbeat (2.9 to 8.5 s), past the watchdog's 3 s: now the file is sought, and only the
    block it resumes in is decoded."""
    stereo = np.random.default_rng(4).uniform(-0.5, 0.5, (48000 * 40, 2))
    path = tmp_path / "room.wav"
    path.write_bytes(wav_bytes(stereo, 48000, bits=24))
    whole = read_wav(path)
    decoded: list[int] = []
    real_decode = wav._decode

    def counted(raw, fmt):
        decoded.append(len(raw))
        return real_decode(raw, fmt)

    monkeypatch.setattr(wav, "_decode", counted)
    source = WavSource(path)
    source.start_at(30 * SAMPLE_RATE)
    resumed = source.read(SAMPLE_RATE)
    source.close()
    assert resumed is not None and len(resumed) == SAMPLE_RATE
    assert sum(decoded) <= 10 * 48000 * 6  # one ten-second block, not the thirty before it
    # The same sound, but for the resampler's fresh start at the seam (a few samples).
    middle = slice(100, SAMPLE_RATE - 100)
    expected = whole[30 * SAMPLE_RATE :][:SAMPLE_RATE][middle].astype(float)
    assert np.corrcoef(resumed[middle].astype(float), expected)[0, 1] > 0.99


def test_a_closed_source_reads_nothing(tmp_path: Path) -> None:
    write_wav(tmp_path / "room.wav", noise(1.0))
    source = WavSource(tmp_path / "room.wav")
    source.close()
    assert source.read(512) is None


def test_the_timeline_mixes_sounds_across_its_blocks_as_one_array_would(tmp_path: Path) -> None:
    total = 35 * SAMPLE_RATE
    sounds = [
        (0, noise(0.5, 3)),
        (10 * SAMPLE_RATE - 100, noise(0.3, 4)),  # across a block's edge
        (10 * SAMPLE_RATE - 50, noise(0.2, 5)),  # overlapping it: mixed
        (19 * SAMPLE_RATE, noise(12.0, 6)),  # across two edges
        (total - 200, noise(1.0, 7)),  # past the input's end: the output grows
    ]
    sink = TimelineSink(tmp_path / "out.wav", total)
    expected = np.zeros(total - 200 + SAMPLE_RATE, dtype=np.int32)
    for at, sound in sounds:
        sink.play(sound, at)
        expected[at : at + len(sound)] += sound
    sink.close()
    assert np.array_equal(read_wav(tmp_path / "out.wav"), np.clip(expected, -32768, 32767))


def test_the_timeline_of_a_long_recording_is_written_without_holding_it(tmp_path: Path) -> None:
    """Three hours of file mode built a 700 MB array and more to write its output; the output
    is now mixed a block at a time: here twenty minutes (38 MB) within a few blocks' room."""
    sink = TimelineSink(tmp_path / "out.wav", 20 * 60 * SAMPLE_RATE)
    for minute in range(20):
        sink.play(noise(2.0, minute), minute * 60 * SAMPLE_RATE)
    tracemalloc.start()
    try:
        sink.close()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * 10 * SAMPLE_RATE * 4  # four ten-second blocks of the int32 mix
    assert (tmp_path / "out.wav").stat().st_size == 44 + 20 * 60 * SAMPLE_RATE * 2


def test_opening_a_source_reads_only_its_header(tmp_path: Path) -> None:
    """A voice process opens its source after saying it is ready, and its watchdog waits for
    its heartbeat: converting an hour of 48 kHz stereo there took 8.5 s, and the watchdog
    killed it, six times over. Opening now reads the header; the audio is read as heard."""
    stereo = np.random.default_rng(3).uniform(-0.5, 0.5, (48000 * 180, 2))
    path = tmp_path / "long.wav"
    path.write_bytes(wav_bytes(stereo, 48000, bits=32, tag=FLOAT))
    tracemalloc.start()
    try:
        source = WavSource(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert source.total_samples == 180 * SAMPLE_RATE
    assert peak < 100_000  # of a 69 MB recording
    source.close()
