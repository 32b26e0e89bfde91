"""Judging a pair of facts: the same fact said again, a disagreement, or unrelated.

The one public face of the comparison; nothing outside this package imports its modules. Each
fact is read once into who it is about (a Subject), its content terms, and what it negates, likes,
ranks or changes; two readings are then compared term by term. Lexical by default; a cosine from
an embedder only adds evidence.
"""

from memory.judging.baseline import baseline_judge
from memory.judging.judgement import Judgement, Relation
from memory.judging.reading import read
from memory.judging.similarity import CosineBands, cosine_bands, index_keys, judge


def clear_cache() -> None:
    """Forget cached readings, so a benchmark pays for reading every fact it judges."""
    read.cache_clear()


__all__ = [
    "CosineBands",
    "Judgement",
    "Relation",
    "baseline_judge",
    "clear_cache",
    "cosine_bands",
    "index_keys",
    "judge",
]
