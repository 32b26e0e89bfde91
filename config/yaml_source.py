"""Reading YAML while remembering where every key came from, so errors can name file and line."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from support import NotARegularFile, require_regular_file

KeyPath = tuple[str | int, ...]

MAX_VALUES = 10_000
"""Values a settings file or card may hold once its aliases are expanded. Hearth's own files hold
a few hundred; an alias bomb (an anchor repeated nine times nine levels deep) holds hundreds of
millions, and expanding it would hang every command and take gigabytes."""
MAX_DEPTH = 32
"""Levels of nesting a settings file or card may have (Hearth's own have four)."""


_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader without YAML 1.1's base-60 numbers, as YAML 1.2 reads them: an
    unquoted ``at: 17:30`` is the time "17:30", not the number 1050 (a setting that then failed
    with "Input should be a valid string", or a duration that was silently 60 times too big)."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag not in (_INT, _FLOAT)]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
# PyYAML's own patterns (resolver.py), less their ``[0-9]+(:[0-5]?[0-9])+`` alternatives.
_Loader.add_implicit_resolver(
    _INT,
    re.compile(
        r"""^(?:[-+]?0b[0-1_]+
        |[-+]?0[0-7_]+
        |[-+]?(?:0|[1-9][0-9_]*)
        |[-+]?0x[0-9a-fA-F_]+)$""",
        re.X,
    ),
    list("-+0123456789"),
)
_Loader.add_implicit_resolver(
    _FLOAT,
    re.compile(
        r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
        |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN))$""",
        re.X,
    ),
    list("-+0123456789."),
)


class ConfigError(Exception):
    """A settings or personality file that cannot be used; the message says where and why."""


@dataclass(frozen=True)
class Origin:
    """Where a value was set: a file and line, or an environment variable."""

    source: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.source}, line {self.line}" if self.line is not None else self.source


@dataclass(frozen=True)
class Layer:
    """One source of settings: its values and the origin of every key path in it."""

    values: dict[str, Any]
    origins: dict[KeyPath, Origin]


def read_yaml_layer(path: Path) -> Layer:
    """Parse a YAML file that must hold a mapping; raise ConfigError naming the file and line."""
    try:
        require_regular_file(path)
    except NotARegularFile:
        raise ConfigError(f"{path}: is not a regular file") from None
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start})") from exc
    return parse_yaml_layer(text, str(path))


def parse_yaml_layer(text: str, source: str) -> Layer:
    """Parse YAML text holding a mapping (or nothing) into a Layer with per-key origins.

    The document is composed once; its size with every alias expanded is checked (and its
    origins collected) before anything is built from it, so an alias bomb or a recursive alias is
    refused at once instead of expanded.
    """
    origins: dict[KeyPath, Origin] = {}
    values = _parse(text, source, origins, top_level_mapping=True)
    if values is None:
        return Layer({}, {})
    if not isinstance(values, dict):
        raise ConfigError(f"{source}, line 1: expected a mapping of settings at the top level")
    return Layer(values, origins)


def parse_yaml_value(text: str, source: str) -> Any:
    """One value written as YAML (an environment variable's), read as the files are read and
    held to the same limits. Raises ``yaml.YAMLError`` for text that is not YAML."""
    return _parse(text, source, {}, top_level_mapping=False)


def _parse(
    text: str, source: str, origins: dict[KeyPath, Origin], *, top_level_mapping: bool
) -> Any:
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if top_level_mapping and not isinstance(node, yaml.MappingNode):
            raise ConfigError(f"{source}, line 1: expected a mapping of settings at the top level")
        _collect_origins(node, (), source, origins, _Budget(source))
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        if not top_level_mapping:
            raise
        mark = getattr(exc, "problem_mark", None)
        where = f", line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(f"{source}{where}: invalid YAML: {problem}") from exc
    except RecursionError:
        # PyYAML composes nested brackets recursively: thousands of "[" exhaust the stack
        # before the depth check above can see the nodes.
        raise ConfigError(
            f"{source}: nested too deeply to read (more than {MAX_DEPTH} levels are refused)"
        ) from None
    finally:
        loader.dispose()


class _Budget:
    """Counts the values walked, aliases expanded, and stops the walk past MAX_VALUES."""

    def __init__(self, source: str):
        self.source = source
        self.left = MAX_VALUES

    def spend(self, node: yaml.Node, depth: int) -> None:
        self.left -= 1
        if depth > MAX_DEPTH:
            raise ConfigError(
                f"{self.source}, line {node.start_mark.line + 1}: nested more than {MAX_DEPTH} "
                "levels deep; an alias (*name) inside the value it names refers to itself"
            )
        if self.left < 0:
            raise ConfigError(
                f"{self.source}, line {node.start_mark.line + 1}: more than {MAX_VALUES} values "
                "once its aliases (*name) are expanded; a settings file holds far fewer, so this "
                "looks like an alias bomb or an alias that refers to itself"
            )


def _collect_origins(
    node: yaml.Node,
    prefix: KeyPath,
    source: str,
    origins: dict[KeyPath, Origin],
    budget: _Budget,
) -> None:
    budget.spend(node, len(prefix))
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = str(key_node.value)
            path = (*prefix, key)
            if key in seen:
                # PyYAML keeps the last silently; a user editing by hand deserves to hear about it.
                raise ConfigError(
                    f"{source}, line {key_node.start_mark.line + 1}: "
                    f"key '{_dotted(path)}' appears twice"
                )
            seen.add(key)
            origins[path] = Origin(source, key_node.start_mark.line + 1)
            _collect_origins(value_node, path, source, origins, budget)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            path = (*prefix, index)
            origins[path] = Origin(source, item.start_mark.line + 1)
            _collect_origins(item, path, source, origins, budget)


def merge_layers(layers: list[Layer]) -> Layer:
    """Deep-merge layers in order: later mappings override earlier keys, lists replace whole."""
    values: dict[str, Any] = {}
    origins: dict[KeyPath, Origin] = {}
    for layer in layers:
        _merge_into(values, layer.values)
        # A list or scalar that replaces an earlier value must not keep the origins of what it
        # replaced: an error inside it belongs to the layer that wrote it.
        replaced = [
            path for path in layer.origins if not isinstance(_lookup(layer.values, path), Mapping)
        ]
        origins = {
            path: origin
            for path, origin in origins.items()
            if not any(len(path) > len(r) and path[: len(r)] == r for r in replaced)
        }
        origins.update(layer.origins)
    return Layer(values, origins)


def _merge_into(target: dict[str, Any], update: Mapping[str, Any]) -> None:
    for key, value in update.items():
        if isinstance(value, Mapping) and isinstance(target.get(key), dict):
            _merge_into(target[key], value)
        else:
            target[key] = value


def _lookup(values: Any, path: KeyPath) -> Any:
    for part in path:
        try:
            values = values[part]
        except (KeyError, IndexError, TypeError):
            return None
    return values


def describe_validation_error(error: ValidationError, origins: Mapping[KeyPath, Origin]) -> str:
    """Turn a pydantic error into lines naming the file, line and dotted key of each problem."""
    lines = []
    for problem in error.errors():
        path = tuple(part for part in problem["loc"] if not _is_union_tag(part))
        origin = _nearest_origin(path, origins)
        message = problem["msg"]
        if problem["type"] == "extra_forbidden":
            message = "unknown key (check its spelling)"
        elif problem["type"] == "missing":
            message = "required key is missing"
        where = f"{origin}: " if origin else ""
        lines.append(f"{where}key '{_dotted(path)}': {message}")
    return "\n".join(lines)


def _is_union_tag(part: str | int) -> bool:
    # pydantic adds the type tried in a union (e.g. 'float', 'str') to the location; users never
    # wrote those names, so they are left out of the key path.
    return isinstance(part, str) and part in {
        "str",
        "int",
        "float",
        "bool",
        "none",
        "list",
        "tuple",
    }


def _nearest_origin(path: KeyPath, origins: Mapping[KeyPath, Origin]) -> Origin | None:
    for length in range(len(path), 0, -1):
        origin = origins.get(path[:length])
        if origin is not None:
            return origin
    return None


def _dotted(path: KeyPath) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text
