"""When a pause ends the turn: judged from what was said so far, as a pure function of the words.

At a speaker's first pause the voice loop already transcribes the speech so far (the speculative
transcription), so by the time a fixed silence would end the turn its words are known. They say
how long to wait: a complete request (a question, an imperative, a full statement) ends after a
short silence; one that trails off ("and ...", "what about ...", "remind me to", mid-number, a
filler) waits longer than a fixed silence would, since the speaker is looking for the next word;
anything else waits as long as before. A speaker who has already paused within this request
(someone reading out a list, or thinking between sentences) gets at least that pause again, up to
the usual silence, so their own rhythm is not taken for the end.

Two pauses are not trailing whatever their last word. One after the wake phrase alone ("Hey
Jarvis.") is a speaker about to make the request: the long wait, so the request is heard with the
wake phrase rather than lost between two turns. And a statement that ends in a perfect auxiliary
("my favourite editor has been") is what Whisper makes of a copula and a short name it missed
("is Vim"), far more often than a speaker stopping there: waiting the long trailing time would
join the next request to it ("... has been Remember that my favourite editor is Emacs"), stored
as one fact. It ends after the usual silence, and Hearth asks for the missing value.

Whisper also misleads: at a pause after "send a message to" it writes "Send a message to you",
and after "what is the capital of" it writes "what is the capital on?". The words then look
complete. So a request that reads as complete is weighed once more by the ear itself
(``SpeechToText.end_readings``): when Whisper finds a reading in which the speaker stopped
mid-way (without the last word, or going on with a word that leaves a request hanging) nearly as
likely as the words it wrote, the pause gets a longer wait too (the doubtful silence). So does
one Whisper is unsure of, both of the words and of the last one ("at eggs milking" for "add eggs,
milk and ..."): a fragment it made a sentence of.

English only, like the speech-to-text model Hearth ships. The last word is the strongest sign: a
request cut off after "the" is trailing whatever mark Whisper put after it. Whisper's punctuation
is its reading of the intonation, used where the words alone are ambiguous ("turn the lights on"
and "turn on ... the lights"); it is often left out (see :data:`MIN_UNMARKED_WORDS`), so a request
of a few whole words is complete without it. Speakers hesitate after function words, before the
word they look for, which is where the words alone tell a pause from an end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from audio.silences import SILENCE_HEARD_SECONDS
from config import VadSettings

PAUSE_MARGIN_SECONDS = 0.15
"""Beyond the longest pause a speaker already made within the request, before a complete one
ends: their rhythm, plus the segmenter's frame and a little."""
MIN_COMPLETE_WORDS = 2
"""A request of fewer words is never judged complete on its own ("Go!", "Um.", a name): too
little to tell a request from the start of one."""
MIN_UNMARKED_WORDS = 3
"""Words a request needs to be complete without a mark of its end: Whisper leaves punctuation out
when its prompt has none (the hot words), so a whole sentence often comes back bare."""

_WORD = re.compile(r"[a-z0-9]+(?:['\u2019][a-z]+)*")
_TRAILING_MARKS = (",", ";", ":", "-", "\u2013", "\u2014", "...", "\u2026")
"""Marks Whisper writes where speech broke off."""
_COMPLETE_MARKS = (".", "?", "!")

