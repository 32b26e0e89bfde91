"""The words of a fact: tokens with their case, contractions expanded, numbers and clock times read.

Number words become digits through text2num ("twenty first" is 21st, "forty two" 42); the
single small ones it leaves alone ("one sister", "first") are read here. Pure text handling with
no knowledge of meaning; ``reading`` gives the tokens their roles.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from functools import lru_cache

from text_to_num import alpha2digit, text2num


class TokenKind(StrEnum):
    """What a token is, before any meaning is given to it."""

    WORD = "word"
    NUMBER = "number"
    TIME = "time"
    POSSESSIVE = "possessive"
    BREAK = "break"
    """Punctuation that ends a clause or a sentence."""


@dataclass(frozen=True)
class Token:
    """One token of a fact."""

    text: str
    """Lowercase word, a number as digits ("25"), or a clock time ("7:00am"; 19:30 is "7:30pm")."""
    surface: str
    """The token as written, for explanations."""
    kind: TokenKind
    capitalised: bool = False
    """Written with a capital letter (the pronoun "I" never counts)."""
    initial: bool = False
    """The first word of a sentence, where a capital says nothing."""


# Function words that carry no content. Prepositions and copulas are listed apart: they are not
# content either, but mark where a value sits and whether a fact is "X is Y".
PREPOSITIONS = frozenset(
    "in at on from to for with by as about into onto of near via per until since during "
    "through across around inside outside before after".split()
)
# Prepositions that place a thing in time: "before breakfast" is a time, not a meal eaten.
TIME_PREPOSITIONS = frozenset("before after during until since".split())
COPULAS = frozenset("is are was were am be been being".split())
SUBJECT_PRONOUNS = frozenset("i we".split())
STOP_WORDS = (
    PREPOSITIONS
    | COPULAS
    | frozenset(
        "a an the this that these those some any each every all both either my our your his "
        "her its their mine ours yours me us you it he she they them him i we myself who whom "
        "whose which what where when why how there here and or but so because if then than "
        "also too very really just quite pretty rather actually usually generally normally "
        "typically always often sometimes mostly please thanks thank like-to one's own "
        "do does did doing done will would shall should can could may might must "
        "am is are was were be been being get gets got everything anything something "
        "everyone anyone someone".split()
    )
)

# Pronouns after which "'s" means "is" rather than a possessive.
_IS_BEFORE = frozenset(
    "it that he she there what who where here everything nothing something".split()
)

# Contractions, expanded in one pass. "can't" and "won't" change their stem, so they come first.
_CONTRACTIONS = re.compile(
    r"\b(?P<whole>can'?t|cannot|won'?t|shan'?t|im|ive|gonna|wanna|gotta)\b"
    r"|(?P<suffix>n't|'m|'re|'ve|'ll|'d)\b",
    re.IGNORECASE,
)
_WHOLE = {
    "cant": "can not",
    "cannot": "can not",
    "wont": "will not",
    "shant": "shall not",
    "im": "I am",
    "ive": "I have",
    "gonna": "going to",
    "wanna": "want to",
    "gotta": "got to",
}
_SUFFIX = {
    "n't": " not",
    "'m": " am",
    "'re": " are",
    "'ve": " have",
    "'ll": " will",
    "'d": " would",
}
# "dont", "isnt" and friends, as speech-to-text sometimes writes them.
_BARE_NEGATIVE = re.compile(
    r"\b(do|does|did|is|are|was|were|have|has|had|could|would|should|must)nt\b", re.IGNORECASE
)


# "'d" before a participle or an article is "had" ("I'd been running", "we'd a dog"),
# elsewhere "would" ("I'd go").
_HAD = re.compile(
    r"'d(?= (?:a|an|the|no)\b| (?:just |already |never |always |not )?(?:been|gone|done|seen|had|"
    r"bought|paid|left|"
    r"told|sold|sent|made|taken|given|got|forgotten|lost|spent|kept|found|heard|met|built|"
    r"\w{2,}[^e\W]ed)\b)",
    re.IGNORECASE,
)


def _expand(match: re.Match[str]) -> str:
    whole = match.group("whole")
    if whole is not None:
        return _WHOLE[whole.lower().replace("'", "")]
    return _SUFFIX[match.group("suffix").lower()]


_TOKEN = re.compile(
    r"""
    (?P<time>\d{1,2}(?:[:.]\d{2})?\s*[ap]\.?\s?m\b\.?|\d{1,2}:\d{2}\b|\d{1,2}\s+o'?clock\b)
    |(?P<joined>\d+(?:/\d+){1,2}\b)
    |(?P<address>[^\W_][\w.+\-]*@[^\W_][\w\-]*(?:\.[\w\-]+)+)
    |(?P<number>\u2212?\d+(?:[.,]\d+)?(?:st|nd|rd|th)?\b)
    |(?P<word>[^\W_]+(?:['\-][^\W_]+)*(?:(?<=[sS])'(?![^\W_]))?)
    |(?P<stop>[.!?;:()]|,)
    """,
    re.VERBOSE | re.IGNORECASE,
)
_TIME_PARTS = re.compile(r"(\d{1,2})(?:[:.](\d{2}))?\s*(?:([ap])\.?\s?m)?", re.IGNORECASE)
_ORDINAL_SUFFIX = re.compile(r"(st|nd|rd|th)$", re.IGNORECASE)

_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_ORDINALS = (
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"
).split()
NUMBER_WORDS: dict[str, int] = {
    **{word: value for value, word in enumerate(_UNITS)},
    **{word: 20 + 10 * index for index, word in enumerate(_TENS)},
    **{word: value for value, word in enumerate(_ORDINALS) if value},
    "once": 1,
    "dozen": 12,
    "hundred": 100,
    "thousand": 1000,
}
_CLOCK_WORDS = {"noon": "12:00pm", "midday": "12:00pm", "midnight": "12:00am"}

# Word endings that are not inflections, so stemming leaves these words alone.
_KEEP_ENDINGS = frozenset(
    "morning evening spring string thing nothing something anything everything king ring "
    "sibling ceiling wedding pudding building during bus gas yes plus news series species "
    "always sometimes lens this his its is was has does "
    # things, not the doing of their stem: "the ironing" is no iron, "glasses" no glass
    "ironing painting bedding wiring parking matting clothing heating lighting glasses training "
    "clothes".split()
)


# Symbols that are part of a value, said as words before the punctuation is dropped: "£5" and
# "$5" are two prices, "B+" and "B-" two blood types, "-18" and "18" two temperatures.
_SYMBOLS = (
    (re.compile(r"([£$€¥])\s?(\d+(?:[.,]\d+)*)(?:\s?(k|m|bn)\b)?", re.I), lambda m: _money(m)),
    (re.compile(r"(\d)\s?%"), r"\1 percent"),
    (re.compile(r"\b(\d+):(\d)\b"), r"\1 to \2"),  # a ratio "3:1"; "7:30" is a time
    (re.compile(r"(?<![\w.,])-(?=\d)"), "\u2212"),  # a sign, not a hyphen: part of the number
    (re.compile(r"\b([A-Za-z])\+\+(?!\w)"), r"\1 plus plus"),
    (re.compile(r"\b([A-Za-z]{1,2})\+(?![\w+])"), r"\1 plus"),  # a grade, a blood type
    (re.compile(r"\b([A-Za-z]{1,2})[-\u2212](?![\w-])"), r"\1 minus"),
    (re.compile(r"\b([A-Ga-g])#(?!\w)"), r"\1 sharp"),
    # a grade "A*" (or "A**"): part of the value, not punctuation
    (re.compile(r"\b([A-Za-z]{1,2})\*\*(?![\w*])"), r"\1 double star"),
    (re.compile(r"\b([A-Za-z]{1,2})\*(?![\w*])"), r"\1 star"),
)
_CURRENCIES = {"£": "pounds", "$": "dollars", "€": "euros", "¥": "yen"}
_THOUSANDS = {"k": 1_000, "m": 1_000_000, "bn": 1_000_000_000}


_SCALED = re.compile(r"\b(\d+\.\d+) (1000|1000000|1000000000)\b")
"""What text2num leaves of "two and a half thousand": "2.5 1000"."""


_SPELLED_DIGITS = re.compile(r"\b\d(?:-\d){2,}\b")


def undashed_digits(text: str) -> str:
    """A code typed digit by digit as its number: "1-5-9-0" is 1590."""
    return _SPELLED_DIGITS.sub(lambda found: found[0].replace("-", ""), text)


_GRAND = re.compile(r"\b(\d+(?:\.\d+)?) grand\b", re.IGNORECASE)
"""Thousands said as "grand": "40 grand" is 40000."""
_LEADING_ZERO_RUN = re.compile(r"(?<![-/:.])\b0\d+(?:[ -]\d+)+\b(?![-/:.]\d)")
"""A phone number or a PIN in groups, or as text2num leaves a spoken one: "07700 900123",
"0161-555-0199", "004 2" (from "zero zero four two"), one number."""


def _scaled(found: re.Match[str]) -> str:
    return f"{(Decimal(found[1]) * int(found[2])).normalize():f}"


def _money(found: re.Match[str]) -> str:
    """ "£5" as "5 pounds", "£20k" as "20000 pounds" (a "k" after a price is thousands)."""
    amount, scale = found[2], found[3]
    if scale:
        value = Decimal(amount.replace(",", "")) * _THOUSANDS[scale.lower()]
        amount = f"{value.normalize():f}"
    return f"{amount} {_CURRENCIES[found[1]]}"


# Said before text2num reads the numbers: "two and a half" is "two point five", which it reads
# as 2.5 (it leaves "and a half" as words).
_FRACTIONS = (
    (re.compile(r"\b(\w+) and a half\b(?!-)"), "5"),
    (re.compile(r"\b(\w+) and a quarter\b(?!-)"), "25"),
    (re.compile(r"\b(\w+) and three quarters\b"), "75"),
)
_PARTS = "third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|quarter"
_MEASURED_UNITS = (
    "mile|hour|minute|second|day|week|fortnight|month|year|decade|century|metre|meter|kilometre|"
    "yard|foot|inch|pound|stone|kilo|ton|tonne|litre|liter|pint|gallon|dozen|hundred|thousand"
)
# A fraction of one thing said in words: "half an hour" is 0.5 hour, "an hour and a half" 1.5,
# so the two never read as the same words in another order.
_PARTS_OF_ONE = (
    (re.compile(r"\b(?:a|an|one) (\w+) and a half\b(?!-)", re.IGNORECASE), r"1.5 \1"),
    (re.compile(r"\b(?:a|an|one) (\w+) and a quarter\b(?!-)", re.IGNORECASE), r"1.25 \1"),
    (re.compile(r"\b(?:a )?quarter of (?:a|an) (\w+)\b", re.IGNORECASE), r"0.25 \1"),
    (re.compile(r"\bthree quarters of (?:a|an) (\w+)\b", re.IGNORECASE), r"0.75 \1"),
    (re.compile(r"\bhalf (?:a|an) (\w+)\b(?!-)", re.IGNORECASE), r"0.5 \1"),
    # a bound before one of a thing: "less than a mile" is "less than 1 mile", not "a mile"
    (re.compile(r"\b(less|more|fewer|longer|shorter) than (?:a|an) (?=\w)", re.I), r"\1 than one "),
    (
        re.compile(rf"\b(over|under) (?:a|an) (?=(?:{_MEASURED_UNITS})\b)", re.IGNORECASE),
        r"\1 one ",
    ),
    (re.compile(r"\b(less|more|fewer) than half\b", re.IGNORECASE), r"\1 than 0.5"),
    # a share of a whole, not a day of the month: "a third of the rent" / "on the third"
    (re.compile(rf"\b(?:a|one) ({_PARTS}) of\b(?! july\b)", re.IGNORECASE), r"one-\1 of"),
    (re.compile(rf"\b(two|three|four|five|2|3|4|5) ({_PARTS})s of\b", re.IGNORECASE), r"\1-\2s of"),
)
# A year said in two halves, as text2num leaves it: "twenty fifteen" is "20 15", "nineteen
# eighty five" "19 85", "twenty oh five" "20 oh 5". Not after a clock word: "at ten fifteen".
_SPOKEN_YEAR = re.compile(
    r"(?<!\bat )(?<!\bby )(?<!\buntil )(?<!\btill )\b(19|20) (?:([1-9]\d)|(?:oh|o) ([1-9]))\b"
)


def _fraction(decimals: str) -> Callable[[re.Match[str]], str]:
    """A replacement that says "and a half" as decimals after a number only ("a cup and a half"
    is no number): "3.5", or "two point five", which text2num reads."""

    def replace(match: re.Match[str]) -> str:
        number = match[1]
        if number.isdigit():
            return f"{number}.{decimals}"
        try:
            text2num(number, "en")
        except ValueError:
            return match[0]
        return " ".join((number, "point", *(_DIGIT_WORDS[int(digit)] for digit in decimals)))

    return replace


_DIGIT_WORDS = "zero one two three four five six seven eight nine".split()


def _year(match: re.Match[str]) -> str:
    return f"{match[1]}{match[2] or '0' + match[3]}"


# How many times, said in one word, is a count of times ("twice a day" is "two times a day"),
# never a count of things ("2 paracetamol").
_TIMES = (
    (re.compile(r"\btwice\b", re.IGNORECASE), "two times"),
    (re.compile(r"\bthrice\b", re.IGNORECASE), "three times"),
    (
        re.compile(r"\bonce (?=(?:a|an|per|every|daily|weekly|monthly|yearly)\b)", re.IGNORECASE),
        "one time ",
    ),
)
# A transcript writes "Mia is Ann's carer" as "mia's ann's carer": with no verb, the first
# "'s" is "is".
_SAID_IS = re.compile(
    r"^\s*(\w+)'s (\w+'s\b)(?!\s+(?:mrs|mr|ms|miss|dr|mister|missus)\b)"
    r"(?!.*\b(?:is|are|was|were|am)\b)",
    re.IGNORECASE,
)
"""Not before a title: "emma's teacher's mrs patel" is "Emma's teacher is Mrs Patel"."""

# "allergic to neither nuts nor eggs" denies the allergy, not the nuts: "not allergic to nuts
# or eggs"; "likes neither tea nor coffee" is "not likes tea or coffee".
_NEITHER = re.compile(
    r"\b(\w+)\s+(?:(to|of|about|with|in|on|for)\s+)?neither\b(.*?)\bnor\b", re.IGNORECASE
)


def _neither(match: re.Match[str]) -> str:
    return " ".join(part for part in ("not", match[1], match[2], match[3].strip(), "or") if part)


# "'s" before a place, an article or an adverb is "is": "sam's in the car", "mum's upstairs".
_IS_BEFORE_WORD = re.compile(
    r"\b(\w+)'s (?=(?:in|at|on|by|with|near|upstairs|downstairs|outside|inside|out|home|away|"
    r"here|there|a|an|the|not|very|so|really|always|never|still|just|now|back|off)\b"
    r"|(?:mrs|mr|ms|dr)\.? \w+)",  # "teacher's mrs patel"; "tom's missus" is his wife
    re.IGNORECASE,
)

# A model that learns facts may write them about "the user" rather than in the user's own
# words, as it was asked: "The user's sister lives in Madrid" is "My sister lives in Madrid".
_TITLE_STOP = re.compile(r"\b(dr|mr|mrs|ms|mx|prof)\.(?=\s+[a-z])", re.IGNORECASE)
"""The full stop of a title before a name ("Dr. Patel" is "Dr Patel"), no end of a sentence."""
_MATHS = re.compile(r"\b(math)s\b", re.IGNORECASE)
"""British "maths" is "math", one subject: its "s" is no plural."""
_THE_USERS = re.compile(r"\b(?:the )?user's\b", re.IGNORECASE)
_THE_USER = re.compile(r"^\s*(?:the )?user\b(?!')", re.IGNORECASE)


_LETTER_AFTER_NUMBER = re.compile(
    r"\b(\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) ([aA])\b"
    r"(?!\.?\s?m\b|\s+(?:day|days|week|weeks|month|months|year|years|night|nights|time|times|"
    r"head|piece|person|hour|hours|minute|minutes|go|side|morning|mornings|evening|evenings|"
    r"fortnight|term|terms|box|pack|packet|course)\b|\s+\w+[^su\W]s\b)"
)
"""A letter said or typed apart after a number, as in "Flat 3 A", "the number nine a bus", "seat
fourteen a": one value with it ("3A"), not a number and an article. Not "a" for "per" ("3 a
day", "£5 a month") nor the "a" of "7 a.m.", nor after "one" ("the one a friend gave me"), nor
before a plural, which no article leads: "three A levels" are three of them."""


def _number_and_letter(match: re.Match[str]) -> str:
    number = match[1].lower()
    return f"{NUMBER_WORDS.get(number, number)}{match[2]}"


def as_said(text: str) -> str:
    """A fact's words as it means them, before they are read: straight apostrophes, a title's
    full stop dropped, "maths" as "math", "the user" as the speaker, a "'s" that is "is" written
    so, "neither ... nor" after its word."""
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")
    text = _SIGN.sub(lambda match: f" {_SIGNS[match[1]]} ", text)
    text = _MATHS.sub(r"\1", _TITLE_STOP.sub(r"\1", text))
    text = _THE_USER.sub("I", _THE_USERS.sub("my", text))
    text = _SAID_IS.sub(r"\1 is \2", text)
    text = _IS_BEFORE_WORD.sub(_is_unless_a_place, text)
    text = _DENIED_ALLERGY.sub(_denied_allergy, text)
    return _NEITHER.sub(_neither, text)


_SIGNS = {
    "<": "less than",
    ">": "more than",
    "\u2264": "at most",
    "\u2265": "at least",
    "+": "plus",
}
_SIGN = re.compile(r"(?:(?<=\s)|^)([<>\u2264\u2265+])\s*(?=\d)")
"""A sign before a number, said as words ("PB: <22 min", "the +73kg class"; a minus is read
with its number)."""


# A note that denies a state: "Allergy: not peanuts", "allergy no longer cats" is "not
# allergic to peanuts", "no longer allergic to cats".
_DENIED_ALLERGY = re.compile(
    r"\b(allerg(?:y|ies|ic)|intoleran(?:t|ce))\s*(?::\s*)?(?:to\s+)?"
    r"(no longer|not|no(?! longer))\s+(?:to\s+)?(?=(?!\w+ed\b)(?![\w ,]*\bbother)[\w ,]+$)",
    re.IGNORECASE,
)
"""A note's denial of a state, the things it is to ending the note ("Allergy: not peanuts",
"allergies not nuts or eggs"); not a state said to do something ("my intolerance no longer
bothers me", "the allergy not confirmed yet")."""


def _denied_allergy(match: re.Match[str]) -> str:
    denial = "no longer" if (match[2] or "").lower() == "no longer" else "not"
    state = "intolerant" if match[1].lower().startswith("intoleran") else "allergic"
    return f"{denial} {state} to "


def _is_unless_a_place(match: re.Match[str]) -> str:
    """ "'s" as "is" ("sam's in the car"), but not of a place named by whose it is ("to the
    doctor's on Monday", "at Tom's on Friday")."""
    if leads_to_a_place(match.string[: match.start()].lower().split()):
        return match[0]
    return f"{match[1]} is "


def leads_to_a_place(before: Sequence[str]) -> bool:
    """Whether the words ``before`` a "'s" lead to a place named by whose it is: "to", "at" or
    "from", perhaps with "the" or an owner between ("to the doctor's", "at my mum's")."""
    last = list(before[-2:])
    if last and last[-1] in _OWNING_BEFORE:
        last = last[:-1]
    return bool(last) and last[-1] in _TO_A_PLACE


_TO_A_PLACE = frozenset("to at from round near into".split())
_OWNING_BEFORE = frozenset("the my our your his her their".split())


def tokenize(text: str) -> tuple[Token, ...]:
    """Split a fact into tokens, expanding contractions and reading numbers and clock times."""
    text = as_said(text)
    for pattern, times in _TIMES:
        text = pattern.sub(times, text)
    for pattern, words in _SYMBOLS:
        text = pattern.sub(words, text)
    text = _BARE_NEGATIVE.sub(r"\1 not", _CONTRACTIONS.sub(_expand, _HAD.sub(" had", text)))
    for pattern, parts in _PARTS_OF_ONE:
        text = pattern.sub(parts, text)
    for pattern, words in _FRACTIONS:
        text = pattern.sub(_fraction(words), text)
    text = undashed_digits(text)
    text = _SPOKEN_YEAR.sub(_year, alpha2digit(text, "en"))
    text = _SCALED.sub(_scaled, text)
    text = _GRAND.sub(lambda found: f"{(Decimal(found[1]) * 1000).normalize():f}", text)
    text = _LEADING_ZERO_RUN.sub(lambda found: re.sub("[ -]", "", found[0]), text)
    text = _LETTER_AFTER_NUMBER.sub(_number_and_letter, text)
    tokens: list[Token] = []
    sentence_start = True
    for match in _TOKEN.finditer(text):
        surface = match.group(0)
        if match.lastgroup == "stop":
            tokens.append(Token(surface, surface, TokenKind.BREAK))
            sentence_start = sentence_start or surface in ".!?"
        elif match.lastgroup == "time":
            tokens.append(Token(clock(surface), surface, TokenKind.TIME))
            sentence_start = False
        elif match.lastgroup == "joined":
            # a date "3/4", "24/7": one value whose parts keep their order ("4/3" is another
            # day); a score or a phone number with dashes is numbers in an order (see reading)
            tokens.append(Token(surface, surface, TokenKind.NUMBER))
            sentence_start = False
        elif match.lastgroup == "address":
            # an email address is one value, its parts in their order ("jones.sam@" is another),
            # its case no part of it
            tokens.append(Token(surface.lower(), surface.lower(), TokenKind.WORD))
            sentence_start = False
        elif match.lastgroup == "number":
            digits = _ORDINAL_SUFFIX.sub("", surface).replace(",", "").replace("\u2212", "-")
            tokens.append(Token(digits, surface, TokenKind.NUMBER))
            sentence_start = False
        else:
            tokens.extend(word_tokens(surface, sentence_start))
            sentence_start = False
    return tuple(tokens)


def word_tokens(surface: str, initial: bool) -> list[Token]:
    """A word as one token, or two when it ends in a possessive "'s"."""
    word, possessive = surface, ""
    if surface.lower().endswith("'s"):
        word, possessive = surface[:-2], surface[-2:]
    elif surface.endswith("'"):  # "the kids' school"
        word, possessive = surface[:-1], "'"
    lower = word.lower()
    capitalised = any(char.isupper() for char in word) and lower != "i"
    if lower in _CLOCK_WORDS:
        tokens = [Token(_CLOCK_WORDS[lower], word, TokenKind.TIME)]
    elif lower in NUMBER_WORDS:
        tokens = [Token(str(NUMBER_WORDS[lower]), word, TokenKind.NUMBER)]
    else:
        tokens = [Token(lower, word, TokenKind.WORD, capitalised, initial)]
    if possessive:
        if lower in _IS_BEFORE:
            tokens.append(Token("is", possessive, TokenKind.WORD))
        else:
            tokens.append(Token("'s", possessive, TokenKind.POSSESSIVE))
    return tokens


def clock(surface: str) -> str:
    """Normalise a clock time to ``h:mm`` plus ``am``/``pm`` when known ("19:30" -> "7:30pm",
    "06:00" -> "6:00am")."""
    match = _TIME_PARTS.match(surface.strip())
    if match is None:
        return surface.lower()
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    meridiem = (match.group(3) or "").lower()
    if meridiem:
        return f"{hour % 12 or 12}:{minute:02d}{meridiem}m"
    if hour > 12:
        return f"{hour - 12}:{minute:02d}pm"
    if hour == 0:
        return f"12:{minute:02d}am"
    # Two hour digits and minutes are the 24-hour clock: "06:00" is morning, "12:30" midday
    # ("7:30" and "10:30" say no half of the day).
    if len(match.group(1)) == 2 and match.group(2) is not None and (hour < 10 or hour == 12):
        return f"{hour}:{minute:02d}{'pm' if hour == 12 else 'am'}"
    return f"{hour}:{minute:02d}"


def clock_agrees(first: str, second: str) -> bool:
    """Whether two normalised clock times can be the same time ("7:00" agrees with "7:00pm")."""
    if first == second:
        return True
    first_bare, second_bare = first.rstrip("apm"), second.rstrip("apm")
    first_half, second_half = first[len(first_bare) :], second[len(second_bare) :]
    return first_bare == second_bare and not (first_half and second_half)


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """A light stem so inflections compare equal: lives, living, lived and live all give "liv"."""
    if len(word) <= 3 or word in _KEEP_ENDINGS or not word.isalpha():
        return word
    if word.endswith(("ies", "ied")) and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("ying") and len(word) > 5:
        word = word[:-3]
    elif (
        word.endswith("sses")
        or (word.endswith("es") and word[-3] in "sxz")
        or word.endswith(("ches", "shes"))
    ):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    elif word.endswith("ing") and len(word) > 4 and _has_vowel(word[:-3]):
        word = _undouble(word[:-3])
    elif word.endswith("ed") and len(word) > 4 and not word.endswith("eed"):
        word = _undouble(word[:-2])
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def _has_vowel(text: str) -> bool:
    return any(char in "aeiouy" for char in text)


def _undouble(word: str) -> str:
    """Undo a doubled final consonant ("swimm" -> "swim"), keeping ll/ss/zz ("call", "pass")."""
    if len(word) >= 3 and word[-1] == word[-2] and word[-1] not in "aeiouylsz":
        return word[:-1]
    return word
