"""The end of a turn judged from its words at a pause: a pure function of a transcript, a pause."""

from __future__ import annotations

import pytest

from audio.end_of_turn import (
    PAUSE_MARGIN_SECONDS,
    TRAILING_WORDS,
    UNFINISHED_NEXT_WORDS,
    UNFINISHED_READING_LEAD,
    UNSURE_LAST_WORD_LOGPROB,
    UNSURE_WORDS_LOGPROB,
    EarReading,
    TurnJudgement,
    TurnShape,
    ear_in_time,
    judge_pause,
    turn_shape,
    weighs_by_ear,
)
from audio.silences import SILENCE_HEARD_SECONDS
from config.schema import VadSettings

VAD = VadSettings()

COMPLETE = [
    "What is the capital of Kenya?",
    "How far away is the moon?",
    "Remind me to call the plumber.",
    "Turn off the lights in the kitchen.",
    "Turn the lights on.",  # a particle that ends a command, with the intonation of an end
    "My favourite editor is Vim.",
    "What's five times seven?",  # a number, asked
    "Give me another one.",  # "one" as a pronoun
    "Tell me a joke!",
    "Do you hear?",
    "Hey Jarvis, what time is it?",
    # Whisper, prompted with hot words, often leaves the punctuation out:
    "The child almost hurt the small dog",
    "Turn off the lights",
    "Tell me the joke",
    "V I M",  # spelled: its last letter is no hesitation
]
TRAILING = [
    # As tiny.en writes a speaker who stopped mid-request (Piper saying the unfinished words):
    "What's the weather like in?",
    "Remind me too",
    "Set a timer for 20",
    "Turn off the lights in the...",
    "Add eggs, milk in",
    "My sister's name is",
    "Can you tell me?",
    "Call my",
    "um",
    "The code is 4-5",
    "What about?",
    "and what about",
    "I think that",
    "Send a message to Priya saying that",
    "So I was wondering if...",
    "Set an alarm for seven",
    "Place some music by",
    "My favorite editor is",
    # And in other words:
    "Turn the lights on",  # no end heard: "on ... the porch"
    "I want to",
    "Remind me to buy milk and",
    "It costs three point",
    "Uh, what about",
    "the number is twenty",
    "Remind me",
    # A hesitation alone, as Whisper writes "Um" at a speaker's first pause:
    "M",
    "Mm.",
    "Hm, umm.",
]
UNSURE = [
    "",
    "   ",
    "Go!",  # one word: a request or the start of one
    "Stop.",
    "Emacs.",
    "Emacs",
    "Vim please",  # two bare words: a request or the start of one
]


@pytest.mark.parametrize("text", COMPLETE)
def test_a_whole_question_imperative_or_statement_is_complete(text):
    assert turn_shape(text) is TurnShape.COMPLETE


@pytest.mark.parametrize("text", TRAILING)
def test_words_that_stop_mid_way_are_trailing_whatever_mark_whisper_put_after_them(text):
    assert turn_shape(text) is TurnShape.TRAILING


@pytest.mark.parametrize("text", UNSURE)
def test_too_little_or_no_end_heard_is_unsure(text):
    assert turn_shape(text) is TurnShape.UNSURE


def test_case_and_curly_apostrophes_do_not_matter():
    assert turn_shape("WHAT\u2019S THE WEATHER LIKE IN") is TurnShape.TRAILING
    assert turn_shape("what is the capital of kenya?") is TurnShape.COMPLETE


def test_a_complete_request_ends_after_the_short_silence_a_trailing_one_after_the_long_one():
    assert judge_pause("What is the capital of Kenya?", 0.0, VAD) == TurnJudgement(
        TurnShape.COMPLETE, VAD.complete_silence_seconds
    )
    assert judge_pause("Remind me to", 0.0, VAD) == TurnJudgement(
        TurnShape.TRAILING, VAD.trailing_silence_seconds
    )
    assert judge_pause("Stop.", 0.0, VAD) == TurnJudgement(
        TurnShape.UNSURE, VAD.end_silence_seconds
    )
    assert VAD.complete_silence_seconds < VAD.end_silence_seconds < VAD.trailing_silence_seconds


def test_a_speaker_who_paused_before_within_the_request_is_given_that_pause_again():
    """Someone reading out sentences with half-second pauses is not cut after the second."""
    judged = judge_pause("Do you hear?", 0.48, VAD)
    assert judged.shape is TurnShape.COMPLETE
    assert judged.end_silence_seconds == pytest.approx(0.48 + PAUSE_MARGIN_SECONDS)
    # ... up to the usual silence, never beyond it; and a short earlier pause changes nothing.
    assert judge_pause("Do you hear?", 2.0, VAD).end_silence_seconds == VAD.end_silence_seconds
    assert (
        judge_pause("Do you hear?", 0.05, VAD).end_silence_seconds == VAD.complete_silence_seconds
    )
    # The rhythm does not shorten an unsure or trailing pause.
    assert judge_pause("Stop.", 2.0, VAD).end_silence_seconds == VAD.end_silence_seconds
    assert judge_pause("and", 0.1, VAD).end_silence_seconds == VAD.trailing_silence_seconds


