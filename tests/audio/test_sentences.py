"""Sentence splitting, whole and streamed: where a voice may start speaking."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audio.sentences import MAX_SENTENCE_CHARS, IncrementalSentenceSplitter, split_sentences


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("Hello there. How are you?", ["Hello there.", "How are you?"]),
        ("Stop! Now?! Yes.", ["Stop!", "Now?!", "Yes."]),
        ("It is 3.5 km away. Go.", ["It is 3.5 km away.", "Go."]),
        (
            "Dr. Smith and Mrs. Jones came. Then they left.",
            ["Dr. Smith and Mrs. Jones came.", "Then they left."],
        ),
        ("Fruit, e.g. apples, i.e. food. Done.", ["Fruit, e.g. apples, i.e. food.", "Done."]),
        ("The U.S. Army is big. Yes.", ["The U.S. Army is big.", "Yes."]),
        ("J. R. R. Tolkien wrote it. True.", ["J. R. R. Tolkien wrote it.", "True."]),
        ("Well... I think so. Sure.", ["Well... I think so.", "Sure."]),
        ("Well\u2026 maybe. Fine.", ["Well\u2026 maybe.", "Fine."]),
        ('He said "hi." She smiled.', ['He said "hi."', "She smiled."]),
        ("It ends here (mostly.) Next.", ["It ends here (mostly.)", "Next."]),
        ("**Note.** Read this.", ["**Note.**", "Read this."]),
        ("Version 2. Then 3.", ["Version 2.", "Then 3."]),
        ("see example.com/a.b?x=1 now. ok", ["see example.com/a.b?x=1 now.", "ok"]),
        ("no terminator at all", ["no terminator at all"]),
        ("", []),
        ("   \n\n  ", []),
    ],
)
def test_split_sentences(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences


def test_each_line_is_its_own_sentence_and_list_numbers_do_not_end_one() -> None:
    text = "# Shopping\nYou need:\n1. Milk\n2. Eggs. Fresh ones\n- Bread\n\nThat's all"
    assert split_sentences(text) == [
        "# Shopping",
        "You need:",
        "1. Milk",
        "2. Eggs.",
        "Fresh ones",
        "- Bread",
        "That's all",
    ]


def test_a_fenced_code_block_is_one_piece() -> None:
    text = "Try this:\n```python\nx = 1. \nprint('a. b')\n```\nDone. Really."
    assert split_sentences(text) == [
        "Try this:",
        "```python\nx = 1. \nprint('a. b')\n```",
        "Done.",
        "Really.",
    ]


def test_an_unclosed_code_block_runs_to_the_end() -> None:
    assert split_sentences("Look:\n```\na. b\nc") == ["Look:", "```\na. b\nc"]


def test_a_sentence_is_handed_back_as_soon_as_it_is_complete() -> None:
    splitter = IncrementalSentenceSplitter()
    assert splitter.feed("Hello there") == []
    assert splitter.feed(".") == []  # "there.5" or "there. " - not known yet
    assert splitter.feed(" How") == ["Hello there."]
    assert splitter.feed(" are you?\n") == ["How are you?"]
    assert splitter.flush() == []


def test_a_decimal_split_across_pieces_is_not_a_sentence_end() -> None:
    splitter = IncrementalSentenceSplitter()
    assert splitter.feed("It is 3.") == []
    assert splitter.feed("5 km. ") == ["It is 3.5 km."]


def test_an_abbreviation_split_across_pieces_is_not_a_sentence_end() -> None:
    splitter = IncrementalSentenceSplitter()
    assert splitter.feed("Ask Dr") == []
    assert splitter.feed(".") == []
    assert splitter.feed(" Smith") == []
    assert splitter.feed(" now. ") == ["Ask Dr. Smith now."]


def test_flush_returns_the_rest_and_starts_afresh() -> None:
    splitter = IncrementalSentenceSplitter()
    assert splitter.feed("One. Two") == ["One."]
    assert splitter.flush() == ["Two"]
    assert splitter.feed("```\ncode. more\n") == []
    assert splitter.flush() == ["```\ncode. more"]
    assert splitter.feed("Fresh. ") == ["Fresh."]  # not inside the old code block


# Pieces chosen to hit every rule: terminators, abbreviations, decimals, list numbers, fences.
_TOKENS = st.sampled_from(
    [
        *"Hello world 3 5 3.5 Dr. e.g. U.S. J. etc. 1. 12. x a.b".split(),
        *". .. ... \u2026 ! ? ?! , : ( ) ** _ \" ' ``` ```py ~~~".split(),
        *(" ", "  ", "\n", "\n\n", "\t", "- ", "# "),
    ]
)
_TEXTS = st.one_of(
    st.lists(_TOKENS, max_size=60).map("".join),
    st.text(alphabet=st.sampled_from("ab3 .!?\n`\u2026\"')*"), max_size=80),
)


@given(text=_TEXTS, data=st.data())
def test_any_chunking_gives_the_sentences_of_the_whole_text(text: str, data: st.DataObject) -> None:
    cuts = sorted(data.draw(st.sets(st.integers(0, len(text)), max_size=20)))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    splitter = IncrementalSentenceSplitter()
    streamed = [sentence for piece in pieces for sentence in splitter.feed(piece)]
    assert [*streamed, *splitter.flush()] == split_sentences(text)


@given(text=_TEXTS)
def test_splitting_keeps_every_character_but_whitespace(text: str) -> None:
    sentences = split_sentences(text)
    assert all(sentence and sentence == sentence.strip() for sentence in sentences)
    assert re.sub(r"\s", "", "".join(sentences)) == re.sub(r"\s", "", text)


def test_a_run_without_an_end_is_cut_into_pieces_at_spaces() -> None:
    run = "and then the river " * 400  # a small model's repetition loop: 7600 characters
    pieces = split_sentences(run)
    assert all(len(piece) <= MAX_SENTENCE_CHARS for piece in pieces)
    assert len(pieces) == 26
    assert all(piece.split()[-1] in {"and", "then", "the", "river"} for piece in pieces)
    assert " ".join(pieces).split() == run.split()  # cut between words, nothing lost


def test_a_long_sentence_is_cut_after_a_clause_when_it_has_one() -> None:
    sentence = "One two three, " + "word " * 40 + "and more words, " + "tail " * 40 + "end."
    first, *rest = split_sentences(sentence)
    assert first.endswith("and more words,")
    assert rest


def test_one_endless_word_is_cut_hard() -> None:
    pieces = split_sentences("x" * 1000)
    assert [len(p) for p in pieces] == [300, 300, 300, 100]


@given(text=_TEXTS, data=st.data(), limit=st.integers(5, 30))
def test_cutting_long_runs_keeps_chunking_invariant(
    text: str, data: st.DataObject, limit: int
) -> None:
    cuts = sorted(data.draw(st.sets(st.integers(0, len(text)), max_size=20)))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    whole = IncrementalSentenceSplitter(max_chars=limit)
    expected = [*whole.feed(text), *whole.flush()]
    splitter = IncrementalSentenceSplitter(max_chars=limit)
    streamed = [sentence for piece in pieces for sentence in splitter.feed(piece)]
    assert [*streamed, *splitter.flush()] == expected
    assert re.sub(r"\s", "", "".join(expected)) == re.sub(r"\s", "", text)