_CONJUNCTIONS = "and or but nor because if unless whether than although though while".split()
_ARTICLES = "a an the my your his her its our their some any every each another".split()
_PREPOSITIONS = (
    "to of for with about in at from by into onto as after before until till via without "
    "within between under near towards toward per during"
).split()
_AUXILIARIES = (
    "is are was were be been being am will would shall should can could may might must do does "
    "did have has had isn't aren't wasn't don't doesn't didn't won't can't i'm it's that's "
    "there's what's who's where's i'd i'll i've you're we're they're let's"
).split()
_FILLERS = "um uh er erm hmm mm ah eh".split()
HESITATIONS = frozenset(_FILLERS + "m mmm hm umm uhm uhh err ahh ehm".split())
"""Sounds a speaker makes while looking for the words, as Whisper writes them ("Um" is often
"M"). Words that are nothing else are a request yet to begin: trailing. A bare "m" or "err" is
not trailing after other words, where it is as often a letter spelled ("V I M") or cut short."""
TRAILING_WORDS = frozenset(_CONJUNCTIONS + _ARTICLES + _PREPOSITIONS + _AUXILIARIES + _FILLERS)
"""A request whose last word is one of these is unfinished, whatever mark Whisper put after it
(it writes "What's the weather like in?" for a speaker who stopped after "in")."""
UNFINISHED_NEXT_WORDS = tuple(sorted(word for word in TRAILING_WORDS if "'" not in word))
"""Words a reading may go on with to be unfinished (``SpeechToText.end_readings``); contractions
are left out, since only a word's first token is weighed, and "you" of "you're" begins anything."""
SOFT_TRAILING_WORDS = frozenset(
    "on off up down out over back away around through too like so well that this there".split()
)
"""Words that end many a request ("Turn the lights on.") as often as they begin the rest ("turn
on ... the lights", "remind me too" for "remind me to"): unfinished unless Whisper heard the
intonation of an end (a full stop, a question or exclamation mark)."""
OPEN_NUMBERS = frozenset(
    "zero oh two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty "
    "ninety hundred thousand million billion point".split()
)
"""Number words that may go on ("twenty ... five", "four five ... six seven", "three point ...").
"One" is left out: it ends many a request as a pronoun ("another one", "the new one")."""
TRAILING_ENDINGS = frozenset(
    "remind me|tell me|show me|give me|let me|ask me|can you|could you|would you|will you|"
    "do you|i want|i need|i think|i mean|how about|what about|what if".split("|")
)
"""Word pairs that end no request: the speaker has more to say."""
PERFECT_AUXILIARIES = frozenset("has have had".split())
"""Before a final "been", the ending of a statement whose value Whisper lost: "is Vim" heard as
"has been"."""
MIN_SUBJECT_WORDS = 1
"""Words before "has been" that make it a statement with a subject ("editor has been")."""
UNFINISHED_READING_LEAD = 2.75
"""Natural-log probability by which Whisper must find the words ending where they do likelier than
ending before their last word or going on (``EndReadings.lead``) for a pause to end as complete.
Measured in bench/end_of_turn.py (Piper's and espeak-ng's voices after "Hey Jarvis", and real
speakers), at a request's first pause: where Whisper wrote a whole request for one stopped
mid-way, -0.4 to 3.0 (8 of 9 under this: "send a message to you", "what is the capital on?",
"play the next episode done!"); where a request said whole ended, 3.1 and more (78), but for two
requests Whisper misheard ("play some music by my old game") and a fragment after a cut, which
then wait the doubtful silence. A complete request taken for an unfinished one waits 1.2 s
longer."""


UNSURE_WORDS_LOGPROB = -0.6
"""Whisper's average token log probability under which it is unsure of the words at a pause."""
UNSURE_LAST_WORD_LOGPROB = -0.6
"""The last word's log probability (``EndReadings.last_word``) under which it is unsure of it.
Unsure of both, Whisper has often made a whole sentence of a fragment. In bench/end_of_turn.py
that is 6 of the 9 pauses that cut a request while reading as complete ("at eggs milking", "the
code for the door is for I", "and what a mouth": words -0.64 to -0.86, last word -0.66 to -3.58;
three of the six outlast even the doubtful silence), and none of the 64 requests said whole:
those unsure of their words were sure of the last one ("set a timer for 10 minutes", -0.76 and
-0.03), and those unsure of the last word were sure of the rest ("what's the weather like in
Lusman?", -0.37 and -2.34). Real speakers across measured rooms (bench.hearing --full): 3 of 36
whole requests, each of them misheard."""


