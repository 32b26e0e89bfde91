"""How fast the fact judge is now against an earlier revision, measured in one run.

Judges every labelled pair in tests/memory/data once, in a fresh process (each fact read for the
first time, as a new fact is), for the working tree and for a checkout of ``--against`` (a git
revision, checked out for the run in a temporary worktree), interleaved ``--rounds`` times, and
prints the median milliseconds a pair and the ratio now / then.
Absolute times drift on a shared machine; the ratio within one run is the figure.

Run: python -m bench.judge_speed --against c079bc5
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "memory" / "data"

# Run inside each tree: both judge the same pairs (this tree's labelled files).
TIMER = """
import sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from memory.judging import judge
from memory.kinds import Kind
pairs = []
for path in sorted(Path(sys.argv[2]).glob("*.tsv")):
    for line in path.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        _label, kind, first, second = line.split("\\t")
        pairs.append((Kind(kind), first, second))
start = time.perf_counter()
for kind, first, second in pairs:
    judge(second, kind, first, kind)
print(len(pairs), time.perf_counter() - start)
"""


def measure(tree: Path) -> tuple[int, float]:
    """Pairs judged and the seconds they took, in a fresh process."""
    out = subprocess.run(
        [sys.executable, "-c", TIMER, str(tree), str(DATA)],
        capture_output=True, text=True, check=True, cwd=tree,
    ).stdout.split()  # fmt: skip
    return int(out[0]), float(out[1])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD~1", help="the git revision to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved runs of each")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="hearth-judge-speed-"))
    then_tree = folder / "then"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(then_tree), args.against],
        check=True,
    )
    try:
        seconds: dict[str, list[float]] = {"then": [], "now": []}
        pairs = 0
        for _ in range(args.rounds):
            for name, tree in (("then", then_tree), ("now", ROOT)):
                pairs, took = measure(tree)
                seconds[name].append(took)
        per_pair = {name: statistics.median(runs) * 1000 / pairs for name, runs in seconds.items()}
        print(f"{pairs} labelled pairs, {args.rounds} rounds, median ms a pair")
        print(f"then ({args.against}) {per_pair['then']:.3f}, now {per_pair['now']:.3f}")
        print(f"now / then: {per_pair['now'] / per_pair['then']:.2f}x")
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(then_tree)], check=False
        )
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
