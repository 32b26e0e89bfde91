"""What Hearth's mouth costs, measured in one run: Piper's real-time factor and the time to the
first audio of a reply.

    python -m bench.tts [--rounds 3]      (from the repository root)

Replies stream in word by word, as a language model sends them. Time to first audio is wall time
from the moment the piece that completes the first sentence arrives to the moment that sentence's
audio (16 kHz, ready to play) comes out; the real-time factor is synthesis wall time per second of
speech, with CPU time (all threads) beside it. Each reply is also spoken with the first-clause cut
switched off, to show what it saves.

Target (2 cores): first audio within 150 ms of the first sentence being known.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass

from audio.tts import DEFAULT_VOICE, SpeechParameters, TextToSpeech

FIRST_AUDIO_TARGET_SECONDS = 0.150

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


def measure(rounds: int = 3, threads: int | None = None) -> TtsFigures:
    """Speak every reply ``rounds`` times, streamed, with and without the first-clause cut."""
    engine = TextToSpeech() if threads is None else TextToSpeech(threads=threads)
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


def report(figures: TtsFigures) -> str:
    """The figures as lines a person reads, with ratios to the target."""
    median = statistics.median(figures.first_audio_seconds)
    worst = max(figures.first_audio_seconds)
    uncut_median = statistics.median(figures.first_audio_uncut_seconds)
    uncut_worst = max(figures.first_audio_uncut_seconds)
    target = FIRST_AUDIO_TARGET_SECONDS
    return "\n".join(
        [
            f"Piper voice load (with warm-up):     {figures.load_seconds:.2f} s",
            f"Piper real-time factor:              {figures.real_time_factor:.3f} "
            f"({1 / figures.real_time_factor:.0f}x faster than real time; "
            f"{figures.audio_seconds:.0f} s of speech)",
            f"Piper CPU per audio second:          {figures.cpu_per_audio_second:.3f} s",
            f"First audio of a reply, median:      {median * 1000:.0f} ms "
            f"({median / target:.2f} of the {target * 1000:.0f} ms target)",
            f"First audio of a reply, worst:       {worst * 1000:.0f} ms "
            f"({worst / target:.2f} of the target)",
            f"  without the first-clause cut:      median {uncut_median * 1000:.0f} ms, "
            f"worst {uncut_worst * 1000:.0f} ms ({uncut_worst / worst:.2f}x the worst with it)",
        ]
    )


def main() -> None:
    """Run the measurement and print it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="times each reply is spoken")
    parser.add_argument("--threads", type=int, default=None, help="onnxruntime threads")
    args = parser.parse_args()
    print(report(measure(args.rounds, args.threads)))


if __name__ == "__main__":
    main()
