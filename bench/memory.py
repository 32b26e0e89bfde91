"""Remember and recall latency as the store grows, indexed against a full scan, on SQLite and on
PostgreSQL, in one run.

    python -m bench.memory [--backend sqlite|postgresql|both] [--sizes 1000 10000 100000]
                           [--samples 200]

Absolute times drift on a shared machine; the ratios between columns are what this prints for.
Each store is filled in bulk with varied synthetic facts (no comparisons while filling), then the
same statements and utterances are timed through ``Memory`` (the word index) and through a
subclass that compares with every stored fact (the same rules over a full scan). PostgreSQL is a
throw-away server on 127.0.0.1 (Debian's ``postgresql``, as the tests start it), over TCP as a
household's Hearths reach theirs; with it the bench also times a memory call while the database
is down (refused at once, then inside the retry pause).
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from memory import FactStatus, Kind, Memory, MemoryUnavailable, PostgresTarget, Source
from memory.backends import Location, open_backend
from memory.judging import index_keys

NAMES = "Tom Jack Priya Helen Peter Maria Ahmed Yuki Olga Sam Lena Raj Chen Ana Ivo Noor".split()
PLACES = "Lisbon Porto Madrid Tokyo Rome Paris Berlin Oslo Leeds Austin Lagos Lima Pune".split()
THINGS = (
    "jazz tea coffee sushi ramen hiking chess tennis guitar piano yoga running cycling "
    "football basil cilantro mushrooms pasta curry rice bread wine beer cheese chocolate"
).split()
DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
RELATIVES = "brother sister mother father cousin aunt uncle son daughter friend boss".split()
TEMPLATES = (
    (Kind.PREFERENCE, "I like {thing} with {thing2}"),
    (Kind.PREFERENCE, "My favourite {thing} place is in {place}"),
    (Kind.PERSON, "My {relative} {name} lives in {place}"),
    (Kind.PERSON, "My {relative} is called {name} and works with {thing}"),
    (Kind.PLACE, "I stayed in {place} near the {thing} market"),
    (Kind.ROUTINE, "I play {thing} every {day} at {hour}"),
    (Kind.PLAN, "I am flying to {place} on {day} the {date}th to see {name}"),
    (Kind.FACT, "My {relative} {name} has {count} books about {thing}"),
)


def synthetic_fact(rng: random.Random, serial: int) -> tuple[str, Kind]:
    """A varied, plausible fact; the serial keeps every one distinct."""
    kind, template = rng.choice(TEMPLATES)
    text = template.format(
        thing=rng.choice(THINGS),
        thing2=rng.choice(THINGS),
        place=rng.choice(PLACES),
        name=rng.choice(NAMES) + str(serial),
        relative=rng.choice(RELATIVES),
        day=rng.choice(DAYS),
        hour=f"{rng.randint(5, 22)}:00",
        date=rng.randint(1, 28),
        count=rng.randint(2, 900),
    )
    return text, kind


class FullScanMemory(Memory):
    """The same rules, comparing every statement with every stored fact."""

    def _candidate_ids(self, text, vector, vectors):
        live = self.store.list_facts([FactStatus.ACTIVE, FactStatus.SUPERSEDED])
        return [fact.id for fact in live]


def fill(path: Location, count: int, rng: random.Random) -> None:
    """Bulk-load ``count`` facts with their index keys (setup only, not timed)."""
    store = open_backend(path)
    with store.atomic():
        for serial in range(count):
            text, kind = synthetic_fact(rng, serial)
            fact_id = store.insert_fact(text, kind, Source(), pinned=False)
            store.set_keys(fact_id, index_keys(text))
    store.close()


def median_ms(action, inputs) -> float:
    times = []
    for item in inputs:
        start = time.perf_counter()
        action(item)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def measure(size: int, samples: int, scan_samples: int, path: Location) -> dict[str, float]:
    rng = random.Random(size)
    fill(path, size, rng)
    statements = [synthetic_fact(rng, size + i) for i in range(samples)]
    utterances = [f"what do you know about {rng.choice(THINGS)} in {rng.choice(PLACES)}"
                  for _ in range(samples)]  # fmt: skip
    indexed = Memory(open_backend(path))
    scan = FullScanMemory(open_backend(path))
    row = {
        "remember": median_ms(lambda s: indexed.remember(*s), statements),
        "recall": median_ms(indexed.recall, utterances),
        "remember_scan": median_ms(lambda s: scan.remember(*s), statements[:scan_samples]),
        "recall_scan": median_ms(scan.recall, utterances[:scan_samples]),
    }
    indexed.close()
    scan.close()
    return row


Places = Callable[[int], Location]


@contextmanager
def sqlite_places() -> Iterator[Places]:
    """A new SQLite file for each size."""
    with tempfile.TemporaryDirectory() as folder:
        yield lambda size: Path(folder) / f"memory-{size}.db"


@contextmanager
def postgres_places() -> Iterator[Places]:
    """A new database of a throw-away PostgreSQL server for each size."""
    from tests.postgres_server import start_server

    server = start_server()
    if server is None:
        raise SystemExit("PostgreSQL's server binaries are not installed (apt install postgresql)")
    try:
        yield lambda size: server.new_database()
    finally:
        server.remove()


def outage_ms() -> tuple[float, float, float]:
    """Memory calls with the database down, in milliseconds: the first (its connection breaks),
    the next (a new connection is refused) and one inside the retry pause after that."""
    from tests.postgres_server import start_server

    server = start_server()
    if server is None:
        raise SystemExit("PostgreSQL's server binaries are not installed (apt install postgresql)")
    try:
        memory = Memory.open(PostgresTarget(server.new_database(), retry_seconds=60))
        memory.remember("I like jazz", "preference")
        server.crash()
        times = []
        for _ in range(3):
            start = time.perf_counter()
            try:
                memory.remember("I like tea", "preference")
            except MemoryUnavailable:
                times.append((time.perf_counter() - start) * 1000)
        return times[0], times[1], times[2]
    finally:
        server.remove()


def run(places: Places, sizes: list[int], samples: int) -> dict[int, dict[str, float]]:
    rows = {}
    for size in sizes:
        scan_samples = max(5, min(samples, 200_000 // size))
        rows[size] = measure(size, samples, scan_samples, places(size))
    return rows


def report(backend: str, rows: dict[int, dict[str, float]]) -> None:
    print(f"{backend}:")
    print(f"{'facts':>8} {'remember ms':>12} {'scan ms':>9} {'scan/index':>10} "
          f"{'recall ms':>10} {'scan ms':>9} {'scan/index':>10}")  # fmt: skip
    for size, row in rows.items():
        print(
            f"{size:>8} {row['remember']:>12.2f} {row['remember_scan']:>9.2f} "
            f"{row['remember_scan'] / row['remember']:>10.1f} {row['recall']:>10.2f} "
            f"{row['recall_scan']:>9.2f} {row['recall_scan'] / row['recall']:>10.1f}"
        )
    sizes = list(rows)
    if len(sizes) > 1:
        first, last = sizes[0], sizes[-1]
        print(
            f"store grew {last / first:.0f}x; indexed remember grew "
            f"{rows[last]['remember'] / rows[first]['remember']:.1f}x, recall grew "
            f"{rows[last]['recall'] / rows[first]['recall']:.1f}x"
        )
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="sqlite")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # the outage's one warning is expected here
    backends = ("sqlite", "postgresql") if args.backend == "both" else (args.backend,)
    results = {}
    for backend in backends:
        places = sqlite_places() if backend == "sqlite" else postgres_places()
        with places as place:
            results[backend] = run(place, args.sizes, args.samples)
    for backend, rows in results.items():
        report(backend, rows)
    if len(results) == 2:
        for size in args.sizes:
            sqlite, postgres = results["sqlite"][size], results["postgresql"][size]
            print(
                f"{size:>8} facts: postgresql/sqlite remember "
                f"{postgres['remember'] / sqlite['remember']:.1f}x, recall "
                f"{postgres['recall'] / sqlite['recall']:.1f}x"
            )
    if "postgresql" in results:
        broken, refused, paused = outage_ms()
        print(
            f"database down: a memory call raises MemoryUnavailable in {broken:.2f} ms (its "
            f"connection breaks), {refused:.2f} ms (a new one refused), {paused:.3f} ms (inside "
            "the retry pause)"
        )


if __name__ == "__main__":
    main()
