"""How often reading an answer as letters helps, and how often it takes what was not spelled, in
one run.

    python -m bench.spelling [--data DIR]                         (from the repository root)

After Hearth asks for a value ("Your favorite editor is what?") or stores a fact, the next
utterance may spell a name ("V. I. M."). The voice side then reads it twice: freely, and as
letters (``SpeechToText.spelled``, every other token suppressed), and keeps the letters where they
are the likelier reading. Counted here, with tiny.en as Hearth runs it:

- spelled names in Piper's voice at three speeds and two espeak-ng voices, clean and across a
  measured room with real noise at 15 dB: how often the free reading, and Hearth's, give the
  name;
- answers that are not spelled (a name said, a correction, a question, thanks), in the same
  voices, and the real people's recordings (``data/audio``): how often the letters were taken
  for them (each a wrong value; the goal is none).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from assistant.fact_repair import answer_value, as_meant
from audio.stt import SpeechToText, may_be_spelled
from config import SpeechToTextSettings
from tests.rooms import (
    TRANSCRIPTS,
    across,
    measured_room,
    noise_bed,
    recording,
    shared_audio,
    under_noise,
)
from tests.voices import Voice, espeak_available

NAMES = ("Vim", "Emacs", "Priya", "Helix", "Nano", "Ingrid", "Rex", "Zed")
SAID = (
    "Vim.", "Emacs.", "It's Helix.", "Priya.", "No, I said Vim.", "What time is it?",
    "Thanks.", "Yes.", "The new one.", "And what about Uganda?", "Set a timer for ten minutes.",
    "Okay.", "That's right.", "I said Ingrid, like Ingrid Bergman.",
)  # fmt: skip
VOICES = (
    Voice("piper", "en_US-joe-medium", 1.0),
    Voice("piper", "en_US-joe-medium", 0.8),
    Voice("piper", "en_US-joe-medium", 1.25),
    Voice("espeak", "en-us+m1", 1.0, pitch=40),
    Voice("espeak", "en-gb+f2", 0.9),
)


def taken_as(reading: str) -> str:
    """The value Hearth takes from an answer's reading, as a value question does."""
    return (answer_value(reading) or "").strip(" .").casefold().capitalize()


def letters_of(name: str) -> str:
    """The name spelled as a person says it: "V. I. M."."""
    return " ".join(f"{letter.upper()}." for letter in name)


def read(stt: SpeechToText, audio: np.ndarray) -> tuple[str, str]:
    """(the free reading, the reading Hearth takes), as the voice side and the brain choose."""
    free = stt.transcribe(audio)
    letters = stt.spelled(audio) if may_be_spelled(free.text) else None
    likelier = letters is not None and letters.avg_logprob > free.avg_logprob
    return free.text, as_meant(free.text, letters.text if likelier else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", help="the shared real recordings (data/audio)")
    args = parser.parse_args()
    if args.data:
        import os

        os.environ["HEARTH_TEST_AUDIO"] = args.data
    if shared_audio() is None:
        print("the shared recordings are needed: --data DIR (data/audio)", file=sys.stderr)
        return 2
    voices = [v for v in VOICES if v.family == "piper" or espeak_available()]
    stt = SpeechToText(SpeechToTextSettings())
    room, noise = measured_room("room-impulse-1"), noise_bed("noise2", 16000 * 60)

    def placed(audio: np.ndarray, where: str) -> np.ndarray:
        if where == "clean":
            return audio
        return under_noise(across(audio, room), noise, 15.0)

    started = time.monotonic()
    print("spelled names, the value taken right (free reading | Hearth's), of all:")
    for where in ("clean", "room+noise"):
        free_right = kept_right = total = 0
        for voice in voices:
            for name in NAMES:
                free, kept = read(stt, placed(voice.say(letters_of(name)), where))
                total += 1
                free_right += taken_as(free) == name
                kept_right += taken_as(kept) == name
        print(f"  {where:11} {free_right:3d} | {kept_right:3d} of {total}")

    print("not spelled, taken as letters (the goal is none):")
    for where in ("clean", "room+noise"):
        taken = total = 0
        examples = []
        for voice in voices:
            for text in SAID:
                free, kept = read(stt, placed(voice.say(text), where))
                total += 1
                if kept != free:
                    taken += 1
                    examples.append(f"{voice.label} {text!r}: {free!r} -> {kept!r}")
        print(f"  synthetic {where:11} {taken:3d} of {total}")
        for example in examples:
            print(f"    {example}")
    real = [name for name in TRANSCRIPTS if name.startswith(("harvard", "arithmetic"))]
    for where in ("clean", "room+noise"):
        readings = [read(stt, placed(recording(name), where)) for name in real]
        taken = sum(kept != free for free, kept in readings)
        print(f"  real      {where:11} {taken:3d} of {len(real)}")
    print(f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
