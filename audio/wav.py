"""WAV files in and out: any common WAV in, Hearth's 16 kHz mono int16 out, saved atomically.

The RIFF chunks are parsed here rather than by the ``wave`` module, which (before Python 3.12)
refuses float and ``WAVE_FORMAT_EXTENSIBLE`` files, the formats many recorders write, and whose
errors do not say what is wrong. Resampling is soxr's (a proper band-limited resampler).
"""

from __future__ import annotations

import os
import stat
import struct
import wave
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np
import soxr

from audio.format import SAMPLE_RATE
from support import write_atomically

_PCM = 1
_FLOAT = 3
_EXTENSIBLE = 0xFFFE
_STREAMED_SIZES = (0, 0x7FFFFF00, 0xFFFFFFFF)
"""Data sizes written by recorders that stream to a pipe and cannot seek back, or were stopped
before they wrote the real one, read to the end: 0x7FFFFF00 is arecord's (alsa-utils'
``begin_wave``), the usual recorder on a Pi, and 0 and 0xFFFFFFFF other tools'."""
_BLOCK_SECONDS = 10
"""Long recordings are converted this much at a time, so memory holds the result, not the file."""


class WavError(ValueError):
    """A file that is not a WAV Hearth can read; the message names the file and the problem."""


@dataclass(frozen=True)
class _Format:
    sample_rate: int
    channels: int
    bits: int
    is_float: bool

    @property
    def frame_bytes(self) -> int:
        return self.channels * self.bits // 8


def _parse(path: Path, file: BinaryIO) -> tuple[_Format, int, int]:
    """A WAV file's format, and the offset and length of its sample bytes, or ``WavError``."""
    file_size = os.fstat(file.fileno()).st_size
    if file_size == 0:
        raise WavError(f"{path}: empty file (0 bytes)")
    header = file.read(12)
    if header[:4] == b"riff" and header[:16].startswith(b"riff\x2e\x91\xcf\x11"):
        raise WavError(f"{path}: a Wave64 (.w64) file, which Hearth does not read; save it as WAV")
    if len(header) < 12 or header[:4] not in _RIFF_FORMS or header[8:12] != b"WAVE":
        raise WavError(f"{path}: not a WAV file (no RIFF/WAVE header)")
    fmt = None
    large_data: int | None = None
    position = 12
    while position + 8 <= file_size:
        file.seek(position)
        chunk_id, size = struct.unpack("<4sI", file.read(8))
        body = position + 8
        if chunk_id == b"ds64" and size >= 16:
            # RF64 (a WAV past 4 GB): the real sizes, 64-bit, before the audio.
            _, large_data = struct.unpack("<QQ", file.read(16))
        elif chunk_id == b"fmt ":
            if size < 16 or body + size > file_size:
                raise WavError(f"{path}: truncated or malformed format chunk")
            fmt = _format(path, file.read(size))
        elif chunk_id == b"data":
            if fmt is None:
                raise WavError(f"{path}: the audio comes before its format chunk")
            available = file_size - body
            if size == 0xFFFFFFFF and large_data is not None:
                size = large_data
            if size in _STREAMED_SIZES and not (
                size == 0 and _chunk_follows(file, body, file_size)
            ):
                size = available - available % fmt.frame_bytes
            elif size > available:
                raise WavError(
                    f"{path}: truncated: the header promises {size} bytes of audio, "
                    f"the file holds {available}"
                )
            if size == 0:
                raise WavError(f"{path}: holds no audio (0 samples)")
            if size % fmt.frame_bytes:
                raise WavError(f"{path}: truncated: the audio ends in the middle of a sample frame")
            return fmt, body, size
        position = body + size + (size & 1)  # chunks are padded to an even length
    raise WavError(f"{path}: no audio data chunk (truncated?)")


def _chunk_follows(file: BinaryIO, at: int, file_size: int) -> bool:
    """Whether another chunk starts at ``at`` (a data chunk of size 0 is then really empty, not a
    recorder's placeholder for "to the end")."""
    if at + 8 > file_size:
        return False
    file.seek(at)
    chunk_id, size = struct.unpack("<4sI", file.read(8))
    return all(32 <= byte < 127 for byte in chunk_id) and at + 8 + size <= file_size


_RIFF_FORMS = (b"RIFF", b"RF64", b"BW64")
"""A WAV, and the 64-bit forms recorders write past 4 GB (RF64, and EBU's BW64)."""
_ENCODINGS = {6: "A-law", 7: "\u03bc-law", 2: "ADPCM", 0x11: "IMA ADPCM", 0x55: "MP3"}
_LOWEST_RATE, _HIGHEST_RATE = 4000, 768000
"""Sample rates a recorder writes; outside them a header is damaged (a rate of 1 Hz asked for
gigabytes of resampled audio)."""


