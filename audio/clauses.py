"""Where a reply's first sentence can be cut so its first clause is spoken on its own, sooner.

Piper's time grows with the text, so the first audio of a reply comes sooner when the first piece
made is short. A first sentence is cut once, at the first clause boundary after a few words: a
comma, semicolon or colon followed by a space, a dash between words, or just before a conjunction
that opens a clause ("but", "because", ...). The rest of the sentence is made while the first
clause plays. A cut is refused where it would sound wrong when the two parts are said apart:

- inside a number or a time ("1,000", "7:30"): a mark counts only when a space follows it;
- after an abbreviation ("e.g.,", "Dr.:"): the word before the mark holds a full stop;
- in a list ("eggs, flour and milk", "Tom, Priya and Sam", "3, 4 or 5"): the comma is followed by
  a short item that another comma or "and"/"or" closes;
- before a conjunction between numbers ("between 3 and 5") or right after a few words of the
  sentence (a clause of one word before a conjunction is no clause);
- when what would be left is a word or two: that is no quicker, and the join is heard.

Pure text in, parts out; the parts joined with a space give the sentence back (a dash between
two words without spaces, "lovely\u2014just", stays on the first part).
"""

from __future__ import annotations

import re

MIN_SENTENCE_CHARS = 24
"""A shorter first sentence is made whole: Piper makes it about as fast as one of its clauses."""
MAX_CLAUSE_CHARS = 60
"""The first clause ends by here (about 3.5 s of speech), or the sentence is made whole."""
MIN_CLAUSE_WORDS = 2
"""Words before a mark ("You asked:", "In Kenya,"); a conjunction needs one more before it."""
MIN_REST_WORDS = 3
LIST_ITEM_WORDS = 2
"""A comma followed by at most this many words and then a comma, "and" or "or" is a list's."""

_MARK = re.compile(r"[,;:](?=\s)|\s[-\u2013\u2014](?=\s)|(?<=\w)\u2014(?=\w)")
_CONJUNCTION = re.compile(
    r"\s(?=(?:but|because|although|though|whereas|unless|so that|and then)\s)", re.IGNORECASE
)
_LIST_CLOSER = re.compile(r"[,;](?=\s)|\s(?:and|or)\s", re.IGNORECASE)
_NUMBER_WORDS = frozenset(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty "
    "ninety hundred thousand million billion half quarter".split()
)


def split_first_clause(sentence: str) -> tuple[str, ...]:
    """``sentence`` as its first clause and the rest, or whole when no cut sounds right."""
    text = sentence.strip()
    if len(text) < MIN_SENTENCE_CHARS:
        return (text,) if text else ()
    for cut in _candidates(text):
        if cut > MAX_CLAUSE_CHARS:
            break
        head, rest = text[:cut].rstrip(), text[cut:].strip()
        if len(rest.split()) >= MIN_REST_WORDS:
            return head, rest
    return (text,)


def _candidates(text: str) -> list[int]:
    """Where the text may be cut (the end of the first part), in order."""
    cuts = [m.end() for m in _MARK.finditer(text) if _mark_allowed(text, m.start(), m.end())]
    spaces = (m.start() for m in _CONJUNCTION.finditer(text))
    cuts += [space for space in spaces if _conjunction_allowed(text, space)]
    return sorted(cuts)


def _mark_allowed(text: str, start: int, end: int) -> bool:
    head = text[:start].split()
    if len(head) < MIN_CLAUSE_WORDS or "." in head[-1]:
        return False
    return not (text[end - 1] == "," and _opens_list_item(text, end))


def _opens_list_item(text: str, after: int) -> bool:
    """Whether the words after a comma are a short item that a comma or "and"/"or" closes; a
    comma right before "and"/"or" is a list's only after a short item that a comma opened
    ("flour, and milk", not "the light is on, and the oven ...")."""
    closer = _LIST_CLOSER.search(text, after)
    if closer is None:
        return False
    item = text[after : closer.start()].split()
    if item:
        return len(item) <= LIST_ITEM_WORDS
    before = text[: after - 1]
    opened = before.rfind(", ")
    return opened >= 0 and len(before[opened + 1 :].split()) <= LIST_ITEM_WORDS


def _conjunction_allowed(text: str, space: int) -> bool:
    head = text[:space].split()
    if len(head) <= MIN_CLAUSE_WORDS:
        return False
    before = head[-1].strip(",;:").lower()
    after = text[space:].split()[1].lower() if len(text[space:].split()) > 1 else ""
    return not (_is_number(before) or _is_number(after))


def _is_number(word: str) -> bool:
    return word.replace(",", "").replace(".", "").isdigit() or word in _NUMBER_WORDS
