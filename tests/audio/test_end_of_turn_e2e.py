"""The end of a turn judged by its words, through ``hearth listen`` with the real models.

A wake phrase said alone and followed, after a pause longer than the end of a turn, by the
request: the request is heard, a real person's recording as well as Piper's voice (on a bench a
real speaker's "a thin stripe runs down the middle" after "Hey Jarvis." was reported lost). From
standby the wake word is not part of the utterance; a wake phrase heard alone inside one (in the
follow-up window) is judged ``wake_only`` and waited on: the pure rules are in
``tests/audio/test_end_of_turn.py``.
"""

from __future__ import annotations

import pytest

from tests.audio.test_listen_e2e import listen, words
from tests.rooms import TRANSCRIPTS, at_level, recording, speech_level
from tests.speech import silence, speech, timeline
from tests.wer import word_errors

pytestmark = pytest.mark.slow
PAUSE_SECONDS = 1.2
"""After the wake phrase: longer than the usual end of a turn (0.7 s), as people wait for it."""


@pytest.mark.parametrize(
    ("request_audio", "said"),
    [
        (lambda: recording("harvard-spk1-4"), TRANSCRIPTS["harvard-spk1-4"]),
        (lambda: speech("What time is it?"), "what time is it"),
    ],
    ids=["real-person", "piper"],
)
def test_a_request_after_a_pause_that_follows_the_wake_phrase_is_heard(
    tmp_path, request_audio, said
):
    request = request_audio()
    wake = at_level(speech("Hey Jarvis."), speech_level(request))
    heard = listen(tmp_path, timeline(silence(1.0), wake, silence(PAUSE_SECONDS), request,
                                      silence(3.0)))  # fmt: skip
    assert len(heard.wakes) == 1, heard.lines
    requests = [u for u in heard.utterances if words(u["text"])]
    assert len(requests) == 1, heard.lines
    assert requests[0]["via"] == "wake"
    errors, total = word_errors(said, requests[0]["text"])
    assert errors / total <= 0.2, requests[0]["text"]
