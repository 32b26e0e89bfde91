"""Facts as they are spoken: clock phrases, digits said one by one, fillers, and "'s" for "is".

Transcripts say "quarter past eight", "eight forty", "four two seven", "um, like", "the
flight's on Friday"; model-extracted statements say "8:15", "427" and "The flight is on Friday".
These passes turn the spoken tokens into the written ones, so both read the same value. Number
words are already digits here (``words.tokenize`` reads them with text2num); this reads what no
number library does: the clock's own phrases and the day parts said in words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.judging import lexicon
from memory.judging.markers import participle
from memory.judging.terms import is_known
from memory.judging.words import PREPOSITIONS, Token, TokenKind, clock, leads_to_a_place

# Sounds and words that only hold the floor. "like" and "well" are fillers only where they
# cannot be a liking or a manner (see _is_filler_like).
FILLERS = frozenset("um umm uh uhh er erm uhm hmm mm mhm basically literally honestly".split())
_FILLER_PHRASES = (("you", "know"), ("i", "guess"))
# Words that frame a fact rather than say it, where they frame it: "turns out" first in a clause
# ("turns out lily isn't allergic"), "after all" last ("... to penicillin after all").
_OPENING_PHRASES = (
    ("no", "wait"),  # a spoken correction: "no wait, emma's lesson is at eleven"
    ("oh", "wait"),
    ("it", "turns", "out", "that"),
    ("it", "turns", "out"),
    ("turns", "out", "that"),
    ("turns", "out"),
    ("yeah",),  # a transcript's way in: "yeah so the bins go out on tuesday"
    ("yep",),
    ("okay",),
    ("ok",),
)
_CLOSING_PHRASES = (("after", "all"),)
# A "no" that opens a spoken correction, before who the fact is about ("no i'd like onions",
# "no emma wants cheese"), not one that denies a thing ("no onions on my pizza", "no one").
_CORRECTING_BEFORE = frozenset("i we you he she they it".split())
_WANTING = frozenset("wants likes needs prefers takes has loves hates goes does".split())
_NOT_NAMES = frozenset("one body more longer way child dog cat sugar meat milk".split())
"""Words after "no" that say none of a thing, not who the fact is about."""
# Words after which a "like" is no liking: "like i really love it", "i usually like have lunch".
_AFTER_FILLER_LIKE = frozenset(
    "i we you he she they really totally so just actually basically literally um uh "
    "love loves loved adore adores enjoy enjoys hate hates have has go goes take takes get gets "
    "do does eat eats make makes".split()
)
# Prepositions before a clock time: "at eight forty", "by half ten".
_CLOCK_BEFORE = frozenset("at by from until till around about before after since".split())
# A clock time's day part said in words: "eight in the morning" is 8am.
_DAY_PARTS = {
    ("in", "the", "morning"): "am",
    ("in", "the", "afternoon"): "pm",
    ("in", "the", "evening"): "pm",
    ("at", "night"): "pm",
}
_ZERO = frozenset(("oh", "o", "zero"))
_DECIMAL_TIME = re.compile(r"\d{1,2}\.\d{2}")
# Day parts said elsewhere in the clause: "on thursday evenings at six" is 6pm.
_DAY_PART_WORDS = {
    "morning": "am",
    "mornings": "am",
    "afternoon": "pm",
    "afternoons": "pm",
    "evening": "pm",
    "evenings": "pm",
    "tonight": "pm",
}
_QUARTERS = {"quarter": 15, "half": 30}
# Minutes said before an hour: "ten past nine", "twenty to six" (not "nine to five").
_MINUTES_BEFORE_HOURS = frozenset((5, 10, 20, 25))
_MIN_DIGIT_RUN = 3
"""Single digits said one after another, at least this many, are one number ("four two seven")."""
# After "X's", words that show the "'s" is "is" (or "has"), not a possessive.
_IS_FOLLOWERS = frozenset(
    "a an the not now still also always never just really very so on at in off out from over "
    "with usually probably definitely due down up back called named set got gone been going "
    "moving coming allergic intolerant vegetarian vegan diabetic pregnant ill sick afraid scared "
    "busy asleep awake nearly almost already".split()
)


def hear(tokens: Sequence[Token]) -> list[Token]:
    """The tokens of a spoken fact as the written fact would have them."""
    heard = _without_fillers(tokens)
    heard = _clock_phrases(heard)  # first: "at eight oh five" is a time, not 805
    heard = _digit_runs(heard)
    heard = _day_parts(heard)
    heard = _day_part_words(heard)
    return _is_contractions(heard)


def _word(token: Token | None) -> str:
    return token.text if token is not None and token.kind is TokenKind.WORD else ""


def _without_fillers(tokens: Sequence[Token]) -> list[Token]:
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        phrase = _framing_phrase(tokens, index, kept)
        if phrase:
            index += phrase
            continue
        unit = _word(token) == "mm" and bool(kept) and kept[-1].kind is TokenKind.NUMBER
        if (_word(token) in FILLERS and not unit) or _is_filler_like(tokens, index, kept):
            # A filler's own comma ("um, my alarm") goes with it.
            index += 1
            if index < len(tokens) and tokens[index].text == "," and not kept:
                index += 1
            continue
        kept.append(token)
        index += 1
    return kept


def _framing_phrase(tokens: Sequence[Token], index: int, kept: Sequence[Token]) -> int:
    """How many tokens a filler phrase at ``index`` spans ("you know", "turns out"), or 0."""
    clause_start = not kept or kept[-1].kind is TokenKind.BREAK
    candidates = [
        *_FILLER_PHRASES,
        *(_OPENING_PHRASES if clause_start else ()),
        *_CLOSING_PHRASES,
    ]
    if clause_start and _correcting_no(tokens, index):
        return 1
    for phrase in candidates:
        end = index + len(phrase)
        words = tuple(_word(token) for token in tokens[index:end])
        if words != phrase:
            continue
        if (
            phrase in _CLOSING_PHRASES
            and end < len(tokens)
            and tokens[end].kind is not TokenKind.BREAK
        ):
            continue  # "after all the others" says when
        return len(phrase)
    return 0


def _correcting_no(tokens: Sequence[Token], index: int) -> bool:
    """A "no" that opens a correction: before a pronoun, or before a name and its verb ("no
    emma wants cheese"); not before a thing ("no sugar goes in", "no one likes sprouts")."""
    following = [_word(token) for token in tokens[index + 1 : index + 3]]
    if _word(tokens[index]) != "no" or not following:
        return False
    if following[0] in _CORRECTING_BEFORE:
        return True
    named = not is_known(following[0]) and following[0] not in _NOT_NAMES
    return named and len(following) == 2 and following[1] in _WANTING


def _is_filler_like(tokens: Sequence[Token], index: int, kept: Sequence[Token]) -> bool:
    """ "like" that holds the floor: first in the fact, after a pause or a filler, or before
    a word a liking cannot take ("like i really love thai food", "i usually like have lunch")."""
    if _word(tokens[index]) != "like":
        return False
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    previous = kept[-1] if kept else None
    if previous is None or previous.kind is TokenKind.BREAK:
        return following is not None and following.kind is TokenKind.WORD
    return _word(following) in _AFTER_FILLER_LIKE or _word(previous) in FILLERS


def _digit(token: Token) -> str:
    """The digit a token says ("7", "oh"), or ""."""
    if token.kind is TokenKind.NUMBER and len(token.text) == 1 and token.text.isdigit():
        return token.text
    return "0" if _word(token) in _ZERO else ""


def _digit_runs(tokens: Sequence[Token]) -> list[Token]:
    """ "ends in four two seven" is 427; "the code's five nine three oh" is 5930."""
    result: list[Token] = []
    index = 0
    while index < len(tokens):
        end = index
        while end < len(tokens) and _digit(tokens[end]):
            end += 1
        run = tokens[index:end]
        if len(run) >= _MIN_DIGIT_RUN and any(token.kind is TokenKind.NUMBER for token in run):
            digits = "".join(_digit(token) for token in run)
            surface = " ".join(token.surface for token in run)
            result.append(Token(digits, surface, TokenKind.NUMBER))
            index = end
        else:
            result.append(tokens[index])
            index += 1
    return result


def _number(token: Token | None) -> int | None:
    if token is None or token.kind is not TokenKind.NUMBER or not token.text.isdigit():
        return None
    return int(token.text)


def _hour(token: Token | None) -> int | None:
    value = _number(token)
    return value if value is not None and 1 <= value <= 12 else None


def _time(hour: int, minute: int, surface: Sequence[Token]) -> Token:
    text = " ".join(token.surface for token in surface)
    return Token(clock(f"{hour}:{minute:02d}"), text, TokenKind.TIME)


def _clock_phrases(tokens: Sequence[Token]) -> list[Token]:
    """ "quarter past eight", "half past seven", "quarter to four", "twenty past six",
    "half ten", "eight forty", "eight oh five", "one o'clock": clock times."""
    result: list[Token] = []
    index = 0
    while index < len(tokens):
        read = _clock_at(tokens, index, result[-1] if result else None)
        if read is None:
            result.append(tokens[index])
            index += 1
            continue
        time, length = read
        result.append(time)
        index += length
    return result


def _clock_at(
    tokens: Sequence[Token], index: int, previous: Token | None
) -> tuple[Token, int] | None:
    """The clock time that starts at ``index``, and how many tokens say it."""

    def at(offset: int) -> Token | None:
        return tokens[index + offset] if index + offset < len(tokens) else None

    def said(length: int) -> Sequence[Token]:
        return tokens[index : index + length]

    first = _word(at(0))
    in_clock = _word(previous) in _CLOCK_BEFORE
    decimal = at(0)
    if in_clock and decimal is not None and _DECIMAL_TIME.fullmatch(decimal.text):
        hour, minute = (int(part) for part in decimal.text.split("."))
        if 1 <= hour <= 12 and minute < 60:
            return _time(hour, minute, said(1)), 1  # "at 6.30", British for 6:30
    minutes = _QUARTERS.get(first) or _number(at(0))
    if minutes is not None and (first in _QUARTERS or minutes in _MINUTES_BEFORE_HOURS):
        skip = 2 if _word(at(1)) in ("minute", "minutes") else 1
        direction, hour = _word(at(skip)), _hour(at(skip + 1))
        if hour is not None and direction in ("past", "after"):
            return _time(hour, minutes, said(skip + 2)), skip + 2
        # "quarter to four"; never "from five to nine", a span of hours.
        spans = _word(previous) in ("from", "between")
        if hour is not None and direction == "to" and first != "half" and not spans:
            return _time(hour - 1 or 12, 60 - minutes, said(skip + 2)), skip + 2
    if first == "half" and in_clock and (hour := _hour(at(1))) is not None:
        return _time(hour, 30, said(2)), 2  # British "half ten": 10:30
    hour = _hour(at(0))
    if hour is None:
        return None
    second = _word(at(1))
    if second in ("o'clock", "oclock"):
        return _time(hour, 0, said(2)), 2
    if in_clock and second in _ZERO and 1 <= (_number(at(2)) or 0) <= 9:
        return _time(hour, _number(at(2)) or 0, said(3)), 3  # "eight oh five"
    minute = _number(at(1))
    if in_clock and minute is not None and 10 <= minute <= 59:
        return _time(hour, minute, said(2)), 2  # "at eight forty"
    return None


def _day_parts(tokens: Sequence[Token]) -> list[Token]:
    """ "eight in the morning" is 8am, "at seven in the evening" 7pm; "at night" is pm."""
    result: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        clock_like = token.kind is TokenKind.TIME or (
            _hour(token) is not None and _word(result[-1] if result else None) in _CLOCK_BEFORE
        )
        part = _day_part_after(tokens, index + 1) if clock_like else None
        if part is None:
            result.append(token)
            index += 1
            continue
        half, length = part
        bare = token.text if token.kind is TokenKind.TIME else f"{token.text}:00"
        if bare.endswith(("am", "pm")):
            result.append(token)  # already says which half of the day; the words stay content
            index += 1
            continue
        words = tokens[index + 1 : index + 1 + length]
        surface = " ".join(item.surface for item in (token, *words))
        result.append(Token(clock(f"{bare}{half}"), surface, TokenKind.TIME))
        index += 1 + length
    return result


def _day_part_words(tokens: Sequence[Token]) -> list[Token]:
    """ "my yoga class is on thursday evenings at six": one clock time without its half and one
    day part in the same clause make one time (6pm), as "I have yoga at 6 pm" says it."""
    result: list[Token] = []
    clause: list[Token] = []
    for token in [*tokens, None]:
        if token is not None and token.kind is not TokenKind.BREAK:
            clause.append(token)
            continue
        result.extend(_fold_day_part(clause))
        clause = []
        if token is not None:
            result.append(token)
    return result


def _fold_day_part(clause: list[Token]) -> list[Token]:
    times = [
        index
        for index, token in enumerate(clause)
        if token.kind is TokenKind.TIME
        or (_hour(token) is not None and index and _word(clause[index - 1]) in _CLOCK_BEFORE)
    ]
    parts = [index for index, token in enumerate(clause) if _word(token) in _DAY_PART_WORDS]
    if len(times) != 1 or len(parts) != 1 or clause[times[0]].text.endswith(("am", "pm")):
        return clause
    time, part = clause[times[0]], clause[parts[0]]
    bare = time.text if time.kind is TokenKind.TIME else f"{time.text}:00"
    folded = Token(clock(bare + _DAY_PART_WORDS[part.text]), time.surface, TokenKind.TIME)
    return [
        folded if index == times[0] else token
        for index, token in enumerate(clause)
        if index != parts[0]
    ]


def _day_part_after(tokens: Sequence[Token], start: int) -> tuple[str, int] | None:
    for words, half in _DAY_PARTS.items():
        window = tokens[start : start + len(words)]
        if tuple(_word(token) for token in window) == words:
            return half, len(words)
    return None


def _a_place_of_someone(tokens: Sequence[Token], index: int) -> bool:
    """Whether the "'s" at ``index`` names a place by whose it is: "to the doctor's on
    Monday", "at Tom's on Friday", "at uncle jim's", "at mum and dad's" (not "Tom's at
    work")."""
    before = tokens[max(0, index - _OWNER_WORDS - 2) : index]
    words = [token.text for token in before]
    owner = 1
    if len(words) > 1 and (words[-2] in lexicon.TITLES or words[-2] in lexicon.RELATIONS):
        owner = 2  # a title or a relative before a name: "uncle jim"
    elif len(words) > 2 and words[-2] == "and" and all(map(_someone, (before[-1], before[-3]))):
        owner = 3  # two people: "mum and dad" (not "to the pub and Tom's driving")
    return leads_to_a_place(words[max(0, len(words) - owner - 2) : len(words) - owner])


_OWNER_WORDS = 3
"""Words an owner before "'s" may take ("mum and dad")."""


def _someone(token: Token) -> bool:
    """A relative, or a name written as one."""
    return token.text in lexicon.RELATIONS or (token.capitalised and not token.initial)


def _after_a_preposition(tokens: Sequence[Token], index: int) -> bool:
    """Whether the word before the "'s" at ``index`` follows a preposition, perhaps with an
    owner or "the" between: "with Anna's", "for my friend's"."""
    before = index - 2
    if before >= 0 and tokens[before].text in _OWNERS:
        before -= 1
    return before >= 0 and tokens[before].text in PREPOSITIONS


_OWNERS = frozenset("the my our your his her their".split())


def _is_contractions(tokens: Sequence[Token]) -> list[Token]:
    """ "the flight's on Friday", "my husband's a big fan": "'s" before an article, a number,
    an adverb or a participle is "is", not a possessive."""
    result = list(tokens)
    for index, token in enumerate(result):
        if token.kind is not TokenKind.POSSESSIVE or _a_place_of_someone(result, index):
            continue
        following = result[index + 1] if index + 1 < len(result) else None
        if following is None or following.kind in (TokenKind.BREAK, TokenKind.NUMBER,
                                                    TokenKind.TIME):  # fmt: skip
            is_verb = True
        else:
            word = following.text
            after = result[index + 2] if index + 2 < len(result) else None
            # "the wifi password's bluebird9 now": one word, then nothing, is what it is; not
            # after a preposition ("works with Anna's dad": whose, where no "is" can stand).
            ends = (after is None or after.kind is TokenKind.BREAK or after.text == "now") and not (
                _after_a_preposition(result, index) and not participle(word)
            )
            # "the pool's closed", "my sister's moved": a participle after "has" or "is", which
            # say the same of now ("used" is also an adjective: "my brother's used car")
            if len(word) > 4 and word.endswith("ed"):
                result[index] = Token("has", token.surface, TokenKind.WORD)
                continue
            is_verb = word in _IS_FOLLOWERS or word in PREPOSITIONS or word.endswith("ing") or ends
        if is_verb:
            result[index] = Token("is", token.surface, TokenKind.WORD)
    return result
