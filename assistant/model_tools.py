"""The tools a model that calls tools is offered: one box of several sets (the schedule's, the
home's), each carrying out its own calls, and what one call did.

A set names its tools in OpenAI/Ollama function schemas, says in one line what the model can do
with them, and runs a call to a :class:`ToolOutcome`. The box offers every set's tools in one
list and hands each call to the set that owns its name.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from assistant.action_claims import ActionKind
from assistant.chat_client import ToolCall
from assistant.reply import ReplyPart

CANNOT_ELSE = "You cannot do anything else, so never say that you did."
"""The abilities' last line: what no tool backs is not to be claimed."""
MAX_CALLS_PER_ANSWER = 8
"""Calls carried out from one answer of the model. A request asks for one thing or a few (a timer
and a reminder); a model looping on its own call asked for a thousand timers, each of which rang
and was announced, and no question was heard for twenty minutes."""


@dataclass(frozen=True)
class ToolOutcome:
    """What one tool call did: the result for the model, the notes and any question it left."""

    text: str
    """The result in words, sent back to the model as the tool message."""
    parts: tuple[ReplyPart, ...] = ()
    """The notes for the event stream, and an ``AwaitAnswer`` when the call asked which."""
    acted: bool = False
    """Whether the call changed something (an item stored or cancelled, a device switched)."""


class ToolSet(Protocol):
    """One family of tools: their schemas, the line telling the model of them, and the runner."""

    schemas: Sequence[Mapping[str, Any]]
    abilities: str
    kind: ActionKind
    """What its calls change, when they act (for the claim check)."""

    def run(self, name: str, arguments: Mapping[str, Any], audio_seconds: float) -> ToolOutcome:
        """Carry out one call; a bad argument does nothing and the result says why."""
        ...


class Toolbox:
    """Every set's tools offered together; a call goes to the set that owns its name."""

    def __init__(self, sets: Sequence[ToolSet]):
        if not sets:
            raise ValueError("a toolbox needs at least one set of tools")
        self._owners: dict[str, ToolSet] = {}
        for tools in sets:
            for schema in tools.schemas:
                name = schema["function"]["name"]
                if name in self._owners:
                    raise ValueError(f"two sets of tools both name {name!r}")
                self._owners[name] = tools
        self.schemas: tuple[Mapping[str, Any], ...] = tuple(
            schema for tools in sets for schema in tools.schemas
        )
        self.abilities = " ".join([*(tools.abilities for tools in sets), CANNOT_ELSE])

    def kind_of(self, name: str) -> ActionKind | None:
        """What the tool ``name`` changes when it acts; None for a name no set has."""
        owner = self._owners.get(name)
        return None if owner is None else owner.kind

    def run(self, name: str, arguments: Mapping[str, Any], audio_seconds: float) -> ToolOutcome:
        """Carry out one call by the set that owns ``name``; an unknown name does nothing."""
        owner = self._owners.get(name)
        if owner is None:
            return ToolOutcome(f"Error: there is no tool named {name!r}")
        return owner.run(name, arguments, audio_seconds)


def refusals(calls: Sequence[ToolCall]) -> list[str | None]:
    """For each call of one answer, None to carry it out, or the error its result says: a call
    made twice with the same arguments runs once, and calls past ``MAX_CALLS_PER_ANSWER`` not at
    all (every call still gets a result, as the APIs require)."""
    seen: set[tuple[str, str]] = set()
    verdicts: list[str | None] = []
    for call in calls:
        same = (call.name, json.dumps(call.arguments, sort_keys=True, default=str))
        if same in seen:
            verdicts.append("Error: the same call was made twice; it was carried out once")
        elif len(seen) >= MAX_CALLS_PER_ANSWER:
            verdicts.append(f"Error: not carried out: at most {MAX_CALLS_PER_ANSWER} calls are "
                            "carried out from one answer")  # fmt: skip
        else:
            seen.add(same)
            verdicts.append(None)
    return verdicts
