"""The tally of connections the broker ends as soon as it accepts them, as pure arithmetic."""

from __future__ import annotations

from assistant.home.short_connections import IN_A_ROW, SHORT_SECONDS, ShortConnections


def test_short_connections_in_a_row_are_named_once_and_a_lasting_one_clears_them():
    tally = ShortConnections()
    said = []
    now = 0.0
    for _ in range(IN_A_ROW + 3):
        tally.accepted(now)
        now += 1.0
        said.append(tally.ended(now))
        now += 0.5
    assert said == [False] * (IN_A_ROW - 1) + [True] + [False] * 3
    assert tally.taken_over
    tally.accepted(now)
    assert not tally.ended(now + SHORT_SECONDS)  # it lasted: bad luck before, not a rival
    assert not tally.taken_over


def test_a_broker_that_never_accepts_is_unreachable_not_taken_over():
    tally = ShortConnections()
    assert not any(tally.ended(float(t)) for t in range(10))
    assert not tally.taken_over
