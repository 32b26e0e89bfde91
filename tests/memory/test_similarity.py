"""The fact comparison: every rule on small examples, the labelled pairs, the index-key contract."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.judging import (
    CosineBands,
    Relation,
    baseline_judge,
    cosine_bands,
    index_keys,
    judge,
)
from memory.kinds import Kind

DATA = Path(__file__).resolve().parent / "data"  # copies of the shared labelled pairs
WRITTEN = Path(__file__).resolve().parent / "data"
LABELS = {"duplicate": Relation.SAME, "conflict": Relation.CONFLICT, "distinct": Relation.DISTINCT}

SAME, CONFLICT, DISTINCT, NEAR_MISS = (
    Relation.SAME,
    Relation.CONFLICT,
    Relation.DISTINCT,
    Relation.NEAR_MISS,
)


def relation(first: str, second: str, kind: Kind = Kind.FACT) -> Relation:
    return judge(first, kind, second, kind).relation


def reason(first: str, second: str) -> str:
    return judge(first, Kind.FACT, second, Kind.FACT).reason


def load(name: str, folder: Path = DATA) -> list[tuple[Relation, Kind, str, str]]:
    path = folder / name
    assert path.is_file(), f"labelled pairs missing: {path}"
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            label, kind, first, second = line.split("\t")
            pairs.append((LABELS[label], Kind(kind), first, second))
    return pairs


# Merges: the same fact said again ---------------------------------------------------------------

SAME_PAIRS = [
    ("I use Postgres", "Database is Postgres"),  # the article's classic
    ("I walk the dog every evening", "Every evening I walk the dog"),  # word order of a routine
    ("I'm diabetic", "I have diabetes"),  # adjective and noun
    ("I work from home", "I work remotely"),
    ("My mother's name is Helen", "My mom is called Helen"),  # family word and naming
    ("I hate cilantro", "I can't stand cilantro"),  # feeling phrase
    ("I don't like horror films", "I dislike horror movies"),  # a negated like is a dislike
    ("My phone is an iPhone", "I have an iPhone"),  # the broader word is implied
    ("I'm studying chemistry at university", "I study chemistry at uni"),  # inflection, short form
    ("I like jazz", "I enjoy jazz music"),  # a broad word on one side only
    ("I don't eat pork", "I never eat pork"),  # two negatives that agree
    ("I'm a vegetarian", "I don't eat meat"),  # a state defined by what it rules out
    ("I'm allergic to peanuts", "I have a peanut allergy"),
    ("My daughter is 7", "My daughter is seven years old"),  # number words
    ("I wake up at 7", "I wake up at 7am"),  # a clock time without am/pm agrees
    ("I have a cat named Luna", "My cat is called Luna"),  # introduced relative
    ("I'm a nurse", "I work as a nurse"),
    ("I play the piano", "I'm a piano player"),  # the doer and the deed
    ("I prefer tabs over spaces", "Tabs over spaces, please"),  # a liking and a request
    ("I drive a Tesla now", "I drive a Tesla"),  # a change word restating the same value
]


@pytest.mark.parametrize(("first", "second"), SAME_PAIRS)
def test_the_same_fact_merges(first: str, second: str) -> None:
    assert relation(first, second) is SAME, reason(first, second)


# Conflicts: both cannot be current ---------------------------------------------------------------

CONFLICT_PAIRS = [
    ("I have one sister", "I have two sisters", "number differs: one / two"),
    ("My GP is Dr. Patel.", "My GP is Dr. Shah.", "name differs: Patel / Shah"),
    ("I wake up at 7am", "I wake up at 6:30am", "time differs: 7am / 6:30am"),
    ("I'm flying to Tokyo on Friday", "I'm flying to Tokyo on Monday", "weekday differs"),
    ("My birthday is on March 3rd", "My birthday is on March 4th", "number differs"),
    ("I walk the dog every evening", "I walk the dog every morning", "daypart differs"),
    ("My brother is called Tom", "My brother is called Jack", "name differs: Tom / Jack"),
    ("I live in Lisbon", "I live in Porto", "name differs: Lisbon / Porto"),
    ("I like tea more than coffee", "I like coffee more than tea", "order differs"),
    ("I prefer tabs over spaces", "I prefer spaces over tabs", "order differs"),
    ("I drink alcohol", "I don't drink alcohol", "negation differs"),
    ("I no longer play tennis", "I play tennis every week", "negation differs"),
    ("I like my tea with sugar", "I take my tea without sugar", "negation differs"),
    ("I quit smoking", "I smoke a pack a day", "negation differs"),
    ("I don't drink alcohol", "I have a glass of wine every evening", "not alcohol"),
    ("I'm a vegetarian", "I had a burger for lunch today", "no meat"),
    ("I'm retired", "My employer is Google", "no work"),
    ("I'm allergic to peanuts", "I eat peanut butter every day", "no peanuts"),
    ("Band practice is on Wednesdays", "Band practice moved to Thursdays", "change word 'moved'"),
    ("I live in Berlin", "I moved to Munich", "name differs: Berlin / Munich"),
    ("My password manager is Bitwarden", "I switched my password manager to 1Password", "name"),
    ("I drive a Volvo", "I drive a Tesla now", "change word 'now'"),
    ("I'm a night owl", "I'm an early bird", "chronotype differs"),
    ("I'm left-handed", "I'm right-handed", "handedness differs"),
    ("I'm single", "I'm married", "marital differs"),
    ("My laptop runs macOS", "My laptop runs Ubuntu", "desktop-os differs"),
    ("My phone is a Pixel", "My phone is an iPhone", "phone-platform differs"),
    ("I work from home", "I work in the office every day", "workplace differs"),
    ("I love gardening", "I hate gardening", "feeling differs"),
    ("I love hiking in the mountains", "I hate hiking", "feeling differs"),
    ("I prefer tea", "I prefer coffee", "value differs: tea / coffee"),
    ("I'm a nurse", "I'm a firefighter", "value differs: nurse / firefighter"),
    ("I'm studying chemistry", "I'm studying physics", "study differs: chemistry / physics"),
    ("I like my eggs runny", "I like my eggs scrambled", "egg differs"),
    ("Please reply in English", "Please reply in German", "name differs"),
    ("Don't call me before 9am", "Don't call me before 10am", "time differs"),
]


@pytest.mark.parametrize(("first", "second", "why"), CONFLICT_PAIRS)
def test_a_disagreement_is_a_conflict(first: str, second: str, why: str) -> None:
    judgement = judge(first, Kind.FACT, second, Kind.FACT)
    assert judgement.relation is CONFLICT, judgement.reason
    assert why in judgement.reason


# Distinct: unrelated or compatible ---------------------------------------------------------------

DISTINCT_PAIRS = [
    ("I live in Lisbon", "My parents live in Lisbon", "different subject"),  # not my city
    ("I live in Lisbon", "My sister lives in Porto", "different subject"),
    ("I drive a Volvo", "My wife drives a Volvo", "different subject"),
    ("My brother is called Tom", "My cousin is called Tom", "different subject"),
    ("I'm a doctor", "Tom is a doctor", "different subject"),
    ("I live in Paris", "I have a brother who lives in Rome", "different subject"),
    ("I like jazz", "I like hiking", ""),  # likes have many values
    ("I love Italian food", "I hate spicy food", ""),  # feelings about different things
    ("I have one sister", "I have one dog", ""),
    ("I want a Tesla", "I drive a Tesla", "said differently"),  # a wish is no state
    ("I want a Tesla", "I drive a BMW", ""),  # nor does it dispute one
    ("I like cats", "I have cats", "said differently"),
    ("I'm flying to Tokyo", "I'm flying from Tokyo", "direction differs"),
    ("I don't play any instruments", "I no longer play tennis", ""),  # two negatives agree
    ("My blood type is A positive", "My blood pressure is normal", ""),  # other attribute
    ("I never eat breakfast", "I take my pills before breakfast", ""),  # a time, not a meal
    ("I work at Google", "I work in Shoreditch", ""),  # employer and place
    ("I start work at 9am", "I finish work at 5pm", ""),  # other verbs, not other values
    ("I call my mom on Sundays", "I call my dad on Sundays", ""),
    ("I have two cars", "My car loan ends in 2030", ""),  # the numbers fill other slots
    ("Gardening is my favourite hobby", "My favourite film is Alien", ""),
]


@pytest.mark.parametrize(("first", "second", "why"), DISTINCT_PAIRS)
def test_unrelated_or_compatible_facts_stay_apart(first: str, second: str, why: str) -> None:
    judgement = judge(first, Kind.FACT, second, Kind.FACT)
    assert judgement.relation is DISTINCT, judgement.reason
    assert why in judgement.reason


# Values the lexicon does not know ----------------------------------------------------------------

# One value of a single-valued attribute ("favourite", a name, "my editor") against another: a
# conflict whether the values are lexicon terms, names or unknown words ("Emax" is a misheard
# Emacs), as with two lexicon terms ("My favourite editor is Vim" / "...is Emacs").
UNLISTED_VALUE_CONFLICTS = [
    ("My favourite editor is Vim", "My favourite editor is Helix", "Vim / Helix"),
    ("My favourite editor is Vim", "My favourite editor is Zed", "Vim / Zed"),
    ("My favourite editor is Vim", "My favourite editor is Kakoune", "Vim / Kakoune"),
    ("My favourite editor is Vim", "My favourite editor is Emax", "Vim / Emax"),
    ("My favourite colour is blue", "My favourite colour is teal", "blue / teal"),
    ("My favourite colour is blue", "My favourite colour is mauve", "blue / mauve"),
    ("My favourite colour is teal", "My favourite colour is dark green", "teal / dark green"),
    ("Vim is my favourite editor", "Helix is my favourite editor", "Vim / Helix"),
    ("My favourite editor is Vim", "Helix is my favourite editor", "Vim / Helix"),
    ("Sushi is my favourite food", "Pizza is my favourite food", "Sushi / Pizza"),
    ("My favourite season is autumn", "My favourite season is monsoon", "autumn / monsoon"),
    ("My dog is called Rex", "My dog is called max", "name differs: Rex / max"),
    ("My cat is named Luna", "My cat is named biscuit", "name differs: Luna / biscuit"),
    ("I have a cat named Luna", "My cat is called biscuit", "name differs: Luna / biscuit"),
    ("My editor is Vim", "My editor is Helix", "editor differs: Vim / Helix"),
    ("My OS is Linux", "My OS is NixOS", "os differs: Linux / NixOS"),
    ("My phone is an iPhone", "My phone is a Fairphone", "phone differs: iPhone / Fairphone"),
    ("Lisbon is where I live", "Berlin is my home", "live differs: Lisbon / Berlin"),
]


@pytest.mark.parametrize(("first", "second", "why"), UNLISTED_VALUE_CONFLICTS)
def test_a_value_outside_the_lexicon_still_conflicts(first: str, second: str, why: str) -> None:
    for new, old in ((first, second), (second, first)):
        judgement = judge(new, Kind.PREFERENCE, old, Kind.PREFERENCE)
        assert judgement.relation is CONFLICT, judgement.reason
    assert why in reason(first, second)
    assert index_keys(first) & index_keys(second)


# Where the frame does not hold one value, or the words that differ are not its value.
UNLISTED_VALUE_DISTINCT = [
    ("I like jazz", "I like hiking"),  # liking has many values
    ("I speak Spanish", "I speak French"),
    ("I play guitar", "I play tennis"),
    ("My sister lives in Madrid", "My brother lives in Madrid"),  # another subject
    ("My favourite editor is Vim", "My editor is Helix"),  # a favourite is not what one uses
    ("My car is red", "My car is old"),  # a colour and an age describe one car
    ("My car is a Volvo", "My car is old"),
    ("My phone is an iPhone", "My phone is cracked"),
    ("My boat is called Wave", "My car is called Wave"),  # the named things differ
    ("My favourite dog is called Max", "My favourite car is called Max"),
    ("I live in Lisbon", "I live in a flat"),  # a city and a home: other slots of "live"
    ("I work in London", "I work in tech"),
    ("I work at Google", "I work at night"),
]


@pytest.mark.parametrize(("first", "second"), UNLISTED_VALUE_DISTINCT)
def test_a_differing_word_outside_one_value_frame_stays_distinct(first: str, second: str) -> None:
    for new, old in ((first, second), (second, first)):
        assert relation(new, old) is DISTINCT, reason(new, old)


# Kinds -------------------------------------------------------------------------------------------


def test_a_conflict_across_kinds_is_a_near_miss() -> None:
    judgement = judge("I live in Lisbon", Kind.PLACE, "I live in Porto", Kind.FACT)
    assert judgement.relation is NEAR_MISS
    assert "kinds differ: place / fact" in judgement.reason


def test_the_same_fact_merges_across_kinds() -> None:
    """Kinds come from a model and drift; the same words are still one fact."""
    assert judge("I live in Lisbon", Kind.PLACE, "I live in Lisbon", Kind.FACT).relation is SAME


# Embedding evidence ------------------------------------------------------------------------------

BANDS = CosineBands(merge=0.9, conflict=0.7)


def test_a_missing_cosine_never_makes_a_conflict() -> None:
    """A cold or partial index passes None; only the lexical rules decide then."""
    first, second = "I take the kids to school at 8", "I start work at 9"
    assert judge(first, Kind.FACT, second, Kind.FACT, None, BANDS).relation is DISTINCT
    assert judge(first, Kind.FACT, second, Kind.FACT, 0.75, BANDS).relation is CONFLICT


def test_cosine_confirms_only_typed_differences() -> None:
    """A related pair with a differing time is a conflict; a plain word swap is not."""
    judgement = judge(
        "I meditate before bed",
        Kind.ROUTINE,
        "I meditate after waking up",
        Kind.ROUTINE,
        0.85,
        BANDS,
    )
    assert judgement.relation is CONFLICT and "cosine 0.85" in judgement.reason
    swap = judge(
        "I call my mom on Sundays",
        Kind.ROUTINE,
        "I call my dad on Sundays",
        Kind.ROUTINE,
        0.99,
        BANDS,
    )
    assert swap.relation is DISTINCT


def test_cosine_merges_a_paraphrase_only_when_nothing_differs() -> None:
    paraphrase = judge(
        "I'm hard of hearing", Kind.FACT, "I have hearing loss", Kind.FACT, 0.95, BANDS
    )
    assert paraphrase.relation is SAME and paraphrase.score == 0.95
    vetoed = [
        ("I have one sister", "I have two sisters"),  # a number
        ("I live in Lisbon", "My parents live in Lisbon"),  # the subject
        ("I eat meat", "I don't eat meat"),  # a negation
        ("I want a Tesla", "I drive a Tesla"),  # a wish
        ("I rent my flat now", "I own my flat"),  # a change word
    ]
    for first, second in vetoed:
        assert judge(first, Kind.FACT, second, Kind.FACT, 0.99, BANDS).relation is not SAME


def test_cosine_cannot_undo_a_lexical_decision() -> None:
    conflict = judge("I live in Lisbon", Kind.PLACE, "I live in Porto", Kind.PLACE, 1.0, BANDS)
    assert conflict.relation is CONFLICT
    same = judge("I use Postgres", Kind.FACT, "Database is Postgres", Kind.FACT, 0.0, BANDS)
    assert same.relation is SAME
    assert same.cosine == 0.0 and 0.0 <= same.lexical <= 1.0


def test_cosine_bands_per_model() -> None:
    assert cosine_bands("all-minilm") == cosine_bands("all-minilm:l6-v2")
    assert cosine_bands("sentence-transformers/all-MiniLM-L6-v2") == cosine_bands("all-minilm")
    assert cosine_bands("nomic-embed-text:latest") == cosine_bands("nomic-embed-text")
    minilm = cosine_bands("all-minilm")
    assert cosine_bands("some-new-model").merge >= minilm.merge  # conservative when unknown
    assert cosine_bands("all-minilm", merge=0.99) == CosineBands(0.99, minilm.conflict)
    with pytest.raises(ValueError, match="conflict <= merge"):
        cosine_bands("all-minilm", merge=0.5, conflict=0.6)
    with pytest.raises(ValueError):
        cosine_bands("all-minilm", merge=1.5)


# The labelled pairs ------------------------------------------------------------------------------


def tally(pairs: list[tuple[Relation, Kind, str, str]]) -> tuple[int, int]:
    right = wrong_merges = 0
    for expected, kind, first, second in pairs:
        got = judge(first, kind, second, kind).relation
        right += got is expected
        wrong_merges += got is SAME and expected is not SAME
    return right, wrong_merges


def test_dev_set_without_an_embedder() -> None:
    right, wrong_merges = tally(load("memory-pairs-dev.tsv"))
    assert right >= 43
    assert wrong_merges == 0


def test_more_set_without_an_embedder() -> None:
    """Kept as a regression guard; it was first scored blind (160 of 201), then studied."""
    right, wrong_merges = tally(load("memory-pairs-more.tsv"))
    assert right >= 190
    assert wrong_merges == 0


def test_written_pairs_without_an_embedder() -> None:
    """Pairs written apart from both shared sets (see the file's header for their history)."""
    pairs = load("memory-pairs-written.tsv", WRITTEN)
    right, wrong_merges = tally(pairs)
    assert right >= 0.9 * len(pairs)
    assert wrong_merges == 0


# Testers' sets (each file's header says who wrote it, how, and what it scored blind), with the
# number each must keep right; none may ever be merged wrongly.
TESTERS_SETS = [
    # aimed at wrong merges: symbols that are values ("£5" / "$5"), two people changing places
    # ("Alice owes Bob" / "Bob owes Alice"), a state said and denied, how often
    ("memory-pairs-probe.tsv", 303),
    ("memory-pairs-probe-blind.tsv", 308),
    ("memory-pairs-probe-third.tsv", 270),
    ("memory-pairs-probe-fourth.tsv", 272),
    ("memory-pairs-probe-fifth.tsv", 235),
    ("memory-pairs-probe-sixth.tsv", 223),  # one small word that flips a fact
    ("memory-pairs-probe-seventh.tsv", 280),  # who is whose, sequences, lists, other families
    ("memory-pairs-probe-eighth.tsv", 189),  # as a voice brings facts
    ("memory-pairs-probe-ninth.tsv", 234),  # typed, spoken and extracted by a model
    ("memory-pairs-probe-tenth.tsv", 294),  # the everyday running of a home
    ("memory-pairs-probe-eleventh.tsv", 242),  # health, money and people
    ("memory-pairs-probe-twelfth.tsv", 181),  # sentence structure
    ("memory-pairs-probe-thirteenth.tsv", 192),  # plans, appointments and routines
    ("memory-pairs-probe-fourteenth.tsv", 224),  # preferences, tastes and opinions
    ("memory-pairs-probe-fifteenth.tsv", 179),  # places and things
    # people and relationships; one fewer since an ex-husband is no ex-boyfriend: "Peter is
    # Jane's ex-husband" / "... her ex boyfriend's brother" now asks which (labelled apart)
    ("memory-pairs-probe-sixteenth.tsv", 239),
    ("memory-pairs-probe-seventeenth.tsv", 318),  # built to be merged wrongly
    ("memory-pairs-probe-eighteenth.tsv", 311),  # work, pets, food, travel, accounts, units
    ("memory-pairs-probe-nineteenth.tsv", 250),  # a household of several, care, guests, rotas
    ("memory-pairs-probe-twentieth.tsv", 303),  # the house's systems, garden, conditions
    ("memory-pairs-probe-twenty-first.tsv", 221),  # facts dictated in passing
    ("memory-pairs-probe-twenty-second.tsv", 308),  # health; names that are words or places
    ("memory-pairs-probe-twenty-third.tsv", 212),  # pastimes, money, whose things are whose
    ("memory-pairs-probe-twenty-fourth.tsv", 272),  # time and dates in every form
    ("memory-pairs-probe-twenty-fifth.tsv", 261),  # work and study, who did what to whom
    # the household's logistics, comparisons; one fewer since "at Grandma's" is read as a
    # place, not "Grandma is": "Mum drops the kids at Grandma's" / "Grandma drops the kids at
    # Mum's" is now kept twice, not asked about (labelled a conflict)
    ("memory-pairs-probe-twenty-sixth.tsv", 263),
    ("memory-pairs-probe-twenty-seventh.tsv", 243),  # people, relations, names and nicknames
    ("memory-pairs-probe-twenty-eighth.tsv", 278),  # travel, places, directions and routes
    ("memory-pairs-probe-twenty-ninth.tsv", 288),  # food, diets, who cooks what for whom
    ("memory-pairs-probe-thirtieth.tsv", 322),  # pets, animals, the garden
    ("memory-pairs-probe-thirty-first.tsv", 242),  # children and school
    ("memory-pairs-probe-thirty-second.tsv", 259),  # the house, its things and measures
    ("memory-pairs-probe-thirty-third.tsv", 245),  # speech as it is really transcribed
    ("memory-pairs-probe-thirty-fourth.tsv", 284),  # technology and accounts
    ("memory-pairs-probe-thirty-fifth.tsv", 228),  # social life and the community
    ("memory-pairs-probe-thirty-sixth.tsv", 285),  # vehicles and contracts
    ("memory-pairs-probe-thirty-seventh.tsv", 244),  # family across generations
    ("memory-pairs-probe-thirty-eighth.tsv", 238),  # tastes in music, books, films and sport
    ("memory-pairs-probe-thirty-ninth.tsv", 277),  # origins and identity
    ("memory-pairs-probe-fortieth.tsv", 299),  # gifts and occasions
    ("memory-pairs-probe-forty-first.tsv", 204),  # plans and events
    # lending, borrowing and owing; a model's "their" after a relative is no longer the
    # user's, so "My landlord still holds my £800 deposit" / "The user's landlord is still
    # holding their 800 pound deposit" now asks whose (labelled a merge)
    ("memory-pairs-probe-forty-second.tsv", 202),
    ("memory-pairs-probe-forty-third.tsv", 225),  # health and caring
    ("memory-pairs-probe-forty-fourth.tsv", 268),  # a month of household talk, transcribed
    ("memory-pairs-probe-forty-fifth.tsv", 230),  # home improvement and tradespeople
    ("memory-pairs-probe-forty-sixth.tsv", 242),  # household money
    ("memory-pairs-probe-forty-seventh.tsv", 215),  # relations between other people
    ("memory-pairs-probe-forty-eighth.tsv", 252),  # preferences with comparisons and degrees
    ("memory-pairs-probe-forty-ninth.tsv", 143),  # quantifiers and scope
    ("memory-pairs-probe-fiftieth.tsv", 257),  # tense, aspect and change over time
    ("memory-pairs-probe-fifty-first.tsv", 270),  # facts with several parts
    ("memory-pairs-probe-fifty-second.tsv", 271),  # numbers in every form
    ("memory-pairs-probe-fifty-third.tsv", 283),  # a small model's extracts against speech
    ("memory-pairs-probe-fifty-fourth.tsv", 159),  # causes, conditions and purposes
    ("memory-pairs-probe-fifty-fifth.tsv", 224),  # standing instructions to the assistant
    ("memory-pairs-probe-fifty-sixth.tsv", 210),  # possessions and where things are kept
    ("memory-pairs-probe-fifty-seventh.tsv", 190),  # contact details and addresses
    ("memory-pairs-probe-fifty-eighth.tsv", 211),  # work and jobs
    ("memory-pairs-probe-fifty-ninth.tsv", 239),  # feelings and opinions
    ("memory-pairs-probe-sixtieth.tsv", 173),  # where things are, relative to each other
    ("memory-pairs-probe-sixty-first.tsv", 321),  # exceptions, alternatives, substitutions
    ("memory-pairs-probe-sixty-second.tsv", 262),  # abilities, permissions, obligations
    ("memory-pairs-probe-sixty-third.tsv", 416),  # comparisons on a scale
    ("memory-pairs-probe-sixty-fourth.tsv", 208),  # sequences and the order of events
    (
        "memory-pairs-probe-sixty-fifth.tsv",
        381,
    ),  # names ("Rose and Will walk the dog": a question now)
    ("memory-pairs-probe-sixty-sixth.tsv", 265),  # chores and turns
    ("memory-pairs-probe-sixty-seventh.tsv", 215),  # lifts, who takes whom where
    ("memory-pairs-probe-sixty-eighth.tsv", 247),  # food quantities and recipes
    ("memory-pairs-probe-sixty-ninth.tsv", 238),  # money and bills
    ("memory-pairs-probe-seventieth.tsv", 373),  # health and care
    ("memory-pairs-probe-seventy-first.tsv", 297),  # travel and holidays
    # pets and animals; two right before are asked about now: a name that "is" and one that
    # "was" ("Tom's hamster is called Nibbles." / "the hamster tom had before was called
    # nibbles"), a puppy to come against one got ("We're getting a puppy in the summer." / "We
    # got a puppy last summer."), each labelled apart
    ("memory-pairs-probe-seventy-second.tsv", 400),
    ("memory-pairs-probe-seventy-third.tsv", 266),  # gifts, celebrations, occasions
    ("memory-pairs-probe-seventy-fourth.tsv", 453),  # sizes, measures, amounts
    ("memory-pairs-probe-seventy-fifth.tsv", 266),  # how the assistant is to behave
    ("memory-pairs-probe-seventy-sixth.tsv", 231),  # feelings between people and pets
    ("memory-pairs-probe-seventy-seventh.tsv", 337),  # several people's weeks
    ("memory-pairs-probe-seventy-eighth.tsv", 185),  # lending, borrowing, owning
    ("memory-pairs-probe-seventy-ninth.tsv", 286),  # culture, religion, food rules
    ("memory-pairs-probe-eightieth.tsv", 297),  # achievements, records, ranks
]


@pytest.mark.parametrize(("name", "least_right"), TESTERS_SETS)
def test_testers_pairs_without_an_embedder(name: str, least_right: int) -> None:
    right, wrong_merges = tally(load(name, WRITTEN))
    assert right >= least_right
    assert wrong_merges == 0


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # two people, written small or with a capital in either fact
        ("kate owes ben £20", "ben owes kate £20"),
        ("Tom is taller than Ann.", "ann is taller than tom"),
        ("Ana is Marco's mother.", "marco is ana's mother"),
        ("The Focus uses less fuel than the Golf.", "the golf uses less fuel than the focus"),
        # the speaker and another changing places
        ("I owe Ben £20.", "Ben owes me £20."),
        ("We owe the Smiths £100.", "The Smiths owe us £100."),
        ("I drive Ben to work.", "Ben drives me to work."),
        # two values changing places
        ("Work starts at 9 and ends at 5.", "Work starts at 5 and ends at 9."),
        (
            "Mum takes 10 mg in the morning and 20 mg at night.",
            "Mum takes 20 mg in the morning and 10 mg at night.",
        ),
        (
            "The shed code is 1234 and the gate code is 5678.",
            "The shed code is 5678 and the gate code is 1234.",
        ),
        ("Leo is 7 and Mia is 9.", "Leo is 9 and Mia is 7."),
        # a role denied or ended, where the negation falls on who the fact is about
        ("Carlos is my boss.", "Carlos is not my boss."),
        ("Carlos is my boss.", "Carlos is no longer my boss."),
        ("Ann is my sister.", "Ann is not my sister."),
        ("Tom is our landlord.", "Tom isn't our landlord."),
        # a state said to hold, and to have held or to come
        ("Rachel is my wife.", "rachel was my wife"),
        ("Grandad smokes.", "grandad smoked"),
        ("Mia goes to Oakwood Nursery.", "mia went to oakwood nursery"),
        ("Mr Jones is Leo's teacher.", "mr jones was leo's teacher last year"),
        ("Sam lives in Leeds.", "sam will live in leeds"),
        # a string to type, compared letter for letter
        ("The Wi-Fi password is dogs.", "the wifi password is dog"),
        ("Our Netflix account name is TheParkers.", "our netflix account name is theparker"),
        # a list in an order, reordered
        ("Mia's favourite colour is red, then blue.", "mia's favourite colour is blue, then red"),
        (
            "Sara ranks pizza first, then pasta, then sushi.",
            "Sara ranks sushi first, then pasta, then pizza.",
        ),
        ("The cat is scared of the dog", "The dog is scared of the cat"),
        # the speaker and a name written small in both (a transcript's)
        ("i am older than ben", "ben is older than me"),
        # a thing said in one fact and denied outright in the other, both holding a "not"
        ("Ben is allergic to eggs but not milk", "Ben is allergic to milk but not eggs"),
        ("Ben is allergic to eggs but not milk", "Ben is allergic to eggs and milk"),
        ("Mia likes apples but not pears", "Mia likes pears but not apples"),
        ("I don't eat pork but I eat beef", "I don't eat beef"),
        (
            "The shop is open on Saturday but not Sunday",
            "the shop is open on sunday but not saturday",
        ),
        # "left" the direction, not the past of "leave"
        ("Turn left then right", "Turn right then left"),
        (
            "The bathroom is the second door on the left",
            "the bathroom is the second door on the right",
        ),
        ("Keep left at the fork", "keep right at the fork"),
        # a unit against another
        ("The bookshelf is 120 cm tall", "the bookshelf is 120 mm tall"),
        ("Give Leo 5 ml of Calpol", "give leo five mg of calpol"),
        ("Sam runs 5 km every morning", "sam runs five miles every morning"),
        # a year said in two halves, against another
        ("Our car was made in 2016.", "our car was made in twenty fifteen"),
        # bounds and sides that exclude each other
        (
            "Grandpa can have at most two coffees a day",
            "grandpa can have at least two coffees a day",
        ),
        ("The dishwasher tablets are under the sink", "the dishwasher tablets are above the sink"),
        # two clauses whose values change places, a word said twice in each
        (
            "Ben drives the Honda and Ann drives the Ford",
            "Ben drives the Ford and Ann drives the Honda",
        ),
        # a spoken correction, and a month written small that is no modal verb
        ("Emma's swimming lesson is at 10.", "no wait emma's swimming lesson is at eleven"),
        ("The passport expires in March 2026", "the passport expires in may twenty twenty six"),
        # a relation that ended, against the relation
        ("Laura is Tom's ex-wife.", "laura is tom's wife"),
        # one small word that says another thing: a modal, whose it is, a change done or to
        # come, how many, who did it, a comparison, a date's or a score's order
        ("We may have the party", "we must have the party"),
        ("The red car is mine.", "the red car is his"),
        ("Tom is about to retire.", "tom has retired"),
        (
            "Some of the cousins are coming to the wedding.",
            "all of the cousins are coming to the wedding",
        ),
        ("The birthday cake was made by Gran.", "the birthday cake was made for gran"),
        ("Ann's birthday is 3/4.", "Ann's birthday is 4/3."),
        ("The match finished 2-1", "the match finished 1-2"),
        ("Ann is older than Ben", "Ann is younger than Ben"),
        ("Jamal is two years older than Kezia.", "Jamal is two years younger than Kezia."),
        # a review's finds: two nouns swapped with a verb said twice, a modal behind "In May",
        # a ratio reordered, a passive's doer against the one it was sent to
        ("Sara pays the rent and Tom pays the bills", "Sara pays the bills and Tom pays the rent"),
        ("In May we must pay the deposit", "In May we might pay the deposit"),
        ("Mix flour and butter 3:1", "mix flour and butter 1:3"),
        ("The email was sent by Tom.", "the email was sent to tom"),
        # a carer and the one cared for changing places; "just" one against "too"
        ("The nanny looks after Gran.", "gran looks after the nanny"),
        ("Just Tom walks the dog.", "tom walks the dog too"),
        # who does it and who it is done to changing places, a passive's doer counted first
        ("Sara paid the plumber.", "the plumber paid sara"),
        ("Sara hired the builder.", "sara was hired by the builder"),
        ("Ella helps Max with homework.", "max helps ella with homework"),
        # a half- and a step-relative
        ("Sam is Lily's half-brother.", "Sam is Lily's stepbrother."),
        # one time, a start in one fact and an end in the other
        ("Lily has been vegetarian since Easter.", "lily was vegetarian until easter"),
        ("The pool is closed from Monday", "the pool's closed till monday"),
        # a bound before a number, against the other bound
        (
            "Tom has worked at the bank for more than 10 years.",
            "tom has worked at the bank for less than ten years",
        ),
        ("Max drinks fewer than 2 coffees a day", "max drinks more than two coffees a day"),
        # an exception against the thing excepted
        ("Ann works from home on Fridays.", "Ann works from home except Fridays."),
        ("Tom eats fish.", "Tom eats everything but fish."),
        # a past said with "had", with a verb the lexicon knows, with "worked as", with a wish
        ("We have a dog.", "We had a dog."),
        ("Tom needs glasses for driving.", "Tom needed glasses for driving."),
        ("Mia loves horses.", "Mia loved horses."),
        ("I work as a nurse.", "I worked as a nurse."),
        ("I want a new car.", "I wanted a new car."),
        # "have" as a verb before a noun in "-en", which is no participle
        ("We have chicken on Fridays.", "We had chicken on Fridays."),
        # a relation ranked among others holds one way: each one's best friend is another fact
        ("Tom is Hugo's best friend.", "Hugo is Tom's best friend."),
        ("Ann is Tom's oldest friend", "tom is ann's oldest friend"),
        ("Sam is Alex's older sibling.", "alex is sam's older sibling"),
        # two things in a sequence, changing places around "then" or "before"
        (
            "On Saturdays Mia has swimming and then piano.",
            "on saturdays mia has piano and then swimming",
        ),
        (
            "Mia has swimming before piano on Saturdays.",
            "mia has piano before swimming on saturdays",
        ),
        ("Dad puts the milk in first, then the tea.", "dad puts the tea in first then the milk"),
        # two clauses alike but for one term each, those terms changing clauses
        (
            "The front door is green and the back door is red.",
            "the front door is red and the back door is green",
        ),
        (
            "Leo has piano every week and swimming every other week.",
            "leo has swimming every week and piano every other week",
        ),
        (
            "Gran comes to us for Christmas and we go to her for Easter.",
            "we go to gran for christmas and she comes to us for easter",
        ),
        (
            "I walk the dog on Monday and feed the cat on Tuesday",
            "I feed the cat on Monday and walk the dog on Tuesday",
        ),
        # a part of one thing said in words, against one thing and a part
        (
            "The drive to Nan's takes half an hour",
            "the drive to nan's takes an hour and a half",
        ),
        ("It's a mile and a half to the school", "it's half a mile to the school"),
        ("We buy half a dozen eggs a week", "we buy a dozen and a half eggs a week"),
        # a time on the 24-hour clock against the same hour in the other half of the day
        ("The alarm is set for 06:00.", "The alarm is set for 18:00."),
        ("Dad's insulin: 10 units at 07:00", "Dad's insulin: 10 units at 19:00"),
        ("Leo naps at 1 pm.", "Leo naps at 01:00."),
        (
            "The flight departs at 00:15 on 2027-03-14.",
            "The flight departs at 12:15 on 2027-03-14.",
        ),
        # a title that says a man against one that says a woman
        ("Mia's teacher is Mrs Patel.", "Mia's teacher is Mr Patel."),
        ("Leo's childminder is Ms Reid.", "leo's childminder is mister reid"),
        # a typed value's case and symbols, both typed; a blood type's sign after two letters
        ("Wi-Fi password: bluefrog42", "Wifi password: BlueFrog42"),
        ("Wi-Fi password: bluefrog42", "Wi-Fi password: bluefrog42!"),
        ("Door code: 1234#", "Door code: 1234*"),
        ("My email is jo_smith@outlook.com.", "My email is jo.smith@outlook.com."),
        ("Blood type: AB+", "Blood type: AB-"),
        # the speaker holding another's role, against owning the role that other holds
        ("Tom is my next of kin.", "i'm tom's next of kin"),
        ("Mum is my dependant.", "I'm Mum's dependant."),
        ("My guardian is Ann.", "i'm ann's guardian"),
        # a transcript's "'s" that is "is", two people changing places
        ("Ann is Mia's carer.", "mia's ann's carer"),
        # a number of times against a number of things
        ("I take two tablets.", "I take tablets twice."),
        ("I take 2 paracetamol a day.", "i take paracetamol twice a day"),
        # a spoken "no" that corrects, against a "no" that denies
        ("I'd like no onions on my pizza.", "no i'd like onions on my pizza"),
        ("Emma wants no cheese in her sandwich.", "no emma wants cheese in her sandwich"),
        # two people with a verb between them changing places; a chain of whose reordered
        ("Emma takes Jack to football.", "Jack takes Emma to football."),
        ("Emma's friend's mum is a nurse.", "Emma's mum's friend is a nurse."),
        ("Jack's friend's mum drives them to football.", "jack's mum's friend drives them"),
        # a span of days against two days; a meeting of his against one of hers
        ("The cleaner comes Monday to Friday", "the cleaner comes monday and friday"),
        ("The cleaner comes Mon-Fri", "the cleaner comes mon and fri"),
        ("We're away from 1 to 14 July", "we're away on the first and the fourteenth of july"),
        ("His dentist appointment is on Tuesday", "her dentist appointment is on tuesday"),
        # inside and outside; one of two and both; "neither ... nor" after its word
        ("Tom smokes outside", "Tom smokes inside"),
        (
            "Leo does either swimming or judo on Saturdays",
            "Leo does both swimming and judo on Saturdays",
        ),
        ("Tom is allergic to neither nuts nor eggs", "Tom is allergic to nuts and eggs"),
        # "X, not Y" with a head both say; whose a person is; a feeling's two sides
        ("We use the side door, not the front door", "We use the front door, not the side door"),
        ("Ann's sister works with Tom", "Tom's sister works with Ann"),
        ("Tom's mum phones him on Sundays", "Tom phones his mum on Sundays"),
        ("Leo is afraid of the dog", "The dog is afraid of Leo"),
        # two people liking each other the other way; whose cooking; eating in or out
        ("Mia likes Leo", "leo likes mia"),
        ("Leo likes Mia's cooking", "mia likes leo's cooking"),
        ("Mum prefers eating in to eating out", "mum prefers eating out to eating in"),
        # whose cooking, a relative's; someone somewhere against their thing there
        ("Dad likes Leo's cooking", "leo likes dad's cooking"),
        ("Sam's car is in the garage.", "sam's in the car in the garage"),
        ("Gran's chair is by the window.", "gran's by the window in her chair"),
        # a choice against a list; "to" against "-ing" after "stop"; "too" much for it
        ("Tom or Ben will pick up Sam on friday", "Tom and Ben will pick up Sam on friday"),
        ("Dad stopped smoking", "Dad stopped to smoke"),
        ("Amy forgot posting the letter", "Amy forgot to post the letter"),
        ("Sam is too young to stay home alone", "Sam is young to stay home alone"),
        # "used to" against "is used to"; a cause and its effect changing places
        ("Grandpa used to drive at night", "Grandpa is used to driving at night"),
        ("Sam is tired because he swims", "Sam swims because he is tired"),
        # a step-, god- or grand- relative, a man against a woman
        ("Claire is Harry's godmother.", "claire is harry's godfather"),
        ("Amy is Tom's half-sister.", "amy is tom's half brother"),
        # "only" and "everyone" on the doer, against on what is done
        ("Only Dad drinks coffee.", "dad only drinks coffee"),
        ("Everyone likes Leo.", "leo likes everyone"),
        # a passive with words between its verb and "by", against the doer the other way
        ("Ella is driven to school by Jo", "Ella drives Jo to school"),
        ("Ella was taught to swim by her dad", "Ella taught her dad to swim"),
        ("Liam is looked after by Nana", "Liam looks after Nana"),
        ("Tom was asked out by Jo", "Tom asked Jo out"),
        # a guest and a host, a keeper and who leaves a thing with them ("with" one way)
        ("Kate is staying with Mum next week", "mum is staying with kate next week"),
        ("Mum is moving in with us next month", "we're moving in with mum next month"),
        ("Dad is leaving the car with Steve", "steve is leaving the car with dad"),
        # the speaker and a name written small in one fact, capitalised only to open the other
        ("Kate rings us every Sunday", "we ring kate every sunday"),
        ("Kate is picking us up from the airport", "we're picking kate up from the airport"),
        # whom one pays or drives for, against whom one pays or what one drives
        ("Dad pays for Tom", "Dad pays Tom"),
        ("Kate drives for Uber", "Kate drives an Uber"),
        # a number of grades, not a grade
        ("Lucy got three A grades", "Lucy got four A grades"),
        # a label and a count, a count and a size, changing places
        ("Bed 3 has 12 leeks in it", "bed twelve has three leeks in it"),
        ("The greenhouse has 3 four-foot benches", "the greenhouse has four three foot benches"),
        # ours against his, where he is who does it; each owning the other's
        ("Pete puts our bins out when we're away", "we put pete's bins out when he's away"),
        ("Our car is in Pete's garage", "Pete's car is in our garage"),
        # two clauses trading their values, the speaker's second ("I" is no term)
        ("Mark likes tea and I like coffee.", "mark likes coffee and i like tea"),
        # another person done to, named only by a pronoun
        ("Dave owes me £50", "dave owes him fifty pounds"),
        ("Jack plays for us now", "jack plays for them now"),
        ("Sam taught me guitar", "sam taught her guitar"),
        ("Jack's mum drives him to football", "jack's mum drives her to football"),
        # how many of a group, said before the group wherever it stands
        ("I'm allergic to some nuts", "i'm allergic to all nuts"),
        ("I take all my tablets with water", "i take some tablets with water"),
        # one of the things "not ... or" and "neither ... nor" deny each, said in the other
        ("Dad eats chicken but not beef", "Dad doesn't eat chicken or beef"),
        ("Sam drinks neither milk nor juice", "Sam drinks milk but not juice"),
        ("Sam doesn't eat meat or fish", "Sam doesn't eat meat but eats fish"),
        # a change that negates, itself negated ("didn't quit": the job kept)
        ("I quit my job", "I didn't quit my job"),
        ("I'm going to quit my job", "I'm not going to quit my job"),
        ("I gave up teaching", "I didn't give up teaching"),
        # the speaker doing it, against having it done, a passive read as who did it
        ("I was hired by Anna", "I hired Anna"),
        ("I'm managed by Tom", "I manage Tom"),
        ("Tom was hired by me", "Tom hired me"),
        ("Mark was replaced by me", "I was replaced by Mark"),
        # the speaker and another changing places around a change word that is no term
        ("I replaced Mark as team lead", "Mark replaced me as team lead"),
        ("I took over from Mark", "Mark took over from me"),
        # a role's own role ("my boss's boss") against the role
        ("Lucy is my boss", "Lucy is my boss's boss"),
        ("Kate is Tom's manager", "Kate is Tom's manager's manager"),
        # "never" after a relative, which was taken for the relative's name ("my mum Never")
        ("My mum eats meat", "My mum never eats meat"),
        ("My dad always calls on Sundays", "My dad never calls on Sundays"),
        # an opening "no" that corrects, and no negation of what follows
        ("My husband wants no sugar in his tea.", "no my husband wants sugar in his tea"),
        # things on either side of a word that is not the same both ways, however named
        ("The fuse box is above the gas meter.", "the gas meter is above the fuse box"),
        (
            "The recycling bin is bigger than the green bin.",
            "The green bin is bigger than the recycling bin.",
        ),
        ("Tom does more of the cooking than I do.", "I do more of the cooking than Tom."),
        ("I owe the window cleaner £20.", "The window cleaner owes me £20."),
        # which way a replacement or a trade goes
        ("I replaced butter with margarine", "i replaced margarine with butter"),
        ("I traded my coffee habit for green tea", "i traded green tea for a coffee habit"),
        # where one place is from the other, and which way a journey is made
        ("The office is north of my house", "My house is north of the office"),
        ("I take the bus there and walk back", "I walk there and take the bus back"),
        # another person named by a pronoun in what someone says or thinks
        ("My wife says I snore", "My wife says she snores"),
        ("My parents think we should move", "My parents think they should move"),
        # who feels it for whom, named by more than a name
        ("Tom is in love with Anna", "Anna is in love with Tom"),
        ("My daughter is afraid of her teacher", "Her teacher is afraid of my daughter"),
        # what someone is called, though both words name a grandmother
        ("The kids call my mum Nana", "The kids call my mum Granny"),
        ("My grandson calls me Grandad", "My grandson calls me Gramps"),
        # how long ago, "last week" against "last month" (both read as "recently")
        ("We adopted the dog last week", "we adopted the dog last year"),
        (
            "I've been learning piano for the last year",
            "i've been learning piano for the last month",
        ),
        # two words before two nouns trading them
        (
            "the front door key is on the back door hook",
            "the back door key is on the front door hook",
        ),
        ("the red car is in the big garage", "the big car is in the red garage"),
        # one person or thing against several
        ("My brother plays in a band", "my brothers play in a band"),
        ("I lent my camera to my brother", "i lent my camera to my brothers"),
        ("The ticket for the final cost £40", "the tickets for the final cost £40"),
        ("Both grandmas are hosting Christmas.", "Grandma is hosting Christmas."),
        ("The aunties are coming to the christening.", "auntie is coming to the christening"),
        # how one is towards another, or a feeling for them, turned round
        ("Tom is angry with Mia.", "mia is angry with tom"),
        ("The dog is rough with the kids.", "the kids are rough with the dog"),
        ("Mum's fed up with Dad.", "Dad's fed up with Mum."),
        ("The parrot hates Uncle Bob.", "uncle bob hates the parrot"),
        ("Grandad can't stand Uncle Bob.", "uncle bob cant stand grandad"),
        ("The parrot detested Uncle Bob.", "Uncle Bob detested the parrot."),
        # a sign before a number, and a plural's "'" of whose
        ("User's 5k PB: >22 min", "User's 5k PB: <22 min"),
        ("User's 50m PB: ≤30 s", "User's 50m PB: ≥30 s"),
        ("We borrowed the Patels' leaf blower.", "The Patels borrowed our leaf blower."),
        # a name to be called by, in an instruction, after "called" or "as"
        ("Call my grandmother Nana.", "call my grandmother granny"),
        ("My wife wants to be called Mama.", "my wife wants to be called mum"),
        ("User's mother: address as Mum", "User's mother: address as Mother"),
        # an area against a square's side, and "too" much for the other turned round
        ("The room is 10 square metres.", "The room is 10 metres square."),
        ("The sofa is 5 cm too wide for the door.", "The door is 5 cm too wide for the sofa."),
    ],
)
def test_the_same_words_saying_another_thing_are_never_merged(first: str, second: str) -> None:
    assert relation(first, second) is CONFLICT, reason(first, second)
    assert relation(second, first) is CONFLICT


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Louis is at school", "louise is at school"),
        ("Michaela is a nurse", "michael's a nurse"),
        ("Gabriel is in year 6", "gabrielle's in year six"),
        # a place with a capital, against the same letters as a plain word
        ("Our wedding was in Nice", "our wedding was nice"),
        ("Dad is in Reading this week", "dad's reading this week"),
        # a kind of person, against having the thing
        ("She is a cat person", "she's got a cat"),
        # the user's wife is not the user
        ("My wife is a nurse.", "The user is a nurse."),
        # a thing placed another way; what a thing needs against what it has
        ("The passports are in the safe.", "the passports are by the safe"),
        ("The keys are in the car.", "The keys are on the car."),
        ("The car has new tyres.", "The car needs new tyres."),
        ("The ironing is on the spare bed.", "The iron is on the spare bed."),
        # one time or length with another word before it: an end, a deadline, a day, a wait
        ("The builders are here until Tuesday", "the builders are here by tuesday"),
        ("The kids are at Grandma's until Friday", "the kids are at grandma's on friday"),
        ("Grandma is staying for a week", "grandma is staying in a week"),
        ("The party was moved to Friday", "the party was moved from friday"),
        ("The hotel is booked for Friday.", "The hotel is booked until Friday."),
        # going to a place and leaving it, or going by way of it
        ("We leave for Spain on Friday.", "We leave Spain on Friday."),
        ("Mum's flight departs for Glasgow at noon.", "mum's flight departs glasgow at twelve"),
        ("We're flying to Dubai.", "We're flying via Dubai."),
        ("We drive through Calais every summer.", "We drive to Calais every summer."),
        ("We're travelling to Bristol by train.", "We're travelling around Bristol by train."),
        # a booking for someone, or through them
        ("Dad booked the hotel for Tom.", "Dad booked the hotel through Tom."),
        # wanting a thing, against liking things
        ("Sophie wants a rabbit.", "Sophie likes rabbits."),
        ("Amy would like a puppy.", "Amy likes the puppy."),
        ("Jake wants to hold the snake.", "jake likes holding the snake"),
        ("Amy would love a rabbit.", "amy loves her rabbit"),
        # a "no" before a thing denies it (no correction); a wife is not the man
        ("No sugar goes in Dad's tea", "Sugar goes in Dad's tea"),
        ("Tom's missus works at the school", "Tom works at the school"),
        ("The car needs two new tyres", "The car has two new tyres"),
        ("Alex is my stepson.", "alex is my stepdaughter"),
        ("I have a brother and a half-sister", "I have a brother and a half-brother"),
        ("Mum's maiden name is Richards.", "mum's maiden name is richardson"),
        # a name that is also a word the fact says again
        ("I pay the gas bill.", "Bill pays the gas bill."),
        ("I water the roses.", "rose waters the roses"),
        ("I walk the dog at dawn.", "dawn walks the dog at dawn"),
        ("I mark the football pitch on Saturdays.", "mark marks the football pitch on saturdays"),
        ("My brother is a car person", "my brother's got a car"),
        # a letter said apart after a number is part of it, not an article ("Flat 3 A")
        ("The user's grandmother lives in Flat 3 A", "The user's grandmother lives in Flat 3"),
        ("i get the number nine a bus to work", "i get the number nine bus to work"),
        # a grade's star
        ("Lucy got an A* in maths", "lucy got an A in maths"),
        ("Lucy got an A** in maths", "lucy got an A* in maths"),
        # whom it is done for or with, against what is done
        ("Max plays for Hartley on Saturday", "max plays Hartley on Saturday"),
        ("Priya runs the running club", "priya runs with the running club"),
        # a word and a longer word it starts ("butter" / "buttermilk")
        ("I cook with butter", "i cook with buttermilk"),
        ("Tom loves cheese", "tom loves cheesecake"),
        # who with, against where
        ("my mum lives with victoria", "my mum lives in victoria"),
        ("I'm going to victoria for my operation", "i'm going with victoria for my operation"),
        # a speaker correcting themselves, or answering, before the fact said again
        ("I hate sushi.", "i hate sushi actually no i love it now"),
        ("I love sushi.", "not really i hate sushi"),
        ("I love sushi.", "no no no i hate sushi"),
        ("I love sushi.", "Not really, I hate sushi."),
        ("i smoke", "i do not i swear smoke"),  # a "not" after words of no weight negates
        ("The car cost £20k", "the car cost £20"),  # thousands after a price
        # an email address, its parts in another order or joined otherwise
        ("My email is sam.jones@outlook.com", "my email is jones.sam@outlook.com"),
        ("My email is amy.lee@gmail.com", "my email is amy-lee@gmail.com"),
        # what goes to what, turned round
        ("I back up my laptop to the NAS", "I back up the NAS to my laptop"),
        ("I forward my work email to my Gmail", "I forward my Gmail to my work email"),
        # a password's words, or a number's groups, in another order
        ("The wifi password is blue cat forty two", "the wifi password is cat blue forty two"),
        ("My phone number is 07700 900123", "my phone number is 900123 07700"),
        ("My landline is 01632 960 123", "my landline is 01632 123 960"),
        ("I hate sushi.", "I hate sushi, actually no, I love it now"),
        ("My son hates school.", "my son hates school no he loves it now"),
        # who did it after "by", standing where the one done to stood in the active fact
        ("My dog was attacked by the neighbour's dog", "my dog attacked the neighbour's dog"),
        ("Rex was adopted by my sister", "Rex adopted my sister"),
        ("My hens were scared by the dog", "my hens scared the dog"),
        ("Gran is taken to church by Tom", "Gran takes Tom to church"),
        # the two sides of "because" or "when", each where the other stood
        ("we moved because Dad got a new job", "Dad got a new job because we moved"),
        (
            "the heating comes on when the temperature drops",
            "the temperature drops when the heating comes on",
        ),
        # an irregular deed, passive and active, the doer where the one done to stood
        ("Rex was bitten by my neighbour's dog", "rex bit my neighbour's dog"),
        ("My bike was stolen by a neighbour", "my bike stole a neighbour"),
        # a word of a group made a name, against the word describing
        ("Our hen Brown lays every day", "our brown hen lays every day"),
        # the same things with the same owners, whose stands where changing
        ("My car hit Tom's car", "Tom's car hit my car"),
        ("My choir beat Sue's choir in the festival", "sue's choir beat my choir in the festival"),
        # a chain of whose in another order, after "my"
        ("I'm staying with my aunt's son this weekend", "I'm staying with my son's aunt"),
        ("We're visiting my wife's sister on Saturday", "We're visiting my sister's wife"),
        # a relative by marriage, or an ex, a man in one and a woman in the other
        ("My son-in-law is a builder", "my daughter in law is a builder"),
        ("My father-in-law plays golf", "My mother-in-law plays golf"),
        ("My ex-wife is a dentist", "my ex husband is a dentist"),
        ("My ex-wife is a nurse", "My ex-girlfriend is a nurse"),
        # a state hedged, against the state
        ("I'm a native Spanish speaker.", "I'm a near-native Spanish speaker."),
        ("I'm a native English speaker.", "i'm a near native english speaker"),
        ("I'm vegan", "I'm mostly vegan"),
        # a state said as it was when something happened, against it now
        ("I'm 35.", "I was 35 when I moved here."),
        ("My son is seven.", "My son was seven when we moved."),
        ("I'm 35.", "I moved here when I was 35."),
        # a title named in the singular and the plural, or made of small words
        ("My favourite film is Alien", "My favourite film is Aliens"),
        ("We're watching Ghosts", "we're watching ghost"),
        ("My favourite film is Her", "My favourite film is It"),
        ("My favourite band is The The", "my favourite band is the who"),
        ("My dad's favourite band is The Who", "my dad's favourite band is the band"),
        ("I'm watching This Is Us", "I'm watching Us"),
        # the speaker one of a group, or done to, in one fact only
        ("My husband loves ABBA", "My husband and I both love ABBA"),
        ("My brother supports Leeds", "me and my brother support leeds"),
        ("My husband got me into cricket", "my husband got into cricket"),
        # whose relative, and where someone named by a pronoun is
        ("My sister bought her son a Leeds season ticket", "my sister bought my son a ticket"),
        ("My daughter reads to her brother every night", "my daughter reads to my brother"),
        ("My grandma lives with us", "my grandma lives near us"),
        ("My dad lives with me", "my dad lives near me"),
        # how many generations back
        ("My great-grandfather was a blacksmith", "My great-great-grandfather was a blacksmith"),
        ("my great great aunt lived to a hundred", "my great aunt lived to a hundred"),
        # a number against many, a price for each against one for all, a label against a count
        ("I own a hundred vinyl records", "i own hundreds of vinyl records"),
        ("Our two season tickets cost £500 each", "our two season tickets cost £500"),
        ("I've watched 2 seasons of The Wire", "i've watched season two of the wire"),
        # a book by someone against one about them
        ("I'm reading a book by Springsteen", "i'm reading a book about springsteen"),
        # two words before two things, traded (neither a value of its own)
        ("My old bike is in the new shed", "my new bike is in the old shed"),
        ("the new tv is in the old lounge", "the old tv is in the new lounge"),
        # done to in one fact (a passive naming no doer), doing it in the other
        ("Tom was chosen as captain", "Tom chose the captain"),
        ("I was paid £50", "I paid £50"),
        ("Sam was hired at Google", "Sam hired at Google"),
        # a thing against lessons in it or parts of it
        ("My son wants a guitar.", "my son wants guitar lessons"),
        ("We gave Lucy a horse for her 16th.", "we gave lucy horse riding lessons for her 16th"),
        ("Dave has my drill.", "Dave has my drill bits."),
        # Mum against a mother-in-law; a gift from, to, by or for a relative
        ("I bought Mum a scarf for Christmas.", "i bought my mother-in-law a scarf for christmas"),
        ("This mug was a present from my sister.", "this mug was a present to my sister"),
        ("The quilt was made by my aunt.", "the quilt was made for my aunt"),
        # one each against one for all; how much; a title; a name with an "s" more
        ("I bought each of the kids a book.", "i bought the kids a book"),
        ("Tom still owes me a bit.", "Tom still owes me a lot."),
        ("Dave has a lot of my tools.", "Dave has all of my tools."),
        ("Dr Khan owes me £30.", "Mr Khan owes me £30."),
        ("Miss Jones borrowed our ladder.", "Mrs Jones borrowed our ladder."),
        ("Mr and Mrs Patel are coming to dinner", "mrs patel is coming to dinner"),
        ("Carlo is cooking for the party", "carlos is cooking for the party"),
        ("We're staying with Robert in York", "we're staying with the roberts in york"),
        # the speaker and a named person trading whose thing it is
        ("I'm covering Sarah's shift on Saturday", "sarah is covering my shift on saturday"),
        # a day once, planned, against every week; "by" against "from" a time
        ("We're going to the cinema on Friday", "we go to the cinema every friday"),
        ("We're eating out on Saturday", "we eat out every saturday"),
        ("I need to be there by 6", "i need to be there from six"),
        # a review's finds: a passive naming no doer, and the same deed done by someone else
        ("My bike was stolen", "I stole a bike"),
        ("I was chosen for the team", "I chose the team"),
        ("My daughter was caught shoplifting", "My daughter caught a shoplifter"),
        ("My bike was damaged", "I damaged a bike"),
        ("Tom and myself go climbing on Sundays", "Tom goes climbing on Sundays"),
        ("My sister brought her boyfriend to dinner", "My sister brought my boyfriend to dinner"),
        ("I speak near fluent French", "I speak fluent French"),
        ("I'm watching a film with Tom Hanks", "I'm watching a film about Tom Hanks"),
        # two feelings traded; a task done for someone against by them; someone kept to do it
        (
            "Dad likes the liquid but hates the tablets.",
            "dad likes the tablets but hates the liquid",
        ),
        (
            "Mum doesn't mind injections but hates tablets.",
            "mum doesn't mind tablets but hates injections",
        ),
        ("I book Dad's hospital appointments.", "dad books his own hospital appointments"),
        ("I cut Dad's toenails.", "dad cuts his toenails"),
        ("my mum has a cleaner", "my mum cleans"),
        ("my son has a tutor", "my son tutors"),
        # a visit planned against one made, at someone's place ("'s" is no "is" there)
        ("i'm going to the doctor's on monday", "i went to the doctor's on monday"),
        ("we're eating at tom's on friday", "we ate at tom's on friday"),
        # a second review's finds
        ("My house is bigger than Tom's house", "Tom's house is bigger than my house"),
        ("My dog was bitten by Tom's dog", "Tom's dog was bitten by my dog"),
        ("The car needs a new tyre", "the car needs new tyres"),
        ("Mum was phoned after Dad", "dad phoned mum afterwards"),
        ("Tom is coming Monday", "tom comes every monday"),
        ("I'm a bit deaf", "i'm deaf"),
        ("I drink a lot of coffee", "i drink coffee"),
        ("Our builder used their skip", "their builder used our skip"),
        ("His van is blocking her drive", "her van is blocking his drive"),
        ("The photos of my dad are in the loft", "the photos from my dad are in the loft"),
        ("The painting of my mum is in the hall", "the painting by my mum is in the hall"),
        (
            "The spare room walls are painted, the ceiling isn't",
            "the spare room ceiling's painted but the walls aren't",
        ),
        ("The kitchen is done, the bathroom isn't", "the bathroom is done but the kitchen isn't"),
        # someone's relative against the someone, the relative's word said once less
        ("Tom's dad works with Anna's dad.", "Tom's dad works with Anna."),
        ("Tom's mum is friends with Anna's mum.", "Tom is friends with Anna's mum."),
        ("Lisa's son is married to Mark's son.", "Lisa's son is married to Mark."),
        (
            "The user's friend works for the user's friend's father.",
            "The user's friend works for the user's father.",
        ),
        # who it is about and someone else trading places
        ("Tom helps my sister", "my sister helps Tom"),
        ("Mia was bitten by my dog", "My dog was bitten by Mia"),
        ("Leo is fond of the neighbour's dog", "The neighbour's dog is fond of Leo"),
        ("the dog was bitten by the neighbour's cat", "the neighbour's cat was bitten by the dog"),
        ("my mum picks Tom up from school", "Tom picks my mum up from school"),
        # a share of a whole against a day or a quarter of the year
        ("I pay a third of the rent.", "i pay the rent on the third"),
        ("I pay a quarter of the bills.", "i pay the bills every quarter"),
        (
            "We pay a tenth of our income to the church.",
            "we pay our income to the church on the tenth",
        ),
        # many against one number
        ("I owe hundreds on the card.", "i owe a hundred on the card"),
        ("We've saved thousands.", "we've saved a thousand"),
        # money shared against one's own
        ("The council tax comes out of our account.", "the council tax comes out of my account"),
        ("Our savings are £10,000.", "my savings are £10,000"),
        ("Sam is into football", "Sam is over football"),
        # a negation of part against one of the whole; a few against few
        ("Not all my siblings live nearby", "None of my siblings live nearby"),
        ("I don't always take the bus", "I never take the bus"),
        ("um i don't always lock the car", "i always don't lock the car"),
        ("The kids don't have any phones", "The kids don't all have phones"),
        ("A few of my friends are from university", "Few of my friends are from university"),
        # "only" or "even" before another part
        ("Anna drinks only coffee in the morning", "Anna drinks coffee only in the morning"),
        ("Tom works even on Sundays", "Even Tom works on Sundays"),
        ("We don't go to church every Sunday", "We never go to church on Sundays"),
        # a bound before one of a thing
        ("The school is less than a mile away.", "the school is a mile away"),
        ("Less than half my salary goes on rent.", "half my salary goes on rent"),
        ("The drive takes over an hour.", "the drive takes an hour"),
        # never now, against once (both may hold)
        ("I never eat meat", "I used to eat meat"),
        ("grandma never drives", "grandma stopped driving"),
        # "their" of someone else the model named, and "into" of how far along
        ("The user's parents are selling their house", "my parents are selling my house"),
        ("I'm into my second year at uni", "I like my second year at uni"),
        ("Tom is Anna's partner", "Anna is Tom's wife"),
        # the second reviewer's and testers 55-56's
        ("Tom is into cycling", "Tom is cycling"),
        (
            "My kids are Tom, Ann and Joe, oldest to youngest",
            "My kids are Joe, Ann and Tom, oldest to youngest",
        ),
        ("The kids' ages are 8, 10 and 12", "The kids' ages are 12, 10 and 8"),
        ("The user's daughter drives their car to work", "My daughter drives my car to work"),
        ("Mon, Wed, Fri: swim, run, cycle.", "Mon, Wed, Fri: run, swim, cycle."),
        ("Let my mum call me any time.", "Let me call my mum any time."),
        ("Don't let the kids wake me before 8.", "Don't let me wake the kids before 8."),
        ("Don't wake me before 8.", "Don't wake anyone before 8."),
        ("Don't announce all visitors.", "Don't announce any visitors."),
        ("I sold the bike with the lock.", "I sold the bike without the lock."),
        ("I sold the car with the roof box.", "I sold the car, but not the roof box."),
        ("My car was lent to Tom.", "Tom's car was lent to me."),
        ("Tom's shed is bigger than mine.", "My shed is bigger than Tom's."),
        # the fourth reviewer's
        ("I'm going to quit smoking", "I have quit smoking"),
        ("We've lived here for over a decade", "We've lived here for a decade"),
        ("Allergy no longer cats", "Allergic to cats"),
        ("My phone number is 07700 900123.", "My phone number is 07700 900124."),
        ("My sister lives at 22 Rose Avenue", "My sister's ex lives at 22 Rose Avenue"),
        ("My dad lives at 5 Hill Top", "My dad's carer lives at 5 Hill Top"),
        ("I'm scared of the dog.", "the dog is scared"),
        ("My wife's team grew to 12", "my wife's team grew by twelve"),
        ("um i'm really upset with jack", "jack's really upset"),
        ("The code is 1-5-9-0", "the code is 1-5-9-1"),
        ("allergies not nuts or eggs", "allergic to nuts and eggs"),
        ("Tom and Ann are a doctor and a teacher", "Tom and Ann are a teacher and a doctor"),
        ("We drove through Leeds, York and Hull", "We drove through York, Leeds and Hull"),
        # a habit once against now
        ("I'd walk the dog every morning.", "I walk the dog every morning."),
        ("My dad would take us fishing on Sundays.", "My dad takes us fishing on Sundays."),
        # a contrast, each way round (the reviewer's)
        ("the house is sold not rented", "the house is rented not sold"),
        ("We don't use to-do lists at home", "We use to-do lists at home"),
        # the twentieth session's testers: a ban against no duty
        ("Grandma mustn't take ibuprofen.", "grandma doesn't have to take ibuprofen"),
        ("Tom must never open the door to strangers.", "tom needn't open the door to strangers"),
        # what is known, by its question word
        ("Grandpa knows when to use his inhaler.", "grandpa knows how to use his inhaler"),
        ("Tom knows why he must take his inhaler.", "tom knows when he must take his inhaler"),
        ("Emma knows which bus to take.", "emma knows how to take the bus"),
        # a rule about another deed
        ("Leo is allowed to have the iPad.", "leo is allowed to use the ipad"),
        ("Tom is allowed to keep the kitten.", "tom is allowed to take the kitten"),
        # "X not Y" traded in lower case
        ("it's leo not mia who does the bins", "it's mia not leo who does the bins"),
        (
            "um it's thursday not wednesday for the bins",
            "um it's wednesday not thursday for the bins",
        ),
        # the twentieth session's second three testers and their reviewer
        ("Ava is the oldest.", "Ava is the oldest in her class."),
        ("Tom is older than Sam.", "Tom is older than Sam's class."),
        ("Tom is the same age as Sam.", "tom is the same age as sam's class"),
        ("Mia and Noah are twins.", "mia and noah have twins"),
        ("We eat after Gran goes to bed.", "Gran eats after we go to bed."),
        ("we have tea once the kids are asleep", "the kids have tea once we're asleep"),
        (
            "I give the baby her bottle before my shower.",
            "I give the baby her bottle before her shower.",
        ),
        ("Uncle Bob lives in Leeds.", "Bob's uncle lives in Leeds."),
        ("Sister Mary is a nun.", "Mary's sister is a nun."),
        ("Jack's dog is called Max.", "Jack the dog is called Max."),
        ("My plumber is James Thomas.", "My plumber is Thomas James."),
        ("A.J. Smith is my accountant.", "J.A. Smith is my accountant."),
        ("My sister is married to Will.", "My sister is married."),
        ("um jack and will are coming to stay", "jack is coming to stay"),
        ("Rose's garden is in Bath.", "The rose garden is in Bath."),
        ("June's birthday is on the 5th.", "My birthday is on the 5th of June."),
        ("Tom owns Rex.", "Rex owns Tom."),
        (
            "The torch is in the drawer next to the oven",
            "the torch is next to the drawer in the oven",
        ),
        ("Emma is allowed to take the car.", "emma is allowed to have the car"),
        ("Grandpa knows how often to use his inhaler", "grandpa knows how to use his inhaler"),
        # the twentieth session's last three testers and the second review
        ("Sam eats about 300 grams of pasta.", "Sam makes about 300 grams of pasta."),
        ("We get four pints of milk every Monday.", "We drink four pints of milk every Monday."),
        (
            "Mix one part vinegar with three parts oil.",
            "Mix one part oil with three parts vinegar.",
        ),
        ("Tom eats two sausages with one egg.", "Tom eats one sausage with two eggs."),
        (
            "Tom used to walk the dog; Emily does it now.",
            "Emily used to walk the dog; Tom does it now.",
        ),
        (
            "We used to change the sheets weekly, now fortnightly.",
            "We used to change the sheets fortnightly, now weekly.",
        ),
        ("Amy feeds the cat.", "Amy feeds the cat and the kitten."),
        ("Tom does the ironing.", "Tom does the ironing and the dishes."),
        ("Priya drives to work with Tariq.", "Tariq drives to work with Priya."),
        ("We drive to school via the park.", "We drive to the park via school."),
        ("Dave drives me to work.", "Dave drives my car to work."),
        ("Tom told Mia when to feed the cat", "Tom told Mia where to feed the cat"),
        ("leo never mia does the bins", "mia never leo does the bins"),
        # each thing placed by the other's word
        ("Under the bed is the suitcase.", "the bed is under the suitcase"),
        (
            "The spare key is under the mat by the back door.",
            "the spare key is by the mat under the back door",
        ),
        ("The room above the kitchen is Tom's.", "the room above tom's is the kitchen"),
        ("The box under the bed has the photos.", "the box under the photos has the bed"),
        ("Room above the kitchen: Tom's bedroom.", "the room above tom's bedroom is the kitchen"),
        # "across from" a place, not at it
        ("We're staying at the Hilton.", "We're staying across from the Hilton."),
        # whom a booking is for, against how many
        ("We've booked a room for two.", "We've booked two rooms."),
        ("The campsite is by the lake.", "The campsite is across the lake."),
    ],
)
def test_one_spelling_saying_two_things_is_never_merged(first: str, second: str) -> None:
    assert relation(first, second) is not SAME, reason(first, second)
    assert relation(second, first) is not SAME


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # a relation that held, holds or will hold, with whose said by "'s"
        ("Kim was Dave's boss.", "Kim is Dave's boss."),
        ("Tom and Anna were Ben's neighbours.", "Tom and Anna are Ben's neighbours."),
        ("nina's sam's manager", "Nina was Sam's manager"),
        ("Kim had been Dave's boss.", "Kim is Dave's boss."),
        ("Kim will be Dave's boss.", "Kim is Dave's boss."),
        ("Jen is my brother's new girlfriend.", "Jen was my brother's girlfriend."),
        ("Tom is Anna's husband.", "Anna is Tom's sister."),
        ("Tom was Anna's husband.", "Anna is Tom's wife."),
        # once, against never
        ("I used to like jazz.", "I never liked jazz."),
        ("We used to have a dog.", "We never had a dog."),
        ("I no longer like jazz.", "I never liked jazz."),
        ("I quit smoking", "I've never smoked"),
        ("I used to not like olives.", "I used to like olives."),
        ("I used to like olives.", "I didn't use to like olives."),
        # past forms the lexicon knew but did not read as past before a plural
        ("My wife taught maths.", "My wife teaches maths."),
        ("We kept chickens.", "We keep chickens."),
        # meant against done, with a verb of one form for both
        ("I'm going to quit smoking.", "I quit smoking."),
        ("i'm gonna set up the new router", "I set up the new router."),
        ("I'm about to quit my job.", "I quit my job."),
        # had against have
        ("I had lived in Leeds for 5 years.", "I have lived in Leeds for 5 years."),
        ("i'd been running every morning", "i've been running every morning"),
        # lists in another order where the order, or what goes with what, is what is said
        (
            "Tom, Ann and Joe are 8, 10 and 3 respectively.",
            "Tom, Ann and Joe are 10, 8 and 3 respectively.",
        ),
        (
            "tom ann and joe do dishes laundry and cooking",
            "tom ann and joe do laundry dishes and cooking",
        ),
        (
            "My favourite fruits are apples, pears and plums, in that order.",
            "My favourite fruits are pears, apples and plums, in that order.",
        ),
        (
            "Ann, Tom and Joe came first, second and third.",
            "Tom, Ann and Joe came first, second and third.",
        ),
        ("we have a dog called rex", "we had a dog called rex"),
        ("We have a dog called Rex", "we'd a dog called rex"),
        ("I'm going to quit smoking next month.", "I quit smoking last month."),
        ("I like jazz much more than I used to.", "I like jazz slightly less than I used to."),
        # a note that denies a state
        ("Allergy: not peanuts", "i'm allergic to peanuts"),
        ("Allergy: no peanuts", "i'm allergic to peanuts"),
        ("The user's son: allergy not eggs", "my son's allergic to eggs"),
        # cause and effect turned round, "so" against "because" or "since"
        (
            "I drink coffee at night because I can't sleep",
            "i drink coffee at night so i can't sleep",
        ),
        ("My son is being bullied so he's anxious", "My son is anxious so he's being bullied"),
        ("I pick up the kids since my wife works late", "I pick up the kids so my wife works late"),
        ("we drive through Leeds, York and Hull", "we drive through York, Leeds and Hull"),
        # a comparison with nothing ranked after it, the other way
        ("I like jazz less than I used to.", "I like jazz more than I used to."),
        ("I sleep better than I used to.", "I sleep worse than I used to."),
        ("I see my sister more than I'd like.", "I see my sister less than I'd like."),
        # what one clause affirms the other denies
        (
            "The spare room walls are painted, the ceiling isn't",
            "the spare room ceiling's painted but the walls aren't",
        ),
        # then ("last week", "last month") and now
        ("I had a cold last month.", "I have a cold."),
        ("I took antibiotics last week.", "I take antibiotics."),
        ("The user's son had a cold last week.", "um my son's got a cold"),
        # "have got" is having now
        ("I had a chest infection.", "i've got a chest infection"),
        ("I had gout.", "i've got gout"),
        # a present perfect lasting a while, and the same while over
        ("Mum has lived in a care home for two years.", "Mum lived in a care home for two years."),
        (
            "um my mum's been on statins for three years",
            "User's mum was on statins for three years.",
        ),
        ("I've been vegetarian for ten years.", "I was vegetarian for ten years."),
        # whom it was done to, for or from in a passive, and who did it in the active
        ("£500 was lent to my sister.", "My sister lent £500."),
        ("The rent is paid to the user's mother.", "my mum pays the rent"),
        ("The phone bill is paid for my son.", "My son pays the phone bill."),
        ("the deposit was borrowed from my parents", "My parents borrowed the deposit."),
        # a name that is against one that was
        ("The hamster is called Nibbles.", "the hamster was called nibbles"),
        ("Our vet is called Dr Patel.", "our vet was called dr patel"),
        # several against one, of words the judge reads as one animal
        ("The cat is insured.", "the kittens are insured"),
        ("Tom feeds the dog.", "tom feeds the puppies"),
        # a having said in the past against one said now
        ("I suffered from insomnia.", "I suffer from insomnia."),
        ("Mum suffered from migraines.", "Mum suffers from migraines."),
        # "got" and "did" said in the past, against a deed now or to come
        ("Tom got his black belt in June.", "Tom is getting his black belt in June."),
        ("I did my first triathlon in May.", "I'm doing my first triathlon in May."),
        # times shared out between people, traded
        ("Mondays with Tom, Tuesdays with Sarah.", "mondays with sarah tuesdays with tom"),
        ("Weekdays with mum, weekends with dad.", "weekdays with dad weekends with mum"),
        # no word of how often (as a rule) against "sometimes"
        ("Sarah collects the kids on Sundays.", "sarah sometimes collects the kids on sundays"),
    ],
)
def test_a_state_said_to_hold_otherwise_is_a_conflict(first: str, second: str) -> None:
    assert relation(first, second) is CONFLICT, reason(first, second)
    assert relation(second, first) is CONFLICT


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("I used to like jazz", "I no longer like jazz"),
        ("I used to not like olives.", "I didn't use to like olives."),
        ("Mia was bitten by my dog", "My dog bit Mia"),
        ("my sister is driven to work by Tom", "Tom drives my sister to work"),
        ("Tom works with my sister", "my sister works with Tom"),
        ("Tom's dad works with Anna's dad", "Anna's dad works with Tom's dad"),
        ("I pay a third of the rent", "I pay one third of the rent"),
        ("Our dog is called Rex", "my dog is called Rex"),
        # the same said in other words, once a needless question
        (
            "I cancelled my Amazon Prime subscription.",
            "The user cancelled their Amazon Prime subscription.",
        ),
        (
            "My husband pays the car insurance every year.",
            "my husband pays the car insurance annually",
        ),
        ("The car loan is almost paid off.", "the car loan's nearly paid off"),
        ("Sci-fi is my favourite genre.", "The user's favourite genre is science fiction."),
        ("I'm not a big fan of opera.", "i'm not really into opera"),
        ("my son is really into dinosaurs", "my son likes dinosaurs"),
        ("i'm not really into opera", "I don't like opera"),
        ("Tom is Anna's husband.", "Anna is Tom's wife."),
        ("Grace is Oliver's grandmother", "oliver is grace's grandson"),
        ("I'd like a cup of tea", "I would like a cup of tea"),
        ("I'm going to start piano lessons next month.", "I will start piano lessons next month."),
        ("i'm going to leeds on friday", "I go to Leeds on Friday"),
        ("I've had the car since 2019", "I have had the car since 2019"),
        ("Tom and Ann are 8 and 10", "Ann and Tom are 10 and 8"),
        ("I speak English, French, and German.", "The user speaks German, French and English."),
        ("Mum's hip operation is on 12 June.", "mum's hip operation is on june twelfth"),
        ("Allergy: not peanuts", "I'm not allergic to peanuts"),
        (
            "I helped Mr Patel move his sofa, so he owes me a favour",
            "mr patel owes me a favour because i helped him move his sofa",
        ),
        ("The school is less than a mile away.", "The school is less than one mile away."),
        ("none of us smoke", "we don't smoke"),
        ("neither of my parents drives", "my parents don't drive"),
        ("the cat only eats wet food", "the cat eats only wet food"),
        ("I'd bought the tickets", "I bought the tickets"),
        (
            "When I was a kid we would go to Wales every summer",
            "When I was a kid we went to Wales every summer",
        ),
        ("I would recommend the dentist on Main Street", "I recommend the dentist on Main Street"),
        ("I'm going to retire next year", "I retire next year"),
        ("I'm going to see the doctor on Monday", "I see the doctor on Monday"),
        ("Tom and Ann like cats and dogs", "Tom and Ann like dogs and cats"),
        (
            "The user helps the neighbours with their garden",
            "I help the neighbours with their garden",
        ),
        ("The user's parents renewed their passports", "my parents renewed their passports"),
        ("I take two sugars in my coffee", "The user takes 2 sugars in their coffee."),
        (
            "My parents lent me money for my first car.",
            "the user's parents lent them money for their first car",
        ),
        ("I'm going to yoga on Tuesdays", "I do yoga on Tuesdays"),
        ("The bike lock PIN is 0042.", "the bike lock pin is zero zero four two"),
        ("The garage door code is 1590.", "The user's garage door code is 1-5-9-0."),
        ("I earn 40 grand a year.", "i earn forty thousand a year"),
        ("I don't eat meat at all", "I never eat meat"),
        ("Get me a taxi at 8", "Get a taxi for me at 8"),
        ("Tell me if anyone rings the doorbell", "Tell me when the doorbell rings"),
        ("Tom is into his third year at uni", "Tom is in his third year at uni"),
        ("tom only eats fish", "tom eats only fish"),
        (
            "My older brother speaks French, German and Spanish",
            "My older brother speaks Spanish, German and French",
        ),
        ("My youngest son only eats pasta", "my youngest son eats only pasta"),
        ("My mum and dad only drink decaf", "my mum and dad drink only decaf"),
        ("The shop is only open on weekdays", "The shop is open only on weekdays"),
        ("I'd usually have porridge for breakfast", "I usually have porridge for breakfast"),
        ("If it rains we would take the bus", "if it rains we take the bus"),
        (
            "The spare key is under a flowerpot by the door",
            "the spare key's under the flowerpot by the door",
        ),
        (
            "My lactose intolerance no longer bothers me",
            "my lactose intolerance doesn't bother me anymore",
        ),
        (
            "I get my groceries through Ocado and Tesco",
            "I get my groceries through tesco and ocado",
        ),
        ("Tom and Ann have swimming and ballet", "tom and ann have ballet and swimming"),
        ("I sold the car without the roof box.", "I sold the car, but not the roof box."),
        # said otherwise, and not to be told apart by the rules above (the reviewer's)
        ("my father in law's retired", "my father in law is retired"),
        ("the lock on the shed's fixed", "the lock on the shed is fixed"),
        ("My mum and Anna go to the same church", "Anna and my mum go to the same church"),
        ("My sister met Tom at university", "Tom met my sister at university"),
        ("My sister lives across the road from Tom", "Tom lives across the road from my sister"),
        ("Tom helps my sister", "my sister gets help from Tom"),
        (
            "The user's sister works with the user's sister's husband",
            "The user's sister works with her husband",
        ),
        ("mum never drives at night now", "mum no longer drives at night"),
        ("I never eat meat now", "I quit eating meat"),
        ("I put my salary into our savings account", "Our savings account gets my salary"),
        (
            "We have a Fourth of July party every year",
            "We have a party on the Fourth of July every year",
        ),
        ("My grandma only speaks Punjabi.", "The user's grandmother speaks only Punjabi."),
        # the same tense, however the having or the while is said
        ("I have a cold.", "I've got a cold."),
        ("I had a cold last month.", "I had a cold."),
        ("my mum's been on statins for three years", "my mum has been on statins for three years"),
        ("Daniel has been vegan since 2019.", "daniel went vegan in twenty nineteen"),
        ("I have a haircut booked for Friday at 10", "i've got a haircut friday at ten"),
        ("The car loan has 18 months left.", "there's eighteen months left on the car loan"),
        # a passive with its doer, or said the same way round
        ("The rent is paid to my mum.", "my mum gets paid the rent"),
        # a wish said with "would really like", and a liking for a rule
        ("My son wants a guitar.", "my son would really like a guitar"),
        ("I'd love a cup of tea.", "I want a cup of tea."),
        ("I prefer tabs over spaces", "Tabs over spaces, please"),
        # the same way to the same place
        ("We leave for Spain on Friday.", "We're leaving for Spain on Friday."),
        ("We're flying to Dubai.", "We're flying into Dubai."),
        ("I walk the kids to school via the park.", "i walk the kids to school through the park"),
        # a state two share, or one said from either side, and staying at someone's or with them
        ("Tom is friends with Mia.", "Mia is friends with Tom."),
        ("I'm fine with spicy food.", "spicy food's fine with me"),
        ("We're staying at Tom's.", "We're staying with Tom."),
        ("I work at Siemens.", "i work for siemens"),
        ("Let the cleaner in on Wednesdays.", "Please let the cleaner in on Wednesdays."),
        ("Speak slowly to my grandmother.", "Talk slowly when you talk to my gran."),
        ("My sister moved to Leeds for her job", "my sister moved to leeds because of her job"),
        ("The room is 10 square metres.", "the room's ten square metres"),
        ("The password of the wifi is on the fridge", "The password for the wifi is on the fridge"),
        ("Jack is away with Mia", "Mia is away with Jack"),
        ("Mum called Grandma yesterday", "Mum called Gran yesterday"),
        ("Don't let the dog in the kitchen", "Don't let the dog into the kitchen"),
        ("Sugar is bad for you", "Sugar is bad"),
        ("Sarah collects the kids on Sundays.", "sarah usually collects the kids on sundays"),
        ("i'm allergic to every kind of nut", "I'm allergic to all nuts"),
        ("My mum's actually got five brothers.", "My mother has five brothers."),
    ],
)
def test_the_same_state_said_otherwise_still_merges(first: str, second: str) -> None:
    assert relation(first, second) is SAME, reason(first, second)
    assert relation(second, first) is SAME


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # being one against having one: both may be true
        ("Mum is a carer.", "mum has a carer"),
        ("My dad is a GP.", "my dad has a gp"),  # a trade in capitals
        ("My wife is a midwife.", "my wife has a midwife"),
        ("Tom is a tutor.", "tom's got a tutor"),
        ("Priya is a maths tutor", "priya has a maths tutor"),
        ("I'm a nurse", "I have a nurse"),
        ("The User is a piano teacher", "The user has a piano teacher"),
        ("Luna is a border collie", "luna has a border collie"),
        ("Gran has a carer every morning.", "gran is a carer every morning"),
        # one occasion against every one
        ("I'm on call this weekend", "I'm on call every weekend"),
        ("This month's gas bill is £84.50", "every month the gas bill is £84.50"),
        ("I'm working this Saturday", "I work every Saturday"),
        # someone to be or become, against someone done to or with
        (
            "I'm training as an electrician at the college",
            "I'm training an electrician at the college",
        ),
        ("My son wants to be a doctor", "My son wants a doctor"),
        ("I want to be a teacher", "I want a teacher"),
        ("I'm training as an electrician", "I'm training an electrician"),
        ("I volunteer as a mentor", "I volunteer with a mentor"),
        # a name that is also a place, a month or a thing: who did it, against where, when, what
        ("Sydney had a heart scan", "I had a heart scan in Sydney"),
        ("april has a physio appointment", "I have a physio appointment in April"),
        ("bill paid for my new glasses", "i paid the bill for my new glasses"),
        ("sydney is having a hip replacement", "i'm having a hip replacement in sydney"),
        # a name against the same word describing it
        ("My cat is called Ginger", "my cat is ginger"),
        ("My pony is called Star", "my pony is a star"),
        ("The tortoise goes by Speedy", "the tortoise is speedy"),
        ("My dog's name is Rusty", "my dog is rusty"),
        # a try, or a wish to feel, against the deed or the feeling
        ("I tried to fix the dishwasher", "i fixed the dishwasher"),
        ("I've been trying to fix the gate", "i fixed the gate"),
        ("I like jazz.", "i want to like jazz"),
        ("I love jazz.", "i'd love to love jazz"),
        # a number said twice against once
        ("The doorway is six foot six", "the doorway is six foot"),
        ("The sofa weighs 10 stone 10", "the sofa weighs 10 stone"),
        ("We have two sofas and two armchairs", "we have two sofas and an armchair"),
        # a fact the speaker takes back midway
        ("I'm not allergic to cats.", "i'm not allergic to cats no i am"),
        # who did it, one of many against the speaker's own
        ("I was bitten by a dog", "I was bitten by my dog"),
        ("My son got bitten by a dog", "my son got bitten by our dog"),
        # some of the times against each
        ("I water the roses every morning", "i water the roses some mornings"),
        # a place in a row against how many
        ("This is my third cat", "i have three cats"),
        ("Bella is the third puppy", "bella has three puppies"),
        # two clauses joined by other words
        ("The dog barks when the postman comes", "the dog barks until the postman comes"),
        # alone against together
        ("I do bedtime on my own.", "we both do bedtime"),
        ("We both help Tom with homework.", "i help tom with homework"),
        # a liking begun against one ended
        ("Sam is over football", "Sam is into football"),
        ("Tom is through with smoking", "Tom is into smoking"),
        ("Dad is over the flu", "Dad has the flu"),
        # two words naming one thing, the other way round
        ("I like milk chocolate", "i like chocolate milk"),
        ("Gran loves the garden flowers", "Gran loves the flower garden"),
        # a review's finds: both facts taken back midway, the other way round; an animal one
        # is against one one has
        ("i take the bus no i walk", "i walk no i take the bus"),
        ("Luna is a collie", "luna has a collie"),
        ("I love sushi", "I don\u2019t hate sushi"),
        # a deed meant and not done, against the deed
        ("I cancelled Netflix", "i was gonna cancel netflix"),
        ("I paid the broadband bill", "I would have paid the broadband bill"),
        # one thing in place of another, against both
        ("I'm bringing wine instead of beer", "i'm bringing wine and beer"),
        ("I'm organising the quiz with Pete", "i'm organising the quiz instead of pete"),
        # a feeling denied, against its opposite
        ("I love sushi.", "i don't hate sushi"),
        ("I like sushi.", "i don't dislike sushi"),
        # a broad thing of an animal's or a relative's, against them
        ("We keep the rabbit food in the shed.", "we keep the rabbit in the shed"),
        ("We left the dog's things at Gran's.", "we left the dog at gran's"),
        ("I packed the baby stuff.", "I packed the baby."),
        # someone's carer against someone who is one, and being someone's carer against having
        # them
        ("Kate is my sister's carer.", "Kate is my sister and carer."),
        ("User's dad: GP", "User's dad's GP"),
        ("I am Dad's carer.", "I have Dad's carer."),
        # who says or thinks it and of whom, turned round
        ("Mum says I snore.", "I say Mum snores."),
        ("Mum thinks I work too hard.", "I think Mum works too hard."),
        # preferring things against wanting one
        ("Amy prefers cats.", "amy wants a cat"),
        # at someone's home against for them, who pays against whom for, of against for
        ("The party is at Tom's.", "The party is for Tom."),
        ("um the party's at uncle jim's", "The party is for Uncle Jim."),
        (
            "The anniversary dinner is at Mum and Dad's.",
            "The anniversary dinner is for Mum and Dad.",
        ),
        ("Dinner is on Tom.", "Dinner is for Tom."),
        ("The framed photo is of Grandma.", "The framed photo is for Grandma."),
        # the assistant asked to do it, against it done to the assistant, or letting it be done
        ("Speak English to the children.", "the children speak english to you"),
        ("Don't tease Ben.", "Don't let Ben tease you."),
        ("Don't let Tom swear.", "Don't swear at Tom."),
        # a feeling of someone or something against one for them, at them against about them
        ("Ella is scared of the dog.", "ella is scared for the dog"),
        ("Tom is mad at Mia.", "tom is mad about mia"),
        # someone's relative against the two of them
        ("Jack's mum is 40.", "Jack and mum are 40."),
        # a hedge, and like a thing against the thing
        ("My husband is kind of religious.", "my husband is very religious"),
        ("We keep a kosher kitchen.", "We keep a kosher-style kitchen."),
    ],
)
def test_the_same_words_saying_two_facts_that_may_both_hold_stay_apart(
    first: str, second: str
) -> None:
    assert relation(first, second) is DISTINCT, reason(first, second)
    assert relation(second, first) is DISTINCT
    # Never one fact, however alike an embedder finds them.
    bands = cosine_bands("all-minilm")
    assert judge(second, Kind.FACT, first, Kind.FACT, 0.99, bands).relation is DISTINCT


