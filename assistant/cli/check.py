"""``hearth check``: is everything Hearth needs in place? Each problem comes with its fix."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.cli.common import EXIT_FAILURE, EXIT_OK
from config import ConfigError, PersonalityCard, Settings, find_card, load_card, load_settings

if TYPE_CHECKING:  # the audio stack loads only for the checks that need it
    from audio.remote import WyomingSpeechToText, WyomingTextToSpeech


@dataclass(frozen=True)
class Finding:
    """One check's result: what was checked, whether it is fine, and what to do if not."""

    what: str
    ok: bool
    detail: str


Check = Callable[[Settings], Finding]


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``hearth check``."""
    check = subparsers.add_parser(
        "check",
        parents=[common],
        help="check settings, card, models, sound devices, Ollama, the memory, the MQTT broker "
        "and Home Assistant; say what to fix",
    )
    check.add_argument("--card", type=Path, help="the personality card to check")
    check.set_defaults(handler=_check)


def _check(args: argparse.Namespace) -> int:
    try:
        settings = load_settings(Path(args.config) if args.config else None)
    except ConfigError as error:
        _print(Finding("settings", False, str(error)))
        return EXIT_FAILURE
    card_finding, card = _card(args.card)
    findings = [Finding("settings", True, "valid"), card_finding]
    if card is not None and card.voice.piper_voice:
        # The card chooses the voice Hearth speaks in: that is the one to find.
        tts = settings.tts.model_copy(update={"voice": card.voice.piper_voice})
        settings = settings.model_copy(update={"tts": tts})
    checks: list[Check] = [
        _speech_to_text,
        _voice,
        _wake_words,
        _microphone,
        _speaker,
        _ollama,
        _memory,
    ]
    if settings.stt.backend == "wyoming":
        checks.append(_speech_to_text_service)
    if settings.tts.backend == "wyoming":
        checks.append(_text_to_speech_service)
    if settings.mqtt is not None:
        checks.append(_broker)
    if settings.home_assistant is not None:
        checks.append(_home_assistant)
    for check in checks:
        try:
            findings.append(check(settings))
        except Exception as error:  # a check that breaks is itself a finding, not a traceback
            findings.append(Finding(check.__name__.strip("_"), False, str(error)))
    for finding in findings:
        _print(finding)
    failed = [f for f in findings if not f.ok]
    print(f"\n{len(findings) - len(failed)} of {len(findings)} checks passed.")
    return EXIT_FAILURE if failed else EXIT_OK


def _print(finding: Finding) -> None:
    mark = "ok  " if finding.ok else "FIX "
    print(f"{mark} {finding.what}: {finding.detail}")


def _card(explicit: Path | None) -> tuple[Finding, PersonalityCard | None]:
    path = find_card(explicit)
    try:
        card = load_card(path)
    except ConfigError as error:
        return Finding("personality card", False, str(error)), None
    return Finding("personality card", True, f"{card.name}, from {path}"), card


def _speech_to_text(settings: Settings) -> Finding:
    from audio import SpeechModelError, resolve_model

    try:
        path = resolve_model(settings.stt.model)
    except SpeechModelError as error:
        return Finding("speech-to-text model", False, str(error))
    return Finding("speech-to-text model", True, f"{settings.stt.model} at {path}")


def _voice(settings: Settings) -> Finding:
    from audio import VoiceNotFoundError, default_voice_dirs, resolve_voice, speaker_problem

    try:
        path = resolve_voice(settings.tts.voice, default_voice_dirs())
    except VoiceNotFoundError as error:
        return Finding("Piper voice", False, str(error))
    if (problem := speaker_problem(path, settings.tts.speaker)) is not None:
        return Finding("Piper voice", False, problem)
    return Finding("Piper voice", True, f"{settings.tts.voice} at {path}")


def _speech_to_text_service(settings: Settings) -> Finding:
    from audio.remote import WyomingSpeechToText

    return _wyoming("speech-to-text service", WyomingSpeechToText(settings.stt), "stt.uri",
                    "hears with the local model")  # fmt: skip


def _text_to_speech_service(settings: Settings) -> Finding:
    from audio.remote import WyomingTextToSpeech

    return _wyoming("text-to-speech service", WyomingTextToSpeech(settings.tts), "tts.uri",
                    "speaks with the local voice")  # fmt: skip


def _wyoming(
    what: str, service: WyomingSpeechToText | WyomingTextToSpeech, key: str, meanwhile: str
) -> Finding:
    """Whether a Wyoming service answers ``describe``, and who it says it is."""
    from audio.remote import WyomingError

    try:
        offered = service.describe()
    except WyomingError as error:
        return Finding(what, False, f"{error}; start it or fix {key} (meanwhile Hearth "
                                    f"{meanwhile})")  # fmt: skip
    return Finding(what, True, f"{offered} at {service.uri}")


def _wake_words(settings: Settings) -> Finding:
    from audio import WakeModelError, WakeWordDetector

    try:
        detector = WakeWordDetector(settings.wake)
    except WakeModelError as error:
        return Finding("wake word", False, str(error))
    phrases = ", ".join(f'"{phrase}"' for phrase in detector.phrases)
    detector.close()
    return Finding("wake word", True, phrases)


def _device(settings: Settings, kind: str) -> Finding:
    from audio import AudioDeviceError, list_devices

    what = "microphone" if kind == "input" else "speaker"
    wanted = settings.audio.input_device if kind == "input" else settings.audio.output_device
    try:
        devices = list_devices()
    except (AudioDeviceError, OSError) as error:
        return Finding(what, False, f"{error} (sudo apt-get install libportaudio2)")
    usable = [d for d in devices if (d.input_channels if kind == "input" else d.output_channels)]
    if wanted is None:
        default = [
            d for d in usable if (d.is_default_input if kind == "input" else d.is_default_output)
        ]
        if default:
            return Finding(what, True, f"default: {default[0].name}")
        return Finding(what, False, f"no default {kind} device; set audio.{kind}_device")
    for device in usable:
        if wanted in (device.index, device.name) or str(wanted) in device.name:
            return Finding(what, True, f"{device.name}")
    names = ", ".join(d.name for d in usable) or "none"
    return Finding(what, False, f"audio.{kind}_device {wanted!r} not found; available: {names}")


def _microphone(settings: Settings) -> Finding:
    return _device(settings, "input")


def _speaker(settings: Settings) -> Finding:
    return _device(settings, "output")


def _ollama(settings: Settings) -> Finding:
    from assistant.composition import make_chat_client
    from assistant.model_errors import ModelError

    ollama = settings.ollama.api == "ollama"
    what = "Ollama" if ollama else "model server (OpenAI API)"
    client = make_chat_client(settings.ollama)
    try:
        models = client.pulled_models()
    except ModelError as error:
        fix = "start Ollama or set ollama.url (or OLLAMA_HOST)" if ollama else (
            "start the server or fix ollama.url"
        )  # fmt: skip
        return Finding(what, False, f"{error}; {fix}")
    finally:
        client.close()
    model = settings.ollama.model
    if model in models or f"{model}:latest" in models:
        return Finding(what, True, f"{client.base_url}, model {model} available")
    fix = f"ollama pull {model}" if ollama else f"offered: {', '.join(models) or 'none'}"
    return Finding(what, False, f"model {model} not on {client.base_url}: {fix}")


def _memory(settings: Settings) -> Finding:
    """The memory, read only: reachable, Hearth's own, its pages sound; none yet is fine."""
    from assistant.memory_setup import memory_location, open_memory
    from memory import PostgresTarget, StoreError

    location = memory_location(settings)
    where = location.shown if isinstance(location, PostgresTarget) else str(location)
    if isinstance(location, Path) and (not location.exists() or _empty(location)):
        return Finding("memory", True, f"nothing remembered yet; it will be made at {where}")
    try:
        memory = open_memory(settings, create=False)
    except StoreError as error:
        return Finding("memory", False, str(error))
    try:
        if memory.store.damage:
            return Finding(
                "memory",
                False,
                f"{where} is damaged (SQLite's quick_check: {memory.store.damage}); Hearth "
                "reads it but will not write into it: `hearth memory export FILE` saves what "
                "can still be read, and `hearth memory import FILE --db NEW` brings that into "
                "a new database",
            )
        facts, conflicts = len(memory.facts()), len(memory.conflicts())
    except StoreError as error:
        return Finding("memory", False, str(error))
    finally:
        memory.close()
    counted = f"{facts} fact{'s' * (facts != 1)}, {conflicts} open conflict{'s' * (conflicts != 1)}"
    return Finding("memory", True, f"{where}: {counted}")


def _empty(path: Path) -> bool:
    """An empty file made for the memory (touch, an installer): a memory not yet begun."""
    try:
        return path.is_file() and path.stat().st_size == 0
    except OSError:
        return False


def _broker(settings: Settings) -> Finding:
    from assistant.home import probe_broker

    assert settings.mqtt is not None  # only called when the section is there
    probe = probe_broker(settings.mqtt)
    return Finding("MQTT broker", probe.ok, probe.detail)


def _home_assistant(settings: Settings) -> Finding:
    from assistant.home import probe_home_assistant

    assert settings.home_assistant is not None  # only called when the section is there
    probe = probe_home_assistant(settings.home_assistant)
    return Finding("Home Assistant", probe.ok, probe.detail)
