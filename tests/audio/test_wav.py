"""WAV files: every common encoding in, a proper resampler, atomic writes, clear errors."""

from __future__ import annotations

import os
import struct
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from audio.format import SAMPLE_RATE
from audio.wav import ToInternal, WavError, check_wav, read_wav, write_wav, write_wav_blocks

PCM, FLOAT, EXTENSIBLE = 1, 3, 0xFFFE


def wav_bytes(
    audio: np.ndarray,
    rate: int,
    *,
    bits: int = 16,
    tag: int = PCM,
    data_size: int | None = None,
    chunks_before: bytes = b"",
) -> bytes:
    """A WAV file around float ``audio`` shaped (frames, channels), encoded as asked."""
    channels = audio.shape[1]
    if tag == FLOAT:
        data = audio.astype(f"<f{bits // 8}").tobytes()
    elif bits == 8:
        data = np.clip(np.rint(audio * 127 + 128), 0, 255).astype(np.uint8).tobytes()
    elif bits == 24:
        ints = np.clip(np.rint(audio * (2**23 - 1)), -(2**23), 2**23 - 1).astype("<i4")
        data = ints.view(np.uint8).reshape(-1, 4)[:, :3].tobytes()
    else:
        scale = 2 ** (bits - 1) - 1
        data = np.clip(np.rint(audio * scale), -scale - 1, scale).astype(f"<i{bits // 8}").tobytes()
    block = channels * bits // 8
    fmt = struct.pack("<HHIIHH", tag, channels, rate, rate * block, block, bits)
    if tag == EXTENSIBLE:
        fmt += struct.pack("<HHI", 22, bits, 0) + struct.pack("<H", PCM) + bytes(14)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + chunks_before
    body += b"data" + struct.pack("<I", len(data) if data_size is None else data_size) + data
    return b"RIFF" + struct.pack("<I", len(body)) + body


def tone(rate: int, seconds: float = 1.0, hz: float = 1000.0, level: float = 0.5) -> np.ndarray:
    t = np.arange(round(rate * seconds)) / rate
    return (level * np.sin(2 * np.pi * hz * t))[:, np.newaxis]


