"""The stop check over a reply: its rule without audio, then on the real tiny.en model with
"Stop." said in Piper's and espeak-ng's voices, a sentence that starts like it, and Hearth's own
voice saying "stop"."""

from __future__ import annotations

import numpy as np
import pytest

from audio.stop_check import (
    MIN_FIT,
    LinearHearing,
    Overheard,
    StopCheck,
    check_stop,
    checks,
    says_stop,
)
from audio.stt import SpeechToText
from config import SpeechToTextSettings
from tests.rooms import recording
from tests.speech import room_noise, speech, timeline
from tests.voices import ESPEAK_VOICES, espeak_available

# The rule, without audio -----------------------------------------------------------------------


def test_the_check_applies_when_stop_is_a_stop_word():
    assert checks(("stop", "never mind"))
    assert checks(("Stop",))
    assert not checks(("stop it", "never mind"))  # only the word it was measured for
    assert not checks(())


def test_hearth_saying_stop_is_found_in_its_words_but_not_in_other_words():
    assert says_stop("If I talk for too long, just say stop.")
    assert says_stop("Stop!")
    assert not says_stop("It stopped raining, so the bus stops here.")
    assert not says_stop("Nairobi is the capital of Kenya.")
    assert not says_stop("")


@pytest.mark.parametrize(
    ("check", "heard"),
    [
        (StopCheck(MIN_FIT + 0.5, "with many parks and a large"), True),
        (StopCheck(MIN_FIT, ""), True),  # Hearth was silent meanwhile
        (StopCheck(MIN_FIT + 2.0, "just say stop."), False),  # Hearth itself said it
        (StopCheck(MIN_FIT - 0.01, "with many parks"), False),
        (StopCheck(MIN_FIT - 0.01), False),
    ],
)
def test_a_stop_is_heard_when_it_fits_and_hearth_was_not_saying_it(check, heard):
    assert check.heard is heard


def test_an_idle_hearth_keeps_the_microphone_as_it_is_and_what_was_played_by_sample():
    hearing = LinearHearing(history_samples=16_000, tail_samples=1024)
    rng = np.random.default_rng(2)
    microphone = rng.normal(0, 1000, 4 * 512).astype(np.int16)
    for i in range(4):
        hearing.hear(microphone[i * 512 : (i + 1) * 512], None, speaking=False)
    heard = hearing.between(512, 2048)
    np.testing.assert_array_equal(heard.filtered, microphone[512:2048])
    assert len(heard.played) == 2048 and not np.any(heard.played)  # from 0.3 s earlier, if held
    assert heard.said is None  # never told what was said: unknown, not nothing


def test_the_sentences_played_over_a_stretch_and_just_before_it_are_known():
    hearing = LinearHearing(history_samples=160_000, tail_samples=1024)
    hearing.playing("Nairobi is the capital of Kenya.", 0, 32_000)
    hearing.playing("If I talk for too long, just say stop.", 32_000, 40_000)
    hearing.playing("It lies on a high plateau.", 72_000, 30_000)
    for _ in range(200):
        hearing.hear(np.zeros(512, np.int16), None, speaking=False)
    assert hearing.between(40_000, 60_000).said == ("If I talk for too long, just say stop.",)
    # Its echo comes late: a sentence that ended 0.2 s before the stretch is still in it.
    assert hearing.between(75_200, 80_000).said == (
        "If I talk for too long, just say stop.",
        "It lies on a high plateau.",
    )
    assert hearing.between(90_000, 95_000).said == ("It lies on a high plateau.",)
    assert hearing.between(110_000, 120_000).said == ()


# On the real model -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def stt() -> SpeechToText:
    hearing = SpeechToText(SpeechToTextSettings())
    hearing.load()
    return hearing


def said_alone(voice: np.ndarray, *, hearth: str = "with many parks and a large") -> Overheard:
    """As the check gets it: a little before the word, the word, 0.25 s of quiet after it;
    Hearth meanwhile saying ``hearth``."""
    filtered = timeline(room_noise(0.2), voice, room_noise(0.25, seed=3))
    return Overheard(filtered, speech(hearth), (hearth,))


def test_stop_said_in_piper_s_voice_is_heard(stt):
    check = check_stop(stt, said_alone(speech("Stop.", length_scale=1.2)))
    assert check.fit >= MIN_FIT and check.heard, check
    assert check.echo_words == "with many parks and a large"  # known, not transcribed


@pytest.mark.skipif(not espeak_available(), reason="espeak-ng is not installed")
@pytest.mark.parametrize("voice", ESPEAK_VOICES[:2], ids=lambda voice: voice.label)
def test_stop_said_in_espeak_ng_s_voices_is_heard(stt, voice):
    check = check_stop(stt, said_alone(voice.say("Stop.")))
    assert check.heard, check


def test_a_real_sentence_that_begins_like_stop_is_not_a_stop(stt):
    # "Drop the two when you add the figures", cut 0.25 s after "Drop" (the pause after it):
    # "the" is in, so the utterance is not "Stop." alone.
    sentence = recording("harvard-spk1-2")
    heard = Overheard(sentence[: round(0.62 * 16_000)], room_noise(1.0), ())
    check = check_stop(stt, heard)
    assert check.fit < MIN_FIT and not check.heard, check


def test_a_stop_that_hearth_itself_was_saying_is_not_taken(stt):
    # Its sentence says "stop", so what it played is heard again: it says "stop" there.
    check = check_stop(stt, said_alone(speech("Stop."), hearth="just say stop."))
    assert check.fit >= MIN_FIT and check.echo_words is not None, check
    assert says_stop(check.echo_words) and not check.heard, check


def test_a_sentence_that_says_stop_elsewhere_does_not_keep_a_stop_out(stt):
    # The sentence says "stop", but not in the stretch heard: what was played there says so.
    hearth = "If I talk for too long, just say stop."
    heard = said_alone(speech("Stop."), hearth=hearth)
    heard = Overheard(heard.filtered, speech("If I talk for too long")[:16_000], (hearth,))
    check = check_stop(stt, heard)
    assert check.heard, check
    assert not says_stop(check.echo_words), check
