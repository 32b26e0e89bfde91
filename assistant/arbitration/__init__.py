"""One answer per question in a household of Hearths: of the devices that heard one wake word,
the one that heard it best answers, and the others go back to standby without a word.

The decision is a pure function of the devices' claims (``claims``); the claims travel through a
``Transport``: the shared PostgreSQL database (``postgres``) or the household's MQTT broker
(``mqtt``), as ``household.arbitration_transport`` says.
"""

from __future__ import annotations

from pathlib import Path

from assistant.arbitration.arbiter import (
    FILE_MODE_TIMEOUT_SECONDS,
    Arbiter,
    ArbitrationPolicy,
    Transport,
    Unreachable,
)
from assistant.arbitration.claims import (
    SCORE_DB,
    Claim,
    Outcome,
    Peer,
    Verdict,
    decide,
    progress_held,
    same_wake,
    settled,
)
from assistant.memory_setup import memory_location
from assistant.schedule import AudioClock, Clock
from config import Settings
from memory import PostgresTarget

__all__ = [
    "SCORE_DB",
    "Arbiter",
    "ArbitrationPolicy",
    "Claim",
    "Outcome",
    "Peer",
    "Transport",
    "Unreachable",
    "Verdict",
    "decide",
    "open_arbiter",
    "progress_held",
    "same_wake",
    "settled",
]


def open_arbiter(settings: Settings, database: Path | str | None, clock: Clock) -> Arbiter | None:
    """This device's arbiter when the household's Hearths can tell each other (a shared
    PostgreSQL memory, or the MQTT broker when ``household.arbitration_transport`` is mqtt) and
    arbitration is on; None for a Hearth on its own. It never waits for the database or the
    broker: a device that cannot reach the others answers by itself.

    Raises:
        SecretError: over MQTT, a broker password file that is missing, unreadable or empty.
    """
    household = settings.household
    if not household.arbitration:
        return None
    device = device_name(settings)
    transport: Transport
    if household.arbitration_transport == "mqtt":
        from assistant.arbitration.mqtt import MqttTransport

        assert settings.mqtt is not None  # the settings check it
        transport = MqttTransport(settings.mqtt, device)
    else:
        location = memory_location(settings, database)
        if not isinstance(location, PostgresTarget):
            return None
        from assistant.arbitration.postgres import PostgresTransport

        transport = PostgresTransport(location)
    # A recording's run waits for the others on the audio clock (see FILE_MODE_TIMEOUT_SECONDS).
    live = not isinstance(clock, AudioClock)
    timeout = household.arbitration_timeout_seconds if live else FILE_MODE_TIMEOUT_SECONDS
    policy = ArbitrationPolicy(household.wake_window_seconds, timeout, live)
    return Arbiter(transport, device, clock, policy)


def device_name(settings: Settings) -> str:
    """This Hearth's name among the others: its room (the host name when none is set)."""
    import socket

    return settings.household.room or socket.gethostname()
