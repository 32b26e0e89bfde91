"""The personality card: who Hearth is when it speaks. Shared by every reply, editable by hand."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

from pydantic import Field, ValidationError, field_validator

from config.loader import config_search_path
from config.schema import Section
from config.yaml_source import ConfigError, describe_validation_error, read_yaml_layer

CARD_FILE = "personality.yaml"

ShortText = Annotated[str, Field(min_length=1, max_length=600)]


class Teasing(StrEnum):
    """How much gentle teasing the card allows."""

    NONE = "none"
    LIGHT = "light"
    PLAYFUL = "playful"


class Exchange(Section):
    """One example of how a conversation should sound."""

    user: ShortText
    assistant: ShortText


class CardVoice(Section):
    """The Piper voice the card speaks with; empty fields fall back to the ``tts`` settings."""

    piper_voice: str | None = None
    speed: float | None = Field(None, gt=0.2, le=4)


class PersonalityCard(Section):
    """Name, manner and voice of the assistant."""

    name: Annotated[str, Field(min_length=1, max_length=40)] = "Jarvis"
    language: Annotated[str, Field(min_length=2, max_length=40)] = "English"
    caring: ShortText = "Warm and attentive; notices when someone sounds tired or stressed."
    teasing: Teasing = Teasing.LIGHT
    style: ShortText = "Short, plain sentences. Friendly, direct, never gushing."
    examples: tuple[Exchange, ...] = ()
    cut_short: ShortText = "That's enough from me for now; ask me to go on if you want more."
    """Said after an answer too long to say whole (``conversation.reply_max_chars``)."""
    voice: CardVoice = CardVoice()

    @field_validator("name", "language", "caring", "style", "cut_short")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value.strip()


def card_search_path() -> list[Path]:
    """Where the card is looked for, lowest precedence first: packaged, /etc/hearth, the user's."""
    return config_search_path(CARD_FILE)


def find_card(explicit: Path | None = None) -> Path:
    """The card in force: an explicit path, else the highest-precedence card that exists."""
    if explicit is not None:
        return explicit
    existing = [path for path in card_search_path() if path.is_file()]
    return existing[-1]


def load_card(path: Path) -> PersonalityCard:
    """Read and validate a card file; ConfigError names the file, line and field on a fault."""
    layer = read_yaml_layer(path)
    if not layer.values:
        # Every field has a default: taken as valid, an emptied card silently became Jarvis.
        raise ConfigError(f"{path}: the card is empty; it needs at least a name (name: Ada)")
    try:
        return PersonalityCard.model_validate(layer.values)
    except ValidationError as exc:
        raise ConfigError(describe_validation_error(exc, layer.origins)) from None
