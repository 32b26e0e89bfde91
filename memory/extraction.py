"""Facts a user stated in a turn, as a language model proposes them, checked against their words.

The model's structured output follows ``EXTRACTION_SCHEMA``; every proposed fact must quote the
user's own words as evidence, or it is rejected: a model must not put words in a person's mouth.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from memory.kinds import Kind, normalise_kind

EXTRACTION_SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "statement": {"type": "string"},
                    "kind": {"type": "string", "enum": [kind.value for kind in Kind]},
                    "evidence": {"type": "string"},
                },
                "required": ["statement", "kind", "evidence"],
            },
        }
    },
    "required": ["facts"],
}

EXTRACTION_INSTRUCTIONS = (
    "You pick out durable facts a person stated about themselves or the people and places in "
    "their life: preferences, facts, people, places, routines and plans that will still matter "
    "next week. Ignore questions, small talk, passing moods and anything the assistant said. "
    "Write each fact as a short first-person statement in the user's own terms (for example "
    '"My favourite editor is Vim"), give its kind, and copy the exact words of the user that '
    "state it as evidence. If nothing durable was stated, return an empty list."
)

MAX_FACTS_PER_TURN = 5


@dataclass(frozen=True)
class ExtractedFact:
    """A fact proposed from a turn, with the user's own words that support it."""

    statement: str
    kind: Kind
    evidence: str


def extraction_request(user_words: str, assistant_words: str) -> str:
    """The user message for the extraction call: the turn, quoted as data."""
    return json.dumps({"user_said": user_words, "assistant_replied": assistant_words})


def parse_extraction(raw: str, user_words: str) -> list[ExtractedFact]:
    """Read the model's JSON; keep only facts whose evidence the user really said.

    Malformed output yields no facts (learning is best effort; the reply already happened).
    """
    try:
        document = json.loads(raw)
        proposals = document["facts"]
    except (ValueError, KeyError, TypeError):
        return []
    if not isinstance(proposals, list):
        return []
    said = _plain(user_words)
    facts = []
    for proposal in proposals[:MAX_FACTS_PER_TURN]:
        if not isinstance(proposal, dict):
            continue
        statement = str(proposal.get("statement", "")).strip()
        evidence = str(proposal.get("evidence", "")).strip()
        if not statement or not evidence or _plain(evidence) not in said or not _plain(evidence):
            continue
        try:
            kind = normalise_kind(str(proposal.get("kind", "")))
        except ValueError:
            kind = Kind.FACT
        facts.append(ExtractedFact(statement, kind, evidence))
    return facts


def _plain(text: str) -> str:
    """Lower-case words separated by single spaces, so punctuation and case do not matter."""
    return " ".join(re.findall(r"[\w']+", text.casefold().replace("\u2019", "'")))
