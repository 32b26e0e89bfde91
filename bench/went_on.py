"""Live: how often a speaker who goes on after a pause is still heard whole, with a model that
takes a moment to begin, in one run.

    python -m bench.went_on [--voices 2] [--think 2.0] [--data DIR] [--keep DIR]
                                                                 (from the repository root)

Hearth runs as on a device: ``hearth run`` on the sound devices of a private PulseAudio server,
in real time (needs ``pulseaudio``, ``pactl`` and ``pacat``; see ``bench.turn --live``). The model
is the tests' Ollama-protocol server on 127.0.0.1, which begins each answer ``--think`` seconds
after the question (an instant model answers before anyone can go on; a small model on a Pi takes
seconds). The requests are ``bench.end_of_turn``'s, each after "Hey Jarvis.": real speakers (the
reading with two long mid-sentence pauses, and sentences said whole), and synthetic speakers
looking for a word mid-request ("remind me to ... call the plumber") or saying it whole.

Where the end of a turn takes a request at one of its labelled pauses, the speaker goes on: the
turn is then taken back (``listener.went_on_seconds``) if the model has not yet answered, and the
request heard again whole. Counted over the labelled mid-sentence pauses:

- taken at the pause: the end of the turn cut the speaker off there (as it would with going on
  turned off: nothing before the take changes);
- answered cut: the request the model answered still ended at the pause.

Over the requests said whole, a turn taken back is a false one (nothing was said after them).
``--snr DB`` lays the shared real noise recordings under the whole room at that ratio to the
speech (bench.hearing's rooms use 15 dB, its noise 5 dB): noise heard as someone going on would
take turns back that nobody went on from.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bench.end_of_turn import (
    DATA,
    Placed,
    kept_its_end,
    real_requests,
    recording,
    synthetic_requests,
)
from bench.turn import Run, sound_server
from bench.turn import run_live as live

LEAD_SECONDS = 1.0
"""The quiet before the first request's wake word (``bench.end_of_turn.recording``)."""
REPLY_SECONDS = 2.0
"""About how long the spoken answer lasts."""
MARGIN_SECONDS = 1.5
ANSWER = "Here is the answer."


@dataclass(frozen=True)
class Heard:
    """What became of one request."""

    taken_at_pause: bool
    answered_cut: bool
    taken_back: int
    heard: str
    """What the model was asked for it, joined."""


def run_live(folder: Path, room: np.ndarray, url: str, pulse_env: dict[str, str]) -> list[dict]:
    """``hearth run`` on the private sound server while ``room`` is played into its room."""
    config = folder / "settings.yaml"
    # The requests set real timers ("set a timer for twenty ... five minutes"): their rings,
    # held until a stop word, would leave the later requests unheard, so each stops itself.
    config.write_text(f"ollama:\n  url: {url}\nschedule:\n  auto_stop_seconds: 1.0\n")
    events = folder / "events.jsonl"
    events.unlink(missing_ok=True)  # Hearth appends: a --keep folder used again holds one run
    env = {name: value for name, value in pulse_env.items() if not name.startswith("HEARTH_")}
    env.update(XDG_CONFIG_HOME=str(folder / "xdg-config"), XDG_DATA_HOME=str(folder / "xdg-data"),
               HEARTH_LOG_LEVEL="INFO")  # fmt: skip
    env.pop("OLLAMA_HOST", None)
    argv = [sys.executable, "-m", "assistant", "--config", str(config),
            "--db", str(folder / "memory.db"), "run", "--events", str(events)]  # fmt: skip
    run = Run(folder, env, argv, events)
    live(run, room, pulse_env)
    return run.read_events()


def outcomes(events: list[dict[str, Any]], placed: list[Placed], start: float) -> list[Heard]:
    """Each request's fate. ``start``: the audio-clock second the room began playing at."""
    utterances = [e for e in events if e["event"] == "utterance"]
    reopened = [e for e in events if e["event"] == "request_reopened"]
    went_on = [e for e in events if e["event"] == "went_on" and e["taken_back"] and not e["wake"]]
    results = []
    for index, item in enumerate(placed):
        begin, until = (
            start + item.start,
            start + (placed[index + 1].start if index + 1 < len(placed) else float("inf")),
        )
        mine = [u for u in utterances if begin - 1.0 <= u["end"] < until]
        # An utterance taken back is followed by its request reopened, before the next one.
        answered = [
            u for n, u in enumerate(mine)
            if not any(u["t"] <= r["t"] < (mine[n + 1]["t"] if n + 1 < len(mine) else until)
                       for r in reopened)
        ]  # fmt: skip
        taken_back = sum(1 for e in went_on if begin <= e["t"] < until)
        heard = " ".join(u["text"] for u in answered)
        at_pause = ends_at_pause(mine, item, begin), ends_at_pause(answered, item, begin)
        results.append(Heard(*at_pause, taken_back, heard))
    return results


def ends_at_pause(said: list[dict[str, Any]], item: Placed, begin: float) -> bool:
    """Whether one of the utterances ended at one of the request's labelled pauses."""
    return any(
        begin + pause.start - 0.1 <= u["end"] <= begin + pause.end
        for pause in item.request.pauses
        for u in said
    )