def test_a_person_in_another_part_is_never_merged() -> None:
    # "works with" holds both ways; "works for" does not, nor "lives near".
    assert relation("Tom works with Ann", "Ann works for Tom") is not SAME
    assert relation("Ann works for Tom", "Tom works with Ann") is not SAME
    assert relation("Ben lives with Ann", "Ann lives near Ben") is not SAME


def test_a_comparison_is_never_merged_with_an_equality() -> None:
    # "-er" read as a doer's ending made "taller" the same word as "tall".
    assert relation("Emma is as tall as Lucy.", "emma is taller than lucy") is not SAME
    assert relation("Emma is taller than Lucy.", "emma's taller than lucy") is SAME


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("I have a son and a daughter", "I have a daughter and a son"),  # a list
        ("My TV is a Samsung", "I have a Samsung TV"),  # a compound
        ("My laptop is a ThinkPad", "I use a ThinkPad laptop"),  # a kind of the other
        ("I'm visiting my parents next weekend", "Next weekend I'm visiting my parents"),
        ("My favourite band is Radiohead", "I love Radiohead more than any other band"),
        ("Call me Sam", "I prefer to be called Sam"),
        (
            "Our neighbour Gary has a ladder we can borrow.",
            "gary next door lets us borrow his ladder",
        ),
        ("My birthday is on March 3rd", "I was born on March 3rd"),  # a past that holds
        ("I use Firefox", "I switched to Firefox"),  # the change word says when
        ("Water the plants every three days.", "the plants get watered every 3 days"),
        ("The Netflix password is BlueFox88.", "the netflix password is bluefox88"),
        ("The bike lock code is 0915.", "bike lock code is oh nine one five"),
        # words moved together, and relations the same both ways (a review of the rules above)
        ("Helen is Tom's mum", "Tom's mum is Helen"),
        ("Luna is Mia's cat", "Mia's cat is Luna"),
        ("Leo is 7 and Mia is 9", "Mia is 9 and Leo is 7"),
        ("Work starts at 9 and ends at 5", "Work ends at 5 and starts at 9"),
        (
            "Tom has football on Monday and Sam has swimming on Tuesday",
            "Sam has swimming on Tuesday and Tom has football on Monday",
        ),
        ("Tom is married to Kate", "Kate is married to Tom"),
        ("I work with Ben", "Ben works with me"),
        ("I sit next to Ben at work", "Ben sits next to me at work"),
        ("I'm a registered nurse", "I work as a registered nurse"),  # "-ed", no past
        ("Uncle Alfred lives in York", "uncle alfred lives in york"),  # a name, no past
        # a name written small is who has the state, not what it excludes
        ("Lily is allergic to penicillin.", "lily is allergic to penicillin"),
        # words that frame a fact say nothing: "turns out" first, "after all" last
        ("Harry is allergic to penicillin.", "turns out harry is allergic to penicillin after all"),
        ("We eat after all the kids are in bed", "we eat after the kids are in bed"),
        # units written short or long, and the letters only after a number
        ("The bookshelf is 120 cm tall", "the bookshelf is 120 centimetres tall"),
        ("The bath holds 200 l", "the bath holds two hundred litres"),
        ("The desk is 1.2 m wide", "the desk is one point two metres wide"),
        ("Add 5 g of salt", "add five grams of salt"),
        ("Sam is 6 ft tall", "sam is six feet tall"),
        # "and a half" after a number, and a year said in two halves
        ("Leo is 3.5", "leo is three and a half"),
        ("Leo is 3 and a half", "leo is three and a half"),
        ("Our car was made in 2015.", "our car was made in twenty fifteen"),
        ("I was born in 1985", "I was born in nineteen eighty five"),
        ("We moved here in 2005", "we moved here in twenty oh five"),
        ("The bus comes at 10:15", "the bus comes at ten fifteen"),  # a clock, not a year
        # two clauses said in the other order, with a word said in both ("drives")
        (
            "Ben drives the Honda and Ann drives the Ford",
            "Ann drives the Ford and Ben drives the Honda",
        ),
        # who has an allergy, written small before it, is not what it excludes
        ("Ben is allergic to penicillin", "uh ben has a penicillin allergy"),
        ("The dishwasher tablets are under the sink", "the dishwasher tablets are below the sink"),
        ("The passport expires in May 2026", "the passport expires in may twenty twenty six"),
        ("I may go to Leeds", "I might go to Leeds"),
        # a passive said actively; "can" that says it is so; "my" and "our"; a relation both ways
        ("Sara hired the builder.", "the builder was hired by sara"),
        ("I speak Spanish", "I can speak Spanish"),
        ("My car is a Volvo", "Our car is a Volvo"),
        ("Tom works with Ann on Mondays", "Ann works with Tom on Mondays"),
        ("Ann's birthday is 3/4.", "ann's birthday is 3/4"),
        # the review's needless conflicts: an aspect, a possessive more, "May" the month, "some
        # days", a phone number and a range with dashes, "by" a place, a feeling's "about",
        # "Dad's allergic", a clause after "everything but", a cat allergy
        ("Ann is learning Spanish", "Ann has been learning Spanish"),
        ("We have chicken for dinner on Fridays", "We're having chicken for dinner on Fridays"),
        ("Sam keeps his bike in our garage", "Sam keeps his bike in the garage"),
        ("In May we have to visit Gran", "We have to visit Gran in May"),
        ("Some days I work from home", "I work from home some days"),
        ("Mum's number is 0161-555-0199", "mum's number is 0161 555 0199"),
        ("I work 9-5 on weekdays", "I work 9 to 5 on weekdays"),
        ("The spare key is kept by the back door", "the spare key is kept at the back door"),
        ("Ann is excited about the trip", "Ann is excited for the trip"),
        ("Dad's allergic to penicillin", "Dad is allergic to penicillin"),
        ("I eat everything but I'm allergic to nuts", "I'm allergic to nuts"),
        ("Lily is allergic to cats.", "lily has a cat allergy"),
        ("Only Tom walks the dog", "just tom walks the dog"),
        ("It is too hot in the loft", "it's too hot in the loft"),
        # a comparison said the other way round
        ("Ann is older than Ben", "Ben is younger than Ann"),
        ("Emma is taller than Lucy", "lucy is shorter than emma"),
        ("Laura is Tom's ex-wife.", "laura is tom's ex wife"),
        # a half-relative said in two words; a bound said two ways; "till" and "'s closed"
        ("Sam is Lily's half-brother.", "sam is lily's half brother"),
        ("Max weighs over 30 kg.", "max weighs more than thirty kilos"),
        ("The pool is closed until Monday", "the pool's closed till monday"),
        ("My sister has moved to Hove", "my sister's moved to hove"),
        # "but" after "every day" is "except"; a perfect, or a request, says nothing of when
        ("The shop is open every day except Sunday", "the shop is open every day but sunday"),
        ("I have lived in Leeds", "I live in Leeds"),
        ("I grew up in Ohio", "Ohio is where I grew up"),
        ("Please water the plants every three days", "please water the plants every 3 days"),
        # a friendship holds both ways, a best friend said in another order is the same
        ("Tom is Hugo's friend.", "Hugo is Tom's friend."),
        ("Hugo is Tom's best friend.", "tom's best friend is hugo"),
        # a time before or after is no sequence of two things; a list, no pair of clauses
        ("I walk the dog before lunch", "before lunch I walk the dog"),
        ("I like tea and coffee", "I like coffee and tea"),
        ("Leo is 7 and Mia is 9", "Mia is 9 and Leo is 7"),
        ("The rent is $1,450 a month.", "rent is fourteen hundred and fifty dollars a month"),
        ("The drive takes an hour and a half", "the drive takes 1.5 hours"),
        ("Add a cup and a half of flour", "add one and a half cups of flour"),
        ("Tom is at school", "Tom's at school"),
        ("I live in London", "london is where I live"),
        ("Tom's flight is at 8:15.", "toms flight is at quarter past eight"),
        ("I'm a morning person", "i am a morning person"),
        ("I get up at 07:00", "i get up at seven"),
        ("The alarm is set for 06:00.", "the alarm is set for 6 am"),
        ("Lunch is at 12:30", "lunch is at half past twelve"),
        ("Mia's teacher is Mrs Patel.", "mia's teacher is missus patel"),
        ("Our GP is Dr Khan.", "our gp is doctor khan"),
        # the same rule, the same deed, the same place, said another way
        ("Grandma needn't take ibuprofen.", "Grandma doesn't have to take ibuprofen."),
        ("Grandma must not take ibuprofen.", "grandma mustn't take ibuprofen"),
        ("Leo can have sweets on Fridays", "leo can eat sweets on fridays"),
        (
            "Amy's reading book needs to go back every Monday.",
            "amy has to take her reading book back on mondays",
        ),
        ("Under the bed is the suitcase.", "The suitcase is under the bed."),
        (
            "The spare tyre is under the boot floor.",
            "The spare tyre is under the floor of the boot.",
        ),
        ("Mia sits next to Leo in class.", "leo sits next to mia in class"),
        ("Priya's maths teacher is Mr. Okafor", "priya's math teacher is mister okafor"),
        ("Tom knows who to call about the boiler", "Tom knows whom to call about the boiler"),
        ("Dad knows what time to pick Leo up", "dad knows when to pick leo up"),
        ("You don't need to book at the dentist", "there's no need to book at the dentist"),
        ("Leo doesn't really have to wear his glasses", "leo doesn't have to wear his glasses"),
        ("Mia has to make her bed", "mia has to do her bed"),
        (
            "The dog sleeps under the table most nights",
            "most nights the dog sleeps under the table",
        ),
        (
            "The key is under the mat outside the back door",
            "the key is outside the back door under the mat",
        ),
        ("I'd rather live in York than Leeds", "I'd rather live in York than in Leeds"),
        ("Tom is taller than me.", "Tom is taller than I am."),
        ("Max is older than Lily.", "lily is younger than max"),
        ("I'm not a fan of Manchester's weather.", "er i don't like the weather in manchester"),
        ("will has diabetes", "Will has diabetes."),
        ("The user takes their tablets before their walk.", "I take my tablets before my walk."),
        ("I get a headache when I drink red wine", "when i drink red wine i get a headache"),
        ("I take the bus to work", "i get the bus to work"),
        ("Tom does the dishes", "tom does the washing up"),
        ("The kids love McDonald's on Fridays", "The kids love a McDonald's on Fridays"),
        ("Tesco's delivery comes on Friday", "The Tesco delivery comes on Friday"),
        ("Saturday's football is at 10", "Football is at 10 on a Saturday"),
        ("On Monday the bins go out", "Monday's bins go out"),
        ("Tom will cook and will wash up on Sunday", "Tom will cook and wash up on Sunday"),
        (
            "Dad hasn't fixed the fence yet but he will",
            "Dad hasn't fixed the fence yet but he is going to",
        ),
        ("Leo never walks the dog, Mia does", "mia not leo walks the dog"),
        ("The dog has its dinner at six", "The dog has his dinner at six"),
        ("Tom is taller than Sam is now", "Tom is now taller than Sam"),
        ("Tom is taller than his dad", "Tom is taller than his father"),
        ("Mia picks what we watch on Friday", "mia picks what to watch on friday"),
        # the third review's
        ("We get through a loaf of bread a week", "We eat a loaf of bread a week"),
        ("I use my inhaler twice a day", "I take my inhaler twice a day"),
        (
            "I keep my phone on the bedside table at night",
            "I put my phone on the bedside table at night",
        ),
        ("I put my salary into our savings account", "Our savings account gets my salary"),
        ("Mum drives me to school in her car", "Mum drives her car to take me to school"),
        ("my mum er my mother takes the kids on tuesdays", "my mum takes the kids on tuesdays"),
        # a title's full stop is no end of a sentence
        ("my gp is doctor patel", "The user's GP is Dr. Patel."),
        ("My dentist is Mrs. Shah.", "my dentist is missus shah"),
        ("The wifi password is bluefrog42.", "Wi-Fi password: bluefrog42"),
        ("Door code: 1234", "the door code is 1234"),
        ("My email is jo.smith@outlook.com.", "my email is jo.smith@outlook.com"),
        ("The Wi-Fi password is on the fridge.", "the wifi password's on the fridge"),
        # a fact a model wrote about "the user" rather than in the user's own words
        ("My sister lives in Madrid.", "The user's sister lives in Madrid."),
        ("I work as a nurse.", "The user is a nurse."),
        ("I can't stand coriander.", "User dislikes coriander."),
        ("I take tablets twice a day", "i take tablets two times a day"),
        ("I walk the dog once a day", "i walk the dog one time a day"),
        ("Laura is Tom's sister-in-law.", "laura's tom's sister in law"),
        ("Tom is my next of kin.", "my next of kin is tom"),
        ("I live in Berlin", "Berlin is my home"),
        ("I'd like onions on my pizza.", "no i'd like onions on my pizza"),
        ("Rose waters the roses.", "rose waters the roses"),
        ("I have a son and a daughter", "I have a daughter and a son"),
        ("Leo is allergic to peanuts", "Leo has a peanut allergy"),
        ("I work 9 to 5", "I work 9-5"),
        ("The shop is open from 9 to 5.", "the shop's open nine till five"),
        ("Our neighbour Gary has a ladder", "my neighbour gary has a ladder"),
        ("Tom smokes outside", "tom smokes outdoors"),
        ("We use the side door, not the front door", "we use the side door not the front door"),
        ("Tom is Sara's boss.", "tom's sara's boss"),
        ("Emma's teacher is Mrs Patel.", "emma's teacher's mrs patel"),
        ("Tom's mum is Helen", "Helen is Tom's mum"),
        ("Tom is allergic to neither nuts nor eggs", "Tom isn't allergic to nuts or eggs"),
        ("The bins go out on Tuesday", "yeah the bins go out on tuesday"),
        ("The bins go out on Tuesday", "okay so the bins go out on tuesday"),
        ("Tom's coming to dinner on Friday", "tom is coming to dinner on friday"),
        ("Mum works at the hospital", "mum works in the hospital"),
        ("Tom's mother's name is Irene.", "uh so basically tom's mum is called irene"),
        (
            "The paddling pool needs 300 litres of water.",
            "the paddling pool takes three hundred litres of water",
        ),
        ("We need a dozen eggs for the party.", "we need twelve eggs for the party"),
        ("The car needs new tyres", "the car has to have new tyres"),
        ("Tom's at school", "Tom is at school"),
        ("The bins go out on Monday morning", "The bins go out in the morning on Monday"),
        ("Tom lives on Church Street", "Tom lives in Church Street"),
        ("The cat sleeps on my bed", "The cat sleeps in my bed"),
        ("The shop is open from 9 until 5", "The shop is open 9-5"),
        ("Ann is a kind person", "Ann is kind"),
        ("Milk goes in the milk jug", "Milk goes in the jug"),
        ("Mia's teacher is Mrs Patel.", "mia's teacher is missus patel"),
        ("I don't eat meat or fish", "I don't eat meat and fish"),
        ("Biscuit is a dog", "we have a dog called biscuit"),
        ("The boiler is a Worcester Bosch.", "we've got a worcester bosch boiler"),
        # a letter after a number, said apart or not; "a" for "per"; a grade's star, said
        ("Our gate is 5A", "our gate is 5 a"),
        ("I take 3 a day", "I take three a day"),
        ("I take two a morning", "I take two every morning"),
        ("Lucy got an A* in maths", "lucy got an A star in maths"),
        # a word before whom a deed is done that changes nothing
        ("I voted for Labour", "I voted Labour"),
        ("We meet with the landlord on Friday", "We meet the landlord on Friday"),
        ("I called for a taxi", "I called a taxi"),
        # a thing of the speaker's that is one, and the speaker having one
        ("My phone is an iphone", "I have an iphone"),
        # a relation the same both ways, "next week" no "next to"
        ("Tom lives with Ann next week", "Ann lives with Tom next week"),
        ("Tom lives next door to Ann", "Ann lives next door to Tom"),
        ("Tom sits next to Ann", "Ann sits next to Tom"),
        # "with" after a deed that is no guest's nor keeper's
        ("Kate moved to Leeds with Tom", "Tom moved to Leeds with Kate"),
        ("Kate left with Tom", "Tom left with Kate"),
        ("Kate stays in touch with Tom", "Tom stays in touch with Kate"),
        ("I rang for a taxi", "I rang a taxi"),
        # a rank one both is and has
        ("Olivia is a brown belt", "olivia has got a brown belt"),
        # numbers that move with their words
        ("We have 2 cats and 3 dogs", "we have 3 dogs and 2 cats"),
        # whose things, said the other way round
        ("Pete's car is in our garage", "our garage has Pete's car in it"),
        # a passive said actively, with words between its verb and "by"
        ("Ella is driven to school by Jo", "Jo drives Ella to school"),
        ("Liam is looked after by Nana", "Nana looks after Liam"),
        ("The dog is looked after by my mum", "my mum looks after the dog"),
        ("The dog was walked by my dad", "my dad walked the dog"),
        ("Rex was bitten by a fox", "a fox bit Rex"),
        ("Tom was talked into the job by Ben", "Ben talked Tom into the job"),
        # working as one, and being one
        ("I work as a teacher", "I'm a teacher"),
        # the speaker done to, said actively and as a passive
        ("Anna hired me", "I was hired by Anna"),
        ("Jess trained me", "The user was trained by Jess."),
        # a review's finds: restatements the newer rules must leave alone
        ("I call my mum every day", "I call my mother every day"),
        ("My mum calls me every Sunday", "The user's mum calls them every Sunday"),
        ("Mum lent me her car", "mum lent me the car"),
        ("Dave owes me £50", "Dave owes us £50"),
        ("I sold the car that was built by Tom", "I sold the car Tom built"),
        ("I pick up my nans prescription on fridays", "I pick up my nan's prescription on fridays"),
        ("my husband works as a bus driver", "my husbands a bus driver"),
        ("I work as a nurse", "im a nurse"),
        ("Every Sunday we have some friends over", "we have some friends over every sunday"),
        (
            "I went to Spain last year and Italy last month",
            "I went to Italy last month and Spain last year",
        ),
        ("Lucy is my boss's boss", "lucy is my bosses boss"),
        ("I speak to Mum every Sunday", "I speak with Mum every Sunday"),
        ("Mark lives near us", "we live near Mark"),
        ("Tom must be at the dentist by 9.", "tom has to be at the dentist by nine"),
        # a transcript's "'s" for "is" written without its apostrophe, no plural
        ("The thermostat is in the hallway", "the thermostats in the hallway"),
        # a name said plainly, or a person's (a name is seldom a word describing a person)
        ("My cat is called Ginger", "my cat's name is Ginger"),
        ("My son is called Tom", "my son is Tom"),
        ("My manager is called Priya", "um my boss is priya"),
        # a "no" that opens a fact is no negation, however many
        ("I love sushi.", "no no i love sushi"),
        # a number said as often on both sides
        ("The shed is 6 by 6 feet", "the shed is six by six feet"),
        # a place in a row said both ways
        ("My flat is on the 3rd floor", "my flat is on the third floor"),
        ("The window cleaner comes every four weeks", "the window cleaner comes every fourth week"),
        ("We both do the school run.", "we do the school run"),
        ("Gran is taken to church by Tom", "Tom takes Gran to church"),
        # relatives by marriage and moves, as typed and as transcribed
        ("My mother-in-law lives in Leeds", "my mother in law lives in leeds"),
        ("I live in Leeds", "I moved to Leeds"),
        ("My car and Tom's car are in the garage", "My car and Tom's car are in the garage."),
        # the small words that now tell two facts apart, where they say the same
        ("Kevin and I share an office", "i share an office with kevin"),
        ("Zara lives two doors down", "zara lives 2 doors down from me"),
        (
            "The user's emergency contact is her sister Kate",
            "my emergency contact is my sister kate",
        ),
        ("I water the tomatoes every morning", "i water the tomatoes each morning"),
        ("My dog hates baths", "The user's dog hates having a bath."),
        ("The drive to Nan's takes 1.5 hours", "the drive to nan's takes an hour and a half"),
        ("The Volvo is mine", "the volvo's mine"),
        ("The roof was replaced in 2019", "we had the roof replaced in 2019"),
        ("Ben and Priya got divorced in 2019.", "Ben and Priya divorced in 2019."),
        ("My cat is neutered", "my cat's been neutered"),
        ("Ann and Ben both like sushi.", "ann and ben like sushi"),
        ("I'm allergic to all nuts", "i'm allergic to every kind of nut"),
        ("Dad's favourite film is Jaws.", "dads favourite movie is jaws"),
        ("Lily is allergic to cats.", "lily has a cat allergy"),
        ("We have fish every Friday", "we have fish on fridays"),
        # a review's finds: restatements the small-word checks must leave alone
        ("My sister bought her son a ticket", "The user's sister bought her son a ticket"),
        ("My favourite film is Her", "my favourite film is um her"),
        ("My son is called Will", "My son's name is Will"),
        ("MY FAVOURITE FILM IS HER", "My favourite film is Her"),
        ("My mum is here", "My mum is here now"),
        ("The kids have an iPad each", "The kids each have an iPad"),
        ("My great gran lives in Cork", "My great-grandmother lives in Cork"),
        ("I speak near-native French", "i speak near native french"),
        ("Our house is near Tesco", "Our house is by Tesco"),
        ("Tom helps me with my homework", "tom helps with my homework"),
        ("My sister moved in with us", "My sister lives with us"),
        ("I changed jobs when we moved", "I changed jobs"),
        ("i give up chocolate for lent", "I give up chocolate for Lent"),
        ("My son looks like Tom's son", "Tom's son looks like my son"),
        ("Swimming's Tuesday", "Tuesday's swimming"),
        ("I hate spiders", "i hate spider"),
        ("My mother-in-law lives in Hull", "My mum-in-law lives in Hull"),
        (
            "The smoke alarm battery was changed in January.",
            "we changed the smoke alarm battery in january",
        ),
        ("The apple tree was planted in 2015", "we planted the apple tree in twenty fifteen"),
        ("Our landlord is called Mr Brennan.", "our landlord's actually called mister brennan"),
        ("My parents are both retired", "Both my parents are retired"),
        ("I walk the dog every weekday", "The user walks the dog on weekdays."),
        ("Tom owes me a lot of money", "tom owes me lots of money"),
        ("We ate all of the cake", "we ate the cake"),
        ("Tom is at school", "toms at school"),
        ("The party is at Sarah's on Saturday", "the party is at sarahs on saturday"),
        ("Our shed was built in 2015", "we built a shed in twenty fifteen"),
        ("I'm bringing a salad to Anna's picnic", "The user will bring a salad to Anna's picnic."),
        ("sam's in the car", "Sam is in the car."),
        # a review's finds: restatements the newer rules must leave alone
        ("I tried sushi in Japan", "I had sushi in Japan"),
        ("Uncle Jim is married to Aunt Sue", "Aunt Sue is married to Uncle Jim"),
        ("I'm bringing wine instead of beer", "i'm bringing wine rather than beer"),
        # thousands after a price, and a fraction of thousands said
        ("The car cost £18k.", "the car cost eighteen thousand pounds"),
        ("The loan is $2.5k.", "the loan is two and a half thousand dollars"),
        ("I've saved £1.5m", "i've saved one and a half million pounds"),
        ("I want to like jazz", "I wanna like jazz"),
        ("I can't sleep when it's hot", "I can't sleep while it's hot"),
        ("I built a shed on my own land", "I built a shed on my land"),
        ("I was hired by Anna", "i got hired anna hired me"),
        # words that describe on either side of a thing
        ("I like my eggs runny.", "i like runny eggs"),
        # a name called so, however the having is said; one pet, young or grown; a broad word
        # of a kind ("Italian food"), of a place ("at my sister's place"), or after a verb
        ("My cat is called Luna", "I have a cat called Luna"),
        ("We had a dog called Rex.", "Our dog was called Rex."),
        ("Our kitten is called Luna.", "our cat is called luna"),
        ("I like Italian food.", "I like Italian."),
        (
            "i'm staying at my sister's this weekend",
            "I'm staying at my sister's place this weekend.",
        ),
        ("Dad supports Leeds United", "Dad's a Leeds United fan"),
        ("The bakery is across from the station.", "The bakery is opposite the station."),
        (
            "The passports are in the safe in the upstairs study.",
            "the passports are in the safe in the study upstairs",
        ),
    ],
)
def test_the_same_fact_with_its_words_moved_still_merges(first: str, second: str) -> None:
    assert relation(first, second) is SAME, reason(first, second)


