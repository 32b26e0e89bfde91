"""Reading what a damaged table still holds, around the pages that cannot be read.

A full scan of a table stops at its first damaged page ("database disk image is malformed"), so
one bad page of an SD card kept ``export`` from every fact. A table is a B-tree ordered by rowid,
and a query for a range of rowids touches only the pages that hold that range: read the whole
range, and where that fails, read each half, down to single rowids. What is readable comes back;
what is not is named as spans of rowids. The search is bounded: past ``budget`` reads, the
ranges not yet read are reported lost rather than searched one rowid at a time (a damaged last
page stands for every rowid above the table's last one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

READ_BUDGET = 20_000
"""Range reads one salvage may make: each is a B-tree seek, so this is well under a second on a
Pi, and it finds every readable row around a few damaged pages of a household's tables."""


class UnreadablePage(Exception):
    """A read met a page that cannot be read (for ``read`` to raise)."""


@dataclass(frozen=True)
class Salvage:
    """The rows read, in rowid order, and the spans of rowids that could not be read."""

    rows: list[tuple]
    lost: tuple[tuple[int, int], ...]


def readable_rows(
    read: Callable[[int, int], list[tuple]], low: int, high: int, budget: int = READ_BUDGET
) -> Salvage:
    """Every row ``read(first, last)`` can return for rowids ``low`` to ``high``, reading
    smaller ranges where a range raises ``UnreadablePage``."""
    rows: list[tuple] = []
    lost: list[tuple[int, int]] = []
    pending = [(low, high)]  # a stack, lowest range on top, so rows come out in order
    while pending:
        first, last = pending.pop()
        if budget <= 0:
            _add_span(lost, first, last)
            continue
        budget -= 1
        try:
            rows.extend(read(first, last))
        except UnreadablePage:
            if first == last:
                _add_span(lost, first, last)
            else:
                middle = first + (last - first) // 2
                pending.extend(((middle + 1, last), (first, middle)))
    return Salvage(rows, tuple(lost))


def _add_span(lost: list[tuple[int, int]], first: int, last: int) -> None:
    if lost and lost[-1][1] + 1 == first:
        lost[-1] = (lost[-1][0], last)
    else:
        lost.append((first, last))