def report(placed: list[Placed], heard: list[Heard], think: float) -> None:
    print(f"\nA model that begins {think:g} s after each question:")
    for source in ("real", "piper", "espeak"):
        paused = [i for i, item in enumerate(placed)
                  if item.request.source == source and item.request.pauses]  # fmt: skip
        if not paused:
            continue
        kinds = Counter(pause.kind for i in paused for pause in placed[i].request.pauses)
        pauses = ", ".join(f"{count} {kind}" for kind, count in kinds.items())
        taken = sum(heard[i].taken_at_pause for i in paused)
        cut = sum(heard[i].answered_cut for i in paused)
        kept = sum(
            kept_its_end(placed[i].request, heard[i].heard)
            for i in paused
            if " ... " in placed[i].request.name and not heard[i].answered_cut
        )
        synthetic = sum(" ... " in placed[i].request.name for i in paused)
        line = (f"  {source:<7} {len(paused):>3} requests ({pauses} pauses): "
                f"taken at a pause {taken:>3}, answered cut {cut:>3}")  # fmt: skip
        if synthetic:
            line += f"; the end after the pause heard in {kept} of {synthetic - cut} uncut"
        print(line)
    whole = [i for i, item in enumerate(placed) if not item.request.pauses]
    false = Counter(placed[i].request.source for i in whole if heard[i].taken_back)
    print(f"  said whole: {len(whole)} requests, taken back {sum(false.values())} "
          f"{dict(false) if false else ''}")  # fmt: skip
    print("\nRequests answered cut:")
    for i, item in enumerate(placed):
        if heard[i].answered_cut:
            print(f"  {item.request.name}: {heard[i].heard!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--voices", type=int, default=2, help="synthetic voices (at most 7)")
    parser.add_argument("--think", type=float, default=2.0,
                        help="seconds the model takes to begin each answer")  # fmt: skip
    parser.add_argument("--data", type=Path, default=DATA, help="the real recordings' folder")
    parser.add_argument("--keep", type=Path, help="keep the recording, events and log here")
    parser.add_argument("--snr", type=float, help="real noise under the room at this SNR (dB)")
    args = parser.parse_args()

    from audio.wav import write_wav
    from tests.ollama_server import OllamaServer, Reply

    server = OllamaServer().start()
    server.responder = lambda body: Reply(text=ANSWER, delay_first=args.think)
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        print("Making the requests (Piper, espeak-ng) ...", flush=True)
        requests = real_requests(args.data) + synthetic_requests(args.voices, folder)
        # After each: the model's think, a speaker going on, the answer said, and a margin.
        after = args.think + 2.5 + REPLY_SECONDS + MARGIN_SECONDS
        room, placed = recording(requests, after)
        if args.snr is not None:
            room = noisy(room, args.snr, args.data)
        write_wav(folder / "requests.wav", room)
        minutes = len(room) / 16_000 / 60
        print(f"{len(requests)} requests, {minutes:.1f} min of audio, heard live ...", flush=True)
        with sound_server(folder / "pulse") as pulse_env:
            events = run_live(folder, room, server.url, pulse_env)
    server.stop()
    # Live, the clock starts with the microphone, before the room is played: the room began
    # where the first speech was heard, less where the first "Hey Jarvis." begins in it.
    from tests.speech import speech

    heard_from = next(e for e in events if e["event"] == "speech_start")["start"]
    rough = heard_from - LEAD_SECONDS - onset(speech("Hey Jarvis."))
    report(placed, outcomes(events, placed, aligned(events, placed, rough)), args.think)


def aligned(events: list[dict[str, Any]], placed: list[Placed], rough: float) -> float:
    """Where the room began on the audio clock, to the frame: ``rough`` (from the first speech
    heard, which the voice activity detector hears late) set right by the requests said whole,
    whose utterances end where their voices do, as in file mode."""
    ends = [e["end"] for e in events if e["event"] == "utterance"]
    offsets = []
    for item in placed:
        if item.request.pauses:
            continue
        near = [end for end in ends if abs(end - (rough + item.speech_end)) < 1.0]
        if len(near) == 1:
            offsets.append(near[0] - item.speech_end)
    return statistics.median(offsets) if offsets else rough


def noisy(room: np.ndarray, snr_db: float, data: Path) -> np.ndarray:
    """``room`` with the real noise recordings in ``data``, one after the other (each looped to
    its share), under it at ``snr_db``."""
    from audio.wav import read_wav
    from tests.rooms import NOISES, speech_level, under_noise

    share = len(room) // len(NOISES) + 1
    beds = [np.resize(read_wav(data / f"{name}.wav"), share) for name in NOISES]
    return under_noise(room, np.concatenate(beds), snr_db, speech_level(room))


def onset(samples: np.ndarray) -> float:
    """Seconds into ``samples`` where the voice begins: the first 10 ms within 40 dB of the
    loudest (as ``bench.end_of_turn.speech_end`` finds its end)."""
    window = 16_000 // 100
    frames = samples[: len(samples) // window * window].astype(np.float64).reshape(-1, window)
    rms = np.sqrt((frames**2).mean(axis=1))
    return float(np.flatnonzero(rms >= rms.max() * 10 ** (-40 / 20))[0] * window / 16_000)


if __name__ == "__main__":
    main()
