"""Putting Hearth together from its settings: the brain and what it uses."""

from __future__ import annotations

from pathlib import Path

from assistant.brain import Brain, BrainPolicy
from assistant.card_keeper import CardKeeper
from assistant.chat_client import ChatClient
from assistant.conversation import ConversationHistory
from assistant.learning import Learner
from assistant.memory_setup import open_memory
from assistant.ollama import OllamaClient
from assistant.openai_chat import OpenAIClient
from config import OllamaSettings, Settings, find_card


def build_brain(settings: Settings, database: Path | None, card: Path | None) -> Brain:
    """A brain with its memory, model client, personality card, history and learner.

    Called on the thread that will use it: SQLite connections belong to one thread.
    """
    conversation = settings.conversation
    learner = (
        Learner(
            lambda: open_memory(settings, database),
            lambda: make_chat_client(settings.ollama),
            learn_facts=conversation.learn_facts,
        )
        if conversation.learn_facts or conversation.compaction
        else None
    )
    return Brain(
        memory=open_memory(settings, database),
        client=make_chat_client(settings.ollama),
        cards=CardKeeper(find_card(card)),
        history=ConversationHistory(conversation.history_chars, conversation.compaction),
        learner=learner,
        policy=BrainPolicy(
            ask_again_seconds=settings.memory.ask_again_after_hours * 3600,
            reply_max_chars=conversation.reply_max_chars,
        ),
    )


def make_chat_client(settings: OllamaSettings) -> ChatClient:
    """The client for the configured model API: Ollama's, or an OpenAI-compatible server's."""
    return OpenAIClient(settings) if settings.api == "openai" else OllamaClient(settings)
