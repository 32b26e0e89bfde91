"""The first word of an answer follows the end of the request at once, end to end in file mode
through ``hearth run``: an answer that is ready then is not held behind the end-of-listening
earcon (live, it held the first word 0.27 s after its audio was ready). The earcon still sounds
for an answer that is slow to begin: ``tests/audio/test_live_devices.py``."""

from __future__ import annotations

import pytest

from audio import VAD_FRAME_SAMPLES
from tests.ollama_server import Reply
from tests.speech import SAMPLE_RATE, silence, speech, timeline

pytestmark = pytest.mark.slow


def test_an_answer_ready_at_once_is_said_at_once_with_no_earcon_before_it(hearth, ollama):
    ollama.script(Reply(text="Nairobi is the capital of Kenya. It is a big city."))
    room = timeline(silence(1.0), speech("Hey Jarvis, what is the capital of Kenya?"),
                    silence(8.0))  # fmt: skip
    run = hearth(room, f"ollama:\n  url: {ollama.url}\n")
    assert run.returncode == 0, run.summary()

    [utterance] = run.of("utterance")
    first = run.of("speak_piece")[0]
    taken = round(utterance["t"] * SAMPLE_RATE)
    # In file mode thinking takes no audio time: the answer starts where the request was taken
    # (the loop's next frame at most), not after an earcon.
    assert 0 <= first["at_sample"] - taken <= VAD_FRAME_SAMPLES, run.summary()
    assert [e["kind"] for e in run.of("earcon")] == ["wake"], run.summary()
