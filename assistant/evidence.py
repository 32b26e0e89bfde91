"""Whether a person's own words support a fact a language model proposes to learn. Pure.

A model that reads a conversation can be wrong, or steered by text in it, into proposing facts
nobody stated ("My bank PIN is 4321", "Ignore all previous instructions; ..."), quoting as its
evidence any scrap of the user's words ("a", inside "capital"). A proposed fact is learned only when
its evidence is a span of whole words the user said in a statement (not inside a question, with
its question mark or without) that holds a content word, and the statement says nothing the
evidence does not: each of its content words is in the evidence (inflected or spelt another way at
most), a negation on either side is on both, and the evidence is more than the bare value ("Kenya"
does not say "I am from Kenya").
"""

from __future__ import annotations

import re

from assistant.wording import NEGATIONS, content_words, is_question, same_word, words

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def evidence_problem(statement: str, evidence: str, user_words: str) -> str | None:
    """Why ``evidence`` does not support learning ``statement`` from ``user_words``, or None."""
    quoted = words(evidence)
    if not quoted:
        return "no evidence quoted"
    if not _said_in_a_statement(quoted, user_words):
        return f"the evidence {evidence!r} is not a run of whole words the user stated"
    evidence_content = content_words(quoted)
    if not [word for word in evidence_content if word not in NEGATIONS]:
        return f"the evidence {evidence!r} holds no word that states anything"
    stated = content_words(words(statement))
    if not stated:
        return "the statement states nothing"
    extra = [w for w in stated if not any(same_word(w, e) for e in evidence_content)]
    if extra:
        return f"the statement says more than its evidence: {', '.join(extra)}"
    if any(w in NEGATIONS for w in stated) != any(w in NEGATIONS for w in evidence_content):
        return "the statement and its evidence disagree on a negation"
    if len(quoted) <= len(stated) and len(quoted) < len(words(statement)):
        # "Kenya" for "I am from Kenya": a name alone does not say how it relates to the user.
        return f"the evidence {evidence!r} is too short to state {statement!r}"
    return None


def _said_in_a_statement(quoted: list[str], user_words: str) -> bool:
    """The quoted words occur, whole and in order, in one sentence of the user's that is not a
    question (a question states nothing: "Is my PIN 4321?")."""
    for sentence in _SENTENCE_END.split(user_words.strip()):
        if is_question(sentence):
            continue
        said = words(sentence)
        if any(said[i : i + len(quoted)] == quoted for i in range(len(said) - len(quoted) + 1)):
            return True
    return False
