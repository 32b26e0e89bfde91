"""``hearth demo``: a scripted conversation, spoken by Piper into the real pipeline."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from assistant.cli.common import (
    EXIT_FAILURE,
    EXIT_OK,
    check_card_file,
    model_address,
    settings_from,
)
from assistant.composition import build_brain, make_chat_client
from assistant.memory_setup import open_memory
from assistant.model_errors import ModelError
from assistant.supervisor import RunFiles, Supervisor
from config import Settings

# Without these in stt.hotwords tiny.en hears Piper's "... editor is Vim." as "... editor has
# been" (Hearth asks "Your favorite editor is what?" and stores nothing) and "Emacs" as "Enax" or
# "DMX": there is no disagreement left to ask about. A household lists such names in
# stt.hotwords; the demo does the same for the words of its script (tests/assistant/test_demo_e2e.py
# runs it to the end of its story).
VOCABULARY = ("Vim", "Emacs")
SCRIPT = (
    "Hey Jarvis, what is the capital of Kenya?",
    "And what about Uganda?",
    "Remember that my favourite editor is Vim.",
    "Remember that my favourite editor is Emacs.",
    "Emacs.",
)


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``hearth demo``."""
    demo = subparsers.add_parser(
        "demo",
        parents=[common],
        help="a scripted conversation through the real pipeline (writes the audio)",
        description="Piper speaks a short script into Hearth's real pipeline in file mode: a "
        "question, a follow-up without the wake word, two facts that disagree, and the answer to "
        "Hearth's question about them. Prints both sides and writes the audio.",
    )
    demo.add_argument(
        "--output-dir", type=Path, help="where to write the audio (default: a temp dir)"
    )
    demo.add_argument("--card", type=Path, help="the personality card to use (YAML)")
    demo.set_defaults(handler=_demo)


def _demo(args: argparse.Namespace) -> int:
    settings = _with_vocabulary(settings_from(args))
    check_card_file(args.card)
    model_address(settings)
    folder = args.output_dir or Path(tempfile.mkdtemp(prefix="hearth-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    database = Path(args.db) if args.db else folder / "demo-memory.db"
    if not args.db:
        for stale in folder.glob("demo-memory.db*"):
            stale.unlink()  # a fresh memory each run, so the disagreement is new
    _say_where_the_model_is(settings)
    files = RunFiles(
        output=folder / "hearth.wav",
        events=folder / "events.jsonl",
        script=SCRIPT,
        room_output=folder / "room.wav",
    )
    supervisor = Supervisor(
        settings, lambda: build_brain(settings, database, args.card), files, on_event=_show
    )
    result = supervisor.run()
    if result != 0:
        return EXIT_FAILURE
    _mix(folder / "room.wav", folder / "hearth.wav", folder / "conversation.wav")
    _show_memory(settings, database)
    print(f"\nAudio: {folder / 'conversation.wav'} (both sides), {folder / 'hearth.wav'} (Hearth)")
    print(f"Events: {folder / 'events.jsonl'}")
    return EXIT_OK


def _with_vocabulary(settings: Settings) -> Settings:
    words = tuple(dict.fromkeys([*settings.stt.hotwords, *VOCABULARY]))
    print(f"The demo adds {', '.join(VOCABULARY)} to stt.hotwords, as you would your own names.")
    stt = settings.stt.model_copy(update={"hotwords": words})
    return settings.model_copy(update={"stt": stt})


def _say_where_the_model_is(settings: Settings) -> None:
    client = make_chat_client(settings.ollama)
    try:
        models = client.pulled_models()
    except ModelError:
        print(f"The model server is not reachable at {client.base_url}: the answers will say so,")
        print("and the memory part works without it.\n")
        return
    finally:
        client.close()
    state = "pulled" if settings.ollama.model in models else "NOT pulled"
    print(f"Model server at {client.base_url}; model {settings.ollama.model} is {state}.\n")


def _show(record: dict[str, Any]) -> None:
    match record.get("event"):
        case "wake":
            print(f"[{record['t']:6.1f}s] (the wake word: Hearth is listening)", flush=True)
        case "utterance":
            via = "" if record.get("via") == "wake" else " (no wake word)"
            print(f"[{record['t']:6.1f}s] You{via}: {record['text']}", flush=True)
        case "reply":
            print(f"[{record['t']:6.1f}s] Hearth: {record['text']}", flush=True)
        case "memory" if record.get("action") == "value_missing":
            heard = record.get("heard")
            print(f"          (memory: nothing stored, no value heard in {heard!r})", flush=True)
        case "memory":
            ids = record.get("facts") or [record.get("fact")]
            facts = ", ".join(f"#{fact_id}" for fact_id in ids)
            print(f"          (memory: {record.get('action')} {facts})", flush=True)
        case "error":
            what = record.get("kind") or record.get("what")
            print(f"          (error, {what}: {record.get('message')})", flush=True)
        case "worker_restart":
            print(f"          (voice process restarted: {record.get('reason')})", flush=True)


def _show_memory(settings: Settings, database: Path) -> None:
    memory = open_memory(settings, database)
    try:
        print("\nMemory now:")
        for fact in memory.facts(include_all=True):
            print(f"  #{fact.id} [{fact.status.value}] {fact.text}")
    finally:
        memory.close()


def _mix(room: Path, hearth: Path, out: Path) -> None:
    from audio import read_wav, write_wav

    a, b = read_wav(room), read_wav(hearth)
    length = max(len(a), len(b))
    mixed = np.zeros(length, dtype=np.int32)
    mixed[: len(a)] += a
    mixed[: len(b)] += b
    write_wav(out, np.clip(mixed, -32768, 32767).astype(np.int16))
