"""How well Hearth hears, beside the raw models on the same audio, measured in one run.

    python -m bench.hearing            quick: a few voices and rooms (minutes)
    python -m bench.hearing --full     every voice, room and noise (the figures to report)

Wake words, for each built-in model (hey_jarvis, alexa, hey_mycroft, hey_rhasspy, okay_nabu):
- hits: the wake phrase said by synthetic voices of two families (Piper at several speeds and
  noise scales, espeak-ng's voices), alone or followed by a request, in three conditions; "raw"
  is the openWakeWord model at its threshold, "hearth" is the same detections after Hearth's wake
  verification (``audio.wake_check``, as the voice loop runs it). There are no real recordings of
  wake phrases, so the voices are synthetic and the rooms and noise are real.
- false wakes per hour: near-misses ("Hey Charlie", "Hey, jars of jam", "Alex", "Microsoft",
  "Okay, now boot it", ...) and household talk in the same voices and conditions, and the real
  recordings (real speakers, read speech) with the real noise under them, and the noise alone.
  Another model's wake phrase counts as a near-miss for every other model.

Word error rate on the real recordings with a known text (the Harvard sentences and the
arithmetic question): "raw" is faster-whisper tiny.en as its README uses it (beam 5, its own VAD
filter) on the recording; "hearth" is what ``hearth listen`` takes as the request when the same
recording follows a "Hey Jarvis." (the real voice loop, in process: Silero VAD, end of speech,
pre-roll, Hearth's transcription settings). A request lost because the wake was not taken counts
as every word missed.

Follow-ups: short follow-ups after an exchange ("What is the capital of Kenya?" then "And what
about Uganda?"), said by the synthetic voices: raw faster-whisper on the follow-up alone against
Hearth's follow-up transcript in the window.

Conditions: clean (the recording as made; synthetic speech under real noise at 35 dB SNR); rooms
(convolved with a measured room or one simulated with pyroomacoustics, real noise at 15 dB SNR);
noise (close speech, real noise at 5 dB SNR).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from itertools import count, cycle
from pathlib import Path
from typing import TextIO

import numpy as np

from audio.engine import VoiceEngine
from audio.files import WavSource
from audio.messages import Command, FinishReply, Heard, Record, Report
from audio.models import VoiceModels
from audio.mouth import TimelineMouth
from audio.phrase import contains_phrase
from audio.stt import PACKAGED_MODEL, resolve_model
from audio.wake_check import WakeVerifier
from audio.wakeword import BUILTIN_MODELS, WakeWordDetector
from audio.wav import write_wav
from config import Settings, WakeModelSettings, WakeSettings
from tests.rooms import (
    MEASURED_ROOMS,
    NOISES,
    READINGS,
    TRANSCRIPTS,
    Room,
    across,
    at_level,
    measured_room,
    noise_bed,
    recording,
    simulated_room,
    speech_level,
    under_noise,
)
from tests.speech import SAMPLE_RATE, silence, timeline
from tests.voices import ESPEAK_VOICES, PIPER_VOICES, Voice
from tests.wer import word_errors

CONDITIONS = ("clean", "rooms", "noise")
ROOM_SNR_DB = 15.0
NOISE_SNR_DB = 5.0
CLEAN_SNR_DB = 35.0
SPEECH_RMS = 2000.0
"""Level of synthetic speech (about -24 dBFS), a voice at a couple of metres."""

WAKE_PHRASES = {
    "hey_jarvis": "Hey Jarvis",
    "alexa": "Alexa",
    "hey_mycroft": "Hey Mycroft",
    "hey_rhasspy": "Hey Rhasspy",
    "okay_nabu": "Okay Nabu",
}
REQUESTS = ("what time is it?", "turn on the kitchen lights.", "set a timer for ten minutes.")
NEAR_MISSES = (
    # hey_jarvis
    "Hey Charlie, we need more milk.",
    "Hey darling, can you grab the keys?",
    "Hey, jars of jam are on the shelf.",
    "Hi Travis.",
    "Hey Marvin, come here.",
    "Hey Jarvie, dinner is ready.",
    "Hey Davis, over here.",
    "Hey Harvey, nice to see you.",
    "Harvest is coming soon.",
    # alexa
    "Alex, come here a second.",
    "Alexis is late again.",
    "I'll text her later.",
    "Alaska is cold in winter.",
    # hey_mycroft
    "Hey, Microsoft is updating again.",
    "My craft project is finished.",
    "Hey Mike, grab the soft one.",
    "Minecraft is on the big screen.",
    # hey_rhasspy
    "Hey, raspberry jam for breakfast?",
    "Hey Rusty, sit down.",
    "He has a raspy voice today.",
    # okay_nabu
    "Okay, now boot it up.",
    "Okay, Naomi, let's go.",
    "Okay, no boots in the house.",
    # household talk
    "Did you lock the back door?",
    "The kids have swimming after school on Thursday.",
    "I think the bus leaves at half past eight, so we should get going.",
)
FOLLOW_UPS = (
    ("What is the capital of Kenya?", "The capital of Kenya is Nairobi.", "And what about Uganda?"),
    ("What's the weather like in Lisbon?", "Lisbon is sunny and mild today.", "And in Porto?"),
    ("How tall is Mount Everest?", "Mount Everest is 8849 metres tall.", "And what about K2?"),
    ("Who wrote Pride and Prejudice?", "Jane Austen wrote it in 1813.", "When was she born?"),
    ("How do I boil an egg?", "Put it in boiling water for seven minutes.", "And a soft one?"),
    ("What's on the calendar today?", "You have the dentist at three.", "Move it to four."),
    ("Who is the prime minister of Canada?", "Mark Carney is.", "How old is he?"),
    ("How far is the moon?", "About 384,000 kilometres away.", "And the sun?"),
)
"""A question, the answer Hearth gave, and the short follow-up to be heard in their context."""
FOLLOW_UPS_PER_VOICE = 2


@dataclass(frozen=True)
class Mode:
    """How much of the bench to run."""

    voices: tuple[Voice, ...]
    rooms: tuple[Room, ...]
    rooms_per_recording: int
    noises_per_recording: int


def quick_mode() -> Mode:
    rooms = (measured_room(MEASURED_ROOMS[0]), measured_room(MEASURED_ROOMS[1]),
             simulated_room())  # fmt: skip
    return Mode(PIPER_VOICES[:2] + ESPEAK_VOICES[:2], rooms, 1, 1)


def full_mode() -> Mode:
    rooms = (
        *(measured_room(name) for name in MEASURED_ROOMS),
        simulated_room(),
        simulated_room((8.0, 6.0, 3.0), 0.1, (1.5, 2.0, 1.7), (6.5, 4.5, 1.0)),
    )
    return Mode(PIPER_VOICES + ESPEAK_VOICES, rooms, len(rooms), 3)


# Placing speech in a condition -------------------------------------------------------------------


@dataclass
class Placer:
    """Puts dry audio into a condition, cycling through the rooms and noises so each is used."""

    rooms: tuple[Room, ...]
    _room: Iterator[Room] = field(init=False)
    _noise: Iterator[str] = field(init=False)
    _offset: int = 0

    def __post_init__(self) -> None:
        self._room = cycle(self.rooms)
        self._noise = cycle(NOISES)

    def bed(self, samples: int) -> np.ndarray:
        self._offset += 7919 * 13
        return noise_bed(next(self._noise), samples, self._offset)

    def place(
        self, dry: np.ndarray, condition: str, speech_rms: float, room: Room | None = None
    ) -> np.ndarray:
        """``dry`` (speech at ``speech_rms`` with silences) in ``condition``."""
        if condition == "clean":
            return under_noise(dry, self.bed(len(dry)), CLEAN_SNR_DB, speech_rms)
        if condition == "rooms":
            wet = across(dry, room or next(self._room))
            return under_noise(wet, self.bed(len(dry)), ROOM_SNR_DB, speech_rms)
        return under_noise(dry, self.bed(len(dry)), NOISE_SNR_DB, speech_rms)


# Wake words --------------------------------------------------------------------------------------


@dataclass
class WakeTally:
    """Per model and condition: trials, raw and Hearth hits; per model and corpus: false wakes."""

    trials: Counter = field(default_factory=Counter)
    raw_hits: Counter = field(default_factory=Counter)
    hearth_hits: Counter = field(default_factory=Counter)
    raw_false: Counter = field(default_factory=Counter)
    hearth_false: Counter = field(default_factory=Counter)
    seconds: Counter = field(default_factory=Counter)
    refused: dict = field(default_factory=lambda: defaultdict(list))
    """What verification heard when it refused a real wake, per model."""
    accepted_falsely: dict = field(default_factory=lambda: defaultdict(list))


@dataclass(frozen=True)
class Found:
    """One raw detection and what Hearth's verification made of it."""

    model: str
    accepted: bool
    said: str
    """The verdict as the verbose report lists it: evidence, margin, fit, score, window, heard."""
    facts: dict
    """The verdict's numbers, for ``--dump``."""