@dataclass(frozen=True)
class EarReading:
    """What Whisper makes of the words at a pause, beyond the words themselves."""

    lead: float
    """``EndReadings.lead``: how much likelier the words end where they do than mid-way."""
    last_word: float
    """``EndReadings.last_word``: the last word's log probability."""
    words: float
    """The transcript's average token log probability."""

    @property
    def unsure(self) -> bool:
        """Unsure of the words and of their last one: perhaps a fragment heard as a sentence."""
        return self.words < UNSURE_WORDS_LOGPROB and self.last_word < UNSURE_LAST_WORD_LOGPROB


EAR_COST_OF_WORDS = 0.8
"""The ear's forced pass at a pause costs about this share of the transcription of the words it
weighs (two thirds measured, with a margin)."""


def ear_in_time(words_seconds: float, pause_left_seconds: float) -> bool:
    """Whether the ear, asked now about words that took ``words_seconds`` to transcribe, can
    answer before the pause ends in ``pause_left_seconds``. Live, a reading that comes after the
    turn ended lengthens nothing, and its work would only slow the start of the reply: asked
    always, it made the first synthesis 62 to 84 ms where 46 to 47 ms without it (bench.turn
    --live, two runs each)."""
    return words_seconds * EAR_COST_OF_WORDS < pause_left_seconds


class TurnShape(StrEnum):
    """What the words so far say about the end of the turn."""

    COMPLETE = "complete"
    """A whole request: a short silence ends it."""
    TRAILING = "trailing"
    """The words stop mid-way: wait longer than usual for the rest."""
    UNSURE = "unsure"
    """Neither (or nothing heard): the usual silence."""
    VALUE_LOST = "value_lost"
    """A statement whose value the ear lost ("my editor has been"): the usual silence, then
    Hearth asks for the value; never the long wait, which would join the next request to it."""
    WAKE_ONLY = "wake_only"
    """Only the wake phrase so far: the request is coming, so the long wait."""
    HEARD_UNFINISHED = "heard_unfinished"
    """Words that read as complete, but the ear finds it nearly as likely that the speaker
    stopped mid-way ("send a message to you" for "send a message to ..."): the doubtful
    silence, longer than the usual one."""
    HEARD_UNSURE = "heard_unsure"
    """Words that read as complete, but Whisper is unsure of them and of their last word ("at
    eggs milking" for "add eggs, milk and ..."): the doubtful silence too."""


@dataclass(frozen=True)
class TurnJudgement:
    """The shape of the words at a pause and the silence that ends the turn there."""

    shape: TurnShape
    end_silence_seconds: float


def weighs_by_ear(longest_pause_seconds: float) -> bool:
    """Whether the ear's reading of where the words end counts at a pause, for a speaker whose
    longest pause earlier in the request was ``longest_pause_seconds``: only before they went on
    from one Whisper hears as a pause (``SILENCE_HEARD_SECONDS``). After one, ending there reads as
    likely as the words said after it ("how many days are there until ... Christmas?", a lead of
    0.5), and the speaker's own rhythm already lengthens the wait."""
    return longest_pause_seconds < SILENCE_HEARD_SECONDS


def turn_shape(
    transcript: str, *, wake_phrase_only: bool = False, reading: EarReading | None = None
) -> TurnShape:
    """How ``transcript`` (the request's words said before a pause, the wake phrase stripped)
    ends: complete, trailing, unsure, heard unfinished or unsure, or a statement whose value was
    lost. ``wake_phrase_only`` says the words before the pause were the wake phrase and nothing
    else; ``reading`` is the ear's reading of the words (None: not weighed)."""
    shape = _shape_of_words(transcript, wake_phrase_only)
    if shape is not TurnShape.COMPLETE or reading is None:
        return shape
    if reading.lead < UNFINISHED_READING_LEAD:
        return TurnShape.HEARD_UNFINISHED
    if reading.unsure:
        return TurnShape.HEARD_UNSURE
    return shape


