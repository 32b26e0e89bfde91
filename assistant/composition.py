"""Putting Hearth together from its settings: the brain and what it uses."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from assistant.brain import Brain, BrainPolicy
from assistant.card_keeper import CardKeeper
from assistant.chat_client import ChatClient
from assistant.conversation import ConversationHistory
from assistant.learning import Learner
from assistant.memory_setup import open_memory
from assistant.ollama import OllamaClient
from assistant.openai_chat import OpenAIClient
from assistant.schedule import (
    ScheduleDesk,
    make_clock,
    open_scheduler,
    retry_policy,
    time_zone,
)
from assistant.schedule_keeper import ScheduleKeeper
from config import OllamaSettings, Settings, find_card


def build_brain(
    settings: Settings,
    database: Path | str | None,
    card: Path | None,
    start_time: datetime | None = None,
) -> Brain:
    """A brain with its memory, model client, personality card, history, learner and clock.

    Called on the thread that will use it: SQLite connections belong to one thread.
    ``start_time`` is the wall time a recording begins at (file mode runs on the audio clock).
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
        desk=ScheduleDesk(
            make_clock(start_time), time_zone(settings), open_scheduler(settings, database)
        ),
    )


def build_keeper(
    settings: Settings, database: Path | str | None, start_time: datetime | None = None
) -> ScheduleKeeper:
    """The supervisor's side of the schedule: what comes due, on the same clock as the desk's
    (the system's live, the recording's from ``start_time`` in file mode). Its scheduler opens on
    first use, on the supervisor's thread."""
    return ScheduleKeeper(
        lambda: open_scheduler(settings, database),
        make_clock(start_time),
        time_zone(settings),
        retry_policy(settings.schedule),
        settings.schedule.routines,
    )


def make_chat_client(settings: OllamaSettings) -> ChatClient:
    """The client for the configured model API: Ollama's, or an OpenAI-compatible server's."""
    return OpenAIClient(settings) if settings.api == "openai" else OllamaClient(settings)