class WakeJudge:
    """Every built-in wake model over one front end, and Hearth's verification of each detection."""

    def __init__(self, models: VoiceModels, dump: TextIO | None = None) -> None:
        wake = WakeSettings(models=tuple(WakeModelSettings(model=m) for m in BUILTIN_MODELS))
        self.detector = WakeWordDetector(wake)
        self.verifier = WakeVerifier(wake, models.stt)
        self.dump = dump

    def run(self, audio: np.ndarray) -> list[Found]:
        """Each raw detection in ``audio`` and Hearth's verdict on it."""
        self.detector.reset()
        audio = timeline(audio, silence(0.5))  # room for the verification window's tail
        found = []
        for detection in self.detector.process(audio, len(audio)):
            start, end = detection.verify_window
            verdict = self.verifier.judge(detection, audio[start:end])
            facts = {
                "model": detection.model,
                "score": round(detection.score, 4),
                "window": [round(start / SAMPLE_RATE, 2), round(end / SAMPLE_RATE, 2)],
                "evidence": verdict.evidence.value,
                "accepted": verdict.accepted,
                "heard": verdict.heard,
                "said": contains_phrase(verdict.heard, detection.phrase),
                "margin": verdict.margin,
                "fit": None if verdict.fit is None else round(verdict.fit, 3),
            }
            found.append(Found(detection.model, verdict.accepted, _said(facts), facts))
        return found

    def record(self, found: Found, kind: str, what: str) -> None:
        """With ``--dump``: a JSON line for a detection of ``kind`` (wake or false) in ``what``."""
        if self.dump is not None:
            self.dump.write(json.dumps({"kind": kind, "what": what, **found.facts}) + "\n")