def test_baseline_reproduces_the_published_weakness() -> None:
    pairs = load("memory-pairs-dev.tsv")
    right = sum(
        baseline_judge(first, kind, second, kind).relation is expected
        for expected, kind, first, second in pairs
    )
    assert 18 <= right <= 22
    order = baseline_judge(
        "I like tea more than coffee",
        Kind.PREFERENCE,
        "I like coffee more than tea",
        Kind.PREFERENCE,
    )
    assert order.relation is SAME  # the published rules lose the user's words here


@pytest.mark.parametrize(
    "fact",
    [
        "Mum walks the dog before work and Dad walks the dog after work",
        "Mia has swimming then piano, then swimming again",
        "Tom feeds the cat before school and feeds the cat after tea",
    ],
)
def test_a_fact_said_again_word_for_word_merges(fact: str) -> None:
    assert relation(fact, fact) is SAME, reason(fact, fact)


def test_judge_is_symmetric_and_a_fact_is_the_same_as_itself() -> None:
    facts = sorted(
        {text for *_, first, second in load("memory-pairs-dev.tsv") for text in (first, second)}
    )
    for text in facts:
        assert relation(text, text) is SAME, text
    for first, second in itertools.combinations(facts, 2):
        assert relation(first, second) is relation(second, first), (first, second)


