"""Remember and recall latency as the store grows, indexed against a full scan, in one run.

    python -m bench.memory [--sizes 1000 10000 100000] [--samples 200]

Absolute times drift on a shared machine; the ratios between columns are what this prints for.
Each store is filled in bulk with varied synthetic facts (no comparisons while filling), then the
same statements and utterances are timed through ``Memory`` (the word index) and through a
subclass that compares with every stored fact (the same rules over a full scan).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from memory import Kind, Memory, Source
from memory.judging import index_keys
from memory.store import FactStore

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
        rows = self.store._db.execute("SELECT id FROM facts WHERE status != 'forgotten'")
        return [row[0] for row in rows]


def fill(path: Path, count: int, rng: random.Random) -> None:
    """Bulk-load ``count`` facts with their index keys (setup only, not timed)."""
    store = FactStore.open(path)
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


def measure(size: int, samples: int, scan_samples: int, folder: Path) -> dict[str, float]:
    rng = random.Random(size)
    path = folder / f"memory-{size}.db"
    fill(path, size, rng)
    statements = [synthetic_fact(rng, size + i) for i in range(samples)]
    utterances = [f"what do you know about {rng.choice(THINGS)} in {rng.choice(PLACES)}"
                  for _ in range(samples)]  # fmt: skip
    indexed = Memory.open(path)
    scan = FullScanMemory.open(path)
    row = {
        "remember": median_ms(lambda s: indexed.remember(*s), statements),
        "recall": median_ms(indexed.recall, utterances),
        "remember_scan": median_ms(lambda s: scan.remember(*s), statements[:scan_samples]),
        "recall_scan": median_ms(scan.recall, utterances[:scan_samples]),
    }
    indexed.close()
    scan.close()
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        rows = {}
        for size in args.sizes:
            scan_samples = max(5, min(args.samples, 200_000 // size))
            rows[size] = measure(size, args.samples, scan_samples, Path(folder))
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
            f"\nstore grew {last / first:.0f}x; indexed remember grew "
            f"{rows[last]['remember'] / rows[first]['remember']:.1f}x, recall grew "
            f"{rows[last]['recall'] / rows[first]['recall']:.1f}x"
        )


if __name__ == "__main__":
    main()