def _said(facts: dict) -> str:
    margin = "" if facts["margin"] is None else f" {facts['margin']:+.2f}"
    fit = "" if facts["fit"] is None else f" fit {facts['fit']:.2f}"
    start, end = facts["window"]
    return (f"{facts['evidence']}{margin}{fit} score {facts['score']:.3f} "
            f"[{start:.2f}-{end:.2f} s] {facts['heard']!r}")  # fmt: skip


def wake_trials(judge: WakeJudge, mode: Mode, tally: WakeTally) -> None:
    placer = Placer(mode.rooms)
    requests = cycle(REQUESTS)
    for model, phrase in WAKE_PHRASES.items():
        for voice_index, voice in enumerate(mode.voices):
            wake = at_level(voice.say(phrase), SPEECH_RMS)
            # Half the trials run straight on into a request, as people do
            tail = (
                timeline(silence(0.15), at_level(voice.say(next(requests)), SPEECH_RMS))
                if voice_index % 2
                else silence(0.2)
            )
            dry = timeline(silence(1.0), wake, tail, silence(1.2))
            for condition in CONDITIONS:
                audio = placer.place(dry, condition, SPEECH_RMS)
                tally.trials[model, condition] += 1
                found = judge.run(audio)
                what = f"{voice.label}/{condition}"
                mine = [one for one in found if one.model == model]
                for one in mine:
                    judge.record(one, "wake", what)
                tally.raw_hits[model, condition] += bool(mine)
                tally.hearth_hits[model, condition] += any(one.accepted for one in mine)
                if mine and not any(one.accepted for one in mine):
                    tally.refused[model].append(f"{what}: {mine[0].said}")
                seconds = len(audio) / SAMPLE_RATE
                for other in WAKE_PHRASES:
                    if other != model:
                        tally.seconds[other, "near-miss"] += seconds
                for one in found:
                    if one.model != model:
                        _false(judge, tally, "near-miss", one, f"{what} {phrase!r}")


