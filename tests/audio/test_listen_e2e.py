"""Proof on real audio: ``hearth listen``, ``transcribe`` and ``say`` run as a user runs them.

Every recording is Piper speech in room noise, written to a WAV and heard by ``python -m assistant``
in a subprocess with the real wake word, VAD and Whisper models and with its own empty
configuration folders. The tests read what it printed and the JSON lines it wrote. ``hearth listen``
answers every utterance with an empty reply, so the follow-up window opens right after each one.
Each recording is heard once per module and shared by the tests that look at it.
"""

from __future__ import annotations

import difflib
import itertools
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from audio.wakeword import BUILTIN_MODELS
from audio.wav import read_wav, write_wav
from tests.speech import SAMPLE_RATE, room_noise, silence, speech, timeline

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
QUESTION = "What is the capital of Kenya?"
FOLLOW_UP = "And what about Uganda?"
HINT = "Say Jarvis first"
NOTHING_SAID_SECONDS = 6.0
"""The packaged ``vad.no_speech_timeout_seconds``: how long listening waits for a request."""
FOLLOW_UP_SECONDS = 25.0
"""The packaged ``listener.follow_up_seconds``."""


# Running hearth ----------------------------------------------------------------------------------


def hearth(home: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    """``python -m assistant ARGS`` from the repository root, with configuration of its own."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("HEARTH_")}
    env.update(
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "data"),
        CONFIGURATION_DIRECTORY=str(home / "etc"),
    )
    return subprocess.run(
        [sys.executable, "-m", "assistant", *map(str, args)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@dataclass(frozen=True)
class Heard:
    """What ``hearth listen`` made of one recording."""

    stdout: str
    events: list[dict[str, Any]]

    def named(self, *names: str) -> list[dict[str, Any]]:
        return [event for event in self.events if event["event"] in names]

    @property
    def wakes(self) -> list[dict[str, Any]]:
        return self.named("wake")

    @property
    def utterances(self) -> list[dict[str, Any]]:
        return self.named("utterance")

    @property
    def hints(self) -> list[dict[str, Any]]:
        return self.named("hint")

    @property
    def lines(self) -> list[str]:
        return [line.strip() for line in self.stdout.splitlines() if line.strip()]


def listen(home: Path, audio: np.ndarray, config: dict[str, Any] | None = None) -> Heard:
    """Run ``hearth listen --input room.wav --events events.jsonl`` over ``audio`` in room noise."""
    home.mkdir(parents=True, exist_ok=True)
    room = home / "room.wav"
    write_wav(room, in_a_room(audio))
    events = home / "events.jsonl"
    options: list[str | Path] = []
    if config is not None:
        settings = home / "settings.yaml"
        settings.write_text(json.dumps(config))  # JSON is YAML
        options = ["--config", settings]
    result = hearth(home, *options, "listen", "--input", room, "--events", events)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    records = [json.loads(line) for line in events.read_text().splitlines()]
    return Heard(result.stdout, records)


# Making the room ---------------------------------------------------------------------------------


def in_a_room(audio: np.ndarray, seed: int = 7) -> np.ndarray:
    """``audio`` with quiet room noise under all of it."""
    noise = room_noise(len(audio) / SAMPLE_RATE, seed=seed)
    return np.clip(audio.astype(np.int32) + noise, -32768, 32767).astype(np.int16)


def wake_and_ask(
    question: str = QUESTION, length_scale: float = 1.0, gain: float = 1.0
) -> np.ndarray:
    """ "Hey Jarvis," a breath, then the question, as one person says it."""
    return timeline(
        speech("Hey Jarvis,", length_scale, gain),
        silence(0.3),
        speech(question, length_scale, gain),
    )


def tone(frequencies: list[float], seconds: float, level: float = 3000.0) -> np.ndarray:
    """A note or chord with a few harmonics and a soft attack and release, like an instrument."""
    t = np.arange(round(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    sound = sum(
        np.sin(2 * np.pi * f * harmonic * t) / harmonic
        for f in frequencies
        for harmonic in (1, 2, 3)
    )
    envelope = np.minimum(1.0, np.minimum(t / 0.02, (seconds - t) / 0.1))
    peak = np.max(np.abs(sound)) or 1.0
    return (sound / peak * envelope * level).astype(np.int16)


def chords() -> np.ndarray:
    """C, F, G and A minor, two seconds each."""
    progression = [[261.6, 329.6, 392.0], [349.2, 440.0, 523.3], [392.0, 493.9, 587.3],
                   [440.0, 523.3, 659.3]]  # fmt: skip
    return timeline(*(tone(chord, 2.0) for chord in progression))


def melody() -> np.ndarray:
    """A nursery-rhyme tune, quarter notes at 150 beats a minute."""
    notes = [392, 392, 440, 392, 523, 494, 392, 392, 440, 392, 587, 523, 392, 392, 784, 659, 523,
             494, 440, 698, 698, 659, 523, 587, 523]  # fmt: skip
    return timeline(*(tone([f], 0.4) for f in notes))


def words(text: str) -> list[str]:
    """Lower-case words without punctuation or apostrophes: what "word for word" compares."""
    return re.findall(r"[a-z0-9]+", text.lower().replace("'", "").replace("\u2019", ""))


def misses(expected: str, heard: str) -> int:
    """How many of ``expected``'s words are not found, in order, in ``heard``."""
    want = words(expected)
    matcher = difflib.SequenceMatcher(None, want, words(heard), autojunk=False)
    return len(want) - sum(block.size for block in matcher.get_matching_blocks())


def printed(heard: Heard, event: dict[str, Any], saying: str) -> bool:
    """Whether ``hearth listen`` printed the line for ``event``: its time, then ``saying``."""
    return f"{event['t']:.2f}s  {saying}" in heard.lines


# Recordings, each heard once ---------------------------------------------------------------------


def heard_once(make: Callable[[], np.ndarray], config: dict[str, Any] | None = None):
    """A module fixture: ``hearth listen`` over the recording ``make`` builds."""

    @pytest.fixture(scope="module")
    def fixture(tmp_path_factory: pytest.TempPathFactory) -> Heard:
        return listen(tmp_path_factory.mktemp(make.__name__), make(), config)

    return fixture


def a_question_after_the_wake_word() -> np.ndarray:
    return timeline(silence(1.0), wake_and_ask(), silence(3.0))


def a_question_without_the_wake_word() -> np.ndarray:
    return timeline(silence(1.0), speech(QUESTION), silence(4.0))


def a_near_miss_the_wake_model_fires_on() -> np.ndarray:
    return timeline(silence(1.0), speech("Hey, jars of jam are on the shelf."), silence(4.0))


def talk_in_standby_then_the_wake_word() -> np.ndarray:
    """Two questions not for Hearth, then one that is: the hint must not leave Hearth deaf."""
    return timeline(
        silence(1.0),
        speech("Did you lock the back door?"),
        silence(3.0),
        speech("I think the bus leaves at eight."),
        silence(3.0),
        wake_and_ask(),
        silence(3.0),
    )


def a_recording_that_ends_with_the_question() -> np.ndarray:
    return timeline(silence(1.0), wake_and_ask(), silence(0.2))


def a_recording_that_ends_with_hey_jarvis() -> np.ndarray:
    return timeline(silence(1.0), speech("Hey Jarvis."), silence(0.05))


def a_conversation_with_follow_ups() -> np.ndarray:
    """The first question, a second 10 s after it and a third 30 s after the second."""
    return timeline(
        silence(1.0),
        wake_and_ask(),
        silence(10.0),
        speech(FOLLOW_UP),
        silence(30.0),
        speech("And what about Tanzania?"),
        silence(4.0),
    )


def a_follow_up_that_starts_with_the_wake_word() -> np.ndarray:
    return timeline(
        silence(1.0), wake_and_ask(), silence(5.0), speech("Hey Jarvis, what about Uganda?"),
        silence(3.0),
    )  # fmt: skip


def a_minute_of_household_sound() -> np.ndarray:
    """Noise, music and talk that is not for Hearth, about a minute of it."""
    rng = np.random.default_rng(11)
    fan = (rng.normal(0, 1500, 5 * SAMPLE_RATE)).astype(np.int16)
    clatter = np.zeros(SAMPLE_RATE, np.int16)
    for start in (1000, 4000, 9000, 12000):
        clatter[start : start + 400] = rng.normal(0, 8000, 400).astype(np.int16)
    said = [
        "Hey Charlie, we need more milk.",
        "Hey darling, can you grab the keys?",
        "I think the bus leaves at half past eight, so we should get going soon.",
        "Did you see the game last night? It went to extra time.",
        "Hey, jars of jam are on the shelf.",  # the raw hey_jarvis model fires on this one
        "The kids have swimming after school on Thursday.",
    ]
    parts = [silence(1.0), fan, silence(1.0), chords(), silence(1.0)]
    for sentence in said[:3]:
        parts += [speech(sentence), silence(1.5)]
    parts += [melody(), silence(1.0), clatter]
    for sentence in said[3:]:
        parts += [speech(sentence), silence(1.5)]
    parts += [chords(), silence(2.0)]
    return timeline(*parts)


def five_seconds_of_silence_first() -> np.ndarray:
    return timeline(silence(5.0), wake_and_ask(), silence(3.0))


def only_hey_jarvis() -> np.ndarray:
    """A quick "Hey Jarvis" and then nobody says anything."""
    return timeline(silence(1.0), speech("Hey Jarvis.", length_scale=0.8),
                    silence(NOTHING_SAID_SECONDS + 3.0))  # fmt: skip


MONOLOGUE = [
    "Hey Jarvis, let me tell you about my plans for the weekend.",
    "On Saturday morning we are driving to the coast to see my grandmother.",
    "She lives in a small white house near the harbour with two cats and a dog.",
    "After lunch we usually walk along the beach and collect shells for the garden.",
    "In the evening my brother is coming over with his new girlfriend.",
    "We will probably cook a big pot of soup and play cards until midnight.",
    "On Sunday I need to clean the car and finish reading my book about volcanoes.",
    "Then I have to prepare a presentation for work on Monday morning.",
    "It is about the budget for next year and it is not finished yet.",
    "Can you remind me to call the plumber about the leaking kitchen tap?",
]


def a_forty_second_monologue() -> np.ndarray:
    return timeline(silence(1.0), speech(" ".join(MONOLOGUE)), silence(3.0))


def slow_fast_or_quiet(length_scale: float, gain: float) -> Callable[[], np.ndarray]:
    def make() -> np.ndarray:
        return timeline(silence(1.0), wake_and_ask(length_scale=length_scale, gain=gain),
                        silence(3.0))  # fmt: skip

    make.__name__ = f"wake_at_{length_scale}x_gain_{gain}"
    return make


ALL_WAKE_MODELS = {"wake": {"models": [{"model": model} for model in BUILTIN_MODELS]}}

question_after_wake = heard_once(a_question_after_the_wake_word)
question_after_wake_five_models = heard_once(a_question_after_the_wake_word, ALL_WAKE_MODELS)
question_without_wake = heard_once(a_question_without_the_wake_word)
near_miss = heard_once(a_near_miss_the_wake_model_fires_on)
standby_talk_then_wake = heard_once(talk_in_standby_then_the_wake_word)
ends_with_the_question = heard_once(a_recording_that_ends_with_the_question)
ends_with_hey_jarvis = heard_once(a_recording_that_ends_with_hey_jarvis)
conversation = heard_once(a_conversation_with_follow_ups)
wake_word_in_follow_up = heard_once(a_follow_up_that_starts_with_the_wake_word)
household = heard_once(a_minute_of_household_sound)
leading_silence = heard_once(five_seconds_of_silence_first)
wake_alone = heard_once(only_hey_jarvis)
monologue = heard_once(a_forty_second_monologue)
slow = heard_once(slow_fast_or_quiet(1.4, 1.0))
fast = heard_once(slow_fast_or_quiet(0.8, 1.0))
quiet = heard_once(slow_fast_or_quiet(1.0, 0.15))


# hearth listen -----------------------------------------------------------------------------------


def test_hey_jarvis_then_a_question_is_woken_and_heard_word_for_word(
    question_after_wake: Heard,
) -> None:
    heard = question_after_wake
    assert len(heard.wakes) == 1
    [utterance] = heard.utterances
    assert utterance["via"] == "wake"
    assert words(utterance["text"]) == words(QUESTION)
    assert heard.wakes[0]["t"] < utterance["start"]
    assert not heard.hints


def test_listen_prints_the_wake_and_the_utterance_with_audio_clock_times(
    question_after_wake: Heard,
) -> None:
    heard = question_after_wake
    [utterance] = heard.utterances
    assert printed(heard, heard.wakes[0], "wake")
    assert printed(heard, utterance, f"utterance (wake): {utterance['text']}")
    [opened] = heard.named("follow_up_open")
    assert printed(heard, opened, f"follow-up window open until {opened['until']:.2f}s")


def test_every_event_has_its_audio_clock_time_and_they_run_in_order(
    question_after_wake: Heard,
) -> None:
    times = [event["t"] for event in question_after_wake.events]
    assert times == sorted(times)
    duration = len(a_question_after_the_wake_word()) / SAMPLE_RATE
    assert times[0] >= 0
    assert times[-1] <= duration + 1.0


def test_with_all_five_wake_models_only_hey_jarvis_fires_on_hey_jarvis(
    question_after_wake_five_models: Heard,
) -> None:
    heard = question_after_wake_five_models
    checks = heard.named("wake_check")
    assert checks, "no wake model fired"
    assert {check["model"] for check in checks} == {"hey_jarvis"}
    assert len(heard.wakes) == 1
    [utterance] = heard.utterances
    assert words(utterance["text"]) == words(QUESTION)


def test_a_question_without_the_wake_word_earns_one_hint_and_no_transcript(
    question_without_wake: Heard,
) -> None:
    heard = question_without_wake
    assert not heard.wakes
    assert not heard.utterances
    [hint] = heard.hints
    assert hint["text"] == HINT
    assert printed(heard, hint, f"hint: {HINT}")
    # The hint is said after the question ended, not over it
    [end] = heard.named("speech_end")
    assert hint["t"] >= end["end"]


def test_no_hint_after_talk_in_which_a_wake_model_fired_and_was_refused(near_miss: Heard) -> None:
    heard = near_miss
    checks = heard.named("wake_check")
    assert checks, "the raw hey_jarvis model no longer fires on this near miss"
    assert not any(check["accepted"] for check in checks)
    assert not heard.wakes
    assert not heard.utterances
    # Whoever said it meant Hearth: "Say Jarvis first" would tell them they had not said it
    assert not heard.hints
    assert not any("hint" in line for line in heard.lines)


def test_after_the_hint_hearth_still_hears_the_wake_word(standby_talk_then_wake: Heard) -> None:
    heard = standby_talk_then_wake
    [hint] = heard.hints  # the second question comes too soon after it for another
    [wake] = heard.wakes
    assert hint["t"] < wake["t"]
    [utterance] = heard.utterances
    assert words(utterance["text"]) == words(QUESTION)


def test_a_question_at_the_very_end_of_a_recording_is_still_heard(
    ends_with_the_question: Heard,
) -> None:
    """The room falls silent when the recording ends: the question's end is heard in that."""
    [utterance] = ends_with_the_question.utterances
    assert words(utterance["text"]) == words(QUESTION)


def test_hey_jarvis_at_the_very_end_of_a_recording_wakes_and_then_gives_up(
    ends_with_hey_jarvis: Heard,
) -> None:
    heard = ends_with_hey_jarvis
    [wake] = heard.wakes
    [ended] = heard.named("conversation_end")
    assert ended["reason"] == "nothing_said"
    assert ended["t"] == pytest.approx(wake["t"] + NOTHING_SAID_SECONDS, abs=0.1)
    assert not heard.utterances


def test_a_question_ten_seconds_after_the_first_is_taken_without_the_wake_word(
    conversation: Heard,
) -> None:
    first, second = conversation.utterances
    assert first["via"] == "wake"
    assert words(first["text"]) == words(QUESTION)
    assert second["via"] == "follow_up"
    assert words(second["text"]) == words(FOLLOW_UP)
    assert 9.5 < second["start"] - first["end"] < 10.5
    assert len(conversation.wakes) == 1
    assert printed(conversation, second, f"utterance (follow_up): {second['text']}")


def test_a_question_thirty_seconds_later_is_not_taken(conversation: Heard) -> None:
    heard = conversation
    second = heard.utterances[1]
    assert len(heard.utterances) == 2
    # The window after the second question closed on its own before the third began ...
    [opened] = [event for event in heard.named("follow_up_open") if event["t"] >= second["t"]]
    assert opened["until"] == pytest.approx(opened["t"] + FOLLOW_UP_SECONDS)
    [closed] = [event for event in heard.named("follow_up_close") if event["t"] > opened["t"]]
    assert closed["reason"] == "timeout"
    [ended] = heard.named("conversation_end")
    assert ended["reason"] == "timeout"
    third_start = heard.named("speech_start")[-1]["start"]
    assert third_start > opened["until"] > closed["t"] - 0.5
    # ... so in standby it earned the hint, and nothing was transcribed
    [hint] = heard.hints
    assert hint["t"] > third_start


def test_a_wake_phrase_at_the_start_of_a_follow_up_is_not_part_of_the_request(
    wake_word_in_follow_up: Heard,
) -> None:
    first, second = wake_word_in_follow_up.utterances
    assert words(first["text"]) == words(QUESTION)
    assert words(second["text"]) == words("What about Uganda?")


def test_a_minute_of_noise_music_and_other_talk_wakes_nothing(household: Heard) -> None:
    heard = household
    assert not heard.wakes
    assert not heard.utterances
    # The raw model fired (on "Hey, jars of jam"), and verification turned it down, silently
    checks = heard.named("wake_check")
    assert checks
    assert not any(check["accepted"] for check in checks)
    assert len(heard.hints) == 1  # at most one per five minutes
    assert not any("utterance" in line or line.endswith("wake") for line in heard.lines)


def test_five_seconds_of_silence_before_the_wake_word_do_not_matter(leading_silence: Heard) -> None:
    [wake] = leading_silence.wakes
    assert wake["t"] > 5.0
    [utterance] = leading_silence.utterances
    assert words(utterance["text"]) == words(QUESTION)


def test_hey_jarvis_with_nothing_after_it_wakes_then_gives_up(wake_alone: Heard) -> None:
    heard = wake_alone
    [wake] = heard.wakes
    assert not heard.utterances
    assert not heard.hints
    [ended] = heard.named("conversation_end")
    assert ended["reason"] == "nothing_said"
    assert ended["t"] == pytest.approx(wake["t"] + NOTHING_SAID_SECONDS, abs=0.1)
    assert heard.named("state")[-1]["new"] == "standby"
    assert not heard.named("follow_up_open")


def test_a_forty_second_monologue_is_cut_at_the_cap_and_nothing_is_lost(monologue: Heard) -> None:
    """What a user expects: Hearth does not listen forever, and it does not drop what was said.

    The request taken after the wake ends at the 15 s cap and holds everything said before it,
    from the monologue's opening words on. Speech that goes on past the cut is not thrown away: it
    begins the next utterance at once, taken in the follow-up window that the (empty) reply
    opened, and so on until the speaker stops, each piece at most 15 s. Read in order, the
    utterances hold the whole monologue. A piece starts with the half second of pre-roll before
    the cut, so a word cut in two is heard whole on one side, and a word or two may be heard on
    both; Whisper also spells some words its own way ("harbor"), so sentences are compared by
    their words in order, a couple of misses allowed.
    """
    heard = monologue
    utterances = heard.utterances
    caps = [end for end in heard.named("speech_end") if end["reason"] == "cap"]
    first = utterances[0]
    assert first["via"] == "wake"
    assert caps[0]["end"] - caps[0]["start"] == pytest.approx(15.0, abs=0.1)
    assert (first["start"], first["end"]) == (caps[0]["start"], caps[0]["end"])
    opening = words(MONOLOGUE[0].removeprefix("Hey Jarvis, ")) + words(MONOLOGUE[1])
    assert words(first["text"])[: len(opening)] == opening
    before_the_cap = " ".join(MONOLOGUE[:4])  # the fifth sentence is the one the cap cuts
    assert misses(before_the_cap.removeprefix("Hey Jarvis, "), first["text"]) <= 2
    # The rest: 25 more seconds, at most 15 s an utterance, each taken in the follow-up window
    assert len(utterances) >= 3
    assert all(utterance["via"] == "follow_up" for utterance in utterances[1:])
    for before, after in itertools.pairwise(utterances):
        assert after["start"] - before["end"] < 0.8, "a gap in the monologue"
    said = " ".join(utterance["text"] for utterance in utterances)
    for sentence in MONOLOGUE[1:]:
        assert misses(sentence, said) <= 2, f"lost from {sentence!r}: {said}"


@pytest.mark.parametrize(
    "recording", ["slow", "fast", "quiet"], ids=["slow_1.4", "fast_0.8", "quiet_0.15"]
)
def test_slow_fast_and_quiet_hey_jarvis_all_wake(
    recording: str, request: pytest.FixtureRequest
) -> None:
    heard: Heard = request.getfixturevalue(recording)
    assert len(heard.wakes) == 1
    [utterance] = heard.utterances
    assert words(utterance["text"]) == words(QUESTION)


# hearth transcribe and hearth say ----------------------------------------------------------------


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("home")


def test_transcribe_prints_a_piper_sentence_word_for_word(home: Path) -> None:
    sentence = "Remind me to water the tomatoes on Friday evening."
    wav = home / "sentence.wav"
    write_wav(wav, in_a_room(timeline(silence(0.5), speech(sentence), silence(0.5))))
    result = hearth(home, "transcribe", wav)
    assert result.returncode == 0, result.stderr
    assert words(result.stdout) == words(sentence)


def test_transcribe_writes_no_words_of_its_own_in_a_long_silence(home: Path) -> None:
    # Whisper fills silence with "you": two minutes of digital silence after a sentence came
    # back as the sentence and "you you you", ten minutes with nineteen of them.
    sentence = "Remind me to water the tomatoes on Friday evening."
    wav = home / "then-silence.wav"
    write_wav(wav, timeline(silence(0.5), speech(sentence), silence(120.0)))
    result = hearth(home, "transcribe", wav)
    assert result.returncode == 0, result.stderr
    assert words(result.stdout) == words(sentence)


def test_say_writes_speech_that_transcribe_reads_back(home: Path) -> None:
    sentence = "The oven timer is set, so dinner will be ready soon."
    wav = home / "said.wav"
    result = hearth(home, "say", sentence, "--output", wav)
    assert result.returncode == 0, result.stderr
    assert str(wav) in result.stdout
    samples = read_wav(wav)
    assert len(samples) > SAMPLE_RATE  # about two seconds of speech
    back = hearth(home, "transcribe", wav)
    assert back.returncode == 0, back.stderr
    # Hearth's Piper speaks with its natural variation (no fixed seed, as on a device), so one
    # word may come back misheard ("oven" as "alvin", in one whole-suite run).
    missing = set(words(sentence)) - set(words(back.stdout))
    assert len(missing) <= 1, back.stdout


def bad_wavs(folder: Path) -> dict[str, tuple[Path, str]]:
    """Broken files, each with what the error message must say."""
    good = folder / "good.wav"
    write_wav(good, in_a_room(speech("Hello there.")))
    data = good.read_bytes()
    truncated = folder / "truncated.wav"
    truncated.write_bytes(data[: len(data) // 2])
    not_riff = folder / "not-riff.wav"
    not_riff.write_bytes(b"ID3\x04\x00" + bytes(4000))
    empty = folder / "empty.wav"
    empty.write_bytes(b"")
    return {
        "truncated": (truncated, "truncated"),
        "not_riff": (not_riff, "not a WAV"),
        "empty": (empty, "empty"),
    }


@pytest.mark.parametrize("command", ["transcribe", "listen"])
@pytest.mark.parametrize("kind", ["truncated", "not_riff", "empty"])
def test_a_bad_wav_is_a_clear_error_not_a_traceback(home: Path, command: str, kind: str) -> None:
    folder = home / f"bad-{command}-{kind}"
    folder.mkdir()
    path, says = bad_wavs(folder)[kind]
    args = [path] if command == "transcribe" else ["--input", path]
    result = hearth(home, command, *args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    [message] = [line for line in result.stderr.splitlines() if line.startswith("hearth:")]
    assert str(path) in message
    assert says in message
    assert result.stdout == ""
