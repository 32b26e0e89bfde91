"""A Wyoming service that answers as no real one should: every such answer is a failure of the
service, said by the local model instead, never a crash of the voice process (which restarted
until it gave up) and never silence."""

from __future__ import annotations

import numpy as np
import pytest
from wyoming.event import Event

from audio.remote import (
    FallbackTextToSpeech,
    Reach,
    RemoteSpeechChunk,
    speech_to_text,
    text_to_speech,
)
from audio.stt import SpeechToText
from audio.tts import SpeechParameters
from config import SpeechToTextSettings, TextToSpeechSettings
from tests.speech import speech
from tests.wyoming_servers import ScriptedService

SOUND = b"\x01\x00" * 4000


def start(rate: object = 22050, width: object = 2, channels: object = 1) -> Event:
    return Event("audio-start", {"rate": rate, "width": width, "channels": channels})


def chunk(rate: object = 22050, width: object = 2, channels: object = 1) -> Event:
    return Event("audio-chunk", {"rate": rate, "width": width, "channels": channels}, SOUND)


STOP = Event("audio-stop")


@pytest.mark.parametrize(
    "answer",
    [
        [start(channels=0), chunk(channels=0), STOP],  # ZeroDivisionError in the voice process
        [start(rate=0), chunk(rate=0), STOP],  # "Sample rate should be over 0": said by no one
        [start(rate="22050"), chunk(), STOP],
        [Event("audio-start", {"width": 2, "channels": 1}), chunk(), STOP],
        [start(), STOP],  # no audio at all: the reply was silent
    ],
    ids=["no channels", "rate 0", "rate as text", "no rate", "no audio"],
)
def test_speech_the_service_cannot_give_is_said_by_the_local_voice(answer):
    service = ScriptedService(answer)
    try:
        settings = TextToSpeechSettings(backend="wyoming", uri=service.uri)
        speaking = text_to_speech(settings)
        assert isinstance(speaking, FallbackTextToSpeech)
        chunks = list(speaking.synthesize("The kettle has boiled.", SpeechParameters()))
    finally:
        service.close()
    assert chunks and not any(isinstance(c, RemoteSpeechChunk) for c in chunks)
    assert np.concatenate([c.samples for c in chunks]).size > 16000 * 0.5
    assert speaking.health.reach is Reach.DOWN
    assert "sent something Hearth cannot use" in speaking.health.last_failure
    assert speaking.take_notice() is not None  # "I'm using my own voice for now"


def tone(rate: int, seconds: float, hertz: float = 440.0) -> Event:
    t = np.arange(int(rate * seconds)) / rate
    pcm = (np.sin(2 * np.pi * hertz * t) * 8000).astype("<i2").tobytes()
    return Event("audio-chunk", {"rate": rate, "width": 2, "channels": 1}, pcm)


def pitch(samples: np.ndarray) -> float:
    spectrum = np.abs(np.fft.rfft(samples.astype(np.float32)))
    return float(np.argmax(spectrum) * 16000 / samples.size)


def test_chunks_at_another_rate_than_their_start_are_played_at_their_own():
    # The protocol gives every chunk its own format. Chunks at 16 kHz after an audio-start at
    # 22.05 kHz were played as 22.05 kHz: too short and pitched down by a third.
    service = ScriptedService([start(rate=22050), tone(16000, 0.5), tone(16000, 0.5), STOP])
    try:
        speaking = text_to_speech(TextToSpeechSettings(backend="wyoming", uri=service.uri))
        chunks = list(speaking.synthesize("The kettle has boiled.", SpeechParameters()))
    finally:
        service.close()
    assert all(isinstance(c, RemoteSpeechChunk) for c in chunks)
    samples = np.concatenate([c.samples for c in chunks])
    assert abs(samples.size - 16000) < 160, samples.size
    assert abs(pitch(samples) - 440) < 5


def test_a_format_that_changes_midway_keeps_each_part_at_its_own_rate():
    service = ScriptedService([start(rate=22050), tone(22050, 0.5), tone(16000, 0.5), STOP])
    try:
        speaking = text_to_speech(TextToSpeechSettings(backend="wyoming", uri=service.uri))
        samples = np.concatenate(
            [c.samples for c in speaking.synthesize("The kettle has boiled.", SpeechParameters())]
        )
    finally:
        service.close()
    assert abs(samples.size - 16000) < 160, samples.size
    assert abs(pitch(samples[:8000]) - 440) < 5 and abs(pitch(samples[8000:]) - 440) < 5


@pytest.mark.parametrize(
    "answer",
    [[Event("transcript", {"text": None})], [Event("transcript", {"language": "en"})]],
    ids=["text null", "no text"],
)
def test_a_transcript_without_text_is_heard_by_the_local_model(answer):
    service = ScriptedService(answer)
    try:
        hearing = speech_to_text(SpeechToTextSettings(backend="wyoming", uri=service.uri))
        heard = hearing.transcribe(speech("Turn on the kitchen lights."))
    finally:
        service.close()
    assert "kitchen" in heard.text.lower(), heard
    assert hearing.health.reach is Reach.DOWN
    assert "sent something Hearth cannot use" in hearing.health.last_failure
    assert isinstance(hearing.local, SpeechToText)


def test_a_service_named_by_a_host_whose_lookup_never_answers_is_given_up_in_time(deaf_dns):
    # With the household's DNS down, the lookup of "bigbox.lan" waited the resolver's own 10 s
    # whatever connect_timeout_seconds said, the voice process overran its deadline and was
    # restarted. The lookup now counts within the connect timeout, and the local voice speaks.
    settings = TextToSpeechSettings(backend="wyoming", uri="tcp://bigbox.lan:10200")
    speaking = text_to_speech(settings)
    chunks = list(speaking.synthesize("The kettle has boiled.", SpeechParameters()))
    assert deaf_dns.still_hanging(), "the voice waited for the resolver"
    assert chunks and not any(isinstance(c, RemoteSpeechChunk) for c in chunks)
    assert "timed out: connecting" in speaking.health.last_failure