def _false(judge: WakeJudge, tally: WakeTally, corpus: str, found: Found, what: str) -> None:
    judge.record(found, "false", what)
    tally.raw_false[found.model, corpus] += 1
    if found.accepted:
        tally.hearth_false[found.model, corpus] += 1
        tally.accepted_falsely[found.model].append(f"{what}: {found.said}")


def near_miss_trials(judge: WakeJudge, mode: Mode, tally: WakeTally) -> None:
    placer = Placer(mode.rooms)
    for sentence in NEAR_MISSES:
        for voice in mode.voices:
            dry = timeline(silence(0.5), at_level(voice.say(sentence), SPEECH_RMS), silence(0.8))
            for condition in CONDITIONS:
                _corpus(judge, tally, "near-miss", placer.place(dry, condition, SPEECH_RMS),
                        f"{voice.label}/{condition} {sentence!r}")  # fmt: skip


def real_speech_trials(judge: WakeJudge, mode: Mode, tally: WakeTally) -> None:
    """The real recordings in every condition, and the real noise alone at its own level."""
    placer = Placer(mode.rooms)
    names = [*TRANSCRIPTS, *READINGS]
    for condition in CONDITIONS:
        parts, levels = [], []
        for name in names:
            said = recording(name)
            parts += [said, silence(0.6)]
            levels.append(speech_level(said))
        dry = timeline(*parts)
        audio = dry if condition == "clean" else placer.place(dry, condition, np.mean(levels))
        _corpus(judge, tally, "real", audio, f"real speech/{condition}")
    _corpus(judge, tally, "real", timeline(*(recording(n) for n in NOISES)), "noise alone")


def _corpus(judge: WakeJudge, tally: WakeTally, corpus: str, audio: np.ndarray, what: str) -> None:
    for model in WAKE_PHRASES:
        tally.seconds[model, corpus] += len(audio) / SAMPLE_RATE
    for found in judge.run(audio):
        _false(judge, tally, corpus, found, what)


# Word error rate ---------------------------------------------------------------------------------


class Raw:
    """faster-whisper tiny.en as its README runs it: beam 5, its VAD filter."""

    def __init__(self) -> None:
        from faster_whisper import WhisperModel

        path = resolve_model(PACKAGED_MODEL)
        self._whisper = WhisperModel(str(path), device="cpu", compute_type="int8")

    def transcribe(self, audio: np.ndarray) -> str:
        segments, _ = self._whisper.transcribe(
            audio.astype(np.float32) / 32768, language="en", beam_size=5, vad_filter=True
        )
        return " ".join(segment.text.strip() for segment in segments)


class Hearth:
    """``hearth listen`` in process over a recording, the models loaded once."""

    def __init__(self, settings: Settings, models: VoiceModels, folder: Path) -> None:
        self._settings, self._models, self._folder = settings, models, folder

    def requests(self, audio: np.ndarray, answer: str = "") -> tuple[bool, list[dict]]:
        """Whether Hearth woke, and the utterances it took (each with ``text`` and ``via``); each
        is answered at once, with ``answer`` as what Hearth said (the next one's context)."""
        path = self._folder / "room.wav"
        write_wav(path, audio)
        records: list[dict] = []
        engine = VoiceEngine(
            self._settings, self._models, lambda: WavSource(path), TimelineMouth(_Nowhere()),
            _Answering(records.append, answer),
        )  # fmt: skip
        try:
            engine.run()
        finally:
            engine.close()
        woke = any(record["event"] == "wake" for record in records)
        return woke, [record for record in records if record["event"] == "utterance"]


class _Answering:
    """``hearth listen``'s channel (each utterance answered at once), with the exchange as the
    next utterance's context, as the supervisor sends it."""

    def __init__(self, on_record: Callable[[dict], None], answer: str) -> None:
        self._on_record, self._answer = on_record, answer
        self._commands: deque[Command] = deque()
        self._replies = count(1)

    def send(self, report: Report) -> None:
        match report:
            case Record(fields=fields):
                self._on_record(fields)
            case Heard(text=text):
                context = f"{text} {self._answer}".strip()
                self._commands.append(FinishReply(next(self._replies), context=context))

    def receive(self, timeout: float) -> Command | None:
        return self._commands.popleft() if self._commands else None


class _Nowhere:
    def play(self, samples: np.ndarray, at_sample: int) -> None:
        pass

    def close(self) -> None:
        pass