def test_the_silences_are_settings():
    vad = VadSettings(
        complete_silence_seconds=0.2, end_silence_seconds=0.6, trailing_silence_seconds=3.0
    )
    assert judge_pause("Turn off the lights.", 0.0, vad).end_silence_seconds == 0.2
    assert judge_pause("Turn off the", 0.0, vad).end_silence_seconds == 3.0


def test_the_silences_must_be_in_order():
    with pytest.raises(ValueError, match="complete_silence_seconds"):
        VadSettings(complete_silence_seconds=0.9, end_silence_seconds=0.7)
    with pytest.raises(ValueError, match="trailing_silence_seconds"):
        VadSettings(trailing_silence_seconds=0.5, end_silence_seconds=0.7)
    with pytest.raises(ValueError, match="doubtful_silence_seconds"):
        VadSettings(doubtful_silence_seconds=0.5, end_silence_seconds=0.7)


VALUE_LOST = [
    # tiny.en on Piper's "Remember that my favourite editor is Vim." without hot words:
    "Remember that my favorite editor has been",
    "My favourite editor has been.",
    "My editor's been",
    "We have been",
]


@pytest.mark.parametrize("text", VALUE_LOST)
def test_a_statement_ending_in_has_been_lost_its_value_and_is_not_waited_on(text):
    """Waiting the trailing time there joined the next request ("... has been Remember that my
    favourite editor is Emacs") into one stored fact; the usual silence ends it, and Hearth asks."""
    assert turn_shape(text) is TurnShape.VALUE_LOST
    assert judge_pause(text, 0.0, VAD) == TurnJudgement(
        TurnShape.VALUE_LOST, VAD.end_silence_seconds
    )
    # Not the long wait, and not shortened by the speaker's rhythm either.
    assert judge_pause(text, 2.0, VAD).end_silence_seconds < VAD.trailing_silence_seconds
    assert judge_pause(text, 0.0, VAD).end_silence_seconds > VAD.complete_silence_seconds


@pytest.mark.parametrize(
    "text",
    [
        "has been",  # no subject: the start of something
        "The weather has been...",  # written as broken off
        "My favourite editor is",  # a copula alone: a speaker looking for the word
        "He had never been",  # "been" after a word that is no auxiliary
    ],
)
def test_other_endings_near_has_been_still_trail(text):
    assert turn_shape(text) is TurnShape.TRAILING


def test_a_finished_sentence_with_been_inside_is_still_complete():
    assert turn_shape("He had never been father.") is TurnShape.COMPLETE


def test_only_the_wake_phrase_waits_for_the_request_that_follows():
    """ "Hey Jarvis." and a pause: the request is coming, so the long wait, not the end."""
    judged = judge_pause("", 0.0, VAD, wake_phrase_only=True)
    assert judged == TurnJudgement(TurnShape.WAKE_ONLY, VAD.trailing_silence_seconds)
    # Nothing heard at all is still unsure; and words after the wake phrase are judged as words.
    assert judge_pause("", 0.0, VAD).shape is TurnShape.UNSURE
    assert turn_shape("What time is it?", wake_phrase_only=True) is TurnShape.COMPLETE


# Words weighed by the ear: Whisper's own doubt about where the request ends ---------------------


def lead(value: float) -> EarReading:
    """The ear's reading with ``value`` as its lead, sure of the words and of the last one."""
    return EarReading(value, last_word=-0.05, words=-0.2)


def test_complete_words_the_ear_finds_unfinished_nearly_as_likely_wait_the_long_time():
    """ "Send a message to you", written for a speaker who stopped after "to": Whisper finds the
    reading without "you" nearly as likely, so the pause may be a speaker looking for a word."""
    judged = judge_pause("Send a message to you", 0.0, VAD, reading=lead(0.5))
    assert judged == TurnJudgement(TurnShape.HEARD_UNFINISHED, VAD.doubtful_silence_seconds)
    assert VAD.end_silence_seconds < VAD.doubtful_silence_seconds < VAD.trailing_silence_seconds
    just_short = UNFINISHED_READING_LEAD - 0.01
    assert turn_shape("What is the capital on?", reading=lead(just_short)) is (
        TurnShape.HEARD_UNFINISHED
    )