def distortion_db(samples: np.ndarray, hz: float) -> float:
    """Everything but a pure ``hz`` sine (noise and distortion) relative to it, in dB."""
    middle = samples[len(samples) // 10 : -len(samples) // 10].astype(np.float64)
    t = np.arange(len(middle)) / SAMPLE_RATE
    basis = np.stack([np.sin(2 * np.pi * hz * t), np.cos(2 * np.pi * hz * t), np.ones_like(t)], 1)
    fit, *_ = np.linalg.lstsq(basis, middle, rcond=None)
    residual = middle - basis @ fit
    return 20 * np.log10(np.std(residual) / np.std(basis @ fit))


def peak_hz(samples: np.ndarray) -> float:
    spectrum = np.abs(np.fft.rfft(samples * np.hanning(len(samples))))
    return float(np.argmax(spectrum) * SAMPLE_RATE / len(samples))


def write(tmp_path: Path, content: bytes, name: str = "in.wav") -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


def test_16k_mono_16bit_round_trips_sample_for_sample(tmp_path: Path) -> None:
    samples = np.random.default_rng(1).integers(-32768, 32767, 5000).astype(np.int16)
    write_wav(tmp_path / "a.wav", samples)
    assert np.array_equal(read_wav(tmp_path / "a.wav"), samples)
    assert read_wav(tmp_path / "a.wav").dtype == np.int16


@pytest.mark.parametrize("rate", [8000, 16000, 22050, 44100, 48000])
def test_resampled_tone_keeps_its_pitch_with_low_distortion(tmp_path: Path, rate: int) -> None:
    samples = read_wav(write(tmp_path, wav_bytes(tone(rate), rate)))
    assert abs(len(samples) - SAMPLE_RATE) <= 2
    assert abs(peak_hz(samples) - 1000) <= 1.0
    # From 44.1 kHz nearest-sample resampling leaves -28 dB, linear interpolation -62 dB
    assert distortion_db(samples, 1000) < -70


def test_sound_above_the_new_nyquist_frequency_is_filtered_not_folded(tmp_path: Path) -> None:
    samples = read_wav(write(tmp_path, wav_bytes(tone(48000, hz=12000), 48000)))
    # A naive resampler folds 12 kHz down to an audible 4 kHz at about the input's level
    assert np.std(samples[1000:-1000]) < 0.5 / np.sqrt(2) * 32768 * 10 ** (-60 / 20)


@pytest.mark.parametrize(
    ("bits", "tag"),
    [(8, PCM), (16, PCM), (24, PCM), (32, PCM), (32, FLOAT), (64, FLOAT), (16, EXTENSIBLE)],
)
def test_every_sample_format_reads_as_the_same_tone(tmp_path: Path, bits: int, tag: int) -> None:
    samples = read_wav(write(tmp_path, wav_bytes(tone(48000), 48000, bits=bits, tag=tag)))
    expected = read_wav(write(tmp_path, wav_bytes(tone(48000), 48000, bits=32), "ref.wav"))
    tolerance = 300 if bits == 8 else 3  # 8-bit audio is that coarse
    assert np.abs(samples.astype(int) - expected).max() <= tolerance
    assert distortion_db(samples, 1000) < (-40 if bits == 8 else -70)


def test_stereo_is_mixed_to_mono(tmp_path: Path) -> None:
    left = tone(44100)
    stereo = np.concatenate([left, np.zeros_like(left)], axis=1)
    samples = read_wav(write(tmp_path, wav_bytes(stereo, 44100)))
    assert np.max(np.abs(samples)) == pytest.approx(0.25 * 32768, rel=0.02)
    assert abs(peak_hz(samples) - 1000) <= 1.0


def test_long_files_convert_in_blocks_without_seams(tmp_path: Path) -> None:
    samples = read_wav(write(tmp_path, wav_bytes(tone(44100, seconds=25.0), 44100)))
    assert abs(len(samples) - 25 * SAMPLE_RATE) <= 2
    t = np.arange(len(samples)) / SAMPLE_RATE
    ideal = 0.5 * 32768 * np.sin(2 * np.pi * 1000 * t)
    inner = slice(SAMPLE_RATE, -SAMPLE_RATE)  # the resampler's filter settles at the ends
    assert np.abs(samples[inner] - ideal[inner]).max() < 5


def test_odd_chunks_before_the_audio_are_skipped(tmp_path: Path) -> None:
    listing = b"LIST" + struct.pack("<I", 5) + b"INFOx" + b"\0"  # odd size, one pad byte
    path = write(tmp_path, wav_bytes(tone(16000), 16000, chunks_before=listing))
    assert len(read_wav(path)) == SAMPLE_RATE


@pytest.mark.parametrize("size", [0xFFFFFFFF, 0x7FFFFF00], ids=["sox and others", "arecord"])
def test_a_streamed_recording_without_a_final_size_reads_to_the_end(
    tmp_path: Path, size: int
) -> None:
    # `arecord -f S16_LE -r 16000 > room.wav`, or one stopped before it wrote the real size,
    # was refused as "truncated: the header promises 2147483392 bytes".
    path = write(tmp_path, wav_bytes(tone(16000), 16000, data_size=size))
    assert len(read_wav(path)) == SAMPLE_RATE


def bad_files() -> dict[str, tuple[bytes, str]]:
    good = wav_bytes(tone(16000, seconds=0.1), 16000)
    return {
        "empty": (b"", "empty file"),
        "text": (b"hello, this is not audio at all", "not a WAV file"),
        "cut in the header": (good[:10], "not a WAV file"),
        "cut in the format": (good[:30], "format chunk"),
        "cut in the audio": (good[:-1000], "truncated"),
        "cut mid-frame": (wav_bytes(tone(16000, 0.1), 16000, data_size=3199)[:-1], "truncated"),
        "no audio chunk": (good[:36], "no audio data chunk"),
        "no samples": (wav_bytes(np.zeros((0, 1)), 16000), "no audio"),
        "ADPCM": (good[:20] + struct.pack("<H", 2) + good[22:], "unsupported"),
        "mu-law": (good[:20] + struct.pack("<H", 7) + good[22:], "\u03bc-law"),
        "a rate of 1 Hz": (good[:24] + struct.pack("<I", 1) + good[28:], "1 Hz is no recording"),
        "an empty audio chunk before another": (
            wav_bytes(np.zeros((0, 1)), 16000) + b"LIST" + struct.pack("<I", 4) + b"INFO",
            "holds no audio",
        ),
        "Wave64": (b"riff\x2e\x91\xcf\x11" + bytes(40), "Wave64"),
    }


@pytest.mark.parametrize("case", list(bad_files()))
def test_a_bad_wav_is_a_clear_error_naming_the_file(tmp_path: Path, case: str) -> None:
    content, message = bad_files()[case]
    path = write(tmp_path, content, "room recording.wav")
    with pytest.raises(WavError, match=message) as error:
        read_wav(path)
    assert "room recording.wav" in str(error.value)


def test_a_pipe_is_refused_at_once_not_waited_on(tmp_path: Path) -> None:
    # A FIFO with no writer blocked every command; a pipe (<(cat x.wav)) was "empty".
    os.mkfifo(tmp_path / "room.wav")
    with pytest.raises(WavError, match="not a file but a pipe"):
        read_wav(tmp_path / "room.wav")
    with pytest.raises(WavError, match="not a file but a pipe"):
        read_wav(tmp_path)


@pytest.mark.parametrize(("bits", "slot"), [(12, 2), (20, 3), (24, 4)])
def test_samples_in_wider_slots_are_read_by_the_slot(tmp_path: Path, bits: int, slot: int) -> None:
    """Left-justified in their slots, as the format says: "24-bit" in 4 bytes was read as 3-byte
    frames, noise, or refused as cut mid-frame."""
    audio = tone(16000, seconds=0.5)
    scale = 2 ** (8 * slot - 1) - 1
    ints = np.rint(audio[:, 0] * scale).astype(f"<i{slot}" if slot != 3 else "<i4")
    data = ints.tobytes() if slot != 3 else ints.view(np.uint8).reshape(-1, 4)[:, :3].tobytes()
    fmt = struct.pack("<HHIIHH", PCM, 1, 16000, 16000 * slot, slot, bits)
    body = b"WAVEfmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(data))
    path = write(tmp_path, b"RIFF" + struct.pack("<I", len(body) + len(data)) + body + data)
    heard = read_wav(path)
    assert len(heard) == len(audio)
    assert np.abs(heard / 32768 - audio[:, 0]).max() < 1e-3


def test_an_rf64_file_is_read_by_its_64_bit_sizes(tmp_path: Path) -> None:
    audio = tone(16000, seconds=0.5)
    plain = wav_bytes(audio, 16000)
    data = plain[44:]
    ds64 = b"ds64" + struct.pack("<I", 28) + struct.pack("<QQQI", 0, len(data), len(audio), 0)
    body = b"WAVE" + ds64 + plain[12:36] + b"data" + struct.pack("<I", 0xFFFFFFFF) + data
    path = write(tmp_path, b"RF64" + struct.pack("<I", 0xFFFFFFFF) + body)
    assert np.array_equal(read_wav(path), read_wav(write(tmp_path, plain, "plain.wav")))


def test_a_missing_file_is_a_wav_error(tmp_path: Path) -> None:
    with pytest.raises(WavError, match=r"nowhere\.wav"):
        read_wav(tmp_path / "nowhere.wav")


def test_write_replaces_atomically_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "reply.wav"
    write_wav(path, np.ones(100, np.int16))
    write_wav(path, np.full(50, 7, np.int16), sample_rate=22050)
    assert os.listdir(tmp_path) == ["reply.wav"]
    with path.open("rb") as file:
        assert struct.unpack("<I", file.read(28)[24:28]) == (22050,)
    assert len(path.read_bytes()) == 44 + 100


def test_a_written_file_is_readable_as_a_normal_file_is(tmp_path: Path) -> None:
    write_wav(tmp_path / "new.wav", np.ones(10, np.int16))
    assert (tmp_path / "new.wav").stat().st_mode & 0o777 == 0o644
    (tmp_path / "new.wav").chmod(0o600)
    write_wav(tmp_path / "new.wav", np.ones(20, np.int16))
    assert (tmp_path / "new.wav").stat().st_mode & 0o777 == 0o600


def test_a_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "reply.wav"
    write_wav(path, np.ones(100, np.int16))
    before = path.read_bytes()

    def broken_replace(source: str, target: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        write_wav(path, np.zeros(10, np.int16))
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["reply.wav"]


def test_write_refuses_anything_but_mono_int16(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="mono int16"):
        write_wav(tmp_path / "x.wav", np.zeros(10, np.float32))
    with pytest.raises(ValueError, match="mono int16"):
        write_wav(tmp_path / "x.wav", np.zeros((10, 2), np.int16))
    assert not list(tmp_path.iterdir())


def test_the_stream_converter_matches_one_pass_conversion() -> None:
    audio = tone(48000, seconds=2.0)[:, 0].astype(np.float32)
    converter = ToInternal(48000)
    pieces = [converter.process(block) for block in np.array_split(audio[:-4800], 7)]
    pieces.append(converter.process(audio[-4800:], last=True))
    streamed = np.concatenate(pieces)
    whole = ToInternal(48000).process(audio, last=True)
    assert len(streamed) == len(whole)
    assert np.abs(streamed.astype(int) - whole).max() <= 1


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_float_audio_that_is_not_a_number_is_refused_naming_where(tmp_path, bad):
    audio = tone(48000, seconds=2.0)
    audio[72000, 0] = bad  # at 1.5 s
    path = tmp_path / "damaged.wav"
    path.write_bytes(wav_bytes(audio, 48000, bits=32, tag=FLOAT))
    with pytest.raises(WavError, match=r"damaged\.wav: damaged float audio: .* first at 1\.500 s"):
        read_wav(path)


@pytest.mark.parametrize(
    ("rate", "channels", "bits", "tag", "seconds"),
    [
        (16000, 1, 16, PCM, 1.0),
        (44100, 2, 24, PCM, 12.3),  # past one ten-second block
        (48000, 1, 32, FLOAT, 0.5),
        (32000, 1, 16, PCM, 1 / 32000),  # one frame: half a sample at 16 kHz, rounded up
        (22050, 6, 8, PCM, 0.77),
        (8000, 1, 16, EXTENSIBLE, 3.3),
    ],
)
def test_the_length_from_the_header_is_what_reading_gives(
    tmp_path: Path, rate: int, channels: int, bits: int, tag: int, seconds: float
) -> None:
    path = tmp_path / "x.wav"
    path.write_bytes(
        wav_bytes(np.repeat(tone(rate, seconds), channels, 1), rate, bits=bits, tag=tag)
    )
    assert check_wav(path) == len(read_wav(path))


def test_checking_a_float_file_finds_damage_anywhere_in_it(tmp_path: Path) -> None:
    audio = tone(48000, seconds=25.0)
    audio[-10, 0] = np.nan  # in the third block read
    path = tmp_path / "damaged.wav"
    path.write_bytes(wav_bytes(audio, 48000, bits=32, tag=FLOAT))
    with pytest.raises(WavError, match="damaged float audio"):
        check_wav(path)


def test_checking_holds_no_more_than_a_block_of_a_long_recording(tmp_path: Path) -> None:
    """A recording of hours is checked (and its length learned) without holding it: here three
    minutes of 48 kHz float, 35 MB in 18 blocks, checked within four blocks' room."""
    path = tmp_path / "long.wav"
    path.write_bytes(wav_bytes(tone(48000, seconds=180.0), 48000, bits=32, tag=FLOAT))
    tracemalloc.start()
    try:
        assert check_wav(path) == 180 * SAMPLE_RATE
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * 10 * 48000 * 4


def test_blocks_written_one_after_another_are_one_file(tmp_path: Path) -> None:
    audio = (tone(SAMPLE_RATE, 1.0)[:, 0] * 32767).astype(np.int16)
    write_wav_blocks(tmp_path / "x.wav", [audio[:100], audio[100:5000], audio[5000:]])
    assert np.array_equal(read_wav(tmp_path / "x.wav"), audio)