@dataclass
class WerTally:
    errors: Counter = field(default_factory=Counter)
    words: Counter = field(default_factory=Counter)
    clips: Counter = field(default_factory=Counter)
    lost: Counter = field(default_factory=Counter)
    """Requests Hearth never took because the wake was not accepted."""
    worst: list = field(default_factory=list)

    def add(self, system: str, condition: str, expected: str, heard: str) -> None:
        errors, words = word_errors(expected, heard)
        self.errors[system, condition] += errors
        self.words[system, condition] += words
        if system == "hearth":
            self.clips[condition] += 1
        if errors:
            self.worst.append((system, condition, expected, heard))

    def rate(self, system: str, condition: str) -> float:
        return self.errors[system, condition] / max(1, self.words[system, condition])


def wer_trials(raw: Raw, hearth: Hearth, mode: Mode, tally: WerTally) -> None:
    placer = Placer(mode.rooms)
    wake = PIPER_VOICES[0].say("Hey Jarvis.")
    for name, expected in TRANSCRIPTS.items():
        said = recording(name)
        level = speech_level(said)
        # The wake word said louder than the request, so that the request is what is measured;
        # each condition's noise runs under both
        dry_wake = at_level(wake, level * 2)
        rooms = [("rooms", room) for room in mode.rooms][: mode.rooms_per_recording]
        variants = [("clean", None), *rooms]
        variants += [("noise", None)] * mode.noises_per_recording
        if mode.rooms_per_recording < len(mode.rooms):  # quick: each recording its own room
            index = list(TRANSCRIPTS).index(name) % len(mode.rooms)
            variants[1] = ("rooms", mode.rooms[index])
        for condition, room in variants:
            clip = timeline(silence(0.5), said, silence(0.5))
            scene = timeline(silence(0.6), dry_wake, silence(1.2), said, silence(1.5))
            if condition == "clean":
                heard_raw = raw.transcribe(clip)
                hearth_audio = scene
            else:
                wet_scene = placer.place(scene, condition, level, room)
                begins = len(scene) - len(said) - seconds(2.0)  # half a second before it
                heard_raw = raw.transcribe(wet_scene[begins : begins + len(clip)])
                hearth_audio = wet_scene
            tally.add("raw", condition, expected, heard_raw)
            woke, utterances = hearth.requests(hearth_audio)
            tally.lost[condition] += not woke
            tally.add("hearth", condition, expected, " ".join(u["text"] for u in utterances))


