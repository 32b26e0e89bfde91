"""From the end of a request to the first audio of its reply, and where that time goes, in one run.

    python -m bench.turn [--conversations 5] [--live] [--keep DIR]     (from the repository root)

Hearth runs as ``hearth run`` runs it, ``python -m assistant run`` in a process of its own: the
supervisor with the brain on its thread, and the spawned voice process. The model server is the
tests' Ollama-protocol server on 127.0.0.1, which answers at once. The room is Piper saying a few
conversations (a question after the wake word, then a follow-up without it) over quiet room noise;
the memory holds a household's worth of facts, so recall has work to do.

By default Hearth hears the room as a recording (file mode, ``--input``). ``--live`` plays it in
real time into a private PulseAudio server (null sinks, no sound hardware; needs ``pulseaudio``,
``pactl`` and ``pacat``) that Hearth uses as its microphone and speaker, as ``hearth run`` does on
a device: the voice loop then reads frames at the pace they are recorded and the earcons play in
real time, which file mode cannot show.

``HEARTH_TRACE=1`` makes both processes add wall-clock marks to the event stream (audio/trace.py).
Each turn is split into:

(a) end-of-speech wait: audio time from the end of the speech (where Piper's voice fades out) to
    the segmenter declaring the utterance ended: ``end_silence_seconds`` plus the frames the voice
    activity detector takes to hear the silence. Live, the recording's position on the audio clock
    is not known, so (a) is counted from where the detector heard the speech end.
(b) speech-to-text: wall time the voice loop waits for the transcript once the end is declared.
    The transcription begun at the first pause is still running then. In file mode the loop reads
    the trailing silence far faster than real time, so the wait is most of the full transcription
    (shown beside it); live, that transcription had ``end_silence_seconds`` of real time.
(c) first-sentence synthesis: wall time Piper takes for the first chunk of the first sentence.
(d) everything else between the end being declared and that chunk being ready to play:
    voice  transcript to the supervisor holding it (the listener, the earcon, the pipe);
    brain  to the brain's first sentence (thread hand-off, recall, prompt, HTTP, sentence split);
    hand   to the ``Speak`` sent (the supervisor taking the brain's output);
    pipe   to the voice loop taking it (live: the loop takes commands between frames);
    loop   to the start of synthesis.
(e) first word: audio time from the end being declared to the reply's first piece starting to
    play (live this is real time; in file mode thinking takes no audio time, so it is what the
    output timeline puts before the reply, an earcon for one).

``stt at`` is when the transcription that was used began, from the end being declared (negative:
begun at a pause before it); with (a) it tells a transcription that waited behind another from a
slow one.

Targets (issue 10): the median of (d) at most 10 ms (the first turn also opens the connection to
the model); the first audio ready at most 100 ms after the end of the turn is decided
((b) + (c) + (d)); under 0.5 s from the end of speech to the first audio ((a) + that).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_RATE = 16_000
TARGET_REST_MS = 10.0
TARGET_AFTER_DECISION_MS = 100.0
TARGET_SPEECH_TO_AUDIO_MS = 500.0

CONVERSATIONS = [
    ("Hey Jarvis, what is the capital of Kenya?", "And what about Uganda?"),
    ("Hey Jarvis, how far away is the moon?", "How long would it take to fly there?"),
    ("Hey Jarvis, what should I cook for dinner tonight?", "Something with rice, please."),
    ("Hey Jarvis, when does the bakery open on Sunday?", "Is it open on Monday too?"),
    ("Hey Jarvis, what is a good name for a black cat?", "Give me another one."),
    ("Hey Jarvis, how do I make a cup of green tea?", "How hot should the water be?"),
]
FACTS = [
    "My sister Priya lives in Madrid",
    "My brother Tom works as a nurse in Leeds",
    "My mother's birthday is on the fourth of May",
    "I am allergic to peanuts",
    "I like my coffee with oat milk",
    "My favourite editor is Vim",
    "Our cat is called Miso",
    "The bakery on Elm Street opens at seven",
    "I play tennis every Tuesday at six",
    "My daughter Lena goes to school in Porto Road",
    "I am flying to Lisbon on the twelfth of June",
    "My car is a blue Skoda",
    "I don't eat pork",
    "My partner Sam prefers tea to coffee",
    "The recycling goes out on Thursday",
    "My dentist is Doctor Ahmed",
    "I usually wake up at half past six",
    "My favourite food is Thai green curry",
    "The wifi password is on the fridge",
    "My son Raj plays the piano",
    "I am learning Japanese",
    "The boiler was serviced in March",
    "My best friend Ana lives in Berlin",
    "I run five kilometres on Saturdays",
    "We have a vegetable garden with tomatoes and basil",
    "My bike is in the garage",
    "I work from home on Mondays and Fridays",
    "My grandmother Olga is ninety years old",
    "I prefer rice to pasta",
    "Miso the cat is black with white paws",
]
GAP_SECONDS = 9.0
"""Between a question and its follow-up: the reply is said and the follow-up window is open."""
QUIET_SECONDS = 30.0
"""Between conversations: the follow-up window (25 s) closes."""
READY_TIMEOUT_SECONDS = 180.0
AFTER_ROOM_SECONDS = 8.0
"""Live: how long Hearth keeps running after the room has said its last line."""
MARKS = ("end_declared", "transcript", "heard", "sentence_ready", "speak_sent", "speak_received",
         "synthesis_start", "audio_ready")  # fmt: skip


@dataclass
class Line:
    """One thing the room says: where it is in the recording and where its sound really ends."""

    text: str
    start: float
    end: float
    """Where Piper's voice fades below -40 dB of its loudest 10 ms, in recording seconds."""