@pytest.mark.parametrize(
    "text",
    [
        "Remember that my favorite editor is win!",
        "please remember, the door code is Bluebird",
        "Okay, remember that my sister lives in Leeds.",
        "Could you please remember my sister lives in Leeds.",
    ],
)
def test_a_statement_to_remember_the_ear_doubts_ends_after_the_usual_silence(text):
    # Whisper doubts a misheard statement as it doubts a cut one; waiting the doubtful time
    # joined the next statement, said 1.7 s later, to it, and the two became one fact.
    doubted = EarReading(8.0, last_word=-1.32, words=-0.64)
    for reading in (lead(0.5), doubted):
        judged = judge_pause(text, 0.0, VAD, reading=reading)
        assert judged.shape in (TurnShape.HEARD_UNFINISHED, TurnShape.HEARD_UNSURE)
        assert judged.end_silence_seconds == VAD.end_silence_seconds
    # Not a reminder to set: it has no memory's repairs, and waits as any request Whisper doubts.
    remind = judge_pause("Remind me to call the plumber", 0.0, VAD, reading=lead(0.5))
    assert remind.end_silence_seconds == VAD.doubtful_silence_seconds


def test_complete_words_the_ear_is_sure_of_end_after_the_short_silence():
    judged = judge_pause("What is the capital of Kenya?", 0.0, VAD, reading=lead(8.2))
    assert judged == TurnJudgement(TurnShape.COMPLETE, VAD.complete_silence_seconds)
    assert turn_shape("Tell me a joke", reading=lead(UNFINISHED_READING_LEAD)) is (
        TurnShape.COMPLETE
    )


@pytest.mark.parametrize("text", ["Remind me to", "Stop.", "My favourite editor has been"])
def test_the_ear_only_ever_lengthens_the_wait_of_complete_words(text):
    # Words that trail, are unsure or lost their value keep their own shape whatever the ear
    # reads: its lead, or how sure it is of the words.
    for value in (-5.0, 0.0, 10.0):
        assert turn_shape(text, reading=lead(value)) is turn_shape(text)
    unsure = EarReading(10.0, last_word=-3.0, words=-1.0)
    assert turn_shape(text, reading=unsure) is turn_shape(text)


def test_complete_words_whisper_is_unsure_of_and_of_their_end_wait_the_doubtful_time():
    """ "At eggs milking": tiny.en's whole sentence for "add eggs, milk and ...", unsure of its
    words (-0.64) and of the last one (-1.32), though it finds no reading that ends mid-way."""
    fragment = EarReading(8.0, last_word=-1.32, words=-0.64)
    judged = judge_pause("At eggs milking", 0.0, VAD, reading=fragment)
    assert judged == TurnJudgement(TurnShape.HEARD_UNSURE, VAD.doubtful_silence_seconds)


@pytest.mark.parametrize(
    ("words", "last_word"),
    [
        # Unsure of the words, sure of the last: "Set a timer for 10 minutes" in espeak-ng.
        (-0.76, -0.03),
        # Sure of the words, unsure of the last: a name ("What's the weather like in Lusman?").
        (-0.37, -2.34),
        # Both just at the line.
        (UNSURE_WORDS_LOGPROB, UNSURE_LAST_WORD_LOGPROB),
    ],
)
def test_complete_words_whisper_is_sure_of_in_part_end_after_the_short_silence(words, last_word):
    reading = EarReading(8.0, last_word=last_word, words=words)
    judged = judge_pause("Set a timer for ten minutes", 0.0, VAD, reading=reading)
    assert judged == TurnJudgement(TurnShape.COMPLETE, VAD.complete_silence_seconds)


def test_the_ear_being_unsure_counts_only_before_the_speaker_went_on_from_a_pause():
    unsure = EarReading(8.0, last_word=-1.5, words=-0.9)
    judged = judge_pause("Add eggs milk and bread", 1.2, VAD, reading=unsure)
    assert judged.shape is TurnShape.COMPLETE


def test_the_next_words_weighed_are_the_trailing_words_without_contractions():
    assert "of" in UNFINISHED_NEXT_WORDS and "and" in UNFINISHED_NEXT_WORDS
    assert not any("'" in word for word in UNFINISHED_NEXT_WORDS)
    assert set(UNFINISHED_NEXT_WORDS) <= TRAILING_WORDS


def test_the_ear_is_not_heard_once_the_speaker_went_on_from_a_pause():
    """After a pause the speaker went on from, ending there reads to Whisper as likely as the
    words that followed it; the speaker's own rhythm lengthens the wait instead."""
    assert weighs_by_ear(0.0) and weighs_by_ear(SILENCE_HEARD_SECONDS - 0.01)
    assert not weighs_by_ear(SILENCE_HEARD_SECONDS)
    after_a_pause = judge_pause("How many days are there until Christmas?", 1.2, VAD,
                                reading=lead(0.5))  # fmt: skip
    assert after_a_pause == TurnJudgement(TurnShape.COMPLETE, VAD.end_silence_seconds)


def test_live_the_ear_is_asked_only_when_it_can_answer_before_the_pause_ends():
    # Words heard in 0.15 s: the ear's pass takes about 0.12 s.
    assert ear_in_time(0.15, 1.4)  # a doubtful or trailing wait: plenty of time
    assert not ear_in_time(0.15, 0.08)  # the short silence of a whole request is almost over
    assert not ear_in_time(0.15, 0.0)  # the words came after the pause had ended the turn
    assert not ear_in_time(0.15, -0.1)