FRAGMENTS = (
    "I my we not no never don't can't 7am 6:30 12 one twenty-five Tom's my sister's over more "
    "than to from like hate prefer moved now vegetarian allergic called is a the cat dog live "
    "Lisbon Porto Monday night owl left-handed without used to instead of ex-wife I'm - . , ?"
).split()
ANY_TEXT = st.one_of(
    st.text(max_size=40), st.lists(st.sampled_from(FRAGMENTS), max_size=10).map(" ".join)
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ANY_TEXT, ANY_TEXT, st.one_of(st.none(), st.floats(0, 1)))
def test_any_text_is_judged_without_error(first: str, second: str, cosine: float | None) -> None:
    """Whatever reaches the store (a model's extraction, a typo), judging never raises, is
    symmetric, and keeps the index contract."""
    forward = judge(first, Kind.FACT, second, Kind.FACT, cosine)
    backward = judge(second, Kind.FACT, first, Kind.FACT, cosine)
    assert forward.relation is backward.relation
    assert 0.0 <= forward.lexical <= 1.0
    if cosine is None and forward.relation is not DISTINCT:
        assert index_keys(first) & index_keys(second)


# Pairs once judged differently depending on which fact was the new one, each with the verdict it
# now gets both ways.
ONCE_ASYMMETRIC = [
    # Found by the property test above. Two rules looked at the new fact only: the exemption of
    # two negative facts from value disputes asked whether the new fact's negations come from a
    # state ("allergic": no ca0), and the word shared after a change word had to be a plain word
    # in the new fact only ("ca0" here, while "CA0" there reads as a name).
    ("A:NO&CA0:b", "MOVED:ca0:allergic", DISTINCT),
    # A state's implied negation makes no negative fact, whichever side states it.
    ("I've been vegetarian for 5 years", "I haven't eaten meat for 6 years", CONFLICT),
    ("I'm vegetarian since 2019", "I stopped eating meat in 2020", CONFLICT),
    # The introduced cat is who both facts are about, not something they share beyond it (as in
    # "My cat is named Luna at home" / "My cat is Bella").
    ("I have a cat named Luna at home", "My cat is Bella", DISTINCT),
    # The attribute the values follow: every agreeing pair of terms, not the first match only.
    ("Eggs: I like my eggs runny", "I like my eggs scrambled", CONFLICT),
    # A single-valued attribute said by either fact ("work"), not the new one's only.
    ("I'm a worker in finance", "I work in marketing", CONFLICT),
    # A word shared after a change word is a plain word in both facts.
    ("Yoga keeps me fit", "I switched yoga to boxing", DISTINCT),
]


