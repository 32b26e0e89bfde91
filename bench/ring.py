"""How a stop word is heard over Hearth's own ring: echo cancellation, ducking, both, or neither.

    python -m bench.ring [--quick]      (from the repository root; needs the test extra)

A timer rings (the ring earcon, period after period) and its sound comes back to the microphone
through a room: the two measured rooms of the shared data and a simulated living room, the ring's
echo as loud as the person or 6 dB louder, under real noise. Two seconds into the ring a person
says a stop phrase ("Stop.", "Okay, stop.", "Stop the timer.") in one of several synthetic voices
(Piper at several speeds and noise scales, espeak-ng voices), at three moments of the ring's
period: over its notes, at their end, in its quiet part. Each condition hears the same
microphone the voice loop would:

- ``none``: the microphone as it is;
- ``aec``: WebRTC's AEC3 with the ring as its reference, as the voice loop runs it;
- ``duck``: the ring played 20 dB quieter from the frame the voice detector first scores 0.3
  (the echo it makes changes with it, as in a room);
- ``aec+duck``: both.

Then the voice loop's own ears: Silero per 32 ms frame, the segmenter with the ring's shorter
shortest utterance, tiny.en on each utterance, and the ring's stop words. Printed per condition:
stops heard (of the synthetic voices, and by voice family), false stops on the ring and noise
alone and on real people talking over it (Harvard sentences from the shared data: a kitchen
talking is no stop), and how much of a real person's sentence said over the ring tiny.en still
hears (word error rate), so real voices are measured too.
"""

from __future__ import annotations

import argparse
import itertools
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
from scipy.signal import fftconvolve

from audio.earcons import Earcon, earcon
from audio.echo import EchoCanceller
from audio.engine import RING_MIN_UTTERANCE_SECONDS
from audio.listener import RING_STOP_WORDS, is_stop_phrase
from audio.segmenter import Segmenter, SpeechEnded
from audio.stt import SpeechToText
from audio.vad import VoiceActivity
from config import ListenerSettings, SpeechToTextSettings, VadSettings
from tests.rooms import (
    MEASURED_ROOMS,
    TRANSCRIPTS,
    Room,
    measured_room,
    noise_bed,
    recording,
    simulated_room,
    speech_level,
)
from tests.voices import ESPEAK_VOICES, PIPER_VOICES, Voice, espeak_available
from tests.wer import word_errors

SAMPLE_RATE = 16_000
FRAME = 512
PHRASES = ("Stop.", "Okay, stop.", "Stop the timer.")
RING_OVER_PERSON_DB = (0.0, 6.0)
NOISE_UNDER_PERSON_DB = 25.0
RINGING_BEFORE_SECONDS = 2.0
"""The stop is said this far into the ring (the canceller has heard a period of it)."""
MOMENTS = (0.1, 0.75, 1.3)
"""Where in the ring's 2 s period the stop begins: over its notes, at their end, in its quiet."""
DUCK_PROBABILITY = 0.3
DUCK_GAIN = 0.1
CONDITIONS = ("none", "aec", "duck", "aec+duck")
STOP_WORDS = (*ListenerSettings().stop_words, *RING_STOP_WORDS)


@dataclass(frozen=True)
class Scene:
    """What reaches the microphone: a person (or nobody) over the ring, and the ring played."""

    person: np.ndarray
    """float64, the person across the room (zeros: nobody)."""
    ring: np.ndarray
    """float64, the ring as played (the echo canceller's reference)."""
    room: Room
    noise: np.ndarray
    ring_db: float


@dataclass
class Heard:
    texts: list[str]
    audio: np.ndarray

    @property
    def stopped(self) -> bool:
        return any(is_stop_phrase(text, STOP_WORDS) for text in self.texts)


def rms(audio: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(audio.astype(np.float64))))) + 1e-9


def scene(person: np.ndarray, at: float, room: Room, noise: str, ring_db: float) -> Scene:
    """``person`` (dry) said ``at`` seconds into the ring, across ``room``."""
    length = round((RINGING_BEFORE_SECONDS + at) * SAMPLE_RATE) + len(person) + SAMPLE_RATE * 2
    period = earcon(Earcon.RING).astype(np.float64)
    ring = np.resize(period, length)
    voice = np.zeros(length)
    start = round((RINGING_BEFORE_SECONDS + at) * SAMPLE_RATE)
    voice[start : start + len(person)] = person
    voice = fftconvolve(voice, room.response)[:length]
    level = speech_level(person) if np.any(person) else 3000.0
    voice *= level / (speech_level(voice) if np.any(voice) else 1.0)
    echo_level = rms(fftconvolve(period, room.response)[: len(period)])
    ring *= level * 10 ** (ring_db / 20) / echo_level
    bed = noise_bed(noise, length).astype(np.float64)
    bed *= level * 10 ** (-NOISE_UNDER_PERSON_DB / 20) / rms(bed)
    return Scene(voice, ring, room, bed, ring_db)


