"""Which utterances go to Home Assistant: the shapes of home requests, as tiny.en writes them."""

from __future__ import annotations

import pytest

from assistant.home import is_home_request


@pytest.mark.parametrize(
    "said",
    [
        "Turn on the kitchen lights.",
        "turn off the lights",
        "Is the back door locked?",
        "Set the living room to 20 degrees.",
        "set the living room to twenty degrees",
        "Please switch off the fan.",
        "Can you turn the lamp off please?",
        "Are the lights on in the kitchen?",
        "What's the temperature in the living room?",
        "How warm is it in the bedroom?",
        "Open the garage door.",
        "Close the blinds in the office.",
        "Lock the front door.",
        "Dim the bedroom lamp.",
        "Set the kitchen lights to blue.",
        "Set the bedroom lights to 50%.",
        "Turn the heating up.",
        "Switch on the TV.",
    ],
)
def test_home_requests(said):
    assert is_home_request(said)


@pytest.mark.parametrize(
    "said",
    [
        "What's the weather like in Lisbon in May?",
        "And in Porto?",
        "How do I turn on dark mode?",
        "Turn off the alarm.",  # Hearth's own alarm
        "Turn up the volume.",  # Hearth's own volume
        "Set a timer for ten minutes.",
        "Set the timer to 10 minutes.",
        "Is the shop open on Sunday?",
        "What is the temperature in Lisbon?",
        "Open a new tab.",
        "Turn it up.",
        "Remember that the kitchen is painted blue.",
        "Remember that my favourite editor is Vim.",
        "Tell me about light bulbs.",
        "Close the conversation.",
        "Set my status to busy.",
        "Stop.",
        "",
    ],
)
def test_everything_else_stays_with_the_model(said):
    assert not is_home_request(said)