@pytest.mark.parametrize(("first", "second", "expected"), ONCE_ASYMMETRIC)
def test_once_asymmetric_pairs_are_judged_alike_both_ways(
    first: str, second: str, expected: Relation
) -> None:
    for new, old in ((first, second), (second, first)):
        assert relation(new, old) is expected, (new, old, reason(new, old))


# The candidate index -----------------------------------------------------------------------------


def test_related_facts_share_an_index_key() -> None:
    """Whatever judge does not call distinct, the index must offer as a candidate."""
    pairs = load("memory-pairs-dev.tsv") + load("memory-pairs-more.tsv")
    pairs += load("memory-pairs-written.tsv", WRITTEN)
    dev_facts = sorted({text for *_, a, b in load("memory-pairs-dev.tsv") for text in (a, b)})
    candidates = [(a, b) for *_, a, b in pairs] + list(itertools.combinations(dev_facts, 2))
    candidates += [(a, b) for a, b, *_ in SAME_PAIRS + CONFLICT_PAIRS]
    for first, second in candidates:
        if relation(first, second) is not DISTINCT:
            assert index_keys(first) & index_keys(second), (first, second)


def test_index_keys_are_few_and_meet_on_prefixes() -> None:
    facts = {text for *_, a, b in load("memory-pairs-more.tsv") for text in (a, b)}
    sizes = [len(index_keys(text)) for text in facts]
    assert max(sizes) <= 12 and sum(sizes) / len(sizes) <= 5
    assert index_keys("I use Postgres") & index_keys("We migrated to PostgreSQL")
    assert "alco" in index_keys("I have a glass of wine")  # a broader word files it too
    assert index_keys("I'm a night owl") & index_keys("I'm an early bird")  # the group meets


def test_only_the_judging_face_is_imported_from_outside() -> None:
    """The comparison's modules are private to memory/judging: others use its __init__."""
    root = Path(__file__).resolve().parents[2]
    judging = root / "memory" / "judging"
    offenders = [
        str(path.relative_to(root))
        for folder in ("assistant", "audio", "memory", "config", "bench", "tests")
        for path in (root / folder).rglob("*.py")
        if judging not in path.parents
        and re.search(r"^\s*(from|import) memory\.judging\.", path.read_text("utf-8"), re.M)
    ]
    assert offenders == []
