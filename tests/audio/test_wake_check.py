"""Wake verification on the real models: real wakes across rooms accepted, near-misses refused.

Wake phrases come from two synthetic voice families (Piper with its noise off, and espeak-ng,
which Whisper hears far worse than people) placed across measured rooms and under real noise; the
near-misses are the ones the raw ``hey_jarvis`` model fires on at 0.98 and more.
"""

from __future__ import annotations

import numpy as np
import pytest

from audio.stt import SpeechToText
from audio.wake_check import CALIBRATIONS, HEARD_MARGIN, Evidence, WakeVerifier, weigh
from audio.wakeword import BUILTIN_MODELS, WakeDetection, WakeWordDetector
from config import SpeechToTextSettings, WakeModelSettings, WakeSettings
from tests.rooms import across, at_level, measured_room, noise_bed, under_noise
from tests.speech import room_noise, silence, speech, timeline
from tests.voices import Voice, espeak_available

ALL_MODELS = WakeSettings(models=tuple(WakeModelSettings(model=m) for m in BUILTIN_MODELS))
LEVEL = 2000.0
needs_espeak = pytest.mark.skipif(not espeak_available(), reason="needs Debian's espeak-ng")


@pytest.fixture(scope="module")
def stt() -> SpeechToText:
    return SpeechToText(SpeechToTextSettings())


@pytest.fixture(scope="module")
def verifier(stt: SpeechToText) -> WakeVerifier:
    return WakeVerifier(ALL_MODELS, stt)


@pytest.fixture(scope="module")
def detector() -> WakeWordDetector:
    return WakeWordDetector(ALL_MODELS)


def detection(model: str, phrase: str, score: float) -> WakeDetection:
    return WakeDetection(model, phrase, score, end_sample=16000)


def test_a_model_with_verification_off_is_taken_unchecked(stt: SpeechToText) -> None:
    settings = WakeSettings(models=(WakeModelSettings(model="okay_nabu", verify=False),))
    judge = WakeVerifier(settings, stt).judge
    verdict = judge(detection("okay_nabu", "okay nabu", 0.6), silence(1))
    assert (verdict.accepted, verdict.evidence) == (True, Evidence.UNVERIFIED)


def test_a_confident_score_is_taken_only_for_models_calibrated_so(verifier: WakeVerifier) -> None:
    # okay_nabu never fires on a near-miss on the bench: checking would only lose real wakes
    # (tiny.en writes Piper's "Okay Nabu" as "Okay now, boot")
    confident = CALIBRATIONS["okay_nabu"].confident_score
    assert confident is not None
    verdict = verifier.judge(detection("okay_nabu", "okay nabu", confident), silence(1))
    assert (verdict.accepted, verdict.evidence, verdict.heard) == (True, Evidence.CONFIDENT, "")
    # hey_jarvis fires at 0.98 on "Hey, jars of jam": no score is confident enough
    assert CALIBRATIONS["hey_jarvis"].confident_score is None


def test_a_phrase_heard_must_still_beat_the_near_misses() -> None:
    jarvis = CALIBRATIONS["hey_jarvis"]
    assert weigh(jarvis, True, -4.0, HEARD_MARGIN) is Evidence.HEARD  # min_score is for unheard
    # "Alexis is late" heard as "Alexa, this is like..." wins by +0.62 only
    assert weigh(CALIBRATIONS["alexa"], True, -2.43, 0.62) is Evidence.REFUSED


def test_hearing_the_name_never_asks_for_more_than_not_hearing_it() -> None:
    # hey_mycroft's near-misses lose by 1.0 and more: a small lead is a wake, heard or not
    mycroft = CALIBRATIONS["hey_mycroft"]
    assert 0.0 <= mycroft.margin < 0.5 < HEARD_MARGIN
    for said in (False, True):
        assert weigh(mycroft, said, -1.8, 0.5) is Evidence.SCORED


def test_a_phrase_that_fits_well_needs_a_smaller_lead() -> None:
    # bench/hearing.py --full: espeak-ng's "Hey Rhasspy" heard as "Hey, Rastie." and the closest
    # near-miss, "Hey, raspberry jam for breakfast?" heard right, both under hey_rhasspy's margin
    rhasspy = CALIBRATIONS["hey_rhasspy"]
    assert rhasspy.margin > 1.55
    assert weigh(rhasspy, False, -1.03, 1.46) is Evidence.SCORED
    assert weigh(rhasspy, False, -1.94, 1.55) is Evidence.REFUSED
    assert weigh(rhasspy, False, -1.57, 1.19) is Evidence.REFUSED
    # A clear lead is a wake however the phrase fits, above the model's min_score only
    assert weigh(rhasspy, False, rhasspy.min_score + 0.1, rhasspy.margin) is Evidence.SCORED
    jarvis = CALIBRATIONS["hey_jarvis"]
    assert weigh(jarvis, False, jarvis.min_score - 0.8, 1.68) is Evidence.REFUSED


