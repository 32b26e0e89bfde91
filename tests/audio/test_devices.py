"""Sources and sinks: WAV files, and real sound devices through a private PulseAudio server."""

from __future__ import annotations

import subprocess
import sys
import threading
from multiprocessing import connection
from pathlib import Path

import numpy as np
import pytest

from audio.devices import (
    AudioDeviceError,
    MicrophoneSource,
    SpeakerSink,
    list_devices,
    refresh_devices,
)
from audio.files import TimelineSink, WavSource
from audio.format import SAMPLE_RATE
from audio.io import AudioSink, AudioSource
from audio.wakeup import Wakeup
from audio.wav import WavError, read_wav, write_wav
from tests.audio.pulse import ROOM, SPEAKER, PulseServer
from tests.speech import speech


def tone(hertz: float, seconds: float, amplitude: float = 0.3) -> np.ndarray:
    t = np.arange(round(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    return np.round(amplitude * 32767 * np.sin(2 * np.pi * hertz * t)).astype(np.int16)


def dominant_hertz(samples: np.ndarray) -> float:
    spectrum = np.abs(np.fft.rfft(samples.astype(np.float64) * np.hanning(len(samples))))
    return float(np.argmax(spectrum) * SAMPLE_RATE / len(samples))


def loud_seconds(samples: np.ndarray, threshold: int = 1000) -> float:
    """Audio seconds in 10 ms windows whose peak is above ``threshold``."""
    window = SAMPLE_RATE // 100
    frames = samples[: len(samples) // window * window].reshape(-1, window)
    return float(np.sum(np.abs(frames).max(axis=1) > threshold) / 100)


def best_correlation(reference: np.ndarray, recording: np.ndarray) -> tuple[float, int]:
    """Pearson correlation of ``reference`` with the part of ``recording`` that lines up best,
    and where that part starts."""
    a = reference.astype(np.float64)
    b = recording.astype(np.float64)
    size = 1 << int(np.ceil(np.log2(len(a) + len(b))))
    cross = np.fft.irfft(np.fft.rfft(b, size) * np.conj(np.fft.rfft(a, size)), size)
    lag = int(np.argmax(cross[: len(b) - len(a) + 1]))
    return float(np.corrcoef(a, b[lag : lag + len(a)])[0, 1]), lag


def heard_in_order(said: np.ndarray, heard: np.ndarray, seconds: float = 0.25) -> list[float]:
    """Correlation of each spoken stretch of ``said`` with where it lines up best in ``heard``;
    0 for a stretch found out of order."""
    size = round(seconds * SAMPLE_RATE)
    scores, last = [], -1
    for start in range(0, len(said) - size + 1, size):
        part = said[start : start + size]
        if np.abs(part).max() < 3000:
            continue  # a pause: nothing to recognise it by
        score, lag = best_correlation(part, heard)
        scores.append(score if lag > last else 0.0)
        last = lag
    return scores


# --- no device needed ---------------------------------------------------------------------------


def test_importing_audio_does_not_import_sounddevice() -> None:
    code = (
        "import sys, audio, audio.devices, audio.files, audio.io, audio.tts, audio.earcons; "
        "assert 'sounddevice' not in sys.modules, 'sounddevice imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_an_unknown_device_is_an_error_naming_it() -> None:
    with pytest.raises(AudioDeviceError, match="no input device 'no such microphone'"):
        MicrophoneSource("no such microphone")
    with pytest.raises(AudioDeviceError, match="no output device 'no such speaker'"):
        SpeakerSink("no such speaker")


def test_wav_source_reads_blocks_to_the_end(tmp_path: Path) -> None:
    samples = np.arange(2500, dtype=np.int16)
    write_wav(tmp_path / "in.wav", samples)
    source: AudioSource = WavSource(tmp_path / "in.wav")
    blocks = []
    while (block := source.read(1000)) is not None:
        blocks.append(block)
    assert [len(block) for block in blocks] == [1000, 1000, 500]
    assert np.array_equal(np.concatenate(blocks), samples)
    assert source.read(1000) is None


def test_wav_source_converts_other_rates_to_16_khz(tmp_path: Path) -> None:
    write_wav(tmp_path / "48k.wav", tone(440, 1.0), sample_rate=48_000)  # 1/3 s at 48 kHz
    source = WavSource(tmp_path / "48k.wav")
    assert source.total_samples == pytest.approx(SAMPLE_RATE / 3, abs=2)


def test_wav_source_stops_when_closed(tmp_path: Path) -> None:
    write_wav(tmp_path / "in.wav", np.zeros(1000, dtype=np.int16))
    source = WavSource(tmp_path / "in.wav")
    source.close()
    assert source.read(100) is None


def test_wav_source_rejects_a_bad_file_at_once(tmp_path: Path) -> None:
    (tmp_path / "bad.wav").write_bytes(b"not a wav file at all")
    with pytest.raises(WavError, match=r"bad\.wav"):
        WavSource(tmp_path / "bad.wav")


def test_timeline_places_each_sound_at_its_audio_clock_time(tmp_path: Path) -> None:
    sink: AudioSink = TimelineSink(tmp_path / "out.wav", total_samples=SAMPLE_RATE * 3)
    first, second = tone(440, 0.5), tone(880, 0.25)
    sink.play(first, at_sample=SAMPLE_RATE)
    sink.play(second, at_sample=2 * SAMPLE_RATE)
    sink.close()
    out = read_wav(tmp_path / "out.wav")
    assert len(out) == 3 * SAMPLE_RATE
    assert np.array_equal(out[SAMPLE_RATE : SAMPLE_RATE + len(first)], first)
    assert np.array_equal(out[2 * SAMPLE_RATE : 2 * SAMPLE_RATE + len(second)], second)
    said = np.zeros(len(out), dtype=bool)
    said[SAMPLE_RATE : SAMPLE_RATE + len(first)] = True
    said[2 * SAMPLE_RATE : 2 * SAMPLE_RATE + len(second)] = True
    assert not out[~said].any()


def test_timeline_keeps_a_reply_that_runs_past_the_input(tmp_path: Path) -> None:
    sink = TimelineSink(tmp_path / "out.wav", total_samples=1000)
    sink.play(np.full(600, 100, dtype=np.int16), at_sample=800)
    sink.close()
    out = read_wav(tmp_path / "out.wav")
    assert len(out) == 1400
    assert (out[800:] == 100).all()


def test_timeline_mixes_overlapping_sounds_without_wrapping(tmp_path: Path) -> None:
    sink = TimelineSink(tmp_path / "out.wav", total_samples=100)
    sink.play(np.full(50, 20000, dtype=np.int16), at_sample=0)
    sink.play(np.full(50, 20000, dtype=np.int16), at_sample=25)
    sink.play(np.full(10, -7, dtype=np.int16), at_sample=90)
    sink.close()
    out = read_wav(tmp_path / "out.wav")
    assert (out[:25] == 20000).all()
    assert (out[25:50] == 32767).all()  # clipped, not wrapped around to negative
    assert (out[50:75] == 20000).all()
    assert (out[90:] == -7).all()


def test_timeline_refuses_sound_after_it_is_written(tmp_path: Path) -> None:
    sink = TimelineSink(tmp_path / "out.wav")
    sink.close()
    sink.close()  # harmless
    with pytest.raises(ValueError, match="already written"):
        sink.play(tone(440, 0.1), at_sample=0)


# --- a real sound server ------------------------------------------------------------------------


def test_the_sound_server_devices_are_listed(pulse: PulseServer) -> None:
    names = {device.name for device in list_devices()}
    assert {"pulse", "default"} <= names
    assert any(device.is_default_input and device.input_channels for device in list_devices())


def test_a_tone_played_on_the_speaker_is_recorded_by_the_microphone(pulse: PulseServer) -> None:
    pulse.set_default_sink(ROOM)  # play into the room, where the microphone listens
    microphone = MicrophoneSource()
    speaker = SpeakerSink()
    try:
        speaker.play(tone(1000, 1.0), at_sample=0)
        recorded = microphone.read(round(1.5 * SAMPLE_RATE))
    finally:
        speaker.close()
        microphone.close()
    assert recorded is not None and recorded.dtype == np.int16
    assert len(recorded) == round(1.5 * SAMPLE_RATE)
    assert loud_seconds(recorded) == pytest.approx(1.0, abs=0.1)
    assert dominant_hertz(recorded) == pytest.approx(1000, abs=5)
    assert microphone.read(100) is None  # closed


@pytest.mark.slow
def test_piper_speech_played_on_the_speaker_is_heard_unchanged(pulse: PulseServer) -> None:
    said = speech("Hello from Hearth. The kettle is on, and the tea will be ready soon.")
    recording = pulse.start_recording(SPEAKER)
    speaker = SpeakerSink()
    try:
        speaker.play(said, at_sample=0)
    finally:
        speaker.close()
        heard = recording.stop()
    scores = heard_in_order(said, heard)
    assert len(scores) > 10
    # Every stretch arrives intact and in order: the sound server resamples (so not bit for bit),
    # and one stretch may suffer a hiccup of the test server or lose its start to stream start-up.
    assert sorted(scores)[1] > 0.9, scores
    assert float(np.median(scores)) > 0.98, scores


def test_sounds_played_one_after_another_are_each_heard_whole(pulse: PulseServer) -> None:
    recording = pulse.start_recording(SPEAKER)
    speaker = SpeakerSink()
    try:
        for hertz in (400, 600, 800):  # as the sentences of a reply are played
            speaker.play(tone(hertz, 0.4), at_sample=0)
    finally:
        speaker.close()
        heard = recording.stop()
    assert loud_seconds(heard) == pytest.approx(1.2, abs=0.1)
    window = SAMPLE_RATE // 100
    loud = np.flatnonzero(np.abs(heard) > 1000)
    notes = np.split(loud, np.flatnonzero(np.diff(loud) > window) + 1)
    assert [round(dominant_hertz(heard[note[0] : note[-1]]), -1) for note in notes] == [
        400,
        600,
        800,
    ]


def test_stop_cuts_playback_short(pulse: PulseServer) -> None:
    recording = pulse.start_recording(SPEAKER)
    speaker = SpeakerSink()
    player = threading.Thread(target=speaker.play, args=(tone(500, 4.0), 0))
    try:
        player.start()
        stopped = threading.Event()
        stopped.wait(0.8)
        speaker.stop()
        player.join(timeout=10)
        assert not player.is_alive()
    finally:
        speaker.close()
        heard = recording.stop()
    assert 0.2 < loud_seconds(heard) < 2.0


def test_the_microphone_can_be_asked_without_waiting_and_waited_on_with_other_work(
    pulse: PulseServer,
) -> None:
    """What the voice loop relies on to wake for a frame or a command, whichever comes first."""
    pulse.set_default_sink(ROOM)
    microphone = MicrophoneSource()
    other = Wakeup()  # another source of work the loop waits on (a command, a worker)
    try:
        frames = 0
        while microphone.poll(512) is not None:  # what was recorded so far, without waiting
            frames += 1
        assert microphone.poll(512) is None
        # Nothing recorded since: a wait on both ends when the other work is signalled ...
        threading.Timer(0.01, other.signal).start()
        ready = connection.wait([microphone, other], timeout=10)
        assert other in ready
        other.clear()
        # ... and, with no other work, once the microphone has recorded more.
        ready = connection.wait([microphone, other], timeout=10)
        assert ready == [microphone]
        heard = [microphone.poll(512) for _ in range(4)]
        assert heard[0] is not None and len(heard[0]) == 512
        assert any(frame is None for frame in heard)  # a block holds a few frames, then none
    finally:
        microphone.close()
        other.close()
    assert microphone.poll(512) is None  # closed


def test_a_vanished_microphone_is_an_error_and_a_new_one_works(pulse: PulseServer) -> None:
    microphone = MicrophoneSource()  # the default source: room.monitor
    try:
        first = microphone.read(SAMPLE_RATE // 10)
        assert first is not None and len(first) == SAMPLE_RATE // 10
        pulse.remove_sink(SPEAKER)  # nowhere left for PulseAudio to move the recording to
        pulse.remove_sink(ROOM)
        with pytest.raises(AudioDeviceError, match=f"microphone '{microphone.name}'"):
            for _ in range(100):  # what was recorded before the loss is still delivered first
                microphone.read(SAMPLE_RATE // 10)
    finally:
        microphone.close()

    pulse.add_sinks(ROOM, SPEAKER)
    refresh_devices()
    microphone = MicrophoneSource()
    player = threading.Thread(target=pulse.play_into, args=(ROOM, tone(700, 1.0)))
    try:
        player.start()
        heard = microphone.read(2 * SAMPLE_RATE)
    finally:
        player.join()
        microphone.close()
    assert heard is not None
    assert dominant_hertz(heard) == pytest.approx(700, abs=5)


def test_a_vanished_speaker_is_an_error(pulse: PulseServer) -> None:
    speaker = SpeakerSink()
    failures: list[BaseException] = []

    def play() -> None:
        try:
            speaker.play(tone(500, 5.0), at_sample=0)
        except AudioDeviceError as error:
            failures.append(error)

    player = threading.Thread(target=play)
    try:
        player.start()
        threading.Event().wait(0.5)
        pulse.remove_sink(ROOM)  # nowhere left for PulseAudio to move the playback to
        pulse.remove_sink(SPEAKER)
        player.join(timeout=15)
    finally:
        speaker.close()
    assert not player.is_alive()
    assert len(failures) == 1
    assert f"speaker '{speaker.name}'" in str(failures[0])
