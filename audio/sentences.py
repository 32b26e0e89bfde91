"""Cut text into sentences, whole or as a language model streams it, so speech can start early.

A sentence ends at ``.``, ``!`` or ``?`` (closing quotes, brackets and emphasis marks may follow)
when whitespace comes next, and at every line break. It does not end at a decimal point ("3.5"),
after a title or Latin abbreviation ("Dr.", "e.g."), an initialism or initial ("U.S.", "J."), a
list number at the start of a line ("1. Buy milk") or an ellipsis. A fenced code block is one piece,
however many lines it has, so :func:`audio.speakable.speakable` can replace it with a phrase.

A run of words with no sentence end (a small model in a repetition loop: "and then the river"
four hundred times) is cut into pieces of at most :data:`MAX_SENTENCE_CHARS`, at a clause mark or
a space, so no single piece takes longer to synthesise than a voice's deadline allows.

The streaming splitter decides each boundary from the text before it and at most the next
character, so any chunking of the same text gives the same sentences as :func:`split_sentences`.
"""

from __future__ import annotations

import re

_TERMINATORS = frozenset(".!?…")
# Straight and curly quotes, brackets, guillemets and markdown emphasis.
_CLOSERS = frozenset("\"')]}\u201d\u2019\u00bb*_")
_TRAILING_MARKS = _TERMINATORS | _CLOSERS
_OPENERS = "\"'([{\u201c\u2018\u00ab*_"
_FENCE = re.compile(r"[ \t]*(```|~~~)")
_INITIALISM = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]|[A-Z]")
_LIST_NUMBER = re.compile(r"\d{1,3}")
_NON_TERMINAL_ABBREVIATIONS = frozenset(
    "dr mr mrs ms mx prof st mt vs cf approx fig sgt capt lt col gen gov rev hon".split()
)
"""Abbreviations that (nearly) never end a sentence; "etc." and "Inc." often do, so they may."""
MAX_SENTENCE_CHARS = 300
"""Longest piece handed on (about 18 s of speech). Longer sentences are cut: after the last clause
mark (, ; :) in the second half of the piece, else at the last space, else (one endless word) at
exactly this many characters. A code block stays one piece: it is replaced by a phrase, not read."""
_FEED_SLICE = 4096
"""A huge piece (a 5 MB message) is taken this much at a time, so cutting it costs time in
proportion to its length rather than to its length squared."""
_CLAUSE_MARK = re.compile(r"[,;:](?=\s)")


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, stripped, without empty ones."""
    splitter = IncrementalSentenceSplitter()
    return [*splitter.feed(text), *splitter.flush()]


class IncrementalSentenceSplitter:
    """Takes text in pieces as it streams and hands back each sentence as soon as it is complete.

    ``feed`` returns the sentences the new piece completed; ``flush`` returns what is left at the
    end of the stream and makes the splitter ready for the next text.
    """

    def __init__(self, max_chars: int = MAX_SENTENCE_CHARS) -> None:
        self._max_chars = max_chars
        self._reset()

    def _reset(self) -> None:
        self._buffer = ""
        self._scanned = 0
        """Characters of the buffer already judged: none of them ends a sentence."""
        self._line_start: int | None = 0
        """Where the current line starts in the buffer; None when it started before a cut."""
        self._in_fence = False

    def feed(self, piece: str) -> list[str]:
        """Add a piece of streamed text; return the sentences it completed, in order."""
        sentences = []
        for start in range(0, len(piece), _FEED_SLICE):
            self._buffer += piece[start : start + _FEED_SLICE]
            while (end := self._next_boundary()) is not None:
                sentence = self._buffer[:end].strip()
                self._cut(end)
                if sentence:
                    sentences.append(sentence)
        return sentences

    def flush(self) -> list[str]:
        """End of the stream: return the unfinished last sentence, if any, and start afresh."""
        rest = self._buffer.strip()
        self._reset()
        return [rest] if rest else []

    def _cut(self, end: int) -> None:
        self._buffer = self._buffer[end:]
        self._scanned -= end
        if self._line_start is not None:
            self._line_start = self._line_start - end if self._line_start >= end else None

    def _next_boundary(self) -> int | None:
        """End of the first complete sentence in the buffer, or None until more text arrives."""
        buffer = self._buffer
        i = self._scanned
        while i < len(buffer):
            if i >= self._max_chars and not self._in_fence:
                return self._forced_cut()
            char = buffer[i]
            if char == "\n":
                boundary = self._end_of_line(i)
                i += 1
                if boundary is not None:
                    self._scanned = i
                    return boundary
                continue
            if self._in_fence or char not in _TERMINATORS:
                i += 1
                continue
            after = i + 1
            while after < len(buffer) and buffer[after] in _TRAILING_MARKS:
                after += 1
            if after == len(buffer):
                break  # whether this ends a sentence depends on the next character
            if buffer[after].isspace() and self._ends_sentence(i, after):
                self._scanned = after
                return after
            i = after
        self._scanned = i
        return None

    def _forced_cut(self) -> int:
        """Where a run too long for one sentence is cut: a clause mark, else a space, else hard."""
        window = self._buffer[: self._max_chars + 1]
        half = self._max_chars // 2
        clauses = [mark.end() for mark in _CLAUSE_MARK.finditer(window, half)]
        if clauses:
            end = clauses[-1]
        else:
            space = max(window.rfind(" "), window.rfind("\t"))
            end = space if space > 0 else self._max_chars
        self._scanned = end
        return end

    def _end_of_line(self, newline: int) -> int | None:
        """A line break ends a sentence, except inside a fenced code block (one piece)."""
        line = "" if self._line_start is None else self._buffer[self._line_start : newline]
        self._line_start = newline + 1
        if _FENCE.match(line):
            self._in_fence = not self._in_fence
            if self._in_fence:
                return None
        elif self._in_fence:
            return None
        return newline + 1

    def _ends_sentence(self, first: int, after: int) -> bool:
        """Whether the terminators in ``buffer[first:after]`` (and closers) end a sentence."""
        marks = self._buffer[first:after]
        if "!" in marks or "?" in marks:
            return True
        if "…" in marks or marks.count(".") > 1:
            return False  # an ellipsis trails off; the thought usually goes on
        word_start = first
        while word_start > 0 and not self._buffer[word_start - 1].isspace():
            word_start -= 1
        word = self._buffer[word_start:first].lstrip(_OPENERS)
        if word.lower() in _NON_TERMINAL_ABBREVIATIONS or _INITIALISM.fullmatch(word):
            return False
        starts_line = (
            self._line_start is not None and not self._buffer[self._line_start : word_start].strip()
        )
        return not (starts_line and _LIST_NUMBER.fullmatch(word))
