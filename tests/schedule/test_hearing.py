"""Requests said aloud in five voices (Piper at three paces, two espeak-ng voices, two across
measured rooms with real noise), heard by the real tiny.en, then parsed: the phrase table's
rows are re-made here, so a change in hearing or in parsing shows up as a failure."""

from __future__ import annotations

import pytest

from assistant.schedule import parse_request
from audio import SpeechToText
from config import SpeechToTextSettings
from tests.schedule.test_parser import EXPECTED, LOST, MISHEARD
from tests.schedule.voices import VOICES

pytestmark = pytest.mark.slow

SAMPLE = (
    "Set a timer for ten minutes.",
    "Set a pasta timer for eight minutes.",
    "Wake me up every weekday at seven.",
    "In twenty minutes, remind me to call mum.",
    "Every Sunday at ten, remind me to put the bins out.",
    "What time is it?",
)


@pytest.fixture(scope="module")
def stt():
    return SpeechToText(SpeechToTextSettings())


@pytest.mark.parametrize("phrase", SAMPLE)
def test_a_request_heard_in_several_voices_is_understood_in_most(phrase, stt):
    understood = []
    for voice in VOICES:
        heard = stt.transcribe(voice.say(phrase)).text
        intent = parse_request(heard)
        if heard not in LOST and intent == MISHEARD.get(heard, EXPECTED[phrase]):
            understood.append(voice.name)
        # Whatever was heard, a request is never mistaken for a different request kind.
        if intent is not None:
            assert type(intent) is type(EXPECTED[phrase]), (voice.name, heard, intent)
    assert len(understood) >= 4, (phrase, understood)