def _shape_of_words(transcript: str, wake_phrase_only: bool) -> TurnShape:
    text = transcript.strip()
    said = _WORD.findall(text.lower().replace("\u2019", "'"))
    if not said:
        return TurnShape.WAKE_ONLY if wake_phrase_only else TurnShape.UNSURE
    if _lost_value(text):
        return TurnShape.VALUE_LOST
    ended = text.endswith(_COMPLETE_MARKS) and not text.endswith(("...", "\u2026"))
    last = said[-1]
    if text.endswith(_TRAILING_MARKS) or last in TRAILING_WORDS:
        return TurnShape.TRAILING
    if all(word in HESITATIONS for word in said):
        return TurnShape.TRAILING
    if " ".join(said[-2:]) in TRAILING_ENDINGS:
        return TurnShape.TRAILING
    if last in SOFT_TRAILING_WORDS and not ended:
        return TurnShape.TRAILING
    if (last.isdigit() or last in OPEN_NUMBERS) and not text.endswith("?"):
        return TurnShape.TRAILING  # mid-number, unless asked as a question ("what's 5 times 7?")
    if len(said) >= (MIN_COMPLETE_WORDS if ended else MIN_UNMARKED_WORDS):
        return TurnShape.COMPLETE
    return TurnShape.UNSURE


def _lost_value(text: str) -> bool:
    """Whether ``text`` is a statement ending in a perfect auxiliary with nothing after it."""
    if text.endswith(_TRAILING_MARKS):
        return False  # "has been ..." written as broken off: a speaker looking for the word
    said = _WORD.findall(text.lower().replace("\u2019", "'"))
    if len(said) < 2 or said[-1] != "been":
        return False
    if said[-2] in PERFECT_AUXILIARIES:
        return len(said) - 2 >= MIN_SUBJECT_WORDS
    return said[-2].endswith(("'s", "'ve"))  # "my editor's been": the subject is in the word


_TO_REMEMBER = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|so|and|hey|please|now)\W+)*(?:(?:can|could|would|will) you\W+)?"
    r"(?:please\W+)?remember\b"
)
"""The memory's voice command (``assistant.voice_commands``), read the same way: "Remember
that ...", "Okay, remember ...", "Could you please remember ..."."""


def to_remember(transcript: str) -> bool:
    """Whether the request words are a statement to remember ("Remember that my sister lives in
    Leeds"), the form the memory's voice command takes."""
    return _TO_REMEMBER.match(transcript.lower()) is not None


def judge_pause(
    transcript: str,
    longest_pause_seconds: float,
    vad: VadSettings,
    *,
    wake_phrase_only: bool = False,
    reading: EarReading | None = None,
) -> TurnJudgement:
    """The silence that ends a turn whose request words before this pause are ``transcript``
    (``wake_phrase_only`` when only the wake phrase was said, ``reading`` as for
    ``turn_shape``), for a speaker whose longest pause earlier in the same request was
    ``longest_pause_seconds``."""
    if not weighs_by_ear(longest_pause_seconds):
        reading = None
    shape = turn_shape(transcript, wake_phrase_only=wake_phrase_only, reading=reading)
    if shape in (TurnShape.TRAILING, TurnShape.WAKE_ONLY):
        return TurnJudgement(shape, vad.trailing_silence_seconds)
    if shape in (TurnShape.HEARD_UNFINISHED, TurnShape.HEARD_UNSURE):
        if to_remember(transcript):
            # Whisper doubts a statement it misheard ("... my favourite editor is win!") as it
            # doubts a cut one. Cut, it is asked about or set right ("No, I said Vim"); joined
            # to the next statement, the two would be stored as one fact.
            return TurnJudgement(shape, vad.end_silence_seconds)
        return TurnJudgement(shape, vad.doubtful_silence_seconds)
    if shape in (TurnShape.UNSURE, TurnShape.VALUE_LOST):
        return TurnJudgement(shape, vad.end_silence_seconds)
    own_rhythm = min(longest_pause_seconds + PAUSE_MARGIN_SECONDS, vad.end_silence_seconds)
    return TurnJudgement(shape, max(vad.complete_silence_seconds, own_rhythm))
