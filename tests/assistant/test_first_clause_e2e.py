"""A long first sentence is spoken as its first clause and then the rest, end to end: in file
mode through ``hearth run``, heard back in full and in order by the real speech-to-text."""

from __future__ import annotations

import numpy as np
import pytest

from audio import VAD_FRAME_SAMPLES
from audio.stt import SpeechToText
from config import SpeechToTextSettings
from tests.ollama_server import Reply
from tests.speech import SAMPLE_RATE, silence, speech, timeline
from tests.wer import normalised, word_errors

pytestmark = pytest.mark.slow

FIRST = "The weather in Nairobi is warm today, around twenty five degrees, with a light breeze."
CLAUSE, REST = (
    "The weather in Nairobi is warm today,",
    "around twenty five degrees, with a light breeze.",
)
SECOND = "Enjoy the sunshine while it lasts."
LONGEST_JOIN_SECONDS = 0.28
"""About a comma's pause and a frame of the loop. Piper ends a clause said alone as it ends a
sentence and starts the rest with a lead-in: untrimmed, the join measured 0.34 s of quiet (a
double pause), trimmed 0.21 s, beside 0.23 s between two whole sentences."""


def quiet_run(audio: np.ndarray, around: int, level: float = 300.0) -> int:
    """Samples of the silence that spans sample ``around`` (10 ms windows under ``level`` RMS)."""
    window = SAMPLE_RATE // 100
    frames = audio[: len(audio) // window * window].astype(np.float64).reshape(-1, window)
    quiet = np.sqrt((frames**2).mean(axis=1)) < level
    at = min(around // window, len(quiet) - 1)
    if not quiet[at]:
        return 0
    start = end = at
    while start > 0 and quiet[start - 1]:
        start -= 1
    while end + 1 < len(quiet) and quiet[end + 1]:
        end += 1
    return (end - start + 1) * window


def test_a_long_first_sentence_is_said_as_its_clause_then_the_rest(hearth, ollama):
    ollama.script(Reply(text=f"{FIRST} {SECOND}"))
    room = timeline(silence(1.0), speech("Hey Jarvis, what is the weather in Nairobi?"),
                    silence(14.0))  # fmt: skip
    run = hearth(room, f"ollama:\n  url: {ollama.url}\n")
    assert run.returncode == 0, run.summary()

    # The reply's sentences are the ledger's units, said once and in order; the first is made
    # in two pieces, the later ones whole.
    assert [(e["job"], e["text"]) for e in run.of("speak_start")] == [(1, FIRST), (2, SECOND)]
    assert [e["job"] for e in run.of("speak_end")] == [1, 2]
    pieces = run.of("speak_piece")
    assert [(e["job"], e["text"]) for e in pieces] == [(1, CLAUSE), (1, REST), (2, SECOND)]

    # The rest follows the clause within the loop's next frame (when the loop sees the mouth
    # free), and no long silence is heard there.
    clause, rest = pieces[0], pieces[1]
    join = clause["at_sample"] + clause["samples"]
    assert 0 <= rest["at_sample"] - join < VAD_FRAME_SAMPLES
    gap = quiet_run(run.reply_audio, join)
    assert gap <= LONGEST_JOIN_SECONDS * SAMPLE_RATE, f"{gap} quiet samples at the join"

    # Heard in full and in order: the whole sentence from the output, by the real model.
    stt = SpeechToText(SpeechToTextSettings())
    start = clause["at_sample"]
    heard = stt.transcribe(run.reply_audio[start : rest["at_sample"] + rest["samples"]]).text
    errors, total = word_errors(FIRST.replace("twenty five", "25"), heard.replace("-", " "))
    assert errors <= 1, f"heard {normalised(heard)!r} for {FIRST!r} ({errors}/{total} wrong)"
