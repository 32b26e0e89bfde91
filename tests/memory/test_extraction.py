"""Extraction: the model's proposals are kept only when the user's own words support them."""

from __future__ import annotations

import json

from memory.extraction import EXTRACTION_SCHEMA, parse_extraction
from memory.kinds import Kind

SAID = "Oh by the way, my sister Priya just moved to Madrid. What's the weather there?"


def proposals(*facts):
    return json.dumps({"facts": [dict(zip(("statement", "kind", "evidence"), f, strict=True))
                                 for f in facts]})  # fmt: skip


def test_facts_with_the_users_words_as_evidence_are_kept():
    raw = proposals(("My sister Priya lives in Madrid", "Person",
                     "my sister Priya just moved to Madrid"))  # fmt: skip
    facts = parse_extraction(raw, SAID)
    assert len(facts) == 1
    assert facts[0].kind is Kind.PERSON
    assert facts[0].statement == "My sister Priya lives in Madrid"


def test_evidence_the_user_never_said_is_rejected():
    raw = proposals(
        ("I love rain", "preference", "I love rain"),
        ("My sister is in Madrid", "person", ""),
        ("Sister moved", "person", "MY SISTER PRIYA, just moved"),  # punctuation/case forgiven
    )
    assert [f.statement for f in parse_extraction(raw, SAID)] == ["Sister moved"]


def test_malformed_output_yields_nothing():
    for raw in ("", "not json", "[]", '{"facts": "x"}', '{"facts": [1, null]}'):
        assert parse_extraction(raw, SAID) == []


def test_the_schema_names_the_fixed_kinds():
    kinds = EXTRACTION_SCHEMA["properties"]["facts"]["items"]["properties"]["kind"]["enum"]
    assert kinds == [kind.value for kind in Kind]