def follow_up_trials(raw: Raw, hearth: Hearth, mode: Mode, tally: WerTally) -> None:
    placer = Placer(mode.rooms)
    wake = at_level(PIPER_VOICES[0].say("Hey Jarvis."), SPEECH_RMS)
    scripts = [
        (voice, FOLLOW_UPS[(index + turn * len(FOLLOW_UPS) // 2) % len(FOLLOW_UPS)])
        for index, voice in enumerate(mode.voices)
        for turn in range(FOLLOW_UPS_PER_VOICE)
    ]
    for voice, (question, answer, follow_up) in scripts:
        asked = at_level(voice.say(question), SPEECH_RMS)
        then = at_level(voice.say(follow_up), SPEECH_RMS)
        scene = timeline(silence(0.6), wake, silence(0.3), asked, silence(2.0), then, silence(1.5))
        for condition in CONDITIONS:
            wet = placer.place(scene, condition, SPEECH_RMS)
            tail = len(then) + seconds(2.0)
            tally.add("raw", condition, follow_up, raw.transcribe(wet[-tail:]))
            _, utterances = hearth.requests(wet, answer)
            later = [u["text"] for u in utterances if u["via"] == "follow_up"]
            tally.add("hearth", condition, follow_up, " ".join(later))


def seconds(value: float) -> int:
    return round(value * SAMPLE_RATE)


# The report --------------------------------------------------------------------------------------


def report_wakes(tally: WakeTally, verbose: bool) -> None:
    print("\nWAKE HITS (raw model at its threshold | Hearth after verification)")
    print(f"{'model':<13}" + "".join(f"{c:>18}" for c in CONDITIONS) + f"{'all':>18}")
    for model in WAKE_PHRASES:
        cells = []
        for condition in (*CONDITIONS, None):
            keys = [(model, c) for c in CONDITIONS] if condition is None else [(model, condition)]
            n = sum(tally.trials[k] for k in keys)
            raw = sum(tally.raw_hits[k] for k in keys)
            mine = sum(tally.hearth_hits[k] for k in keys)
            cells.append(f"{raw:>3}/{n:<3}| {mine:>3}/{n:<3}")
        print(f"{model:<13}" + "".join(f"{cell:>18}" for cell in cells))
    print("\nFALSE WAKES PER HOUR (raw | Hearth; count in brackets)")
    print(f"{'model':<13}{'near-miss talk':>30}{'real speech + noise':>30}")
    for model in WAKE_PHRASES:
        cells = []
        for corpus in ("near-miss", "real"):
            hours = tally.seconds[model, corpus] / 3600
            raw, mine = tally.raw_false[model, corpus], tally.hearth_false[model, corpus]
            cells.append(f"{raw / hours:6.1f} ({raw:>3}) | {mine / hours:5.1f} ({mine:>2})")
        print(f"{model:<13}" + "".join(f"{cell:>30}" for cell in cells))
    minutes = {c: tally.seconds["hey_jarvis", c] / 60 for c in ("near-miss", "real")}
    print(f"(per model: {minutes['near-miss']:.1f} min of near-miss talk and other wake phrases, "
          f"{minutes['real']:.1f} min of real speech and noise)")  # fmt: skip
    if verbose:
        for model, refused in tally.refused.items():
            print(f"  refused {model}: " + "; ".join(refused))
        for model, accepted in tally.accepted_falsely.items():
            print(f"  FALSE {model}: " + "; ".join(accepted))


def report_wer(tally: WerTally, follow: WerTally, verbose: bool) -> None:
    print("\nWORD ERROR RATE on real recordings (raw tiny.en beam 5 + VAD filter | Hearth)")
    for condition in CONDITIONS:
        print(_rates(tally, condition) + f"  (wake not taken: {tally.lost[condition]})")
    print("\nSHORT FOLLOW-UPS after an exchange, word error rate (raw alone | Hearth in window)")
    for condition in CONDITIONS:
        print(_rates(follow, condition))
    if verbose:
        for system, condition, expected, heard in tally.worst + follow.worst:
            print(f"  {system:<6} {condition:<6} {expected!r} -> {heard!r}")


def _rates(tally: WerTally, condition: str) -> str:
    raw, mine = tally.rate("raw", condition), tally.rate("hearth", condition)
    return f"{condition:<8} {tally.clips[condition]:>3} clips  raw {raw:6.1%}  hearth {mine:6.1%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="every voice, room and noise")
    parser.add_argument("--only", choices=("wake", "wer"), help="run one half")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every miss")
    parser.add_argument("--dump", type=Path, help="write each wake detection as a JSON line")
    parser.add_argument("--beam", type=int, help="Hearth's stt.beam_size instead of the default")
    args = parser.parse_args()
    mode = full_mode() if args.full else quick_mode()
    began = time.monotonic()
    settings = Settings()
    if args.beam:
        settings = settings.model_copy(
            update={"stt": settings.stt.model_copy(update={"beam_size": args.beam})}
        )
    models = VoiceModels.load(settings)
    families = Counter(voice.family for voice in mode.voices)
    print(f"hearing bench ({'full' if args.full else 'quick'}): voices "
          + ", ".join(f"{n} {family}" for family, n in families.items())
          + f"; rooms {', '.join(room.name for room in mode.rooms)}; stt beam "
          f"{settings.stt.beam_size}")  # fmt: skip
    if args.only != "wer":
        wakes = WakeTally()
        with ExitStack() as stack:
            dump = stack.enter_context(args.dump.open("w")) if args.dump else None
            judge = WakeJudge(models, dump)
            wake_trials(judge, mode, wakes)
            near_miss_trials(judge, mode, wakes)
            real_speech_trials(judge, mode, wakes)
        report_wakes(wakes, args.verbose)
    if args.only != "wake":
        wer, follow = WerTally(), WerTally()
        raw = Raw()
        with tempfile.TemporaryDirectory() as folder:
            hearth = Hearth(settings, models, Path(folder))
            wer_trials(raw, hearth, mode, wer)
            follow_up_trials(raw, hearth, mode, follow)
        report_wer(wer, follow, args.verbose)
    print(f"\n({time.monotonic() - began:.0f} s)")


if __name__ == "__main__":
    main()
