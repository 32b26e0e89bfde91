"""Loading ``assistant.yaml`` in layers: packaged, system, user, ``--config``, environment."""

from __future__ import annotations

import os
import typing
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from config.schema import Settings
from config.yaml_source import (
    ConfigError,
    Layer,
    Origin,
    describe_validation_error,
    merge_layers,
    parse_yaml_value,
    read_yaml_layer,
)

ENV_PREFIX = "HEARTH_"
ENV_NESTING = "__"
SETTINGS_FILE = "assistant.yaml"


def packaged_file(name: str) -> Path:
    """Path of a default file shipped inside the ``config`` package."""
    return Path(str(resources.files("config").joinpath(name)))


def user_config_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The per-user configuration folder (``$XDG_CONFIG_HOME/hearth``, else ~/.config/hearth)."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "hearth"


def config_search_path(name: str, environ: Mapping[str, str] | None = None) -> list[Path]:
    """Where a configuration file is looked for, lowest precedence (the packaged one) first."""
    env = os.environ if environ is None else environ
    system_dir = Path(env.get("CONFIGURATION_DIRECTORY") or "/etc/hearth")
    return [packaged_file(name), system_dir / name, user_config_dir(env) / name]


def load_settings(
    config_path: Path | None = None,
    environ: Mapping[str, str] | None = None,
    search_path: Sequence[Path] | None = None,
) -> Settings:
    """Build the settings from every layer; raise ConfigError naming file, line and key on a fault.

    ``search_path`` replaces the default file locations (tests use it); ``config_path`` must exist.
    """
    env = os.environ if environ is None else environ
    paths = list(config_search_path(SETTINGS_FILE, env) if search_path is None else search_path)
    layers = [read_yaml_layer(path) for path in paths if path.is_file()]
    if config_path is not None:
        if not config_path.exists():
            raise ConfigError(f"{config_path}: no such settings file")
        layers.append(read_yaml_layer(config_path))
    layers.append(environment_layer(env))
    merged = merge_layers(layers)
    try:
        return Settings.model_validate(merged.values)
    except ValidationError as exc:
        raise ConfigError(describe_validation_error(exc, merged.origins)) from None


def environment_layer(environ: Mapping[str, str]) -> Layer:
    """Settings from ``HEARTH_SECTION__KEY=value`` variables; values are read as YAML scalars.

    Variables without the ``__`` separator (``HEARTH_FAILPOINTS``, ``HEARTH_LOG_LEVEL``) are not
    settings and are left alone, except one that starts with a section's name and a single
    underscore (``HEARTH_OLLAMA_MODEL``), or is a section's name alone (``HEARTH_MQTT``): that
    is a setting mistyped, and an error says how to write it, rather than a setting that
    silently does nothing.
    """
    values: dict[str, Any] = {}
    origins: dict[tuple[str | int, ...], Origin] = {}
    for name, raw in sorted(environ.items()):
        if not name.startswith(ENV_PREFIX):
            continue
        if ENV_NESTING not in name:
            _refuse_single_underscore(name)
            continue
        path = tuple(part.lower() for part in name[len(ENV_PREFIX) :].split(ENV_NESTING))
        if not all(path):
            raise ConfigError(f"environment variable {name}: empty key in its name")
        try:
            value = parse_yaml_value(raw, f"environment variable {name}") if raw.strip() else None
        except yaml.YAMLError:
            value = raw  # not YAML: the text itself, which validation judges
        target = values
        for part in path[:-1]:
            target = target.setdefault(part, {})
            if not isinstance(target, dict):
                raise ConfigError(f"environment variable {name}: conflicts with another variable")
        target[path[-1]] = value
        for depth in range(1, len(path) + 1):
            origins.setdefault(path[:depth], Origin(f"environment variable {name}"))
    return Layer(values, origins)


def secret_variables() -> frozenset[str]:
    """The environment variables secrets are read from by default (``mqtt.password_env``,
    ``home_assistant.token_env``): they are named like settings but are none."""
    names = set()
    for section in Settings.model_fields.values():
        for model in typing.get_args(section.annotation) or (section.annotation,):
            for field_name, field in getattr(model, "model_fields", {}).items():
                if field_name.endswith("_env") and isinstance(field.default, str):
                    names.add(field.default)
    return frozenset(names)


def _refuse_single_underscore(name: str) -> None:
    if name in secret_variables():
        return
    rest = name[len(ENV_PREFIX) :].lower()
    for section in Settings.model_fields:
        if rest == section:
            raise ConfigError(
                f"environment variable {name}: a section is set one key at a time, e.g. "
                f"{ENV_PREFIX}{section.upper()}{ENV_NESTING}KEY=value"
            )
        if rest.startswith(f"{section}_") and len(rest) > len(section) + 1:
            key = name[len(ENV_PREFIX) + len(section) + 1 :]
            meant = f"{ENV_PREFIX}{section.upper()}{ENV_NESTING}{key}"
            raise ConfigError(
                f"environment variable {name}: a setting needs a double underscore between "
                f"section and key: {meant}"
            )


def memory_database_path(
    settings: Settings, environ: Mapping[str, str] | None = None
) -> Path | str:
    """Where the memory lives: the setting (a file, or a ``postgresql://`` URL, kept as text),
    else ``$STATE_DIRECTORY`` (systemd), else XDG data."""
    env = os.environ if environ is None else environ
    database = settings.memory.database
    if database is not None:
        return database if isinstance(database, str) else database.expanduser()
    if env.get("STATE_DIRECTORY"):
        # systemd may pass several directories separated by colons; the first is ours.
        return Path(env["STATE_DIRECTORY"].split(":")[0]) / "memory.db"
    data_home = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "hearth" / "memory.db"
