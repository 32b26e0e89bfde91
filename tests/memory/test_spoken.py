"""Facts as they are spoken: numbers, times and dates in words, fillers, case, change words, and
people named beside their relation. Each rule on small examples, then the spoken labelled sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory import Action, Kind, Memory, Relation
from memory.backends import open_backend
from memory.judging import index_keys, judge

DATA = Path(__file__).resolve().parent / "data"
LABELS = {"duplicate": Relation.SAME, "conflict": Relation.CONFLICT, "distinct": Relation.DISTINCT}


def relation(first: str, second: str, kind: Kind = Kind.FACT) -> Relation:
    """The verdict, which must be the same whichever fact is the new one."""
    forward = judge(first, kind, second, kind)
    backward = judge(second, kind, first, kind)
    assert forward.relation is backward.relation, (forward.reason, backward.reason)
    if forward.relation is not Relation.DISTINCT:
        assert index_keys(first) & index_keys(second), "the index must offer the pair"
    return forward.relation


def reason(first: str, second: str) -> str:
    return judge(first, Kind.FACT, second, Kind.FACT).reason


SAME_VALUE = [
    # Clock times in words and in digits.
    ("the kids' school starts at quarter past eight", "The kids' school starts at 8:15."),
    ("the kids' school starts at eight fifteen", "The kids' school starts at 8:15."),
    ("the kids' school starts at 8.15", "The kids' school starts at 8:15."),
    ("i feed the cat at half past six", "I feed the cat at 6:30."),
    ("i walk the dog at six thirty", "I walk the dog at 6:30"),
    ("i go to bed at half ten", "I go to bed at 10:30 pm."),
    ("my bus leaves at quarter to five", "My bus leaves at 4:45."),
    ("my bus leaves at ten to nine", "My bus leaves at 8:50."),
    ("the shop opens at nine o'clock", "The shop opens at 9am."),
    ("the shop opens at eight oh five", "The shop opens at 8:05."),
    # A day part in words is the half of the day; a bare time agrees with either half.
    ("I take my pills at eight in the morning", "I take my pills at 8am"),
    ("we eat at seven in the evening", "We eat at 7pm."),
    ("band practice is on thursday evenings at six", "Band practice is at 6 pm on Thursdays."),
    ("dinner is at half past seven", "Dinner is at 7:30pm."),
    # Dates, numbers and digits said one by one.
    ("my mum's birthday is on the twenty first", "My mum's birthday is on the 21st."),
    ("the party is on the fourteenth of october", "The party is on October 14th."),
    ("the meeting is on the first of march", "The meeting is on March 1st."),
    ("my nephew is twelve", "My nephew is 12 years old."),
    ("my grandma is ninety one", "My grandmother is 91."),
    ("the gate code is four five six", "The gate code is 456."),
    ("the door code is five nine three oh", "The door code is 5930."),
    ("I play five-a-side football", "I play 5 a side football"),
]


@pytest.mark.parametrize(("spoken", "written"), SAME_VALUE)
def test_a_value_said_in_words_is_the_value_in_digits(spoken: str, written: str) -> None:
    assert relation(spoken, written) is Relation.SAME, reason(spoken, written)


OTHER_VALUE = [
    ("the kids' school starts at quarter past eight", "The kids' school starts at 8:30."),
    ("my bus leaves at quarter to five", "My bus leaves at 5:15."),
    ("I take my pills at eight in the morning", "I take my pills at 8pm"),
    ("my mum's birthday is on the twenty first", "My mum's birthday is on the 22nd."),
    ("my nephew is twelve", "My nephew is 13 years old."),
    ("the gate code is four five six", "The gate code is 457."),
]


@pytest.mark.parametrize(("spoken", "written"), OTHER_VALUE)
def test_another_value_said_in_words_is_a_conflict(spoken: str, written: str) -> None:
    assert relation(spoken, written) is Relation.CONFLICT, reason(spoken, written)


def test_spans_of_hours_are_no_clock_times() -> None:
    """ "from nine to five" is a span, not 4:51; "five to nine" after "from" neither."""
    assert relation("I work from nine to five", "I work from 9 to 5") is Relation.SAME
    assert relation("I work from nine to five", "I work at 8:51") is not Relation.SAME


FILLERS = [
    ("um so like I'm gonna visit Rome in June", "I am going to visit Rome in June."),
    ("uh my alarm is set for 6:30", "My alarm is set for 6:30."),
    ("basically my laptop is a macbook air", "My laptop is a MacBook Air."),
    ("like i really love thai food", "I really love Thai food."),
    ("i usually like have lunch at noon", "I usually have lunch at 12pm."),
    ("my sister, you know, lives in Leeds", "My sister lives in Leeds."),
]


@pytest.mark.parametrize(("spoken", "written"), FILLERS)
def test_fillers_are_not_content(spoken: str, written: str) -> None:
    assert relation(spoken, written) is Relation.SAME, reason(spoken, written)


def test_a_liking_is_still_a_liking() -> None:
    """Only a "like" that holds the floor is a filler."""
    assert relation("I like jazz", "I hate jazz") is Relation.CONFLICT
    assert relation("um i like jazz", "I like jazz") is Relation.SAME


CASE = [
    ("we live in manchester", "We moved to Leeds", Relation.CONFLICT),
    ("my sister lives in madrid", "My sister has moved to Barcelona", Relation.CONFLICT),
    ("i work at siemens", "I work at Bosch now.", Relation.CONFLICT),
    ("I support Arsenal.", "i support spurs now", Relation.CONFLICT),
    ("we live in leeds", "We live in Leeds.", Relation.SAME),
    ("i live in lisbon", "I live in Lisbon", Relation.SAME),
    # A word written small that is no name stays a word.
    ("I work in London", "i work in tech", Relation.DISTINCT),
    ("I live in Leeds", "i live in town", Relation.DISTINCT),
]


@pytest.mark.parametrize(("first", "second", "expected"), CASE)
def test_a_value_is_a_value_whatever_its_case(first: str, second: str, expected: Relation) -> None:
    assert relation(first, second) is expected, reason(first, second)


CHANGES = [
    ("I use Postgres", "I moved to SQLite"),
    ("Database is Postgres", "We migrated to SQLite"),
    ("i use dark mode on everything", "I've switched back to light mode."),
    ("Our dog Max weighs 30 kilos.", "our dog max is down to twenty seven kilos now"),
    ("I'm a smoker.", "i stopped smoking last year"),
    ("my partner sam's a nurse", "My partner Sam works as a paramedic now."),
]


@pytest.mark.parametrize(("before", "after"), CHANGES)
def test_a_change_word_with_a_new_value_is_a_conflict(before: str, after: str) -> None:
    assert relation(before, after) is Relation.CONFLICT, reason(before, after)


def test_a_change_word_does_not_move_a_home_into_a_database() -> None:
    """ "I moved to SQLite" says nothing about where one lives."""
    assert relation("I live in Lisbon", "I moved to SQLite") is Relation.DISTINCT
    assert relation("I live in Lisbon", "I moved to Porto") is Relation.CONFLICT
    assert relation("I use Postgres", "I use MySQL") is Relation.DISTINCT  # both may hold


PEOPLE = [
    ("my friend Alice lives in Madrid", "my friend Bob lives in Paris", Relation.DISTINCT),
    ("my colleague Sam works at Google", "my colleague Ann works at IBM", Relation.DISTINCT),
    ("My friend Tom lives in Berlin.", "my friend ana lives in lisbon", Relation.DISTINCT),
    ("my friend Tom lives in Berlin", "My brother Tom lives in Paris", Relation.DISTINCT),
    ("my friend tom lives in berlin", "My friend Tom has moved to Lisbon.", Relation.CONFLICT),
    ("my friend Alice lives in Madrid", "my friend Alice lives in Paris", Relation.CONFLICT),
    ("My partner Sam works as a nurse.", "sam my partner is a nurse", Relation.SAME),
    ("leo my son is 7", "My son Leo is seven years old.", Relation.SAME),
    (
        "Our neighbour Mrs Patel has a spare key.",
        "mrs patel next door has our spare key",
        Relation.SAME,
    ),
    ("the dog's vet is doctor okafor", "Our dog's vet is Dr Okafor.", Relation.SAME),
    ("my doctor is doctor hughes", "My GP is Dr Ahmed now.", Relation.CONFLICT),
    # A word after a relation is not taken for a name when it is what the relation is for.
    (
        "My dentist appointment is on Monday",
        "My dentist appointment moved to Wednesday",
        Relation.CONFLICT,
    ),
]


@pytest.mark.parametrize(("first", "second", "expected"), PEOPLE)
def test_different_people_are_different_subjects(
    first: str, second: str, expected: Relation
) -> None:
    assert relation(first, second, Kind.PERSON) is expected, reason(first, second)


def test_a_store_of_25_friends_has_no_conflicts_among_them(new_location) -> None:
    names = (
        "Alice Bob Carol Dave Erin Frank Grace Heidi Ivan Judy Ken Liam Mia Noah Olga Pete "
        "Quinn Rosa Sam Tina Uma Vic Wes Xena Yuri"
    ).split()
    cities = (
        "Madrid Paris Rome Lisbon Berlin Vienna Prague Oslo Dublin Leeds York Bath Cork Bonn "
        "Riga Porto Lyon Nice Turin Milan Seville Bergen Malmo Gent Krakow"
    ).split()
    for written_small in (False, True):
        memory = Memory(open_backend(new_location()))
        for name, city in zip(names, cities, strict=True):
            text = f"my friend {name} lives in {city}"
            outcome = memory.remember(text.lower() if written_small else text, "person")
            assert outcome.action is Action.ADDED, outcome.reason
        assert memory.conflicts() == []
        # The same friend moving is still a conflict, and only with that friend.
        moved = memory.remember("My friend Pete has moved to Vienna", "person")
        assert moved.action is Action.CONFLICT
        assert [fact.text.lower() for fact in moved.conflicts] == ["my friend pete lives in porto"]


# The labelled sets in spoken form --------------------------------------------------------------


def load(name: str) -> list[tuple[Relation, Kind, str, str]]:
    pairs = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            label, kind, first, second = line.split("\t")
            pairs.append((LABELS[label], Kind(kind), first, second))
    return pairs


def tally(pairs: list[tuple[Relation, Kind, str, str]]) -> tuple[int, int]:
    right = wrong_merges = 0
    for expected, kind, first, second in pairs:
        got = judge(first, kind, second, kind).relation
        got = Relation.DISTINCT if got is Relation.NEAR_MISS else got
        right += got is expected
        wrong_merges += got is Relation.SAME and expected is not Relation.SAME
    return right, wrong_merges


def test_spoken_dev_set() -> None:
    """The shared spoken set: 61 of 113 before the spoken forms were read, 93 after."""
    right, wrong_merges = tally(load("memory-pairs-spoken-dev.tsv"))
    assert right >= 93
    assert wrong_merges == 0


def test_spoken_blind_batch() -> None:
    """Written before the spoken-form work and never tuned on: 41 of 68 before, 63 after."""
    right, wrong_merges = tally(load("memory-pairs-spoken-blind.tsv"))
    assert right >= 63
    assert wrong_merges == 0


def test_spoken_pairs_keep_the_index_contract() -> None:
    for name in ("memory-pairs-spoken-dev.tsv", "memory-pairs-spoken-blind.tsv"):
        for _, kind, first, second in load(name):
            if judge(first, kind, second, kind).relation is not Relation.DISTINCT:
                assert index_keys(first) & index_keys(second), (first, second)
