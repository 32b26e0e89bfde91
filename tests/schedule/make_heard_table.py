"""Remake ``heard.tsv``: every phrase in every test voice, as the real tiny.en transcribes it.

Run ``python -m tests.schedule.make_heard_table`` (about two minutes on two cores). The table is a
record of tiny.en's habits (digits or words, hyphens, punctuation) for the parser's table test.
"""

from __future__ import annotations

import csv
from pathlib import Path

from audio import SpeechToText
from config import SpeechToTextSettings
from tests.schedule.phrases import PHRASES
from tests.schedule.voices import VOICES

TABLE = Path(__file__).with_name("data") / "heard.tsv"


def main() -> None:
    """Transcribe every phrase in every voice and write the table."""
    stt = SpeechToText(SpeechToTextSettings())
    rows = []
    for phrase in PHRASES:
        for voice in VOICES:
            heard = stt.transcribe(voice.say(phrase)).text
            rows.append((phrase, voice.name, heard))
            print(f"{voice.name:16} {phrase!r} -> {heard!r}")
    with TABLE.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(("phrase", "voice", "heard"))
        writer.writerows(rows)


if __name__ == "__main__":
    main()