@dataclass
class Turn:
    """The marks of one turn, from the event stream."""

    declared_t: float
    marks: dict[str, float] = field(default_factory=dict)
    stt_seconds: float = 0.0
    via: str = ""
    text: str = ""
    span: tuple[float, float] = (0.0, 0.0)
    """The utterance on the audio clock, as the voice activity detector heard it."""
    job: int | None = None
    word_t: float | None = None
    """Audio clock where the reply's first piece started to play."""
    stt_began: float = float("nan")

    def ms(self, first: str, second: str) -> float:
        return (self.marks[second] - self.marks[first]) * 1000


# The room ----------------------------------------------------------------------------------------


def speech_end(samples: np.ndarray) -> float:
    """Seconds into ``samples`` where the voice ends: the last 10 ms within 40 dB of the loudest."""
    window = SAMPLE_RATE // 100
    frames = samples[: len(samples) // window * window].astype(np.float64).reshape(-1, window)
    rms = np.sqrt((frames**2).mean(axis=1))
    loud = np.flatnonzero(rms >= rms.max() * 10 ** (-40 / 20))
    return (loud[-1] + 1) * window / SAMPLE_RATE


def build_room(conversations: int) -> tuple[np.ndarray, list[Line]]:
    """Piper saying the conversations, with room noise, and where each line is."""
    from tests.speech import room_noise, silence, speech

    parts = [silence(1.0)]
    lines = []
    position = 1.0
    for question, follow_up in CONVERSATIONS[:conversations]:
        for text, after in ((question, GAP_SECONDS), (follow_up, QUIET_SECONDS)):
            said = speech(text)
            lines.append(Line(text, position, position + speech_end(said)))
            parts += [said, silence(after)]
            position += (len(said) + round(after * SAMPLE_RATE)) / SAMPLE_RATE
    room = np.concatenate(parts).astype(np.int32)
    room += room_noise(len(room) / SAMPLE_RATE)
    return np.clip(room, -32768, 32767).astype(np.int16), lines


def seed_memory(path: Path) -> None:
    from memory import Memory, guess_kind

    memory = Memory.open(path)
    try:
        for fact in FACTS:
            memory.remember(fact, guess_kind(fact))
    finally:
        memory.close()


# The run -----------------------------------------------------------------------------------------


@dataclass
class Run:
    """What ``hearth run`` needs and left behind."""

    folder: Path
    env: dict[str, str]
    argv: list[str]
    events: Path

    def read_events(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.events.read_text().splitlines()]


def prepare(folder: Path, url: str, base_env: dict[str, str]) -> tuple[Run, Any]:
    """Settings, memory and command line for ``hearth run`` in ``folder``; and its settings."""
    from config import load_settings

    config = folder / "settings.yaml"
    config.write_text(f"ollama:\n  url: {url}\n")
    seed_memory(folder / "memory.db")
    events = folder / "events.jsonl"
    events.unlink(missing_ok=True)
    env = dict(base_env, XDG_CONFIG_HOME=str(folder / "xdg-config"), HEARTH_TRACE="1",
               XDG_DATA_HOME=str(folder / "xdg-data"), HEARTH_LOG_LEVEL="INFO")  # fmt: skip
    env.pop("OLLAMA_HOST", None)
    argv = [sys.executable, "-m", "assistant", "--config", str(config),
            "--db", str(folder / "memory.db"), "run", "--events", str(events)]  # fmt: skip
    return Run(folder, env, argv, events), load_settings(config, env)


def run_file_mode(run: Run, room: np.ndarray) -> None:
    """``hearth run --input room.wav``: the recording is the microphone."""
    from audio.wav import write_wav

    wav = run.folder / "room.wav"
    write_wav(wav, room)
    argv = [*run.argv, "--input", str(wav), "--output", str(run.folder / "reply.wav")]
    result = subprocess.run(argv, cwd=ROOT, env=run.env, capture_output=True, text=True,
                            timeout=900)  # fmt: skip
    if result.returncode != 0:
        sys.exit(f"hearth run failed ({result.returncode}):\n{result.stderr[-3000:]}")


def run_live(run: Run, room: np.ndarray, pulse_env: dict[str, str]) -> None:
    """``hearth run`` on the sound devices while the room is played into its microphone."""
    hearth = subprocess.Popen(run.argv, cwd=ROOT, env=run.env, stderr=subprocess.PIPE, text=True)
    ready = threading.Event()
    log: list[str] = []

    def read_log() -> None:
        assert hearth.stderr is not None
        for line in hearth.stderr:
            log.append(line)
            if "Hearth is ready" in line:
                ready.set()

    threading.Thread(target=read_log, daemon=True).start()
    try:
        if not ready.wait(READY_TIMEOUT_SECONDS):
            sys.exit("hearth run did not get ready:\n" + "".join(log[-30:]))
        play_into("room", room, pulse_env)
        time.sleep(AFTER_ROOM_SECONDS)
    finally:
        hearth.send_signal(signal.SIGTERM)
        try:
            hearth.wait(30)
        except subprocess.TimeoutExpired:
            hearth.kill()
            hearth.wait()


@contextmanager
def sound_server(folder: Path) -> Iterator[dict[str, str]]:
    """A PulseAudio server of our own with two null sinks: ``room``, whose monitor is the default
    source (Hearth's microphone), and ``speaker``, the default sink. Yields the client environment;
    the server is stopped by its process id."""
    for program in ("pulseaudio", "pactl", "pacat"):
        if shutil.which(program) is None:
            sys.exit(f"--live needs {program} (Debian: apt-get install pulseaudio)")
    for sub in ("home", "config", "state", "runtime"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    (folder / "runtime").chmod(0o700)
    runtime = str(folder / "runtime")
    env = {**os.environ, "HOME": str(folder / "home"), "XDG_CONFIG_HOME": str(folder / "config"),
           "XDG_RUNTIME_DIR": runtime, "PULSE_RUNTIME_PATH": runtime,
           "PULSE_STATE_PATH": str(folder / "state"), "PULSE_COOKIE": str(folder / "cookie"),
           "PULSE_SERVER": f"unix:{folder / 'native'}"}  # fmt: skip
    socket = f"module-native-protocol-unix socket={folder / 'native'} auth-anonymous=1"
    argv = ["pulseaudio", "--system=false", "-n", "--daemonize=no", "--use-pid-file=no",
            "--exit-idle-time=-1", "--disallow-exit", f"--log-target=file:{folder / 'log'}",
            f"--load={socket}"]  # fmt: skip
    server = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def pactl(*args: str) -> None:
        subprocess.run(["pactl", *args], env=env, capture_output=True, timeout=10, check=True)

    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                pactl("info")
                break
            except subprocess.CalledProcessError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        for sink in ("room", "speaker"):
            pactl("load-module", "module-null-sink", f"sink_name={sink}", "rate=48000")
        pactl("set-default-sink", "speaker")
        pactl("set-default-source", "room.monitor")
        yield env
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def play_into(sink: str, samples: np.ndarray, env: dict[str, str]) -> None:
    """Play 16 kHz mono int16 ``samples`` into ``sink`` in real time; return once played."""
    subprocess.run(
        ["pacat", "--playback", f"--device={sink}", "--raw", "--format=s16le",
         f"--rate={SAMPLE_RATE}", "--channels=1", "--latency-msec=20"],
        input=samples.astype("<i2").tobytes(), env=env, check=True,
        timeout=60 + len(samples) / SAMPLE_RATE,
    )  # fmt: skip


# The figures -------------------------------------------------------------------------------------


def turns_from(events: list[dict[str, Any]]) -> list[Turn]:
    """One turn per declared end of a request; each mark taken once, the first after it."""
    turns: list[Turn] = []
    for event in events:
        if event["event"] == "trace" and event["mark"] == "end_declared":
            turns.append(Turn(event["t"], {"end_declared": event["at"]}))
            continue
        if not turns:
            continue
        turn = turns[-1]
        if event["event"] == "utterance" and not turn.text:
            turn.via, turn.text = event["via"], event["text"]
            turn.span = (event["start"], event["end"])
        if event["event"] == "speak_start" and turn.word_t is None and event["job"] == turn.job:
            turn.word_t = event["t"]
        if event["event"] != "trace" or event["mark"] in turn.marks:
            continue
        mark = event["mark"]
        if mark == "transcript":
            turn.stt_seconds = event["stt_seconds"]
            turn.stt_began = event.get("began", float("nan"))
        elif mark == "speak_sent":
            turn.job = event["job"]
        elif mark in ("speak_received", "synthesis_start", "audio_ready") and (
            event["job"] != turn.job
        ):
            continue  # a hint, or a sentence of the reply before
        turn.marks[mark] = event["at"]
    return turns


def speech_end_of(turn: Turn, lines: list[Line] | None) -> float:
    """Where the speech this turn heard ended: in the recording if known, else where the voice
    activity detector heard it end."""
    if lines is None:
        return turn.span[1]

    def overlap(line: Line) -> float:
        return min(line.end, turn.span[1]) - max(line.start, turn.span[0])

    best = max(lines, key=overlap)
    return best.end if overlap(best) > 0 else float("nan")


COLUMNS = (
    ("(a) eos", 8), ("(b) stt", 8), ("stt all", 8), ("stt at", 8), ("(c) tts", 8),
    ("(d) rest", 9), ("total", 7), ("voice", 6), ("brain", 6), ("hand", 6), ("pipe", 6),
    ("loop", 6), ("(e) word", 9),
)  # fmt: skip


def figures(turn: Turn, speech_end_t: float) -> dict[str, float]:
    """The turn's figures in milliseconds ((a) in audio time, the rest wall time)."""
    b = turn.ms("end_declared", "transcript")
    c = turn.ms("synthesis_start", "audio_ready")
    total = turn.ms("end_declared", "audio_ready")
    return {
        "(a) eos": (turn.declared_t - speech_end_t) * 1000,
        "(b) stt": b,
        "stt all": turn.stt_seconds * 1000,
        "stt at": (turn.stt_began - turn.marks["end_declared"]) * 1000,
        "(c) tts": c,
        "(d) rest": total - b - c,
        "total": total,
        "voice": turn.ms("transcript", "heard"),
        "brain": turn.ms("heard", "sentence_ready"),
        "hand": turn.ms("sentence_ready", "speak_sent"),
        "pipe": turn.ms("speak_sent", "speak_received"),
        "loop": turn.ms("speak_received", "synthesis_start"),
        "(e) word": ((turn.word_t or float("nan")) - turn.declared_t) * 1000,
    }


def report(turns: list[Turn], lines: list[Line] | None, end_silence: float) -> None:
    header = f"{'turn':>4} {'via':<9}" + "".join(f"{n:>{w}}" for n, w in COLUMNS) + "  heard"
    print(header)
    print("-" * len(header))
    rows = []
    for number, turn in enumerate(turns, 1):
        missing = [mark for mark in MARKS if mark not in turn.marks]
        if missing:
            print(f"{number:>4} {turn.via:<9} no reply audio (no {', '.join(missing)})")
            continue
        row = figures(turn, speech_end_of(turn, lines))
        rows.append(row)
        cells = "".join(f"{row[n]:>{w}.1f}" for n, w in COLUMNS)
        print(f"{number:>4} {turn.via:<9}{cells}  {turn.text[:40]!r}")
    if not rows:
        sys.exit("no turn was answered")
    medians = {n: statistics.median(row[n] for row in rows) for n, _ in COLUMNS}
    print("-" * len(header))
    print(f"{'median':<14}" + "".join(f"{medians[n]:>{w}.1f}" for n, w in COLUMNS))
    print()
    a, rest = medians["(a) eos"], medians["(d) rest"]
    print(f"Median of {len(rows)} turns from the end of speech to the first audio ready to play: "
          f"{a:.0f} ms of audio, then {medians['total']:.0f} ms wall")  # fmt: skip
    heard_from = "the recording" if lines is not None else "where the detector heard it"
    print(f"  (a) end-of-speech wait {a:7.0f} ms audio (from {heard_from}; end_silence_seconds is "
          f"{end_silence * 1000:.0f} ms)")  # fmt: skip
    print(f"  (b) speech-to-text     {medians['(b) stt']:7.0f} ms wall  (the full transcription, "
          f"begun at the first pause: {medians['stt all']:.0f} ms)")  # fmt: skip
    print(f"  (c) first synthesis    {medians['(c) tts']:7.0f} ms wall")
    verdict = "met" if rest <= TARGET_REST_MS else "MISSED"
    print(f"  (d) everything else    {rest:7.1f} ms wall  target < {TARGET_REST_MS:.0f} ms: "
          f"{verdict} ({rest / TARGET_REST_MS:.2f} of it); worst turn "
          f"{max(row['(d) rest'] for row in rows):.1f} ms")  # fmt: skip
    parts = ", ".join(f"{n} {medians[n]:.1f}" for n in ("voice", "brain", "hand", "pipe", "loop"))
    print(f"      medians of its parts (ms): {parts}")
    total = medians["total"]
    met = "met" if total <= TARGET_AFTER_DECISION_MS else "MISSED"
    print(f"  first audio after the end is decided {total:.0f} ms "
          f"(target <= {TARGET_AFTER_DECISION_MS:.0f} ms: {met})")  # fmt: skip
    whole = statistics.median(row["(a) eos"] + row["total"] for row in rows)
    met = "met" if whole < TARGET_SPEECH_TO_AUDIO_MS else "MISSED"
    print(f"  end of speech to first audio {whole:.0f} ms "
          f"(target < {TARGET_SPEECH_TO_AUDIO_MS:.0f} ms: {met})")  # fmt: skip
    word = statistics.median(row["(a) eos"] + row["(e) word"] for row in rows)
    print(f"  (e) first word {medians['(e) word']:.0f} ms audio after the end is decided; "
          f"end of speech to first word {word:.0f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--conversations",
        type=int,
        default=5,
        help=f"conversations of two turns each (at most {len(CONVERSATIONS)})",
    )
    parser.add_argument(
        "--live",
        action="store_true",
        help="hear and speak through a private PulseAudio server, in real time",
    )
    parser.add_argument("--keep", type=Path, help="keep the room, events and settings here")
    args = parser.parse_args()

    from tests.ollama_server import OllamaServer

    print("Making the room's speech with Piper ...", flush=True)
    room, lines = build_room(max(1, min(args.conversations, len(CONVERSATIONS))))
    mode = "live, through PulseAudio" if args.live else "in file mode"
    server = OllamaServer().start()
    try:
        with tempfile.TemporaryDirectory() as temporary:
            folder = args.keep or Path(temporary)
            folder.mkdir(parents=True, exist_ok=True)
            print(f"hearth run {mode}: {len(room) / SAMPLE_RATE:.0f} s of room audio, "
                  f"{len(lines)} requests, {os.cpu_count()} cores ...", flush=True)  # fmt: skip
            began = time.monotonic()
            if args.live:
                with sound_server(folder / "pulse") as pulse_env:
                    run, settings = prepare(folder, server.url, pulse_env)
                    run_live(run, room, pulse_env)
            else:
                run, settings = prepare(folder, server.url, dict(os.environ))
                run_file_mode(run, room)
            took = time.monotonic() - began
            events = run.read_events()
    finally:
        server.stop()
    print(f"(the run took {took:.1f} s, loading the models included)\n")
    report(turns_from(events), None if args.live else lines, settings.vad.end_silence_seconds)


if __name__ == "__main__":
    main()
