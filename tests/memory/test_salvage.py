"""The salvage of a damaged table as pure arithmetic: a table of rowids, some on pages that
cannot be read, and the range reads a B-tree answers."""

from __future__ import annotations

from memory.salvage import UnreadablePage, readable_rows


def table(rowids: range, damaged: set[int]):
    """A read over ``rowids`` that fails for any range touching a damaged rowid, as a range
    read fails when it reaches a damaged page."""
    reads = []

    def read(first: int, last: int) -> list[tuple]:
        reads.append((first, last))
        if any(first <= rowid <= last for rowid in damaged):
            raise UnreadablePage("database disk image is malformed")
        return [(rowid,) for rowid in rowids if first <= rowid <= last]

    return read, reads


def test_a_sound_table_is_one_read():
    read, reads = table(range(1, 101), set())
    salvage = readable_rows(read, 1, 2**63 - 1)
    assert salvage.rows == [(rowid,) for rowid in range(1, 101)] and salvage.lost == ()
    assert len(reads) == 1


def test_every_row_around_damaged_pages_is_read_in_order_and_the_rest_is_named():
    damaged = set(range(41, 48)) | {90}
    read, reads = table(range(1, 101), damaged)
    salvage = readable_rows(read, 1, 2**63 - 1)
    assert salvage.rows == [(r,) for r in range(1, 101) if r not in damaged]
    assert salvage.lost == ((41, 47), (90, 90))
    assert len(reads) < 600  # a seek per range: tens per damaged page, never one per rowid


def test_a_damaged_last_page_is_searched_within_the_budget_and_named_as_a_tail():
    # The last leaf holds every rowid above the table's last separator, up to the largest: one
    # rowid at a time, that search would never end.
    read, reads = table(range(1, 101), set())

    def last_page_damaged(first: int, last: int) -> list[tuple]:
        if last >= 80:
            raise UnreadablePage("database disk image is malformed")
        return read(first, last)

    salvage = readable_rows(last_page_damaged, 1, 2**63 - 1, budget=500)
    assert salvage.rows == [(r,) for r in range(1, 80)]
    assert salvage.lost == ((80, 2**63 - 1),)  # the store says "facts from 80 on"
    assert len(reads) < 500
