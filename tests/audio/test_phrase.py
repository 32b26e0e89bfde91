"""Wake phrase matching on transcripts, as pure text.

The transcripts here are what tiny.en wrote for Piper saying these phrases in a wake window (see
``test_stt.py`` for the same on live audio); matching must pass every real wake and fail every
near-miss without the wake word as a Whisper hot word (with it, "Hey, jars of jam" comes out as
"Hey, Jarvis of Jammer").
"""

from __future__ import annotations

import pytest

from audio.phrase import contains_phrase, find_phrase, sound_key, wake_name

HEARD_FOR_HEY_JARVIS = [
    "Hey Jarvis.",
    "Hey Jarvis, what is...",
    "Hey Jarvis, what-",
    "Hey, Jarvis.",
    "Okay Jarvis, play some...",
    "We need more milk. Hey Jarvis, set a timer",
    "Jarvis",
    "JARVIS'S",
    "Hey Jervis",
    "hey jar-vis what time is it",
]
HEARD_FOR_NEAR_MISSES = [
    "Hey Charlie, we need-",
    "Hey darling, can you grab?",
    "Hi Travis.",
    "Hey Travis, how was-",
    "Hey, Martin, come here.",
    "Hey, Joseph Jammer.",
    "Harvest is coming soon.",
    "Hey, JARBY, DINNER'S...",
    "Hey hobby here, past",
    "Service, please.",
    "Hey Davis over here.",
    "Hey, Mavis, look at this.",
    "Hey Jared, one time.",
    "at your fish.",
    "",
]


@pytest.mark.parametrize("text", HEARD_FOR_HEY_JARVIS)
def test_every_way_whisper_writes_hey_jarvis_holds_the_phrase(text: str) -> None:
    assert contains_phrase(text, "hey jarvis")


@pytest.mark.parametrize("text", HEARD_FOR_NEAR_MISSES)
def test_near_misses_do_not_hold_the_phrase(text: str) -> None:
    assert not contains_phrase(text, "hey jarvis")


@pytest.mark.parametrize(
    ("phrase", "heard", "holds"),
    [
        ("alexa", "Alexa, what?", True),
        ("alexa", "Alex, come here", False),
        ("alexa", "Alexis", False),
        ("hey mycroft", "Hey, my craft. What time?", True),
        ("hey mycroft", "Hey, Megcroft. What?", True),
        ("hey mycroft", "Hey, McGrath, what time?", False),
        ("hey mycroft", "Microsoft", False),
        ("hey rhasspy", "Hey raspy.", True),
        ("hey rhasspy", "Hey, Rossby.", False),
        ("okay nabu", "Okay Naboo", True),
        ("okay nabu", "Okay, now boot.", False),
    ],
)
def test_other_names_match_by_sound(phrase: str, heard: str, holds: bool) -> None:
    assert contains_phrase(heard, phrase) is holds


def test_sound_keys() -> None:
    assert sound_key("Jarvis") == sound_key("jervis") == "jrvs"
    assert sound_key("Alexa") == "alks*"
    assert sound_key("Alex") == "alks"
    assert sound_key("Travis") != sound_key("Jarvis")
    assert sound_key("...") == ""


def test_find_phrase_gives_the_span_of_the_name() -> None:
    text = "We need milk. Hey Jarvis, what is the capital of Kenya?"
    start, end = find_phrase(text, "hey jarvis")
    assert text[start:end] == "Jarvis"
    assert text[end:] == ", what is the capital of Kenya?"
    assert find_phrase(text, "hey jarvis", at_start=True) is None
    assert find_phrase("Okay, hey Jarvis!", "hey jarvis", at_start=True) == (10, 16)


def test_a_phrase_that_is_only_a_greeting_must_be_said_whole() -> None:
    assert contains_phrase("Hey!", "hey")
    assert not contains_phrase("Hello there", "hey")


@pytest.mark.parametrize(
    ("phrase", "name"),
    [
        ("hey jarvis", "Jarvis"),
        ("alexa", "Alexa"),
        ("okay nabu", "Nabu"),
        ("hey_mycroft", "Mycroft"),
        ("hello there computer", "Computer"),
        ("hey", "Hey"),
    ],
)
def test_one_place_knows_the_name_in_a_wake_phrase(phrase: str, name: str) -> None:
    # The hint ("Say Computer first"), the hot word and the match all use this name
    assert wake_name(phrase) == name
    assert contains_phrase(f"Okay. {name}, lights on.", phrase)


def test_the_name_alone_holds_a_phrase_with_a_long_greeting() -> None:
    assert contains_phrase("Computer, lights on.", "hello there computer")
    assert contains_phrase("Hello there, computer.", "hello there computer")
    assert not contains_phrase("Hello there.", "hello there computer")


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("He has a raspy voice today.", "hey rhasspy"),
        ("I told him hey jarvis is a film.", "hey jarvis"),
        ("Ask Alexa later.", "alexa"),
    ],
)
def test_a_name_said_in_passing_is_not_a_wake(text: str, phrase: str) -> None:
    assert not contains_phrase(text, phrase)
    assert find_phrase(text, phrase) is not None  # it is there, just not said to Hearth


def test_a_misheard_greeting_still_starts_the_phrase() -> None:
    # A reverberant "Hey Jarvis, the child ..." comes back as "And Jarvis The child ..."
    text = "And Jarvis The child almost hurt the small dog"
    _, end = find_phrase(text, "hey jarvis", at_start=True)
    assert text[end:] == " The child almost hurt the small dog"
    assert contains_phrase("They Jarvis.", "hey jarvis")
    # Only as many as the phrase has greetings: "alexa" has none, "hey jarvis" one
    assert not contains_phrase("Ask Alexa.", "alexa")
    assert not contains_phrase("Then ask Jarvis.", "hey jarvis")
