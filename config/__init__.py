"""Settings and the personality card: schema, layered loading, validation, packaged defaults."""

from config.loader import (
    config_search_path,
    load_settings,
    memory_database_path,
    packaged_file,
    user_config_dir,
)
from config.schema import (
    AudioSettings,
    ConversationSettings,
    EmbedderSettings,
    ListenerSettings,
    MemorySettings,
    OllamaSettings,
    Settings,
    SpeechToTextSettings,
    TextToSpeechSettings,
    VadSettings,
    VoiceProcessSettings,
    WakeModelSettings,
    WakeSettings,
)
from config.yaml_source import ConfigError

__all__ = [
    "AudioSettings",
    "ConfigError",
    "ConversationSettings",
    "EmbedderSettings",
    "ListenerSettings",
    "MemorySettings",
    "OllamaSettings",
    "Settings",
    "SpeechToTextSettings",
    "TextToSpeechSettings",
    "VadSettings",
    "VoiceProcessSettings",
    "WakeModelSettings",
    "WakeSettings",
    "config_search_path",
    "load_settings",
    "memory_database_path",
    "packaged_file",
    "user_config_dir",
]
