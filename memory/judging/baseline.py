"""The published comparison of Ankita v2.7.5, kept as the baseline Hearth is measured against.

Content words only; words match when equal or when the shorter (at least four characters) is a
prefix of the longer. Score: the best of Jaccard and a harsher containment term. Merge at 0.85;
a conflict needs a score in [0.55, 0.85), the same kind, three meaningful words a side, two
agreements and a Jaccard of 0.5. It reads no negation, number or order, which is why Hearth does
not use it.
"""

from __future__ import annotations

import math
import re

from memory.judging.judgement import Judgement, Relation
from memory.kinds import Kind

MERGE_AT = 0.85
CONFLICT_FROM = 0.55
SHORT_LINK_SCORE = 0.6
PREFIX_MIN_CHARS = 4
MIN_CONFLICT_WORDS = 3
MIN_AGREEMENTS = 2
MIN_CONFLICT_JACCARD = 0.5
SHORT_FACT_WORDS = 2

# A common English stop list plus the filler the article names (use, database, project, stuff).
STOP_WORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing don down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself
    yourselves m s t re ve ll d im ive use uses using used database project stuff thing things
    """.split()
)


def content_words(text: str) -> frozenset[str]:
    """The baseline's content words: lowercase alphanumeric runs that are not stop words."""
    return frozenset(
        word for word in re.findall(r"[a-z0-9]+", text.lower()) if word not in STOP_WORDS
    )


def _match(first: str, second: str) -> bool:
    if first == second:
        return True
    shorter, longer = sorted((first, second), key=len)
    return len(shorter) >= PREFIX_MIN_CHARS and longer.startswith(shorter)


def baseline_judge(new_text: str, new_kind: Kind, old_text: str, old_kind: Kind) -> Judgement:
    """Judge a pair by the published Ankita v2.7.5 rules, for comparison in the benchmark."""
    new_words, old_words = content_words(new_text), content_words(old_text)
    if not new_words or not old_words:
        return Judgement(Relation.DISTINCT, 0.0, 0.0, None, "no content words")
    shorter, longer = sorted((new_words, old_words), key=len)
    agreements = sum(1 for word in shorter if any(_match(word, other) for other in longer))
    jaccard = agreements / (len(new_words) + len(old_words) - agreements)
    score = jaccard
    if agreements == len(shorter):
        # Harsher than plain containment (which would be 1.0): scaled by the length ratio.
        score = max(score, math.sqrt(len(shorter) / len(longer)))
    both_short = len(longer) <= SHORT_FACT_WORDS
    if agreements == 1 and both_short:
        score = max(score, SHORT_LINK_SCORE)
    if score >= MERGE_AT:
        return Judgement(Relation.SAME, score, jaccard, None, f"score {score:.2f} >= {MERGE_AT}")
    conflict = (
        score >= CONFLICT_FROM
        and new_kind == old_kind
        and len(shorter) >= MIN_CONFLICT_WORDS
        and agreements >= MIN_AGREEMENTS
        and jaccard >= MIN_CONFLICT_JACCARD
    )
    if conflict:
        return Judgement(Relation.CONFLICT, score, jaccard, None, f"score {score:.2f} in band")
    return Judgement(Relation.DISTINCT, score, jaccard, None, f"score {score:.2f}")