def _format(path: Path, chunk: bytes) -> _Format:
    tag, channels, sample_rate, _, block_align, bits = struct.unpack_from("<HHIIHH", chunk)
    if tag == _EXTENSIBLE:
        if len(chunk) < 26:
            raise WavError(f"{path}: malformed extensible format chunk")
        (tag,) = struct.unpack_from("<H", chunk, 24)  # the sub-format GUID starts with the tag
    if tag == _PCM and channels and block_align % channels == 0:
        # Samples may sit in wider slots than their bits ("24-bit" in 4 bytes), left-justified.
        bits = max(bits, 8 * (block_align // channels))
    supported = (tag == _PCM and bits in (8, 16, 24, 32)) or (tag == _FLOAT and bits in (32, 64))
    if not supported:
        kind = {_PCM: "integer PCM", _FLOAT: "float"}.get(tag) or _ENCODINGS.get(
            tag, f"encoding {tag:#06x}"
        )
        raise WavError(
            f"{path}: unsupported WAV encoding ({bits}-bit {kind}); Hearth reads 8/16/24/32-bit "
            "integer PCM and 32/64-bit float"
        )
    if channels < 1 or sample_rate < 1:
        raise WavError(f"{path}: invalid format ({channels} channels at {sample_rate} Hz)")
    if not _LOWEST_RATE <= sample_rate <= _HIGHEST_RATE:
        raise WavError(
            f"{path}: a sample rate of {sample_rate} Hz is no recording's (Hearth reads "
            f"{_LOWEST_RATE} to {_HIGHEST_RATE} Hz): is the header damaged?"
        )
    return _Format(sample_rate, channels, bits, tag == _FLOAT)


def _decode(raw: bytes, fmt: _Format) -> np.ndarray:
    """Samples as float32 in [-1, 1], shaped (frames, channels)."""
    if fmt.is_float:
        values = np.frombuffer(raw, dtype=f"<f{fmt.bits // 8}").astype(np.float32)
    elif fmt.bits == 8:  # 8-bit WAV is unsigned
        values = (np.frombuffer(raw, dtype=np.uint8).astype(np.float32) - 128) / 128
    elif fmt.bits == 24:
        triples = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        joined = triples[:, 0] | (triples[:, 1] << 8) | (triples[:, 2] << 16)
        values = ((joined << 8) >> 8).astype(np.float32) / 2**23  # sign-extend 24 bits
    else:
        values = np.frombuffer(raw, dtype=f"<i{fmt.bits // 8}").astype(np.float32)
        values /= 2 ** (fmt.bits - 1)
    return values.reshape(-1, fmt.channels)


class ToInternal:
    """A stream of float audio at any rate and channel count, converted to 16 kHz mono int16.

    Channels are averaged and the rate converted by soxr at high quality, keeping the resampler's
    state between blocks so block edges leave no seams (a live 48 kHz microphone can use it too).
    """

    def __init__(self, sample_rate: int) -> None:
        """Convert from ``sample_rate``."""
        self._stream = (
            None
            if sample_rate == SAMPLE_RATE
            else soxr.ResampleStream(sample_rate, SAMPLE_RATE, 1, dtype="float32", quality="HQ")
        )

    def process(self, block: np.ndarray, *, last: bool = False) -> np.ndarray:
        """Convert a float block shaped (frames,) or (frames, channels), values in [-1, 1];
        ``last`` flushes the resampler's delay at the end of the stream."""
        mono = np.asarray(block.mean(axis=1) if block.ndim == 2 else block, dtype=np.float32)
        if self._stream is not None:
            mono = self._stream.resample_chunk(mono, last=last)
        return np.clip(np.rint(mono * 32768), -32768, 32767).astype(np.int16)


class WavReader:
    """A WAV file read as Hearth's audio (16 kHz mono int16) a block at a time, so a recording of
    hours is never held whole; open it as a context manager."""

    def __init__(self, path: str | Path) -> None:
        """Open ``path`` and read its header.

        Raises:
            WavError: the file is missing, empty, not a WAV, truncated or of an unknown encoding.
        """
        self.path = Path(path)
        try:
            if not stat.S_ISREG(self.path.stat().st_mode):
                raise WavError(
                    f"{self.path}: not a file but a pipe, a device or a folder; Hearth reads a "
                    "recording saved to a file"
                )
            self._file = self.path.open("rb")
        except OSError as error:
            raise WavError(f"{self.path}: cannot read: {error.strerror or error}") from error
        try:
            self._format, self._offset, self._size = _parse(self.path, self._file)
        except BaseException:
            self._file.close()
            raise

    def __enter__(self) -> WavReader:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the file."""
        self._file.close()

    @property
    def total_samples(self) -> int:
        """The length at 16 kHz, from the header: what :meth:`blocks` yields in all (soxr rounds a
        half sample up)."""
        frames = self._size // self._format.frame_bytes
        rate = self._format.sample_rate
        return (2 * frames * SAMPLE_RATE + rate) // (2 * rate)

    def blocks(self, start: int = 0) -> Iterator[np.ndarray]:
        """The audio from 16 kHz sample ``start`` on (a restart resumes there: the file is
        sought, not converted up to it), about ten seconds of the file at a time.

        Raises:
            WavError: float samples that are NaN or infinite (a damaged file), when reached.
        """
        fmt = self._format
        first_frame = min(start * fmt.sample_rate // SAMPLE_RATE, self._size // fmt.frame_bytes)
        if (fmt.sample_rate, fmt.channels, fmt.bits, fmt.is_float) == (SAMPLE_RATE, 1, 16, False):
            for raw in self._raw(first_frame):
                yield np.frombuffer(raw, dtype="<i2").astype(np.int16)
            return
        converter = ToInternal(fmt.sample_rate)
        decoded = self._decoded(first_frame)
        block = next(decoded, None)
        while block is not None:
            following = next(decoded, None)
            yield converter.process(block, last=following is None)
            block = following

    def check(self) -> None:
        """Read through the file for what only its samples can show (a NaN in float audio),
        holding nothing; an integer file's header already says all that can be wrong."""
        if self._format.is_float:
            for _ in self._decoded():
                pass

    def _decoded(self, first_frame: int = 0) -> Iterator[np.ndarray]:
        fmt = self._format
        frames_read = first_frame
        for raw in self._raw(first_frame):
            block = _decode(raw, fmt)
            if fmt.is_float:
                _check_finite(self.path, block, frames_read, fmt.sample_rate)
            frames_read += len(block)
            yield block

    def _raw(self, first_frame: int = 0) -> Iterator[bytes]:
        block_bytes = self._format.frame_bytes * self._format.sample_rate * _BLOCK_SECONDS
        skipped = first_frame * self._format.frame_bytes
        self._file.seek(self._offset + skipped)
        remaining = self._size - skipped
        while remaining > 0:
            raw = self._file.read(min(block_bytes, remaining))
            if not raw:
                raise WavError(f"{self.path}: truncated while it was read")
            remaining -= len(raw)
            yield raw


def read_wav(path: str | Path) -> np.ndarray:
    """A WAV file as Hearth's audio: 16 kHz mono int16 (a 16 kHz mono 16-bit file is returned
    sample for sample). Raises ``WavError`` naming the file and the problem: missing, empty, not
    a WAV, truncated, no audio in it, or an encoding other than integer PCM or float."""
    with WavReader(path) as reader:
        return np.concatenate(list(reader.blocks()))


def check_wav(path: str | Path) -> int:
    """Refuse now what :func:`read_wav` would refuse, without holding the audio; the length at
    16 kHz. Raises ``WavError`` as it does."""
    with WavReader(path) as reader:
        reader.check()
        return reader.total_samples


def _check_finite(path: Path, block: np.ndarray, first_frame: int, sample_rate: int) -> None:
    """Float samples must be numbers: a NaN would be heard as silence, and infinity as a click."""
    bad = np.flatnonzero(~np.isfinite(block).all(axis=1))
    if bad.size:
        seconds = (first_frame + bad[0]) / sample_rate
        raise WavError(
            f"{path}: damaged float audio: {bad.size} sample frame(s) hold NaN or infinity, the "
            f"first at {seconds:.3f} s"
        )


def write_wav(path: str | Path, samples: np.ndarray, sample_rate: int = SAMPLE_RATE) -> None:
    """Write mono int16 ``samples`` as a WAV file, atomically: a reader sees the old file or the
    whole new one, never a part."""
    write_wav_blocks(path, [samples], sample_rate)


def write_wav_blocks(
    path: str | Path, blocks: Iterable[np.ndarray], sample_rate: int = SAMPLE_RATE
) -> None:
    """Write mono int16 ``blocks``, one after another, as one WAV file, atomically, holding one
    block at a time (a file-mode timeline of hours)."""
    path = Path(path)

    def write(file: BinaryIO) -> None:
        with wave.open(file, "wb") as writer:
            writer.setnchannels(1)
            writer.setsampwidth(2)
            writer.setframerate(sample_rate)
            for samples in blocks:
                if samples.dtype != np.int16 or samples.ndim != 1:
                    raise ValueError(
                        f"a WAV is written from mono int16 samples, not {samples.dtype} "
                        f"{samples.shape}"
                    )
                writer.writeframes(samples.astype("<i2", copy=False).tobytes())

    # A WAV is as readable as the one it replaces (a new one: as a plain open() would make it).
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    write_atomically(path, write, mode=mode)