class Ears:
    """The voice loop's hearing while it rings: VAD, segmenter, tiny.en."""

    def __init__(self) -> None:
        self.stt = SpeechToText(SpeechToTextSettings())
        self.stt.load()
        self.vad_settings = VadSettings()

    def hear(self, scene: Scene, condition: str) -> Heard:
        played = scene.ring.copy()
        echo = fftconvolve(played, scene.room.response)[: len(played)]
        microphone = scene.person + echo + scene.noise
        vad = VoiceActivity()
        segmenter = Segmenter(self.vad_settings)
        segmenter.accept_short(RING_MIN_UTTERANCE_SECONDS)
        aec = EchoCanceller() if "aec" in condition else None
        out = np.zeros(len(microphone), dtype=np.int16)
        texts: list[str] = []
        ducked = "duck" not in condition
        for start in range(0, len(microphone) - FRAME + 1, FRAME):
            frame = np.clip(microphone[start : start + FRAME], -32768, 32767).astype(np.int16)
            reference = np.clip(played[start : start + FRAME], -32768, 32767).astype(np.int16)
            if aec is not None:
                frame = aec.process(frame, reference)
            out[start : start + FRAME] = frame
            probability = vad.process(frame)
            if not ducked and (probability or 0.0) >= DUCK_PROBABILITY:
                ducked = True  # from the next frame on, the ring (and so its echo) is quieter
                after = start + FRAME
                tail = np.zeros(len(played))
                tail[after:] = played[after:] * (1 - DUCK_GAIN)
                microphone = microphone - fftconvolve(tail, scene.room.response)[: len(played)]
                played[after:] *= DUCK_GAIN
            event = segmenter.process(FRAME / SAMPLE_RATE, probability)
            if isinstance(event, SpeechEnded) and event.is_utterance:
                first = max(0, round(event.start * SAMPLE_RATE) - 3200)
                piece = out[first : round(event.end * SAMPLE_RATE) + 1600]
                texts.append(self.stt.transcribe(piece, beam_size=1).text)
        return Heard(texts, out)


def voices(quick: bool) -> list[Voice]:
    chosen = list(PIPER_VOICES[:2] if quick else PIPER_VOICES)
    if espeak_available():
        chosen += list(ESPEAK_VOICES[:2] if quick else ESPEAK_VOICES[:4])
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer voices, rooms and moments")
    args = parser.parse_args()
    rooms = [measured_room(name) for name in MEASURED_ROOMS]
    try:
        rooms.append(simulated_room())
    except ImportError:
        print("(pyroomacoustics is not installed: measured rooms only)")
    if args.quick:
        rooms = rooms[:2]
    moments = MOMENTS[::2] if args.quick else MOMENTS
    ears = Ears()
    stops: dict[str, dict[str, list[bool]]] = {c: defaultdict(list) for c in CONDITIONS}
    false_alone: dict[str, list[bool]] = defaultdict(list)
    false_talk: dict[str, list[bool]] = defaultdict(list)
    errors: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for voice, phrase, room, db, at in itertools.product(
        voices(args.quick), PHRASES, rooms, RING_OVER_PERSON_DB, moments
    ):
        said = voice.say(phrase).astype(np.float64)
        the_scene = scene(said, at, room, "noise1", db)
        for condition in CONDITIONS:
            stops[condition][voice.family].append(ears.hear(the_scene, condition).stopped)
    real = [name for name in TRANSCRIPTS if name.startswith("harvard")]
    for room, db, (index, name) in itertools.product(rooms, RING_OVER_PERSON_DB, enumerate(real)):
        noise = f"noise{index % 5 + 1}"
        person = recording(name).astype(np.float64)
        alone = scene(np.zeros(SAMPLE_RATE * 3), 0.0, room, noise, db)
        talking = scene(person, MOMENTS[index % 3], room, noise, db)
        for condition in CONDITIONS:
            false_alone[condition].append(ears.hear(alone, condition).stopped)
            heard = ears.hear(talking, condition)
            false_talk[condition].append(heard.stopped)
            errors[condition].append(word_errors(TRANSCRIPTS[name], " ".join(heard.texts)))
    print(f"stop over the ring: {len(rooms)} rooms, ring echo {RING_OVER_PERSON_DB} dB over the "
          f"person, {len(moments)} moments in its period, phrases {PHRASES}")  # fmt: skip
    print(f"{'condition':10} {'stops heard':>14} {'piper':>9} {'espeak':>9} "
          f"{'false: ring alone':>18} {'false: real talk':>17} {'real WER':>9}")  # fmt: skip
    for condition in CONDITIONS:
        every = [hit for hits in stops[condition].values() for hit in hits]
        by = {family: _share(hits) for family, hits in stops[condition].items()}
        print(
            f"{condition:10} {sum(every):>5} of {len(every):<5} {by.get('piper', '-'):>9} "
            f"{by.get('espeak', '-'):>9} {_count(false_alone[condition]):>18} "
            f"{_count(false_talk[condition]):>17} {_rate(errors[condition]):>9.2f}"
        )


def _rate(errors: list[tuple[int, int]]) -> float:
    return sum(e for e, _ in errors) / max(1, sum(n for _, n in errors))


def _share(hits: list[bool]) -> str:
    return f"{100 * sum(hits) / len(hits):.0f}%"


def _count(hits: list[bool]) -> str:
    return f"{sum(hits)} of {len(hits)}"


if __name__ == "__main__":
    main()
