"""Bad input at the command line: a clear message naming the problem, exit 2, never a traceback,
and nothing the user had is lost. Each runs the real ``hearth`` entry point."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest

from audio.wav import read_wav, write_wav
from tests.hearth_run import hearth_cli
from tests.memory.damage import scribble_over
from tests.speech import silence, speech, timeline


def hearth(tmp_path: Path, *argv: str | bytes, env: dict[str, str] | None = None):
    return hearth_cli(tmp_path, *argv, env=env)


def refused(result, *needles: str) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    for needle in needles:
        assert needle in result.stderr, result.stderr


@pytest.fixture
def recording(tmp_path) -> Path:
    path = tmp_path / "room.wav"
    write_wav(path, timeline(silence(0.5), speech("Hey Jarvis, what time is it?"), silence(2.0)))
    return path


def test_say_into_a_missing_folder_or_onto_a_folder(tmp_path):
    refused(hearth(tmp_path, "say", "Hello.", "--output", str(tmp_path / "no" / "x.wav")),
            f"the folder {tmp_path / 'no'} does not exist")  # fmt: skip
    refused(hearth(tmp_path, "say", "Hello.", "--output", str(tmp_path)), "is a folder")


def test_say_of_bytes_that_are_not_utf8(tmp_path):
    out = tmp_path / "x.wav"
    # Python hands undecodable argument bytes over as lone surrogates; Piper failed on them.
    refused(hearth(tmp_path, "say", b"caf\xe9 au lait", "--output", str(out)),
            "not valid UTF-8 (byte 0xe9 at position 3)")  # fmt: skip
    assert not out.exists()


@pytest.mark.parametrize("text", ["\U0001f642\U0001f389", "***", "<br/>"])
def test_say_of_nothing_speakable_writes_nothing(tmp_path, text):
    out = tmp_path / "x.wav"
    refused(hearth(tmp_path, "say", text, "--output", str(out)), "nothing to say")
    assert not out.exists()


def test_run_never_writes_over_its_own_recording(tmp_path, recording):
    before = recording.read_bytes()
    refused(hearth(tmp_path, "run", "--input", str(recording), "--output", str(recording)),
            "--input and --output name the same file")  # fmt: skip
    same = tmp_path / "." / "room.wav"
    refused(hearth(tmp_path, "run", "--input", str(recording), "--events", str(same)),
            "--input and --events name the same file")  # fmt: skip
    assert recording.read_bytes() == before


@pytest.mark.parametrize("option", ["--output", "--events"])
def test_run_checks_where_it_writes_before_it_listens(tmp_path, recording, option):
    target = tmp_path / "missing" / "out"
    result = hearth(tmp_path, "run", "--input", str(recording), option, str(target))
    refused(result, f"{option} {target}: the folder {target.parent} does not exist")
    assert "XNNPACK" not in result.stderr  # refused before any model was loaded


def test_listen_checks_its_events_file_first(tmp_path, recording):
    target = tmp_path / "missing" / "e.jsonl"
    refused(hearth(tmp_path, "listen", "--input", str(recording), "--events", str(target)),
            "the folder")  # fmt: skip


def memory_of_one_fact(tmp_path) -> tuple[Path, bytes]:
    database = tmp_path / "memory.db"
    told = hearth(tmp_path, "--db", str(database), "memory", "remember", "My car is green")
    assert told.returncode == 0, told.stderr
    return database, database.read_bytes()


@pytest.mark.parametrize(
    "command",
    [
        ["say", "Hello.", "--output", "{db}"],
        ["run", "--input", "{wav}", "--output", "{db}"],
        ["run", "--input", "{wav}", "--events", "{db}"],
        ["listen", "--input", "{wav}", "--events", "{db}"],
    ],
    ids=["say-output", "run-output", "run-events", "listen-events"],
)
def test_nothing_is_ever_written_over_a_database(tmp_path, recording, command):
    # Its own --db included: "run --output m.db" replaced the memory with a recording (exit 0).
    database, before = memory_of_one_fact(tmp_path)
    argv = [part.format(db=database, wav=recording) for part in command]
    refused(hearth(tmp_path, "--db", str(database), *argv), f"{database}: is a SQLite database")
    assert database.read_bytes() == before


def test_an_export_writes_through_a_link_and_never_replaces_a_device(tmp_path):
    database, _ = memory_of_one_fact(tmp_path)
    kept = tmp_path / "backups" / "memory.json"
    kept.parent.mkdir()
    kept.write_text("an old export\n")
    link = tmp_path / "latest.json"
    link.symlink_to(kept)
    done = hearth(tmp_path, "--db", str(database), "memory", "export", str(link))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and "My car is green" in kept.read_text()
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    # A pipe stands for any device (/dev/null was replaced by a file), and is safe to test with.
    result = hearth(tmp_path, "--db", str(database), "memory", "export", str(pipe))
    refused(result, f"{pipe}: cannot write: is not a regular file")
    assert pipe.is_fifo()


@pytest.mark.parametrize(
    ("host", "problem"),
    [("127.0.0.1:99999", "port must be a number"), ("http://[::1", "is not an address")],
)
def test_an_ollama_host_that_is_no_address_stops_run_with_its_name(
    tmp_path, recording, host, problem
):
    result = hearth(tmp_path, "run", "--input", str(recording), env={"OLLAMA_HOST": host})
    refused(result, f"OLLAMA_HOST={host!r}", problem)


def test_a_setting_given_with_one_underscore_is_named(tmp_path):
    result = hearth(tmp_path, "memory", "list", "--db", str(tmp_path / "m.db"),
                    env={"HEARTH_OLLAMA_MODEL": "qwen2.5:3b"})  # fmt: skip
    refused(result, "HEARTH_OLLAMA_MODEL", "HEARTH_OLLAMA__MODEL")


def test_an_alias_bomb_in_the_settings_is_refused_quickly(tmp_path):
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 9)}]" for n in range(1, 9)]
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("\n".join(lines) + "\n")
    refused(hearth(tmp_path, "--config", str(bomb), "memory", "list", "--db",
                   str(tmp_path / "m.db")), "bomb.yaml", "more than 10000 values")  # fmt: skip


@pytest.mark.slow
def test_listen_with_events_on_a_full_device_says_so(tmp_path, recording):
    result = hearth(tmp_path, "listen", "--input", str(recording), "--events", "/dev/full")
    refused(result, "cannot write the events to /dev/full: No space left on device")
    assert "utterance (wake)" in result.stdout  # what was heard is still printed


@pytest.mark.slow
def test_run_with_events_on_a_full_device_keeps_the_reply(tmp_path, recording):
    output = tmp_path / "reply.wav"
    config = tmp_path / "settings.yaml"
    config.write_text("ollama:\n  url: http://127.0.0.1:9\n  connect_timeout_seconds: 0.5\n")
    result = hearth(tmp_path, "--config", str(config), "--db", str(tmp_path / "m.db"), "run",
                    "--input", str(recording), "--output", str(output),
                    "--events", "/dev/full")  # fmt: skip
    refused(result, "cannot write the events to /dev/full")
    assert np.abs(read_wav(output)).max() > 1000  # "I can't reach the language model" was said


def test_an_infinite_duration_is_refused_before_running(tmp_path, recording):
    # ".inf" used to be accepted, and written into the events file as Infinity (not JSON).
    config = tmp_path / "settings.yaml"
    config.write_text("listener:\n  follow_up_seconds: .inf\n")
    refused(hearth(tmp_path, "--config", str(config), "run", "--input", str(recording)),
            "listener.follow_up_seconds", "finite number")  # fmt: skip


def test_the_event_log_gives_up_a_file_that_takes_no_more_and_goes_on(tmp_path):
    from assistant.event_log import EventLog

    seen = []
    log = EventLog(Path("/dev/full"), seen.append)
    log.write({"t": 0.0, "event": "wake"})
    log.write({"t": 1.0, "event": "utterance", "text": "hello"})
    log.close()
    assert log.failure == "cannot write the events to /dev/full: No space left on device"
    assert [record["event"] for record in seen] == ["wake", "utterance"]  # the watcher still sees


@pytest.mark.parametrize(
    "argv",
    [
        ["memory", "list", "--db", "postgresql://hearth:secret@[db.lan/hearth"],
        ["schedule", "list", "--db", "postgresql://hearth:secret@[db.lan/hearth"],
        ["memory", "migrate", "--to", "postgresql://hearth:secret@[db.lan/hearth"],
    ],
    ids=["memory", "schedule", "migrate"],
)
def test_a_database_url_that_cannot_be_read_is_said_without_its_password(tmp_path, argv):
    result = hearth(tmp_path, *argv)
    refused(result, "postgresql://hearth:***@[db.lan/hearth is not a valid URL")
    assert "secret" not in result.stderr


def test_an_at_sign_left_in_a_database_password_is_said_without_the_password(tmp_path):
    # libpq ended the login at the first "@": "cannot reach the memory database: failed to
    # resolve host 'HorseBattery9@127.0.0.1'", most of the password in the message and the log.
    for url in (
        "postgresql://hearth:Tr0ub4dor@HorseBattery9@127.0.0.1:5432/hearth",
        "postgresql://hearth:Tr0ub@dor/Horse@127.0.0.1:5432/hearth",  # a "/" hid it
    ):
        result = hearth(tmp_path, "memory", "list", "--db", url)
        refused(result, "its login holds an '@'; write each '@' in the user name or password")
        assert not {"Tr0ub", "dor", "Horse"} & set(re.split(r"\W+", result.stderr))


def test_settings_with_a_database_url_that_cannot_be_read_are_refused(tmp_path):
    settings = tmp_path / "settings.yaml"
    settings.write_text('memory:\n  database: "postgresql://[db.lan/hearth"\n')
    result = hearth(tmp_path, "--config", str(settings), "memory", "list")
    refused(result, "memory.database", "is not a valid URL")


def test_a_speaker_the_voice_does_not_have_is_found_by_check_and_said_by_say(tmp_path):
    settings = tmp_path / "settings.yaml"
    settings.write_text("tts:\n  speaker: 3\n")
    problem = "voice 'en_US-joe-medium' has 1 speaker(s); tts.speaker must be from 0 to 0"
    checked = hearth(tmp_path, "--config", str(settings), "check")
    assert checked.returncode != 0 and f"FIX  Piper voice: {problem}" in checked.stdout
    out = tmp_path / "x.wav"
    refused(hearth(tmp_path, "--config", str(settings), "say", "Hello.", "--output", str(out)),
            problem)  # fmt: skip
    assert not out.exists()


def test_check_looks_for_the_voice_the_card_chooses(tmp_path):
    card = tmp_path / "card.yaml"
    card.write_text("name: Ember\nvoice:\n  piper_voice: nope_voice\n")
    checked = hearth(tmp_path, "check", "--card", str(card))
    assert checked.returncode != 0, checked.stdout
    assert "ok   personality card: Ember" in checked.stdout
    assert "FIX  Piper voice: Piper voice 'nope_voice' not found" in checked.stdout


@pytest.mark.parametrize("command", [["demo"], ["run", "--input", "{wav}"]])
def test_a_card_path_that_names_no_file_is_refused_before_anything_runs(
    tmp_path, recording, command
):
    missing = tmp_path / "no-such-card.yaml"
    argv = [part.format(wav=recording) for part in command]
    refused(hearth(tmp_path, *argv, "--card", str(missing)), f"{missing}: no such personality card")


@pytest.mark.parametrize("moment", ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00"])
def test_a_start_time_at_the_end_of_the_calendar_is_refused(tmp_path, recording, moment):
    # Taken, the clock's answer ("What time is it?") failed inside the turn.
    result = hearth(tmp_path, "run", "--input", str(recording), "--start-time", moment)
    refused(result, f"--start-time {moment!r}: too near the end of the calendar")


@pytest.mark.parametrize("ca", ["missing.pem", "empty.pem", "pipe.pem"])
def test_a_broker_certificate_that_cannot_be_read_stops_run_with_its_name(tmp_path, recording, ca):
    (tmp_path / "empty.pem").write_text("no certificate here\n")
    os.mkfifo(tmp_path / "pipe.pem")  # would hang the read
    settings = tmp_path / "settings.yaml"
    settings.write_text(f"mqtt:\n  url: mqtts://127.0.0.1:8883\n  ca_file: {tmp_path / ca}\n")
    result = hearth(tmp_path, "--config", str(settings), "run", "--input", str(recording))
    refused(result, f"mqtt.ca_file {tmp_path / ca}:")


def test_check_reads_the_memory_without_writing_it(tmp_path):
    database = tmp_path / "memory.db"
    settings = tmp_path / "settings.yaml"
    settings.write_text(f"memory:\n  database: {database}\n")
    checked = hearth(tmp_path, "--config", str(settings), "check")
    assert f"ok   memory: nothing remembered yet; it will be made at {database}" in checked.stdout
    assert not database.exists()  # a check creates nothing
    database.touch()  # as an installer leaves it: a memory not yet begun
    checked = hearth(tmp_path, "--config", str(settings), "check")
    assert f"ok   memory: nothing remembered yet; it will be made at {database}" in checked.stdout
    assert database.stat().st_size == 0
    database.unlink()

    from memory import Memory

    memory = Memory.open(database)
    memory.remember("My favourite editor is Vim", "preference")
    memory.remember("My favourite editor is Emacs", "preference")
    memory.remember("The bins go out on Tuesday", "routine")
    memory.close()
    before = database.read_bytes()
    checked = hearth(tmp_path, "--config", str(settings), "check")
    assert f"ok   memory: {database}: 3 facts, 1 open conflict" in checked.stdout
    assert database.read_bytes() == before

    scribble_over(database, "facts_status")
    checked = hearth(tmp_path, "--config", str(settings), "check")
    assert checked.returncode != 0
    assert f"FIX  memory: {database} is damaged (SQLite's quick_check:" in checked.stdout
    assert "hearth memory export FILE" in checked.stdout and "Traceback" not in checked.stderr
