"""Reading corrections, spelled words and missing values, as pure code."""

from __future__ import annotations

import pytest

from assistant.fact_repair import (
    Correction,
    ValueQuestion,
    answer_value,
    as_meant,
    corrected_statement,
    missing_value,
    parse_correction,
    spelled_word,
)


@pytest.mark.parametrize(
    ("statement", "prefix"),
    [
        ("My favourite editor is then", "My favourite editor is"),
        ("My favourite editor has been", "My favourite editor is"),  # "is Vim", misheard
        ("My favourite editor is", "My favourite editor is"),
        ("My keys are in it", "My keys are in"),
        ("I live in", "I live in"),
        ("My favourite editor is Vim", None),
        ("My sister lives in Madrid", None),
        ("I'm tired", None),
        ("I have a meeting at 3", None),
        ("Is it", None),
    ],
)
def test_a_missing_value_is_found(statement, prefix):
    assert missing_value(statement) == prefix


@pytest.mark.parametrize(
    ("heard", "correction"),
    [
        ("No, I said Vim.", Correction("Vim")),
        ("no i said vim", Correction("vim")),
        ("I said Vim.", Correction("Vim")),
        ("That's wrong, it's Vim.", Correction("Vim")),
        ("That's not right. It is Vim.", Correction("Vim")),
        ("No, it's Vim.", Correction("Vim")),
        ("Not then, Vim.", Correction("Vim", "then")),
        ("No, not then, I said Vim.", Correction("Vim", "then")),
        ("V I M.", Correction("Vim")),
        ("V-I-M.", Correction("Vim")),
        ("Vee eye em.", Correction("Vim")),  # letters as Whisper writes them
        ("It's spelled V I M.", Correction("Vim")),
        ("No, I said my favourite editor is Vim.", Correction("my favourite editor is Vim")),
        ("No, I said my cat is called in Greek.", Correction("my cat is called in Greek")),
        ("No, I said Ingrid, like Ingrid Bergman.", Correction("Ingrid")),
        ("No, Ingrid as in Ingrid Bergman.", Correction("Ingrid")),
        # The ear's copy in the example spelled otherwise: still an example, not the value.
        ("No, it's angry, like angered Bergman.", Correction("angry")),
        ("No, I said Ingrid, like the actress.", Correction("Ingrid")),
        ("No, I said I like tea.", Correction("I like tea")),
        ("No, wait, Vim.", Correction("Vim")),
        ("That's wrong.", Correction(None)),
        ("No.", Correction(None)),
    ],
)
def test_a_correction_is_read(heard, correction):
    assert parse_correction(heard) == correction


@pytest.mark.parametrize(
    "heard",
    ["What time is it?", "No thanks.", "No worries.", "No, that's right.", "Thank you.",
     "Okay.", "Are you there?", "Tell me about Vim.", "No, what about Uganda?",
     "No, what about Uganda", "No, tell me the weather.", "Not now, thanks.", "Not bad, and you?",
     "No, the old one.", "No, I meant the old one.", "No, both."],
)  # fmt: skip
def test_other_things_are_not_corrections(heard):
    assert parse_correction(heard) is None


@pytest.mark.parametrize(
    ("text", "word"),
    [("V I M", "Vim"), ("p r i y a", "Priya"), ("em ay ex", "Max"), ("are you", None),
     ("oh I see", None), ("Vim", None), ("V", None)],
)  # fmt: skip
def test_spelled_words(text, word):
    assert spelled_word(text) == word


@pytest.mark.parametrize(
    ("text", "spelled", "meant"),
    [
        ("We I am.", "V I M.", "V I M."),  # Piper's "V. I. M." heard freely
        ("are the X.", "R E X.", "R E X."),
        ("Priya.", "P A.", "Priya."),  # a name said whole: the letters are forced onto it
        ("the most.", "B M S.", "the most."),
        ("Emax.", "E M X.", "Emax."),
        ("Then.", "", "Then."),  # no letters offered: the ear found the words likelier
        ("I am.", "V.", "I am."),  # one letter is no spelling
    ],
)  # fmt: skip
def test_letters_are_meant_where_the_words_heard_are_as_many_as_the_letters(text, spelled, meant):
    assert as_meant(text, spelled) == meant


@pytest.mark.parametrize(
    ("heard", "value"),
    [("Vim.", "Vim"), ("It's Vim.", "Vim"), ("I said Vim", "Vim"), ("V I M.", "Vim"),
     ("Then.", None), ("Um.", None), ("What is the weather in Lisbon?", None),
     ("Tell me a long story about a dragon and a princess", None)],
)  # fmt: skip
def test_an_answer_gives_a_value_or_none(heard, value):
    assert answer_value(heard) == value


@pytest.mark.parametrize(
    ("stored", "correction", "corrected"),
    [
        ("My favourite editor is Vin", Correction("Vim"), "My favourite editor is Vim"),
        ("My favourite editor is then", Correction("Vim", "then"), "My favourite editor is Vim"),
        ("My dog is called Rax", Correction("Rex"), "My dog is called Rex"),
        ("My sister lives in Ma dread", Correction("Madrid", "Ma dread"),
         "My sister lives in Madrid"),
        ("I use Vin", Correction("Vim"), "I use Vim"),
        ("My mister lives in Barcelona", Correction("my sister lives in Barcelona"),
         "My sister lives in Barcelona"),
    ],
)  # fmt: skip
def test_a_correction_goes_where_the_misheard_value_was(stored, correction, corrected):
    assert corrected_statement(stored, correction) == corrected


def test_the_question_for_a_missing_value_and_its_answer():
    question = ValueQuestion("My favourite editor is")
    assert question.text() == "Your favourite editor is what?"
    assert question.statement("Vim") == "My favourite editor is Vim"
    assert question.statement("my favourite editor is Emacs") == "My favourite editor is Emacs"
