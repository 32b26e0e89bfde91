"""Putting Hearth together from its settings: the brain and what it uses."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from assistant.arbitration import Arbiter
from assistant.brain import Brain, BrainPolicy
from assistant.card_keeper import CardKeeper
from assistant.chat_client import ChatClient
from assistant.conversation import ConversationHistory
from assistant.learning import Learner
from assistant.memory_setup import open_memory
from assistant.ollama import OllamaClient
from assistant.openai_chat import OpenAIClient
from assistant.schedule import ScheduleDesk, make_clock, time_zone
from config import OllamaSettings, Settings, find_card


def build_brain(
    settings: Settings,
    database: Path | str | None,
    card: Path | None,
    start_time: datetime | None = None,
    arbiter: Arbiter | None = None,
) -> Brain:
    """A brain with its memory, model client, personality card, history, learner and clock.

    Called on the thread that will use it: SQLite connections belong to one thread.
    ``start_time`` is the wall time a recording begins at (file mode runs on the audio clock).
    ``arbiter``: the household's (``assistant.arbitration.open_arbiter``), shared by every brain
    the run builds.
    """
    conversation = settings.conversation
    learner = (
        Learner(
            lambda: open_memory(settings, database, wait=False),
            lambda: make_chat_client(settings.ollama),
            learn_facts=conversation.learn_facts,
        )
        if conversation.learn_facts or conversation.compaction
        else None
    )
    return Brain(
        # A Hearth starts while its shared database is down; each call reconnects when it is back.
        memory=open_memory(settings, database, wait=False),
        client=make_chat_client(settings.ollama),
        cards=CardKeeper(find_card(card)),
        history=ConversationHistory(conversation.history_chars, conversation.compaction),
        learner=learner,
        policy=BrainPolicy(
            ask_again_seconds=settings.memory.ask_again_after_hours * 3600,
            reply_max_chars=conversation.reply_max_chars,
        ),
        # The clock only, for now: timers and alarms join once the voice loop can ring them.
        desk=ScheduleDesk(make_clock(start_time), time_zone(settings)),
        arbiter=arbiter,
    )


def make_chat_client(settings: OllamaSettings) -> ChatClient:
    """The client for the configured model API: Ollama's, or an OpenAI-compatible server's."""
    return OpenAIClient(settings) if settings.api == "openai" else OllamaClient(settings)