@pytest.mark.parametrize(
    ("model", "fit", "margin"),
    [
        # bench/hearing.py --full, once every phrase was scored to its end-of-text: near-misses
        # that beat their competitors clearly, but fit poorly themselves
        ("hey_jarvis", -3.201, 1.994),  # espeak-ng: "Hey, jars of jam are on the shelf."
        ("hey_rhasspy", -3.961, 2.235),  # Piper across a room: "He has a raspy voice today."
        ("hey_mycroft", -5.439, 0.197),  # espeak-ng across a room: "Hey Mike, grab the soft one."
    ],
)
def test_a_near_miss_that_fits_poorly_is_refused_however_it_beats_its_competitors(
    model: str, fit: float, margin: float
) -> None:
    assert weigh(CALIBRATIONS[model], False, fit, margin) is Evidence.REFUSED


@pytest.mark.parametrize(
    ("model", "fit", "margin"),
    [
        # The phrase said and accepted on forced decoding alone that fit worst in the same run
        ("hey_jarvis", -2.565, 1.993),  # espeak-ng across a room, heard as "Page office."
        ("hey_rhasspy", -2.54, 2.455),  # espeak-ng under noise, heard as "He lost it."
        ("hey_mycroft", -2.445, 2.066),  # Piper across a room, heard as "a midrock"
    ],
)
def test_a_wake_whisper_mishears_is_still_taken_on_how_well_the_phrase_fits(
    model: str, fit: float, margin: float
) -> None:
    assert weigh(CALIBRATIONS[model], False, fit, margin) is Evidence.SCORED


@pytest.mark.slow
def test_silence_is_refused_even_at_a_perfect_score(verifier: WakeVerifier) -> None:
    verdict = verifier.judge(detection("hey_jarvis", "hey jarvis", 1.0), room_noise(1.4))
    assert not verdict.accepted
    assert verdict.evidence is Evidence.REFUSED


def in_a_room(said: np.ndarray, room: str, snr_db: float, seed: int) -> np.ndarray:
    """``said`` at a speaking level, across a measured room, under real noise."""
    dry = timeline(silence(1.0), at_level(said, LEVEL), silence(1.2))
    wet = across(dry, measured_room(room)) if room else dry
    return under_noise(wet, noise_bed("noise3", len(wet), seed * 4099), snr_db, LEVEL)


def verdicts(
    detector: WakeWordDetector, verifier: WakeVerifier, audio: np.ndarray, model: str
) -> list[bool]:
    """Hearth's verdict on each detection ``model`` made in ``audio``."""
    detector.reset()
    audio = timeline(audio, silence(0.5))
    found = [d for d in detector.process(audio, len(audio)) if d.model == model]
    return [verifier.judge(d, audio[slice(*d.verify_window)]).accepted for d in found]


ROOMS = [("", 35.0), ("room-impulse-1", 15.0), ("room-impulse-2", 15.0), ("", 5.0)]
"""Dry in a quiet room, across each measured room at 15 dB SNR, close under loud noise."""


@pytest.mark.slow
@needs_espeak
@pytest.mark.parametrize(
    ("model", "phrase"), [("hey_jarvis", "Hey Jarvis"), ("alexa", "Alexa")], ids=str
)
def test_real_wakes_in_rooms_and_noise_are_accepted(
    detector: WakeWordDetector, verifier: WakeVerifier, model: str, phrase: str
) -> None:
    # tiny.en writes the espeak voice's wake across room 1 as "Hey, it's office." and "I like
    # this one.", and Piper's "Alexa" under loud noise as "I like that.": forced decoding decides
    voice = Voice("espeak", "en-gb+m3", 0.85, pitch=40)
    fired = accepted = 0
    for index, (room, snr) in enumerate(ROOMS):
        for take in (speech(phrase), voice.say(phrase)):
            found = verdicts(detector, verifier, in_a_room(take, room, snr, index), model)
            fired += bool(found)
            accepted += any(found)
    assert fired == 2 * len(ROOMS)
    assert accepted >= fired - 2


NEAR_MISSES = [
    "Hey Charlie, we need more milk.",
    "Hey darling, can you grab the keys?",
    "Hey, jars of jam are on the shelf.",
    "Hey Jarvie, dinner is ready.",
    "Alexis is late again.",
    "Hey, raspberry jam for breakfast?",
]


@pytest.mark.slow
@needs_espeak
@pytest.mark.parametrize("sentence", NEAR_MISSES)
def test_near_misses_are_refused_where_the_raw_models_fire(
    detector: WakeWordDetector, verifier: WakeVerifier, sentence: str
) -> None:
    takes = [speech(sentence), Voice("espeak", "en-us+f3", 0.95).say(sentence)]
    for index, (room, snr) in enumerate(ROOMS):
        for take in takes:
            audio = in_a_room(take, room, snr, index)
            for model in BUILTIN_MODELS:
                assert not any(verdicts(detector, verifier, audio, model)), (model, room, snr)
