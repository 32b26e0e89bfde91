"""Fact embeddings held in one numpy matrix, for nearest-neighbour candidates and pair cosines."""

from __future__ import annotations

import numpy as np


class VectorIndex:
    """L2-normalised vectors of facts from one embedding model; rows are looked up by fact id."""

    def __init__(self, ids: list[int], matrix: np.ndarray | None):
        self._ids = list(ids)
        self._row = {fact_id: row for row, fact_id in enumerate(self._ids)}
        # Rows beyond len(self._ids) are spare capacity, so adding a fact is amortised O(1).
        self._matrix = matrix.astype(np.float32) if matrix is not None else None

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, fact_id: int) -> bool:
        return fact_id in self._row

    def add(self, fact_id: int, vector: np.ndarray) -> None:
        """Add or replace one fact's vector."""
        vector = np.asarray(vector, dtype=np.float32).ravel()
        if self._matrix is None:
            self._matrix = np.zeros((16, vector.size), dtype=np.float32)
        if vector.size != self._matrix.shape[1]:
            raise ValueError("vector dimension differs from the index")
        row = self._row.get(fact_id)
        if row is None:
            row = len(self._ids)
            if row == self._matrix.shape[0]:
                self._matrix = np.vstack([self._matrix, np.zeros_like(self._matrix)])
            self._row[fact_id] = row
            self._ids.append(fact_id)
        self._matrix[row] = vector

    def nearest(self, vector: np.ndarray, count: int) -> list[tuple[int, float]]:
        """The ``count`` facts most similar to a vector, as (fact id, cosine), best first."""
        if not self._ids or count <= 0 or self._matrix is None:
            return []
        scores = self._matrix[: len(self._ids)] @ np.asarray(vector, dtype=np.float32)
        count = min(count, len(self._ids))
        top = np.argpartition(-scores, count - 1)[:count]
        top = top[np.argsort(-scores[top])]
        return [(self._ids[row], float(scores[row])) for row in top]

    def cosine(self, fact_id: int, vector: np.ndarray) -> float | None:
        """Cosine between a stored fact and a vector; None when the fact has no vector."""
        row = self._row.get(fact_id)
        if row is None or self._matrix is None:
            return None
        return float(self._matrix[row] @ np.asarray(vector, dtype=np.float32))
