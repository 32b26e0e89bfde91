"""Putting Hearth together from its settings: the brain and what it uses, and the supervisor's
link to the household (the kept volume and microphone, the MQTT device)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from assistant.arbitration import Arbiter
from assistant.brain import Brain, BrainPolicy
from assistant.card_keeper import CardKeeper
from assistant.chat_client import ChatClient
from assistant.conversation import ConversationHistory
from assistant.home import HomeAssistantConversation, HomeControl, MqttDevice
from assistant.home_link import HomeLink
from assistant.learning import Learner
from assistant.memory_setup import memory_location, open_memory
from assistant.ollama import OllamaClient
from assistant.openai_chat import OpenAIClient
from assistant.output_levels import KeptLevels
from assistant.schedule import (
    ScheduleDesk,
    ScheduleStore,
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
        desk=ScheduleDesk(
            make_clock(start_time),
            time_zone(settings),
            volume=kept_levels(settings, database),
            # Opened on first use: a Hearth starts while its shared database is down.
            open_scheduler=lambda: open_scheduler(settings, database),
        ),
        arbiter=arbiter,
        home=home_control(settings),
    )


def kept_levels(settings: Settings, database: Path | str | None) -> KeptLevels:
    """The volume and mutes, kept in the schedule beside the memory (``database``: ``--db``)."""
    return KeptLevels(lambda: open_schedule_store(settings, database))


def open_schedule_store(settings: Settings, database: Path | str | None) -> ScheduleStore:
    """The schedule's store beside the memory, for this Hearth's room."""
    return ScheduleStore.open(memory_location(settings, database), settings.household.room)


def home_control(settings: Settings) -> HomeControl | None:
    """Home control through Home Assistant, when ``home_assistant:`` is set.

    Raises SecretError when its token cannot be read (checked at start-up by ``hearth run``).
    """
    if settings.home_assistant is None:
        return None
    return HomeControl(HomeAssistantConversation(settings.home_assistant))


def build_home_link(
    settings: Settings,
    database: Path | str | None,
    card: Path | None,
    start_time: datetime | None = None,
) -> HomeLink:
    """The supervisor's link to the household; with ``mqtt:``, Hearth's device in Home Assistant.

    Raises SecretError when the broker's password cannot be read.
    """
    device = MqttDevice(settings.mqtt) if settings.mqtt is not None else None
    return HomeLink(
        kept_levels(settings, database),
        CardKeeper(find_card(card)),
        device,
        schedule=lambda: open_schedule_store(settings, database),
        clock=make_clock(start_time),
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
