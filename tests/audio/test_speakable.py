"""What a voice says for a language model's written answer."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audio.speakable import (
    CODE_BLOCK_PHRASE,
    LINK_PHRASE,
    LONG_CODE_PHRASE,
    LONG_STRING_PHRASE,
    speakable,
)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # markdown
        ("## The Weather ##", "The Weather."),
        (
            "**Bold** and *italic* and __strong__ and _soft_ and ~~old~~",
            "Bold and italic and strong and soft and old",
        ),
        ("snake_case_name is read as words", "snake case name is read as words"),
        ("- Buy milk", "Buy milk."),
        ("* Buy eggs!", "Buy eggs!"),
        ("1. Preheat the oven\n2) Mix the flour", "Preheat the oven. Mix the flour."),
        ("- [x] Done task", "Done task."),
        ("> Quoted wisdom", "Quoted wisdom"),
        ("Above\n\n---\n\nBelow", "Above Below"),
        ("| City | Temp |\n|:-----|-----:|\n| Oslo | 3 |", "City, Temp. Oslo, 3."),
        ("Steps:\n- one\n- two", "Steps: one. two."),
        ("<b>Bold</b> text<br/>", "Bold text"),
        # code
        (
            "Run this:\n```bash\nls -la\nrm -rf /tmp/x\n```\nThen relax.",
            f"Run this: {CODE_BLOCK_PHRASE} Then relax.",
        ),
        ("```\nnever closed", CODE_BLOCK_PHRASE),
        ("Use `git status` first", "Use git status first"),
        ("Call `" + "x" * 60 + "` now", f"Call {LONG_CODE_PHRASE} now"),
        # a run with no space past the longest word is no word (a key, a hash, a runaway template)
        ("Your key is " + "a" * 2000 + ".", f"Your key is {LONG_STRING_PHRASE}."),
        ("Its hash: " + "9f86d0" * 10 + ", done", f"Its hash: {LONG_STRING_PHRASE}, done"),
        # a sentence in a script without spaces, and words joined by dashes, are words
        (
            "这是一个非常长的中文句子没有空格但它确实是一个完整的句子应该被读出来而不是被替换成别的东西",
            "这是一个非常长的中文句子没有空格但它确实是一个完整的句子应该被读出来而不是被替换成别的东西",
        ),
        ("word\u2014" * 12, ", ".join(["word"] * 12) + ","),
        (
            "Say pneumonoultramicroscopicsilicovolcanoconiosis!",
            "Say pneumonoultramicroscopicsilicovolcanoconiosis!",
        ),
        # links
        ("See https://www.example.com/path?q=1.", "See example.com."),
        ("Read [the docs](https://docs.python.org/3/) today", "Read the docs today"),
        ("Go to <https://news.ycombinator.com/item?id=1>", "Go to news.ycombinator.com"),
        ("[https://x.org/a](https://x.org/a)", "x.org"),
        ("Open http://localhost:8080/admin", f"Open {LINK_PHRASE}"),
        ("![a cat](https://img.example.com/cat.png)", "a cat"),
        # emoji and pictographs
        ("Great job \U0001f389\U0001f44d\U0001f3fd!", "Great job!"),
        ("\u2705 Done \u2b50 \U0001f1fa\U0001f1f8", "Done"),
        ("Apple\u2122 and Hearth\u00ae", "Apple and Hearth"),
        ("A \u2192 B, C -> D", "A to B, C to D"),
        # units and symbols
        ("It is 3.5 km away", "It is 3.5 kilometres away"),
        ("Only 1 km", "Only 1 kilometre"),
        (
            "20\u00b0C and 68 \u00b0F and a 90\u00b0 turn",
            "20 degrees Celsius and 68 degrees Fahrenheit and a 90 degrees turn",
        ),
        ("-5\u00b0C tonight", "minus 5 degrees Celsius tonight"),
        ("A 5% chance", "A 5 percent chance"),
        (
            "Pay $5 or $1 or $5.50 or $0.99",
            "Pay 5 dollars or 1 dollar or 5 dollars and 50 cents or 99 cents",
        ),
        (
            "\u20ac3.50 and \u00a31.01 and 5\u20ac",
            "3 euros and 50 cents and 1 pound and 1 penny and 5 euros",
        ),
        ("$1.5 million and $5k", "1.5 million dollars and 5 thousand dollars"),
        ("Pages 3-5 and 1990\u20131995", "Pages 3 to 5 and 1990 to 1995"),
        ("3-5 km/h", "3 to 5 kilometres per hour"),
        (
            "60 mph, 8 GB, 100 ms, 2.4 GHz, 20 m\u00b2",
            "60 miles per hour, 8 gigabytes, 100 milliseconds, 2.4 gigahertz, 20 square metres",
        ),
        ("5kg of flour and 250 ml of milk", "5 kilograms of flour and 250 millilitres of milk"),
        ("10x faster on a 1920x1080 screen", "10 times faster on a 1920 by 1080 screen"),
        (
            "about ~5 people, rated 8/10, 1/2 cup, 24/7",
            "about about 5 people, rated 8 out of 10, one half cup, 24 7",
        ),
        ("#1 in C# and COVID-19", "number 1 in C sharp and COVID 19"),
        ("No. 5 please", "number 5 please"),
        ("x < 5 or >10 or \u2264 3", "x less than 5 or more than 10 or at most 3"),
        ("Just .5 more", "Just 0.5 more"),
        ("On 2024-01-05 we met", "On 5 January 2024 we met"),
        ("The 1990s, the '80s, the 2000s", "The 19 nineties, the eighties, the two thousands"),
        ("Wait\u2014really? Yes \u2013 no", "Wait, really? Yes, no"),
        # abbreviations
        ("E.g. apples, i.e. fruit", "For example apples, that is fruit"),
        ("cats vs. dogs vs dogs", "cats versus dogs versus dogs"),
        ("approx. 5 h", "approximately 5 hours"),
        # what espeak already says well stays as written
        (
            "At 10:30 on the 1st and 2nd, in 1990 and 2024",
            "At 10:30 on the 1st and 2nd, in 1990 and 2024",
        ),
        ("Dr. Smith has 3.14159 and 1,000,000", "Dr. Smith has 3.14159 and 1,000,000"),
        ("Tea & biscuits, OK?", "Tea & biscuits, OK?"),
    ],
)
def test_speakable(text: str, said: str) -> None:
    assert speakable(text) == said


def test_nothing_to_say_is_empty() -> None:
    assert speakable("") == ""
    assert speakable("|---|---|") == ""
    assert speakable("\U0001f600\U0001f44d") == ""


_MESSY = st.lists(
    st.sampled_from(
        [
            *"ab1 .-#*_`|~>[]()\n",
            "\U0001f600",
            "\U0001f44d\U0001f3fd",
            "\u2705",
            "\u2b50",
            "**",
            "```",
        ]
    ),
    max_size=60,
).map("".join)


@given(_MESSY)
def test_no_markup_or_pictographs_are_ever_said(text: str) -> None:
    said = speakable(text)
    assert not re.search(r"[*_`#|~\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff]", said)
    assert "\n" not in said
    assert said == said.strip()


@given(st.text(max_size=200))
def test_any_text_can_be_made_speakable(text: str) -> None:
    assert isinstance(speakable(text), str)


def test_lone_surrogates_are_never_handed_to_the_voice() -> None:
    # json.loads('"\\ud83d"') gives half an emoji; Piper's UnicodeEncodeError failed the sentence.
    said = speakable("Here you go \ud83d, and \udcff done.")
    assert said == "Here you go, and done."
    said.encode("utf-8")


def test_terminal_escape_sequences_are_not_words() -> None:
    assert speakable("\x1b[2J\x1b[1;31mRed alert\x1b[0m, all clear.") == "Red alert, all clear."
    linked = "\x1b]0;title\x07Done. See \x1b]8;;http://x.y\x1b\\the link\x1b]8;;\x1b\\. \x1b(BOK."
    assert speakable(linked) == "Done. See the link. OK."


def test_control_characters_are_never_handed_to_the_voice() -> None:
    # A NUL (a model's "\\u0000") made Piper raise ValueError for the whole sentence.
    assert speakable("Nul\x00here and a bell\x07 too.") == "Nul here and a bell too."
